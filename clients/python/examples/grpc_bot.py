#!/usr/bin/python3
"""A bot that plays a whole game against the engine of a `uckers serve`
over gRPC, on dice the server deals and reveals at the end: the bot (team
GB) plays the legal play the tutor judges best at the lowest level, the
engine (team RY) its BestMove at a level. At the end the dealt dice are
checked against the server's commitment.

usage: grpc_bot.py [--address HOST:PORT] [--level NAME] [--rules RULES]
Prints each decision and the result; exits 0 when the game ended and its
dice verified."""

import argparse
import hashlib
import sys

from uckers.client import Client, RpcError, record_text
from uckers.v1 import engine_pb2


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--address", default="127.0.0.1:50051", help="the server")
    parser.add_argument("--level", default="casual", help="the engine's level")
    parser.add_argument("--rules", default="navy", help="a rules string of two teams")
    args = parser.parse_args()
    seed = "grpc-bot"
    try:
        with Client(args.address) as client:
            client.wait_ready()
            position = client.start_position(args.rules).position.ufen
            dealt = client.start_dealt_game()
            client.bind_dealt_game(dealt.token, seed, args.rules)
            items, last = [], ""
            for index in range(5000):
                dice = client.deal_throw(dealt.token, index, last)
                colour = position.split()[1]
                if colour in "gb":
                    plays = client.list_legal_plays(position, dice, args.rules)
                    if len(plays) == 1:
                        play = plays[0].play
                    else:  # the tutor's best at the lowest level
                        play = client.judge_play(position, dice, plays[0].play, args.rules,
                                                 level="beginner").best_play
                    who = "bot"
                else:
                    play = client.best_move(position, dice, args.rules, level=args.level).play
                    who = "engine"
                applied = client.apply_play(position, dice, play, args.rules)
                items.append(f"{dice.die1}{dice.die2}:{applied.play}")
                last = applied.play
                print(f"{index + 1:4} {colour} {dice.die1}{dice.die2} {who:6} {applied.play}")
                position = applied.position.ufen
                if applied.result.finished:
                    break
            else:
                print("grpc_bot: no end in 5000 throws", file=sys.stderr)
                return 1
            result = applied.result
            revealed = client.reveal_dealt_game(dealt.token,
                                                record_text=record_text(items, result, args.rules))
    except RpcError as e:
        print(f"grpc_bot: {e}", file=sys.stderr)
        return 1
    winner = engine_pb2.Team.Name(result.winner)
    verified = hashlib.sha256(bytes.fromhex(revealed.secret)).hexdigest() == dealt.commitment
    print(f"game over after {len(items)} throws: {winner} won {result.points} point(s); "
          f"dice {'verified' if verified else 'NOT verified'} against commitment "
          f"{dealt.commitment[:16]}...")
    return 0 if verified else 1


if __name__ == "__main__":
    sys.exit(main())
