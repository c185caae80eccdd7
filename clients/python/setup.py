"""The `uckers` Python package: `pip install ./clients/python`.

No pyproject.toml on purpose: pip then builds with the setuptools already
installed (Debian's python3-setuptools in a `--system-site-packages`
virtual environment) instead of fetching one from PyPI. The gRPC stubs under
uckers/v1 are checked in (clients/python/generate writes them;
`generate --check` fails CI when they differ from proto/), so installing
needs no protoc.
"""
import re
from pathlib import Path

from setuptools import setup

here = Path(__file__).parent
version = re.search(r'__version__ = "([^"]+)"', (here / "uckers/__init__.py").read_text()).group(1)

setup(
    name="uckers",
    version=version,
    description="Clients of the Uckers engine: gRPC (uckers.v1.Engine) and the text protocol",
    long_description=(here / "README.md").read_text(),
    long_description_content_type="text/markdown",
    packages=["uckers", "uckers.v1", "uckers.grpc_health"],
    python_requires=">=3.9",
    # Debian: python3-grpcio, python3-protobuf.
    install_requires=["grpcio>=1.51", "protobuf>=3.21"],
)
