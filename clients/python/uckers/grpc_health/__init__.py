"""grpc.health.v1, generated from proto/uckers/grpc_health/health.proto by
clients/python/generate (Debian packages no Python module of it)."""
