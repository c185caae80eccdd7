#!/usr/bin/python3
"""An independent check of a dealt game's dice, from docs/records.md alone.

usage: verify_dealt.py RECORD   (text or JSON, docs/records.md)

Written from the documented procedure ("Dealt dice") with Python's hashlib
and hmac only, to be compared with `uckers verify` (tests/dealer_test.cpp).
It checks the forms of the four dealer headers (lower-case hex, a 32-byte
secret, one 16-byte client value a throw), SHA-256 of the secret against
the commitment, every throw against the derivation, at least one throw, a
result and no Termination. It knows no rules, so it does not replay the
game: a record cut short with its result kept is found only by a verifier
that replays it (`uckers verify`), and this one says so in its verdict.

Exits 0 "dice verified: ...", 1 "not verified: <the first thing wrong>",
2 on a usage error.
"""
import hashlib
import hmac
import json
import re
import sys

HEX = re.compile(r"[0-9a-f]*")


def hex_bytes(text, size, what):
    if not isinstance(text, str) or len(text) != 2 * size:
        raise ValueError(f"{what}: {2 * size} hex digits expected")
    if not HEX.fullmatch(text):
        raise ValueError(f"{what}: only lower-case hex is read")
    return bytes.fromhex(text)


def read_record(text):
    """(headers, throws): headers by their text names, throws as 'd1d2'."""
    if text.lstrip().startswith("{"):
        j = json.loads(text)

        def field(camel, snake):
            return j.get(camel, j.get(snake, ""))

        winner = j.get("winner", "")
        headers = {
            "Commitment": field("dealerCommitment", "dealer_commitment"),
            "ClientSeed": field("clientSeed", "client_seed"),
            "ServerSecret": field("dealerSecret", "dealer_secret"),
            "ClientValues": field("clientValues", "client_values") or [],
            "Result": f"{winner} {j.get('points', 0)}" if winner else "*",
            "Termination": j.get("termination", ""),
        }
        throws = [item.get("throw", "") for item in j.get("items", [])]
        return headers, throws
    headers, throws = {}, []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        m = re.fullmatch(r'\[(\w+)\s+"(.*)"\]', line)
        if m:
            headers[m.group(1)] = m.group(2)
            continue
        for token in line.split():
            throws.append(token.split(":", 1)[0])
    values = headers.get("ClientValues", "")
    headers["ClientValues"] = values.split(" ") if values else []
    return headers, throws


def deal(secret, seed, index, value):
    """Throw `index`: its two dice, in the order derived."""
    message = seed + index.to_bytes(8, "big") + value
    dice, block = [], 0
    while True:
        suffix = block.to_bytes(4, "big") if block else b""
        for byte in hmac.new(secret, message + suffix, hashlib.sha256).digest():
            if byte >= 252:
                continue
            dice.append(1 + byte % 6)
            if len(dice) == 2:
                return dice
        block += 1


def verify(headers, throws):
    for name in ("Commitment", "ClientSeed", "ServerSecret"):
        if not headers.get(name):
            raise ValueError(f"no {name} header")
    seed = headers["ClientSeed"]
    if not 1 <= len(seed) <= 256 or any(c <= " " or c > "~" or c in '"\\' for c in seed):
        raise ValueError("ClientSeed: 1..256 printable characters, no space, quote or backslash")
    commitment = headers["Commitment"]
    hex_bytes(commitment, 32, "Commitment")
    secret = hex_bytes(headers["ServerSecret"], 32, "ServerSecret")
    if hashlib.sha256(secret).hexdigest() != commitment:
        raise ValueError("the secret's SHA-256 is not the commitment")
    if not throws:
        raise ValueError("the record has no throw")
    values = headers["ClientValues"]
    if len(values) != len(throws):
        raise ValueError(f"ClientValues: {len(values)} values for {len(throws)} throws")
    for i, (kept, value) in enumerate(zip(throws, values)):
        dealt = deal(secret, seed.encode("ascii"), i, hex_bytes(value, 16, f"client value {i + 1}"))
        if sorted(kept) != sorted(f"{dealt[0]}{dealt[1]}") or len(kept) != 2:
            raise ValueError(f"item {i + 1}: the record throws {kept}, the dealer dealt "
                             f"{dealt[0]}{dealt[1]} (throw index {i})")
    if headers.get("Termination"):
        raise ValueError("Termination: a dealt game has no clocks")
    if headers.get("Result", "*") == "*":
        raise ValueError("no result: only a finished game is verified")


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        print(f"verify_dealt.py: cannot read {argv[1]}: {e.strerror}", file=sys.stderr)
        return 2
    try:
        headers, throws = read_record(text)
        verify(headers, throws)
    except (ValueError, json.JSONDecodeError, AttributeError) as e:
        print(f"not verified: {e}")
        return 1
    print(f"dice verified: {len(throws)} throws follow from the secret committed to as "
          f"{headers['Commitment']}, the client seed and the client values "
          "(the game's replay by its rules is not checked here)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
