"""The text-protocol driver against a `uckers` process the tests start:
the handshake, options, legal plays, best moves, analysis, a whole game,
the engine's errors, timeouts and an engine that dies."""

import random
import unittest

from support import uckers_binary

from uckers.engine import (Engine, EngineError, EngineTerminatedError, EngineTimeoutError, Info,
                           Limit)

MID = "b,5,12,30/b,b,20,33/3,3,40,h/b,8,51,h r -"
OVER = "h,h,h,h/b,b,b,b/h,h,h,h/b,b,b,b r -"


class EngineTest(unittest.TestCase):
    def setUp(self):
        self.engine = Engine.popen(uckers_binary(), timeout=20)

    def tearDown(self):
        self.engine.quit()

    def test_handshake_reads_the_id_and_options(self):
        self.assertTrue(self.engine.id["name"].startswith("Uckers"))
        level = self.engine.options["Level"]
        self.assertEqual(level.type, "combo")
        self.assertIn("expert", level.vars)
        self.assertEqual(self.engine.options["MultiPV"].max, 64)

    def test_best_move_is_legal(self):
        plays = [p.play for p in self.engine.legal(MID, (6, 3))]
        result = self.engine.best_move(MID, (6, 3), Limit(depth=2))
        self.assertIn(result.play, plays)
        self.assertEqual(result.info.depth, 2)
        self.assertEqual(result.info.pv[0], result.play)
        self.assertTrue(0 <= result.info.score.win <= 1)

    def test_best_move_after_moves(self):
        result = self.engine.best_move("startpos", "41", Limit(depth=1), moves=["63:rb-0,r0-3"])
        plays = [p.play for p in self.engine.legal("startpos", "41", moves=["63:rb-0,r0-3"])]
        self.assertIn(result.play, plays)

    def test_analyse_before_the_throw_and_with_multipv(self):
        info = self.engine.analyse(MID, Limit(depth=1))
        self.assertIsInstance(info, Info)
        self.assertEqual(info.pv, [])
        self.assertIsNotNone(info.score)
        ranked = self.engine.analyse(MID, Limit(depth=1), throw=(6, 3), multipv=3)
        self.assertEqual([i.multipv for i in ranked], [1, 2, 3])
        self.assertGreaterEqual(ranked[0].score.win, ranked[2].score.win)
        # MultiPV is set back: a best move has one candidate again.
        self.assertIsNone(self.engine.analyse(MID, Limit(depth=1), throw=(6, 3)).multipv)

    def test_configure(self):
        self.engine.configure({"Rules": "mess", "Level": "casual"})
        self.assertEqual(len(self.engine.best_move("startpos", (6, 6)).play.split(",")) >= 1, True)
        with self.assertRaises(EngineError) as caught:
            self.engine.configure({"Bogus": 1})
        self.assertIn("info string error: unknown option 'Bogus'", str(caught.exception))
        self.assertEqual(caught.exception.line, "info string error: unknown option 'Bogus'")

    def test_errors_name_the_engine_line(self):
        with self.assertRaises(EngineError) as caught:
            self.engine.best_move("garbage", (6, 3))
        self.assertTrue(caught.exception.line.startswith("info string error:"), caught.exception.line)
        with self.assertRaises(EngineError) as caught:
            self.engine.best_move(MID, (9, 3))
        self.assertIn("dice", caught.exception.line)
        with self.assertRaises(EngineError) as caught:
            self.engine.best_move(OVER, (6, 3))
        self.assertIn("the game is over", caught.exception.line)
        with self.assertRaises(EngineError) as caught:
            self.engine.best_move(MID, (6, 3), moves=["63:r0-55"])
        self.assertIn("moves", caught.exception.line)
        # The engine still answers after its errors.
        self.assertTrue(self.engine.best_move(MID, (6, 3), Limit(depth=1)).play)

    def test_bad_arguments_are_refused_before_anything_is_sent(self):
        with self.assertRaises(ValueError):
            self.engine.best_move(MID + "\nquit", (6, 3))
        with self.assertRaises(ValueError):
            self.engine.best_move(MID, "6")
        with self.assertRaises(TypeError):
            self.engine.best_move(MID, 63)
        with self.assertRaises(ValueError):
            self.engine.best_move(MID, (6, 3), Limit(depth=0))
        with self.assertRaises(ValueError):
            self.engine.best_move(MID, (6, 3), Limit(time=-1))
        with self.assertRaises(TypeError):
            self.engine.legal(MID, (6, 3), moves="63:rb-0,r0-3")
        self.engine.ping()

    def test_a_timeout_stops_the_search_and_the_engine_goes_on(self):
        with self.assertRaises(EngineTimeoutError) as caught:
            self.engine.best_move(MID, (6, 3), Limit(depth=60), timeout=0.5)
        self.assertIn("stopped", str(caught.exception))
        self.engine.ping()
        self.assertTrue(self.engine.best_move(MID, (6, 3), Limit(depth=1)).play)

    def test_legal_on_a_finished_game_is_empty(self):
        self.assertEqual(self.engine.legal(OVER, (6, 3)), [])

    def test_a_whole_game(self):
        """The engine (team RY, depth 1) against random plays to the end."""
        rng = random.Random(7)
        ufen, decisions = "startpos", 0
        while True:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            plays = self.engine.legal(ufen, dice)
            if not plays:
                break
            if ufen != "startpos" and ufen.split()[1] in "gb":
                ufen = rng.choice(plays).ufen
            else:
                play = self.engine.best_move(ufen, dice, Limit(depth=1)).play
                ufen = next(p.ufen for p in plays if p.play == play)
            decisions += 1
            self.assertLess(decisions, 3000)
        # After the winning play the colour to throw is the winner's.
        board, to_throw = ufen.split()[0].split("/"), ufen.split()[1]
        winner = [0, 2] if to_throw in "ry" else [1, 3]
        self.assertTrue(all(board[i] == "h,h,h,h" for i in winner), ufen)
        self.assertGreater(decisions, 20)

    def test_quit_twice_and_calls_after_quit(self):
        self.assertEqual(self.engine.quit(), 0)
        self.assertEqual(self.engine.quit(), 0)
        with self.assertRaises(EngineTerminatedError):
            self.engine.ping()


class TerminatedTest(unittest.TestCase):
    def test_an_engine_that_exits_at_once(self):
        with self.assertRaises(EngineTerminatedError) as caught:
            Engine.popen(["/bin/sh", "-c", "echo no such engine >&2; exit 3"], timeout=5)
        self.assertEqual(caught.exception.returncode, 3)
        self.assertIn("no such engine", str(caught.exception))

    def test_an_engine_killed_mid_game(self):
        with Engine.popen(uckers_binary()) as engine:
            engine.process.kill()
            engine.process.wait()
            with self.assertRaises(EngineTerminatedError):
                engine.best_move(MID, (6, 3))

    def test_a_program_that_is_not_an_engine(self):
        with self.assertRaises(EngineTimeoutError):
            Engine.popen(["/bin/cat"], timeout=1)

    def test_an_engine_that_stops_answering_is_killed(self):
        script = "read line; echo uciok; exec sleep 30"
        engine = Engine.popen(["/bin/sh", "-c", script], timeout=5)
        with self.assertRaises(EngineTimeoutError) as caught:
            engine.ping(timeout=0.5)
        self.assertIn("killed", str(caught.exception))
        self.assertIsNotNone(engine.process.poll())
        with self.assertRaises(EngineTerminatedError):
            engine.ping()

    def test_a_bad_timeout(self):
        with self.assertRaises(ValueError):
            Engine.popen(uckers_binary(), timeout=0)


if __name__ == "__main__":
    unittest.main()
