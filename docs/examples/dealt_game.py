#!/usr/bin/python3
"""A whole game with verified dice over the Connect front (docs/frontend.md).

usage: dealt_game.py [http://127.0.0.1:8080] [record.json]

Starts a dealt game, chooses a client seed after the commitment and binds it
(BindDealtGame), plays both teams with the engine's tutor level (BestMove at
`advanced`), one DealThrow per throw with a fresh client value and the play
before it, reveals the secret with the last play and writes the completed
record, which `uckers verify record.json` checks. Python's standard library
only.
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
seed = secrets.token_hex(16)               # chosen after it, fresh for the game
print("client seed", seed)
call("BindDealtGame", {"token": start["token"], "clientSeed": seed, "rules": "navy"})
position = call("GetStartPosition", {"rules": "navy"})["position"]["ufen"]
items, values, result = [], [], None
while result is None:
    values.append(secrets.token_hex(16))  # fresh for each throw
    dealt = call("DealThrow", {"token": start["token"], "index": len(items),
                               "clientValue": values[-1],
                               "play": items[-1]["play"] if items else ""})
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
# The last play ends the game on the server's board too: then it reveals.
revealed = call("RevealDealtGame", {"token": start["token"], "play": items[-1]["play"]})
assert hashlib.sha256(bytes.fromhex(revealed["secret"])).hexdigest() == start["commitment"]
assert revealed["record"]["clientValues"] == values
print(f"{len(items)} throws, {winner} won {result['points']}; secret {revealed['secret']}")
with open(OUT, "w") as f:
    json.dump(revealed["record"], f, indent=1)
print("wrote", OUT)
