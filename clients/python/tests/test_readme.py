"""The README's five-line snippets run as printed: each ```python block,
with the server's address and the binary's path of this test run."""

import contextlib
import io
import os
import re
import unittest

from support import PACKAGE, Server, uckers_binary


def snippets():
    with open(os.path.join(PACKAGE, "README.md")) as f:
        return re.findall(r"```python\n(.*?)```", f.read(), re.S)


class ReadmeTest(unittest.TestCase):
    def test_each_snippet_prints_a_best_move(self):
        blocks = snippets()
        self.assertEqual(len(blocks), 2)
        server = Server()
        try:
            for block in blocks:
                self.assertLessEqual(len(block.strip().splitlines()), 5, block)
                code = block.replace("127.0.0.1:50051", server.address)
                code = code.replace('"build/uckers"', repr(uckers_binary()))
                out = io.StringIO()
                with contextlib.redirect_stdout(out):
                    exec(compile(code, "README.md", "exec"), {})
                self.assertRegex(out.getvalue(), r"^rb-0,r0-3 ", block)
        finally:
            server.stop()


if __name__ == "__main__":
    unittest.main()
