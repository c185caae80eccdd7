"""A typed client of the gRPC service `uckers.v1.Engine` (`uckers serve`).

Each method of the service is one method here, taking plain Python values
(a UFEN string, a throw as `(6, 3)` or `"63"`) or the generated messages,
and returning the service's own response message (uckers.v1.engine_pb2).
A call the server refuses raises an `RpcError` subclass named for its status
code (`InvalidArgument`, ...) whose text is the method, the code and the
server's message (`BestMove: INVALID_ARGUMENT: throw.die1: must be 1..6`).

    from uckers.client import Client
    with Client("127.0.0.1:50051") as client:
        print(client.best_move("startpos", (6, 3)).play)
"""

from __future__ import annotations

import secrets
from typing import Iterator, Mapping, Optional, Sequence, Tuple, Union

import grpc

from uckers.v1 import engine_pb2, engine_pb2_grpc, game_pb2

PositionLike = Union[str, engine_pb2.Position, engine_pb2.StructuredPosition, engine_pb2.PositionOut]
ThrowLike = Union[str, Tuple[int, int], Sequence[int], engine_pb2.Throw]


class RpcError(Exception):
    """A call the server refused or could not answer.

    `method` is the service method, `code` the grpc.StatusCode and `message`
    the server's own message (which names the field that was wrong)."""

    def __init__(self, method: str, code: grpc.StatusCode, message: str):
        super().__init__(f"{method}: {code.name}: {message}")
        self.method = method
        self.code = code
        self.message = message


class InvalidArgument(RpcError):
    """INVALID_ARGUMENT: the request was malformed (the message names the field)."""


class FailedPrecondition(RpcError):
    """FAILED_PRECONDITION: the request is well formed but cannot be served now
    (an unfinished game's secret, for instance)."""


class ResourceExhausted(RpcError):
    """RESOURCE_EXHAUSTED: every search slot of the server is busy, or a
    message is larger than the server allows."""


class DeadlineExceeded(RpcError):
    """DEADLINE_EXCEEDED: the call's deadline passed before its answer."""


class Unavailable(RpcError):
    """UNAVAILABLE: the server cannot be reached or is draining."""


_ERRORS = {
    grpc.StatusCode.INVALID_ARGUMENT: InvalidArgument,
    grpc.StatusCode.FAILED_PRECONDITION: FailedPrecondition,
    grpc.StatusCode.RESOURCE_EXHAUSTED: ResourceExhausted,
    grpc.StatusCode.DEADLINE_EXCEEDED: DeadlineExceeded,
    grpc.StatusCode.UNAVAILABLE: Unavailable,
}


def _error(method: str, e: grpc.RpcError) -> RpcError:
    code = e.code() if hasattr(e, "code") else grpc.StatusCode.UNKNOWN
    details = (e.details() if hasattr(e, "details") else None) or str(e)
    return _ERRORS.get(code, RpcError)(method, code, details)


def to_position(value: PositionLike) -> engine_pb2.Position:
    """A request's position from a UFEN string (`startpos` names the navy
    start), a structured position, or a position the server returned."""
    if isinstance(value, engine_pb2.Position):
        return value
    if isinstance(value, engine_pb2.PositionOut):
        return engine_pb2.Position(ufen=value.ufen)
    if isinstance(value, engine_pb2.StructuredPosition):
        return engine_pb2.Position(structured=value)
    if isinstance(value, str):
        if not value.strip():
            raise ValueError("position: empty; give a UFEN or 'startpos'")
        return engine_pb2.Position(ufen=value)
    raise TypeError(f"position: expected a UFEN string or a Position message, not {type(value).__name__}")


def to_throw(value: ThrowLike) -> engine_pb2.Throw:
    """A throw from `(6, 3)`, `"63"` or a Throw message. The dice's range is
    the server's to check (its message names `throw.die1`)."""
    if isinstance(value, engine_pb2.Throw):
        return value
    if isinstance(value, str):
        if len(value) != 2 or not value.isdigit():
            raise ValueError(f"throw: {value!r} is not two digits such as '63'")
        return engine_pb2.Throw(die1=int(value[0]), die2=int(value[1]))
    try:
        die1, die2 = value
    except (TypeError, ValueError):
        raise TypeError(f"throw: expected (die1, die2), '63' or a Throw message, not {value!r}") from None
    if not all(isinstance(d, int) and not isinstance(d, bool) for d in (die1, die2)):
        raise TypeError(f"throw: dice must be integers, not {value!r}")
    return engine_pb2.Throw(die1=die1, die2=die2)


def to_limits(movetime_ms: int = 0, depth: int = 0, nodes: int = 0,
           given: Optional[engine_pb2.SearchLimits] = None) -> engine_pb2.SearchLimits:
    """SearchLimits from keyword values, over a given message's."""
    out = engine_pb2.SearchLimits()
    if given is not None:
        out.CopyFrom(given)
    if movetime_ms:
        out.movetime_ms = movetime_ms
    if depth:
        out.depth = depth
    if nodes:
        out.nodes = nodes
    return out


def to_options(level: str = "", multipv: int = 0, seed: int = 0,
            settings: Optional[Mapping[str, str]] = None,
            given: Optional[engine_pb2.SearchOptions] = None) -> engine_pb2.SearchOptions:
    """SearchOptions from keyword values, over a given message's."""
    out = engine_pb2.SearchOptions()
    if given is not None:
        out.CopyFrom(given)
    if level:
        out.level = level
    if multipv:
        out.multipv = multipv
    if seed:
        out.seed = seed
    for key, value in (settings or {}).items():
        out.settings[key] = str(value)
    return out


def _record(record, record_text) -> dict:
    if (record is None) == (record_text is None):
        raise ValueError("give exactly one of record (a GameRecord) and record_text (the text form)")
    if record is not None:
        if not isinstance(record, game_pb2.GameRecord):
            raise TypeError(f"record: expected a GameRecord message, not {type(record).__name__}")
        return {"record": record}
    if not isinstance(record_text, str):
        raise TypeError(f"record_text: expected a string, not {type(record_text).__name__}")
    return {"record_text": record_text}


class Client:
    """A connection to a `uckers serve`. `target` is `host:port` (any gRPC
    target: `dns:///...`); `timeout` is every call's deadline in seconds
    unless the call gives its own. Close it, or use it as a context manager."""

    def __init__(self, target: str = "127.0.0.1:50051", *, timeout: float = 30.0,
                 channel: Optional[grpc.Channel] = None,
                 credentials: Optional[grpc.ChannelCredentials] = None):
        if channel is None:
            if not isinstance(target, str) or not target:
                raise ValueError(f"target: expected 'host:port', not {target!r}")
            channel = (grpc.secure_channel(target, credentials) if credentials
                       else grpc.insecure_channel(target))
        if timeout is not None and timeout <= 0:
            raise ValueError(f"timeout: must be positive seconds, not {timeout!r}")
        self.channel = channel
        self.timeout = timeout
        self._stub = engine_pb2_grpc.EngineStub(channel)

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.channel.close()

    def wait_ready(self, timeout: float = 10.0) -> None:
        """Waits until the channel connects; raises Unavailable after `timeout` s."""
        try:
            grpc.channel_ready_future(self.channel).result(timeout=timeout)
        except grpc.FutureTimeoutError:
            raise Unavailable("connect", grpc.StatusCode.UNAVAILABLE,
                              f"no connection within {timeout} s") from None

    def _call(self, method: str, request, timeout: Optional[float]):
        try:
            return getattr(self._stub, method)(request, timeout=timeout or self.timeout)
        except grpc.RpcError as e:
            raise _error(method, e) from None

    # -- grpc.health.v1 ---------------------------------------------------

    def health(self, service: str = "", timeout: Optional[float] = None) -> str:
        """The health service's status name for `service` ("" the server,
        "uckers.v1.Engine"): "SERVING", "NOT_SERVING", ..."""
        try:
            from grpc_health.v1 import health_pb2, health_pb2_grpc  # when installed
        except ImportError:
            from uckers.grpc_health import health_pb2, health_pb2_grpc
        try:
            answer = health_pb2_grpc.HealthStub(self.channel).Check(
                health_pb2.HealthCheckRequest(service=service), timeout=timeout or self.timeout)
        except grpc.RpcError as e:
            raise _error("Health.Check", e) from None
        return health_pb2.HealthCheckResponse.ServingStatus.Name(answer.status)

    # -- uckers.v1.Engine ---------------------------------------------------

    def engine_info(self, timeout: Optional[float] = None) -> engine_pb2.EngineInfo:
        """Name, version, options, rulesets, switches and levels."""
        return self._call("GetEngineInfo", engine_pb2.GetEngineInfoRequest(), timeout)

    def start_position(self, rules: str = "", position: Optional[PositionLike] = None,
                       timeout: Optional[float] = None) -> engine_pb2.GetStartPositionResponse:
        """The start position of `rules` (empty: navy), or `position` checked
        under them; with the canonical rules string and the switch list."""
        request = engine_pb2.GetStartPositionRequest(rules=rules)
        if position is not None:
            request.position.CopyFrom(to_position(position))
        return self._call("GetStartPosition", request, timeout)

    def list_legal_plays(self, position: PositionLike, throw: ThrowLike, rules: str = "", *,
                         players: int = 0, structured_positions: bool = False,
                         timeout: Optional[float] = None) -> list:
        """Every distinct legal play (PlayOutcome: play, position_after,
        effects), sorted by its text; empty when the game is over."""
        request = engine_pb2.ListLegalPlaysRequest(
            position=to_position(position), throw=to_throw(throw), rules=rules,
            players=players, structured_positions=structured_positions)
        return list(self._call("ListLegalPlays", request, timeout).plays)

    def apply_play(self, position: PositionLike, throw: ThrowLike, play: str, rules: str = "", *,
                   players: int = 0, timeout: Optional[float] = None) -> engine_pb2.ApplyPlayResponse:
        """Applies one play (any spelling): the canonical play, the next
        position, its effects and the result when the game ends."""
        request = engine_pb2.ApplyPlayRequest(
            position=to_position(position), throw=to_throw(throw), play=play,
            rules=rules, players=players)
        return self._call("ApplyPlay", request, timeout)

    def best_move(self, position: PositionLike, throw: ThrowLike, rules: str = "", *,
                  level: str = "", movetime_ms: int = 0, depth: int = 0, nodes: int = 0,
                  multipv: int = 0, seed: int = 0, settings: Optional[Mapping[str, str]] = None,
                  limits: Optional[engine_pb2.SearchLimits] = None,
                  options: Optional[engine_pb2.SearchOptions] = None,
                  timeout: Optional[float] = None) -> engine_pb2.BestMoveResponse:
        """The best play for `throw`, its evaluation and the candidates."""
        request = engine_pb2.BestMoveRequest(
            position=to_position(position), throw=to_throw(throw), rules=rules,
            limits=to_limits(movetime_ms, depth, nodes, limits),
            options=to_options(level, multipv, seed, settings, options))
        return self._call("BestMove", request, timeout)

    def evaluate(self, position: PositionLike, rules: str = "", *, per_throw: bool = False,
                 level: str = "", movetime_ms: int = 0, depth: int = 0, nodes: int = 0,
                 settings: Optional[Mapping[str, str]] = None,
                 limits: Optional[engine_pb2.SearchLimits] = None,
                 options: Optional[engine_pb2.SearchOptions] = None,
                 timeout: Optional[float] = None) -> engine_pb2.EvaluateResponse:
        """The evaluation before the throw, and with `per_throw` every
        throw's best play."""
        request = engine_pb2.EvaluateRequest(
            position=to_position(position), rules=rules, per_throw=per_throw,
            limits=to_limits(movetime_ms, depth, nodes, limits),
            options=to_options(level, 0, 0, settings, options))
        return self._call("Evaluate", request, timeout)

    def analyse(self, position: PositionLike, throw: Optional[ThrowLike] = None, rules: str = "", *,
                level: str = "", movetime_ms: int = 0, depth: int = 0, nodes: int = 0,
                multipv: int = 0, limits: Optional[engine_pb2.SearchLimits] = None,
                options: Optional[engine_pb2.SearchOptions] = None,
                timeout: Optional[float] = None) -> Iterator[engine_pb2.AnalyseResponse]:
        """The search's progress as it deepens, ending with one message
        whose `final` is set. Without any limit it runs to the deadline."""
        request = engine_pb2.AnalyseRequest(
            position=to_position(position), rules=rules,
            limits=to_limits(movetime_ms, depth, nodes, limits),
            options=to_options(level, multipv, 0, None, options))
        if throw is not None:
            request.throw.CopyFrom(to_throw(throw))
        try:
            for message in self._stub.Analyse(request, timeout=timeout or self.timeout):
                yield message
        except grpc.RpcError as e:
            raise _error("Analyse", e) from None

    def analyse_game(self, record: Optional[game_pb2.GameRecord] = None,
                     record_text: Optional[str] = None, *, level: str = "",
                     timeout: Optional[float] = None) -> game_pb2.GameAnalysis:
        """Reviews a game given as a GameRecord or in its text form."""
        request = engine_pb2.AnalyseGameRequest(level=level, **_record(record, record_text))
        return self._call("AnalyseGame", request, timeout)

    def roll_dice(self, seed: int = 0, index: int = 0, count: int = 1, *,
                  timeout: Optional[float] = None) -> engine_pb2.RollDiceResponse:
        """Throws `index`.. of the seeded sequence (seed 0: the server's choice)."""
        return self._call("RollDice", engine_pb2.RollDiceRequest(seed=seed, index=index, count=count),
                          timeout)

    def start_dealt_game(self, timeout: Optional[float] = None) -> engine_pb2.StartDealtGameResponse:
        """A dealt game's commitment and token (docs/frontend.md)."""
        return self._call("StartDealtGame", engine_pb2.StartDealtGameRequest(), timeout)

    def bind_dealt_game(self, token: str, client_seed: str, rules: str = "",
                        start: Optional[PositionLike] = None, *,
                        timeout: Optional[float] = None) -> engine_pb2.BindDealtGameResponse:
        """Fixes a dealt game's client seed, rules and start, once; no later
        call takes a seed (docs/frontend.md)."""
        request = engine_pb2.BindDealtGameRequest(token=token, client_seed=client_seed, rules=rules)
        if start is not None:
            request.start.CopyFrom(to_position(start))
        return self._call("BindDealtGame", request, timeout)

    def deal_throw(self, token: str, index: int, play: str = "", *,
                   client_value: Optional[str] = None,
                   timeout: Optional[float] = None) -> engine_pb2.Throw:
        """Throw `index` of a bound dealt game, the next one: `play` is the
        play made with throw index - 1 (empty for index 0), checked on the
        server's board; `client_value` the throw's fresh value (16 random
        bytes in lower-case hex; drawn here when not given)."""
        request = engine_pb2.DealThrowRequest(
            token=token, index=index, play=play,
            client_value=client_value if client_value is not None else secrets.token_hex(16))
        return self._call("DealThrow", request, timeout).throw

    def reveal_dealt_game(self, token: str, play: str = "",
                          record: Optional[game_pb2.GameRecord] = None,
                          record_text: Optional[str] = None, *,
                          timeout: Optional[float] = None) -> engine_pb2.RevealDealtGameResponse:
        """The secret of a dealt game that `play` (the play of the last throw
        dealt; empty: the record's last) ends on the server's board, and its
        record with the headers `uckers verify` checks."""
        request = engine_pb2.RevealDealtGameRequest(token=token, play=play,
                                                    **_record(record, record_text))
        return self._call("RevealDealtGame", request, timeout)

    def judge_play(self, position: PositionLike, throw: ThrowLike, play: str, rules: str = "", *,
                   level: str = "", alternatives: int = 0,
                   timeout: Optional[float] = None) -> engine_pb2.JudgePlayResponse:
        """The tutor's verdict on one play: equity lost, mark, alternatives."""
        request = engine_pb2.JudgePlayRequest(
            position=to_position(position), throw=to_throw(throw), play=play,
            rules=rules, level=level, alternatives=alternatives)
        return self._call("JudgePlay", request, timeout)

    def throw_map(self, position: PositionLike, rules: str = "", *, level: str = "",
                  timeout: Optional[float] = None) -> engine_pb2.ThrowMapResponse:
        """The next throw's map: the 21 throws, each with its best play."""
        request = engine_pb2.ThrowMapRequest(position=to_position(position), rules=rules,
                                             level=level)
        return self._call("ThrowMap", request, timeout)


def record_text(items: Sequence[str], result: Optional[engine_pb2.GameResult] = None,
                rules: str = "navy", headers: Optional[Mapping[str, str]] = None) -> str:
    """A game in the record's text form (docs/records.md): `items` are its
    `<throw>:<play>` items, `result` the GameResult of its last play (for
    the `Result` header; none or unfinished: `*`)."""
    lines = [f'[Rules "{rules}"]']
    for key, value in (headers or {}).items():
        if any(c in str(value) for c in '"\n'):
            raise ValueError(f"header {key}: {value!r} holds a quote or a newline")
        lines.append(f'[{key} "{value}"]')
    if result is not None and result.finished:
        team = {engine_pb2.TEAM_RED_YELLOW: "RY", engine_pb2.TEAM_GREEN_BLUE: "GB"}.get(result.winner)
        if team is None:
            raise ValueError("record_text: the result names no team (a layout of more sides?)")
        lines.append(f'[Result "{team} {result.points}"]')
    else:
        lines.append('[Result "*"]')
    return "\n".join(lines) + "\n\n" + " ".join(items) + "\n"
