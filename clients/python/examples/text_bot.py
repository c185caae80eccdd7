#!/usr/bin/python3
"""A bot that plays a whole navy game against a local `uckers` process over
the text protocol: the bot (team GB) plays the legal play that brings its
pieces furthest, the engine (team RY) its best move at a level.

usage: text_bot.py [--uckers PATH] [--level NAME] [--seed N]
Prints each decision and the winner; exits 0 when the game ended."""

import argparse
import random
import sys

from uckers.engine import Engine, EngineError, Limit


def progress(ufen, colours):
    """The bot's measure of a position: its colours' squares summed
    (base 0, home 57)."""
    fields = ufen.split()[0].split("/")
    total = 0
    for i in colours:
        for square in fields[i].split(","):
            total += 0 if square == "b" else 57 if square == "h" else int(square) + 1
    return total


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--uckers", default="uckers", help="the engine binary")
    parser.add_argument("--level", default="casual", help="the engine's level")
    parser.add_argument("--seed", type=int, default=1, help="the dice seed")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    try:
        with Engine.popen(args.uckers, options={"Level": args.level}) as engine:
            ufen, decisions = "startpos", 0
            while True:
                dice = (rng.randint(1, 6), rng.randint(1, 6))
                plays = engine.legal(ufen, dice)
                if not plays:
                    break
                colour = "r" if ufen == "startpos" else ufen.split()[1]
                if colour in "gb":
                    choice = max(plays, key=lambda p: progress(p.ufen, (1, 3)))
                    who, play, ufen = "bot", choice.play, choice.ufen
                else:
                    play = engine.best_move(ufen, dice, Limit(depth=1)).play
                    who, ufen = "engine", next(p.ufen for p in plays if p.play == play)
                decisions += 1
                print(f"{decisions:4} {colour} {dice[0]}{dice[1]} {who:6} {play}")
    except EngineError as e:
        print(f"text_bot: {e}", file=sys.stderr)
        return 1
    winner = "RY (the engine)" if ufen.split()[1] in "ry" else "GB (the bot)"
    print(f"game over after {decisions} decisions: {winner} won; final position {ufen}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
