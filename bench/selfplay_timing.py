#!/usr/bin/python3
"""Time per decision of `uckers` over one self-play game under a ruleset.

Usage: bench/selfplay_timing.py UCKERS RULES DECISIONS [SETOPTION LINE...]
Plays the engine against itself through the text protocol on seeded random
dice and prints the mean, median and largest time a `go dice` took and the
depths reached (any layout: the multi-side search answers for more sides).
"""
import subprocess, random, sys, time, re
binary, rules, moves_n = sys.argv[1], sys.argv[2], int(sys.argv[3])
extra = sys.argv[4:]  # extra setoption lines
p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(l): p.stdin.write(l + "\n"); p.stdin.flush()
def until(prefix):
    lines = []
    while True:
        l = p.stdout.readline()
        if not l: raise SystemExit("eof")
        lines.append(l.strip())
        if l.startswith(prefix) or l.startswith("info string error"): return lines
send(f"setoption name Rules value {rules}")
for e in extra: send(e)
rng = random.Random(1); moves = []; times = []; depths = []
for i in range(moves_n):
    d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
    send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
    t = time.time(); send(f"go dice {d1} {d2}")
    out = until("bestmove"); times.append(time.time() - t)
    infos = [l for l in out if l.startswith("info depth")]
    if infos: depths.append(int(infos[-1].split()[2]))
    if out[-1].startswith("info string error"): break
    best = out[-1].split()[1]
    moves.append(f"{d1}{d2}:{best}")
    send("legal 1 1"); l = until("legal ")
    if l[-1] == "legal 0": break
send("quit")
times.sort()
print(f"{rules}: {len(times)} decisions, mean {1000*sum(times)/len(times):.1f} ms, p50 {1000*times[len(times)//2]:.1f} ms, max {1000*times[-1]:.1f} ms, depths {sorted(set(depths))}")
