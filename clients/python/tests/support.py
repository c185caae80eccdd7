"""What the tests share: the `uckers` binary to run and a server to call."""

import os
import re
import shutil
import signal
import subprocess
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.dirname(HERE)


def uckers_binary():
    """$UCKERS, else build/uckers of the repository, else `uckers` on PATH."""
    given = os.environ.get("UCKERS")
    if given:
        return given
    built = os.path.join(PACKAGE, "..", "..", "build", "uckers")
    if os.path.exists(built):
        return os.path.abspath(built)
    found = shutil.which("uckers")
    if not found:
        raise RuntimeError("no uckers binary: set UCKERS to its path")
    return found


class Server:
    """`uckers serve` on a free loopback port, for the length of a test class."""

    def __init__(self, *extra):
        self.process = subprocess.Popen(
            [uckers_binary(), "serve", "--address", "127.0.0.1:0", "--grace_ms", "2000", *extra],
            stderr=subprocess.PIPE, text=True)
        line = self.process.stderr.readline()
        m = re.search(r"\(port (\d+)\)", line)
        if not m:
            self.process.kill()
            raise RuntimeError("uckers serve did not print its port: " + line)
        self.address = "127.0.0.1:%s" % m.group(1)
        # Drained, so that a server that logs much never blocks on a full pipe.
        self._drain = threading.Thread(target=lambda: [None for _ in self.process.stderr],
                                       daemon=True)
        self._drain.start()

    def stop(self):
        """SIGTERM; returns the exit status."""
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()
        finally:
            self._drain.join(timeout=2)
            self.process.stderr.close()


def run_example(name, *args, timeout=300):
    """Runs examples/<name> with this Python and the `uckers` package these
    tests import (the installed one, or the source); returns the
    CompletedProcess."""
    import uckers
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.dirname(os.path.dirname(os.path.abspath(uckers.__file__)))
    return subprocess.run([sys.executable, os.path.join(PACKAGE, "examples", name), *args],
                          capture_output=True, text=True, timeout=timeout, env=env)
