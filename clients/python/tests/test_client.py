"""The gRPC client against a `uckers serve` the tests start: every method of
uckers.v1.Engine, health, and the errors."""

import hashlib
import unittest

from support import Server

from uckers import client as uc
from uckers.v1 import engine_pb2

MID = "b,5,12,30/b,b,20,33/3,3,40,h/b,8,51,h r -"


def play_dealt_game(client, token):
    """A whole navy game on dealt dice (bound), the first legal play each
    time: the record's items and the last play's result."""
    ufen, items, play = "startpos", [], ""
    for index in range(5000):
        dice = client.deal_throw(token, index, play)
        plays = client.list_legal_plays(ufen, dice)
        applied = client.apply_play(ufen, dice, plays[0].play)
        items.append("%d%d:%s" % (dice.die1, dice.die2, applied.play))
        play = applied.play
        ufen = applied.position.ufen
        if applied.result.finished:
            return items, applied.result
    raise AssertionError("no end in 5000 throws")


class ClientTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = Server()
        cls.client = uc.Client(cls.server.address, timeout=30)
        cls.client.wait_ready()

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        cls.server.stop()

    def test_health(self):
        self.assertEqual(self.client.health(), "SERVING")
        self.assertEqual(self.client.health("uckers.v1.Engine"), "SERVING")

    def test_engine_info(self):
        info = self.client.engine_info()
        self.assertEqual(info.name, "Uckers")
        # The package is versioned with the engine it is built beside.
        import uckers
        self.assertEqual(info.version, uckers.__version__)
        self.assertIn("grandmaster", info.levels)
        self.assertIn("MultiPV", [o.name for o in info.options])

    def test_start_position(self):
        start = self.client.start_position("mess")
        self.assertTrue(start.switches.startswith("navy+"), start.switches)
        self.assertEqual(start.position.ufen.split()[1], "r")
        set_up = self.client.start_position("navy", MID)
        self.assertEqual(set_up.position.ufen, MID)
        self.assertFalse(set_up.result.finished)

    def test_a_bad_position_names_the_field(self):
        with self.assertRaises(uc.InvalidArgument) as caught:
            self.client.start_position("navy", "garbage")
        self.assertIn("position.ufen", str(caught.exception))
        self.assertIn("GetStartPosition: INVALID_ARGUMENT", str(caught.exception))

    def test_list_legal_plays_and_apply_play(self):
        plays = self.client.list_legal_plays(MID, (6, 3), structured_positions=True)
        self.assertGreater(len(plays), 1)
        self.assertEqual([p.play for p in plays], sorted(p.play for p in plays))
        applied = self.client.apply_play(MID, "63", plays[0].play)
        self.assertEqual(applied.play, plays[0].play)
        self.assertEqual(applied.position.ufen, plays[0].position_after.ufen)
        with self.assertRaises(uc.InvalidArgument):
            self.client.apply_play(MID, (6, 3), "r0-55")

    def test_best_move(self):
        plays = [p.play for p in self.client.list_legal_plays(MID, (6, 3))]
        best = self.client.best_move(MID, (6, 3), movetime_ms=100, multipv=2)
        self.assertIn(best.play, plays)
        self.assertEqual(len(best.candidates), 2)
        o = best.evaluation
        self.assertAlmostEqual(o.win + o.win_eight_piecer + o.win_in_harbour + o.loss +
                               o.loss_eight_piecer + o.loss_in_harbour, 1, places=6)

    def test_bad_throws(self):
        with self.assertRaises(uc.InvalidArgument) as caught:
            self.client.best_move(MID, (9, 3))
        self.assertIn("throw.die1", caught.exception.message)
        with self.assertRaises(ValueError):
            self.client.best_move(MID, "6x")
        with self.assertRaises(TypeError):
            self.client.best_move(MID, 63)

    def test_a_limit_above_the_cap_is_refused(self):
        with self.assertRaises(uc.InvalidArgument) as caught:
            self.client.best_move(MID, (6, 3), depth=13)
        self.assertIn("max_depth", str(caught.exception))

    def test_evaluate_per_throw(self):
        answer = self.client.evaluate(MID, per_throw=True, level="expert")
        self.assertEqual(len(answer.per_throw), 21)
        self.assertEqual(sum(t.weight for t in answer.per_throw), 36)
        self.assertGreater(answer.evaluation.win_probability, 0)

    def test_analyse_streams_to_one_final(self):
        messages = list(self.client.analyse(MID, (6, 3), depth=2))
        self.assertTrue(messages[-1].final)
        self.assertEqual(sum(m.final for m in messages), 1)
        self.assertTrue(messages[-1].best_play)

    def test_roll_dice(self):
        first = self.client.roll_dice(17, 0, 3)
        self.assertEqual(len(first.throws), 3)
        again = self.client.roll_dice(17, 2, 1)
        self.assertEqual(again.throws[0], first.throws[2])
        with self.assertRaises(uc.InvalidArgument) as caught:
            self.client.roll_dice(17, 0, 1001)
        self.assertIn("count", caught.exception.message)

    def test_judge_play_and_throw_map(self):
        plays = [p.play for p in self.client.list_legal_plays(MID, (6, 3))]
        judged = self.client.judge_play(MID, (6, 3), plays[-1], level="casual")
        self.assertGreaterEqual(judged.equity_lost, 0)
        self.assertEqual(judged.legal_plays, len(plays))
        tmap = self.client.throw_map(MID, level="casual")
        self.assertEqual(len(tmap.throws), 21)
        self.assertAlmostEqual(sum(t.probability for t in tmap.throws), 1, places=6)

    def test_a_dealt_game_reveals_its_secret_and_is_reviewed(self):
        dealt = self.client.start_dealt_game()
        with self.assertRaises(uc.FailedPrecondition):
            self.client.deal_throw(dealt.token, 0)  # not bound yet
        self.client.bind_dealt_game(dealt.token, "python-client-test")
        with self.assertRaises(uc.InvalidArgument):
            self.client.deal_throw(dealt.token + "x", 0)
        items, result = play_dealt_game(self.client, dealt.token)
        text = uc.record_text(items, result)
        with self.assertRaises(uc.InvalidArgument):
            self.client.reveal_dealt_game(dealt.token, record_text=uc.record_text(items[:5]))
        revealed = self.client.reveal_dealt_game(dealt.token, record_text=text)
        self.assertEqual(hashlib.sha256(bytes.fromhex(revealed.secret)).hexdigest(),
                         dealt.commitment)
        self.assertEqual(revealed.record.dealer_commitment, dealt.commitment)
        review = self.client.analyse_game(record_text=text, level="beginner")
        self.assertGreater(len(review.items), 0)
        self.assertEqual(self.client.analyse_game(record=revealed.record, level="beginner").items,
                         review.items)
        with self.assertRaises(ValueError):
            self.client.analyse_game()

    def test_a_deadline_too_short_is_deadline_exceeded(self):
        with self.assertRaises(uc.DeadlineExceeded):
            self.client.best_move(MID, (6, 3), movetime_ms=5000, timeout=0.001)


class UnreachableTest(unittest.TestCase):
    def test_no_server_is_unavailable(self):
        with uc.Client("127.0.0.1:1", timeout=2) as client:
            with self.assertRaises(uc.Unavailable) as caught:
                client.engine_info()
            self.assertIn("GetEngineInfo: UNAVAILABLE", str(caught.exception))
        with self.assertRaises(ValueError):
            uc.Client("")


if __name__ == "__main__":
    unittest.main()
