#!/usr/bin/python3
"""A client nobody on this project wrote: Debian's Python grpcio calling a
running `uckers serve` over loopback. Health check, server reflection, the
.proto, BestMove, a bad request, graceful shutdown.

usage: client_test.py <path to uckers> <repo root>
Prints 'N passed, M failed' and exits non-zero on any failure."""

import os
import re
import signal
import subprocess
import shutil
import sys
import tempfile

import grpc
from grpc_tools import protoc


def generate(repo, out):
    includes = [os.path.join(repo, "proto"), os.path.join(repo, "tests/python/protos"),
                os.path.join(os.path.dirname(protoc.__file__), "_proto")]
    # The standard protos live under std/ so that their Python modules do not
    # collide with the grpc package itself; their proto packages are unchanged.
    files = ["uckers/v1/engine.proto", "uckers/v1/game.proto", "std/health.proto",
             "std/reflection.proto"]
    for f in files:
        args = ["protoc"] + ["-I" + i for i in includes] + [
            "--python_out=" + out, "--grpc_python_out=" + out, f]
        if protoc.main(args) != 0:
            raise RuntimeError("protoc failed on " + f)
    sys.path.insert(0, out)


def start_server(uckers):
    proc = subprocess.Popen([uckers, "serve", "--address", "127.0.0.1:0", "--grace_ms", "2000"],
                            stderr=subprocess.PIPE, text=True)
    line = proc.stderr.readline()
    m = re.search(r"\(port (\d+)\)", line)
    if not m:
        proc.kill()
        raise RuntimeError("server did not report its port: " + line)
    return proc, int(m.group(1))


def main():
    uckers, repo = sys.argv[1], sys.argv[2]
    out = tempfile.mkdtemp(prefix="uckers-py-")
    generate(repo, out)
    from uckers.v1 import engine_pb2, engine_pb2_grpc
    from std import health_pb2, health_pb2_grpc
    from std import reflection_pb2, reflection_pb2_grpc

    proc, port = start_server(uckers)
    channel = grpc.insecure_channel("127.0.0.1:%d" % port)
    grpc.channel_ready_future(channel).result(timeout=10)
    results = []

    def check(name, cond, detail=""):
        results.append(cond)
        print(("ok   " if cond else "FAIL ") + name + ("" if cond else ": " + str(detail)))

    health = health_pb2_grpc.HealthStub(channel)
    status = health.Check(health_pb2.HealthCheckRequest(service=""), timeout=5).status
    check("health check answers SERVING", status == health_pb2.HealthCheckResponse.SERVING, status)

    reflection = reflection_pb2_grpc.ServerReflectionStub(channel)
    answers = list(reflection.ServerReflectionInfo(
        iter([reflection_pb2.ServerReflectionRequest(list_services="")]), timeout=5))
    services = [s.name for s in answers[0].list_services_response.service]
    check("reflection lists uckers.v1.Engine", "uckers.v1.Engine" in services, services)

    engine = engine_pb2_grpc.EngineStub(channel)
    position = engine_pb2.Position(ufen="b,5,12,30/b,b,20,33/3,3,40,h/b,8,51,h r -")
    dice = engine_pb2.Throw(die1=6, die2=3)
    legal = engine.ListLegalPlays(engine_pb2.ListLegalPlaysRequest(position=position, throw=dice),
                                  timeout=5)
    plays = [p.play for p in legal.plays]
    check("ListLegalPlays lists plays", len(plays) > 1, plays)

    best = engine.BestMove(engine_pb2.BestMoveRequest(
        position=position, throw=dice, limits=engine_pb2.SearchLimits(movetime_ms=100)), timeout=10)
    check("BestMove returns a legal play", best.play in plays, best.play)
    o = best.evaluation
    total = o.win + o.win_eight_piecer + o.win_in_harbour + o.loss + o.loss_eight_piecer + \
        o.loss_in_harbour
    check("BestMove outcome probabilities sum to 1", abs(total - 1) < 1e-6, total)

    try:
        engine.BestMove(engine_pb2.BestMoveRequest(
            position=position, throw=engine_pb2.Throw(die1=9, die2=3)), timeout=5)
        check("a bad throw is refused", False, "no error")
    except grpc.RpcError as e:
        check("a bad throw is INVALID_ARGUMENT naming throw.die1",
              e.code() == grpc.StatusCode.INVALID_ARGUMENT and "throw.die1" in e.details(),
              (e.code(), e.details()))

    proc.send_signal(signal.SIGTERM)
    code = proc.wait(timeout=10)
    check("SIGTERM shuts the server down cleanly", code == 0, code)

    passed = sum(results)
    print("%d passed, %d failed" % (passed, len(results) - passed))
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        for stale in [d for d in sys.path if os.path.basename(d).startswith("uckers-py-")]:
            shutil.rmtree(stale, ignore_errors=True)
