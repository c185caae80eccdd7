#!/usr/bin/python3
"""An independent check of a dealt game's dice, from docs/records.md alone.

usage: verify_dealt.py RECORD   (text or JSON, docs/records.md)

Written from the documented procedure ("Dealt dice", "The dealer's
signatures") with Python's hashlib and hmac and the Ed25519 of Debian's
python3-cryptography, to be compared with `uckers verify`
(tests/dealer_test.cpp). It checks the forms of the dealer headers
(lower-case hex, a 32-byte secret, one 16-byte client value a throw),
SHA-256 of the secret against the commitment, every throw against the
derivation, at least one throw, a result and no Termination, and the
dealer's signature of the record's statement by the public key whose id the
record names. It knows no rules, so it does not replay the game itself: the
signature tells it that the server saw this game end with these throws and
plays (a record cut short or extended changes the statement).

Exits 0 "dice verified: ...", 1 "not verified: <the first thing wrong>",
2 on a usage error.
"""
import hashlib
import hmac
import json
import re
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

HEX = re.compile(r"[0-9a-f]*")


def hex_bytes(text, size, what):
    if not isinstance(text, str) or len(text) != 2 * size:
        raise ValueError(f"{what}: {2 * size} hex digits expected")
    if not HEX.fullmatch(text):
        raise ValueError(f"{what}: only lower-case hex is read")
    return bytes.fromhex(text)


def read_record(text):
    """(headers, items): headers by their text names, items as ('d1d2', play)."""
    if text.lstrip().startswith("{"):
        j = json.loads(text)

        def field(camel, snake):
            return j.get(camel, j.get(snake, ""))

        winner = j.get("winner", "")
        headers = {
            "Rules": j.get("rules", ""),
            "Start": field("startUfen", "start_ufen"),
            "Commitment": field("dealerCommitment", "dealer_commitment"),
            "ClientSeed": field("clientSeed", "client_seed"),
            "ServerSecret": field("dealerSecret", "dealer_secret"),
            "ClientValues": field("clientValues", "client_values") or [],
            "Result": f"{winner} {j.get('points', 0)}" if winner else "*",
            "Termination": j.get("termination", ""),
            "DealerKey": field("dealerKey", "dealer_key"),
            "DealerPublicKey": field("dealerPublicKey", "dealer_public_key"),
            "DealerSignature": field("dealerSignature", "dealer_signature"),
        }
        items = [(item.get("throw", ""), item.get("play", "")) for item in j.get("items", [])]
        return headers, items
    headers, items = {}, []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        m = re.fullmatch(r'\[(\w+)\s+"(.*)"\]', line)
        if m:
            headers[m.group(1)] = m.group(2)
            continue
        for token in line.split():
            throw, _, play = token.partition(":")
            items.append((throw, play))
    values = headers.get("ClientValues", "")
    headers["ClientValues"] = values.split(" ") if values else []
    return headers, items


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


def statement(headers, items):
    """The text the dealer signed (docs/records.md, "The dealer's signatures")."""
    values = headers["ClientValues"]
    lines = [
        "uckers dealt game v1",
        f"key {headers.get('DealerKey', '')}",
        f"rules {headers.get('Rules') or 'navy'}",
        f"start {headers.get('Start', '')}",
        f"commitment {headers['Commitment']}",
        f"seed {headers['ClientSeed']}",
        f"secret {headers['ServerSecret']}",
        f"result {headers.get('Result', '*')}",
        f"items {len(items)}",
    ]
    for i, (throw, play) in enumerate(items):
        high_first = "".join(sorted(throw, reverse=True))
        lines.append(f"{high_first}:{play} {values[i] if i < len(values) else ''}")
    return ("\n".join(lines) + "\n").encode("utf-8")


def verify_signature(headers, items):
    for name in ("DealerSignature", "DealerPublicKey", "DealerKey"):
        if not headers.get(name):
            raise ValueError(f"no {name} header: the dealer did not sign the record")
    public = hex_bytes(headers["DealerPublicKey"], 32, "DealerPublicKey")
    if hashlib.sha256(public).hexdigest()[:16] != headers["DealerKey"]:
        raise ValueError("DealerKey is not the id of the public key")
    signature = hex_bytes(headers["DealerSignature"], 64, "DealerSignature")
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, statement(headers, items))
    except InvalidSignature:
        raise ValueError("DealerSignature: not the dealer's signature of this record") from None


def verify(headers, items):
    throws = [throw for throw, _ in items]
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
    verify_signature(headers, items)


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
        headers, items = read_record(text)
        verify(headers, items)
    except (ValueError, json.JSONDecodeError, AttributeError) as e:
        print(f"not verified: {e}")
        return 1
    print(f"verified: {len(items)} throws follow from the secret committed to as "
          f"{headers['Commitment']}, the client seed and the client values, in a game the "
          f"dealer signed as ended (key {headers['DealerKey']}; its replay by the rules is "
          "the dealer's word here)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
