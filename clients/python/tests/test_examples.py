"""The example bots play whole games: over gRPC against a server the test
starts, and over the text protocol against a process."""

import re
import unittest

from support import Server, run_example, uckers_binary


class ExamplesTest(unittest.TestCase):
    def test_grpc_bot_plays_a_dealt_game_to_its_verified_end(self):
        server = Server()
        try:
            done = run_example("grpc_bot.py", "--address", server.address)
        finally:
            self.assertEqual(server.stop(), 0)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertRegex(done.stdout, r"game over after \d+ throws: TEAM_(RED_YELLOW|GREEN_BLUE) "
                                      r"won [123] point\(s\); dice verified")

    def test_text_bot_plays_a_game_to_its_end(self):
        done = run_example("text_bot.py", "--uckers", uckers_binary(), "--seed", "3")
        self.assertEqual(done.returncode, 0, done.stderr)
        m = re.search(r"game over after (\d+) decisions: (RY|GB) .* won", done.stdout)
        self.assertTrue(m, done.stdout[-500:])
        self.assertGreater(int(m.group(1)), 20)

    def test_text_bot_names_a_bad_level(self):
        done = run_example("text_bot.py", "--uckers", uckers_binary(), "--level", "godlike")
        self.assertEqual(done.returncode, 1)
        self.assertIn("info string error:", done.stderr)

    def test_grpc_bot_names_an_unreachable_server(self):
        done = run_example("grpc_bot.py", "--address", "127.0.0.1:1", "--level", "casual")
        self.assertEqual(done.returncode, 1)
        self.assertIn("grpc_bot:", done.stderr)


if __name__ == "__main__":
    unittest.main()
