"""Python clients of the Uckers engine.

- `uckers.client.Client`: the gRPC service `uckers.v1.Engine` of `uckers serve`.
- `uckers.engine.Engine`: a local `uckers` process over its text protocol.
- `uckers.v1`: the service's messages, generated from proto/.
"""

__version__ = "0.3.0"
