#!/usr/bin/python3
"""A whole game with verified dice over the Connect front (docs/frontend.md).

usage: dealt_game.py [http://127.0.0.1:8080] [record.json]

Starts a dealt game, chooses a client seed after the commitment, plays both
teams with the engine's tutor level (BestMove at `advanced`), one DealThrow
per throw, reveals the secret at the end and writes the completed record,
which `uckers verify record.json` checks. Python's standard library only.
"""
import hashlib
import json
import secrets
import sys
import urllib.error
import urllib.request

BASE = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
OUT = sys.argv[2] if len(sys.argv) > 2 else "record.json"


def call(method, body):
    request = urllib.request.Request(
        f"{BASE}/uckers.v1.Engine/{method}", data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request) as response:
            return json.load(response)
    except urllib.error.HTTPError as e:
        raise SystemExit(f"{method}: {e.code} {e.read().decode()}")


start = call("StartDealtGame", {})
print("commitment", start["commitment"])  # before the first throw
seed = secrets.token_hex(8)                # chosen after it
print("client seed", seed)
position = call("GetStartPosition", {"rules": "navy"})["position"]["ufen"]
items, result = [], None
while result is None:
    dealt = call("DealThrow", {"token": start["token"], "clientSeed": seed,
                               "index": len(items)})
    dice = dealt["throw"]
    best = call("BestMove", {"position": {"ufen": position}, "throw": dice,
                             "options": {"level": "advanced"}})
    applied = call("ApplyPlay", {"position": {"ufen": position}, "throw": dice,
                                 "play": best["play"]})
    items.append({"throw": f"{dice['die1']}{dice['die2']}", "play": applied["play"]})
    position = applied["position"]["ufen"]
    if applied["result"]["finished"]:
        result = applied["result"]
winner = "RY" if result["winner"] == "TEAM_RED_YELLOW" else "GB"
record = {"rules": "navy", "items": items, "winner": winner, "points": result["points"]}
revealed = call("RevealDealtGame", {"token": start["token"], "clientSeed": seed,
                                    "record": record})
assert hashlib.sha256(bytes.fromhex(revealed["secret"])).hexdigest() == start["commitment"]
print(f"{len(items)} throws, {winner} won {result['points']}; secret {revealed['secret']}")
with open(OUT, "w") as f:
    json.dump(revealed["record"], f, indent=1)
print("wrote", OUT)
