"""A driver of a local `uckers` process over its text protocol
(../shared/PROTOCOL.md, docs/protocol.md), in the manner of python-chess's
`chess.engine`:

    from uckers.engine import Engine, Limit
    with Engine.popen("build/uckers") as engine:
        result = engine.best_move("startpos", (6, 3), Limit(time=0.1))
        print(result.play, result.info.score)

Every command the engine refuses raises `EngineError` naming the engine's
own line (`info string error: ...`); an engine that exits raises
`EngineTerminatedError` with its exit status and last stderr lines; an
answer that does not come in time raises `EngineTimeoutError` (a search is
stopped and the engine goes on; an engine that does not answer the stop, or
any other command, in time is killed).
"""

from __future__ import annotations

import collections
import dataclasses
import queue
import subprocess
import threading
import time
from typing import Dict, List, Mapping, Optional, Sequence, Tuple, Union

ThrowLike = Union[str, Tuple[int, int], Sequence[int]]

#: Seconds the engine gets to answer a command that does not search, and
#: beyond its search limit for one that does.
DEFAULT_TIMEOUT = 10.0


class EngineError(Exception):
    """The engine refused a command; `line` is its answer (`info string
    error: ...`) or the reason the driver gives, `command` what was sent."""

    def __init__(self, message: str, line: str = "", command: str = ""):
        super().__init__(message)
        self.line = line
        self.command = command


class EngineTerminatedError(EngineError):
    """The engine process exited (or could not be talked to); `returncode`
    is its exit status, `stderr` its last lines on stderr."""

    def __init__(self, message: str, returncode: Optional[int] = None, stderr: str = "",
                 command: str = ""):
        super().__init__(message, "", command)
        self.returncode = returncode
        self.stderr = stderr


class EngineTimeoutError(EngineError, TimeoutError):
    """No answer within the timeout."""


@dataclasses.dataclass(frozen=True)
class Limit:
    """When a search stops; None does not limit. `time` is in seconds (the
    engine's `movetime`, spent: the search deepens within it), `depth` in
    plies, `nodes` in positions evaluated. No limit at all searches to the
    level's depth."""

    time: Optional[float] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None

    def words(self) -> List[str]:
        out = []
        if self.time is not None:
            if isinstance(self.time, bool) or not isinstance(self.time, (int, float)) or self.time <= 0:
                raise ValueError(f"Limit.time: must be positive seconds, not {self.time!r}")
            out += ["movetime", str(max(1, round(self.time * 1000)))]
        for name in ("depth", "nodes"):
            value = getattr(self, name)
            if value is not None:
                if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                    raise ValueError(f"Limit.{name}: must be an integer of 1 or more, not {value!r}")
                out += [name, str(value)]
        return out


@dataclasses.dataclass(frozen=True)
class Score:
    """The mover's team's (or side's) win probability and expected points."""

    win: float
    points: float


@dataclasses.dataclass
class Info:
    """One `info` line: what the search had found at a depth."""

    depth: Optional[int] = None
    nodes: Optional[int] = None
    nps: Optional[int] = None
    time: Optional[float] = None  # seconds
    multipv: Optional[int] = None
    score: Optional[Score] = None
    pv: List[str] = dataclasses.field(default_factory=list)
    sides: List[float] = dataclasses.field(default_factory=list)  # more than two sides
    line: str = ""

    @classmethod
    def parse(cls, line: str) -> "Info":
        """Reads an `info` line; words it does not know are skipped."""
        info = cls(line=line)
        words = line.split()[1:]
        i = 0
        ints = {"depth", "nodes", "nps", "multipv"}
        try:
            while i < len(words):
                word = words[i]
                if word in ints:
                    setattr(info, word, int(words[i + 1]))
                    i += 2
                elif word == "time":
                    info.time = int(words[i + 1]) / 1000
                    i += 2
                elif word == "score" and words[i + 1] == "win" and words[i + 3] == "points":
                    info.score = Score(float(words[i + 2]), float(words[i + 4]))
                    i += 5
                elif word == "pv":
                    i += 1
                    while i < len(words) and words[i] not in ints | {"time", "score", "sides"}:
                        info.pv.append(words[i])
                        i += 1
                elif word == "sides":
                    i += 1
                    while i < len(words):
                        try:
                            info.sides.append(float(words[i]))
                        except ValueError:
                            break
                        i += 1
                else:
                    i += 1
        except (IndexError, ValueError):
            raise EngineError(f"engine printed a malformed info line: {line!r}", line) from None
        return info


@dataclasses.dataclass
class PlayResult:
    """A best move: the play chosen for the throw, and the last `info` line."""

    play: str
    info: Info


@dataclasses.dataclass(frozen=True)
class LegalPlay:
    """A legal play and the UFEN of the position it leads to."""

    play: str
    ufen: str


@dataclasses.dataclass(frozen=True)
class Option:
    """An option the engine declares on `uci`."""

    name: str
    type: str
    default: str
    min: Optional[int] = None
    max: Optional[int] = None
    vars: Tuple[str, ...] = ()


def throw_words(throw: ThrowLike) -> List[str]:
    """`(6, 3)` or `"63"` as the protocol's two dice words."""
    if isinstance(throw, str):
        if len(throw) != 2 or not throw.isdigit():
            raise ValueError(f"throw: {throw!r} is not two digits such as '63'")
        return [throw[0], throw[1]]
    try:
        die1, die2 = throw
    except (TypeError, ValueError):
        raise TypeError(f"throw: expected (die1, die2) or '63', not {throw!r}") from None
    for d in (die1, die2):
        if isinstance(d, bool) or not isinstance(d, int):
            raise TypeError(f"throw: dice must be integers, not {throw!r}")
    return [str(die1), str(die2)]


def _one_line(what: str, text: str) -> str:
    if not isinstance(text, str):
        raise TypeError(f"{what}: expected a string, not {type(text).__name__}")
    if "\n" in text or "\r" in text:
        raise ValueError(f"{what}: must be one line, not {text!r}")
    if not text.strip():
        raise ValueError(f"{what}: empty")
    return text.strip()


def position_command(position: str, moves: Sequence[str] = ()) -> str:
    """`position startpos|ufen <UFEN> [moves ...]` for `position`
    ("startpos" or a UFEN) and a game's `<throw>:<play>` items."""
    position = _one_line("position", position)
    words = ["position"] + (["startpos"] if position == "startpos" else ["ufen", position])
    if isinstance(moves, str):
        raise TypeError("moves: expected a sequence of '<throw>:<play>' items, not one string")
    if moves:
        words.append("moves")
        for item in moves:
            item = _one_line("moves item", item)
            if " " in item:
                raise ValueError(f"moves item: {item!r} has a space; items are '<throw>:<play>'")
            words.append(item)
    return " ".join(words)


class Engine:
    """One `uckers` process speaking the text protocol. Start it with
    `Engine.popen`; end it with `quit()` or a `with` block. Not for use
    from several threads at once."""

    def __init__(self, process: subprocess.Popen, timeout: float = DEFAULT_TIMEOUT):
        self.process = process
        self.timeout = timeout
        self.id: Dict[str, str] = {}
        self.options: Dict[str, Option] = {}
        self._lines: "queue.Queue[Optional[str]]" = queue.Queue()
        self._stderr: collections.deque = collections.deque(maxlen=20)
        self._multipv = 1
        self._closed = False
        self._readers = [threading.Thread(target=self._read_stdout, daemon=True),
                         threading.Thread(target=self._read_stderr, daemon=True)]
        for reader in self._readers:
            reader.start()

    @classmethod
    def popen(cls, command: Union[str, Sequence[str]] = "uckers", *,
              timeout: float = DEFAULT_TIMEOUT,
              options: Optional[Mapping[str, object]] = None, **popen_args) -> "Engine":
        """Starts `command` (a path, or a list of the program and its
        arguments), shakes hands (`uci` ... `uciok`) and sets `options`.
        `timeout` is the default for every later call."""
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0:
            raise ValueError(f"timeout: must be positive seconds, not {timeout!r}")
        argv = [command] if isinstance(command, str) else list(command)
        process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, bufsize=1, **popen_args)
        engine = cls(process, timeout)
        try:
            engine._handshake()
            if options:
                engine.configure(options)
        except BaseException:
            engine._kill()
            raise
        return engine

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exc) -> None:
        self.quit()

    # -- the commands -------------------------------------------------------

    def configure(self, options: Mapping[str, object]) -> None:
        """Sets options (`{"Level": "expert", "Rules": "mess"}`): `setoption`
        for each; a bad name or value raises EngineError naming the
        engine's line, and the options after it are not set."""
        for name, value in options.items():
            name = _one_line("option name", name)
            if isinstance(value, bool):
                value = "true" if value else "false"
            value = _one_line(f"option {name}", str(value))
            self._run([f"setoption name {name} value {value}"])
            if name.lower() == "multipv":
                self._multipv = int(value)

    def new_game(self) -> None:
        """`ucinewgame`: clears the search's tables."""
        self._run(["ucinewgame"])

    def ping(self, timeout: Optional[float] = None) -> None:
        """`isready` ... `readyok`."""
        self._run([], timeout)

    def legal(self, position: str, throw: ThrowLike, *, moves: Sequence[str] = (),
              timeout: Optional[float] = None) -> List[LegalPlay]:
        """Every distinct legal play for `throw` with the UFEN it leads to,
        sorted by its text; empty when the game is over."""
        self._run([position_command(position, moves)], timeout)
        lines = self._run(["legal " + " ".join(throw_words(throw))], timeout)
        plays = []
        for line in lines:
            words = line.split()
            if words[:1] == ["play"] and len(words) >= 4 and words[2] == "ufen":
                plays.append(LegalPlay(words[1], " ".join(words[3:])))
        return plays

    def best_move(self, position: str, throw: ThrowLike, limit: Optional[Limit] = None, *,
                  moves: Sequence[str] = (), timeout: Optional[float] = None) -> PlayResult:
        """The engine's play for `throw` in `position` ("startpos" or a
        UFEN, after the game's `moves`), searched within `limit`."""
        self._run([position_command(position, moves)], timeout)
        words = ["go", "dice"] + throw_words(throw) + (limit or Limit()).words()
        infos, best = self._go(" ".join(words), limit, timeout)
        if best is None or best == "(none)":
            raise EngineError(f"engine gave no play: bestmove {best}", f"bestmove {best}",
                              " ".join(words))
        return PlayResult(best, infos[-1] if infos else Info())

    def analyse(self, position: str, limit: Optional[Limit] = None, *,
                throw: Optional[ThrowLike] = None, multipv: Optional[int] = None,
                moves: Sequence[str] = (), timeout: Optional[float] = None
                ) -> Union[Info, List[Info]]:
        """The search's last word on `position`: before the throw, or with
        `throw` on its plays (pv the best). With `multipv` a list of the
        best `multipv` candidates' infos, best first; else one Info."""
        if multipv is not None and (isinstance(multipv, bool) or not isinstance(multipv, int)
                                    or multipv < 1):
            raise ValueError(f"multipv: must be an integer of 1 or more, not {multipv!r}")
        self._run([position_command(position, moves)], timeout)
        words = ["go"] + (["dice"] + throw_words(throw) if throw is not None else [])
        words += (limit or Limit()).words()
        previous = self._multipv
        if multipv is not None and multipv != previous:
            self.configure({"MultiPV": multipv})
        try:
            infos, _ = self._go(" ".join(words), limit, timeout)
        finally:
            if multipv is not None and multipv != previous:
                self.configure({"MultiPV": previous})
        if not infos:
            raise EngineError("engine printed no info line", "", " ".join(words))
        if multipv is None:
            return infos[-1]
        last_depth = infos[-1].depth
        by_rank = {}
        for info in infos:
            if info.depth == last_depth:
                by_rank[info.multipv or 1] = info
        return [by_rank[k] for k in sorted(by_rank)]

    def quit(self, timeout: Optional[float] = None) -> int:
        """`quit`, then waits for the process to exit (killing it after
        `timeout`); returns its exit status. Calling it again does nothing."""
        if self._closed:
            return self.process.returncode if self.process.returncode is not None else -1
        self._closed = True
        try:
            self._send("quit")
        except EngineTerminatedError:
            pass
        try:
            return self.process.wait(timeout=timeout or self.timeout)
        except subprocess.TimeoutExpired:
            self._kill()
            return self.process.returncode
        finally:
            self._close_pipes()

    # -- the exchange ---------------------------------------------------------

    def _read_stdout(self) -> None:
        for line in self.process.stdout:
            self._lines.put(line.rstrip("\r\n"))
        self._lines.put(None)

    def _read_stderr(self) -> None:
        for line in self.process.stderr:
            self._stderr.append(line.rstrip("\r\n"))

    def _terminated(self, command: str) -> EngineTerminatedError:
        try:
            code = self.process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            code = None
        if code is not None:
            self._readers[1].join(timeout=1)  # its last words on stderr
        tail = "\n".join(self._stderr)
        message = f"engine exited (status {code}) while answering {command!r}"
        if tail:
            message += ": " + tail.splitlines()[-1]
        return EngineTerminatedError(message, code, tail, command)

    def _send(self, line: str) -> None:
        if self.process.poll() is not None and line != "quit":
            raise self._terminated(line)
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, ValueError, OSError):
            raise self._terminated(line) from None

    def _read_until(self, end: str, deadline: float, command: str) -> List[str]:
        """Lines up to (not with) the first that starts with `end`."""
        lines = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineTimeoutError(f"no {end!r} from the engine within the timeout after "
                                         f"{command!r}", "", command)
            try:
                line = self._lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                self._lines.put(None)  # every later read sees the end too
                raise self._terminated(command)
            if line.split()[:1] == [end]:
                lines.append(line)
                return lines
            lines.append(line)

    def _check(self) -> None:
        if self._closed:
            raise EngineTerminatedError("engine was quit", self.process.returncode)

    def _run(self, commands: List[str], timeout: Optional[float] = None) -> List[str]:
        """Sends `commands` and `isready`; returns the lines before
        `readyok`. An error line raises EngineError naming it."""
        self._check()
        for command in commands:
            self._send(command)
        self._send("isready")
        what = "; ".join(commands) or "isready"
        try:
            lines = self._read_until("readyok", time.monotonic() + (timeout or self.timeout), what)[:-1]
        except EngineTimeoutError:
            # Its answer could still come and be taken for the next one's.
            self._kill()
            raise EngineTimeoutError(f"no answer to {what!r} within the timeout: the engine was "
                                     "killed", "", what) from None
        for line in lines:
            if line.startswith("info string error:"):
                raise EngineError(f"engine refused {what!r}: {line}", line, what)
        return lines

    def _go(self, command: str, limit: Optional[Limit], timeout: Optional[float]
            ) -> Tuple[List[Info], Optional[str]]:
        """Runs a `go` to its `bestmove`: the info lines and the play. Past
        the timeout (the default beyond the limit's time) the search is
        stopped and EngineTimeoutError raised."""
        self._check()
        budget = timeout or (self.timeout + (limit.time if limit and limit.time else 0))
        self._send(command)
        self._send("isready")
        try:
            lines = self._read_until("readyok", time.monotonic() + budget, command)[:-1]
        except EngineTimeoutError:
            self._send("stop")
            try:
                self._read_until("readyok", time.monotonic() + 2, "stop")
            except (EngineTimeoutError, EngineTerminatedError):
                self._kill()
                raise EngineTimeoutError(f"no bestmove within {budget} s after {command!r}, and "
                                         "no answer to stop: the engine was killed", "",
                                         command) from None
            raise EngineTimeoutError(f"no bestmove within {budget} s after {command!r}: the "
                                     "search was stopped", "", command) from None
        infos, best = [], None
        for line in lines:
            if line.startswith("info string error:"):
                raise EngineError(f"engine refused {command!r}: {line}", line, command)
            words = line.split()
            if words[:1] == ["info"] and words[1:2] != ["string"]:
                infos.append(Info.parse(line))
            elif words[:1] == ["bestmove"]:
                best = words[1] if len(words) > 1 else None
        if best is None:
            raise EngineError(f"engine printed no bestmove after {command!r}", "", command)
        return infos, best

    def _handshake(self) -> None:
        self._send("uci")
        for line in self._read_until("uciok", time.monotonic() + self.timeout, "uci")[:-1]:
            words = line.split()
            if words[:1] == ["id"] and len(words) >= 3:
                self.id[words[1]] = " ".join(words[2:])
            elif words[:2] == ["option", "name"] and "type" in words:
                option = _parse_option(words)
                self.options[option.name] = option
        multipv = self.options.get("MultiPV")
        if multipv and multipv.default.isdigit():
            self._multipv = int(multipv.default)

    def _kill(self) -> None:
        self._closed = True
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self._close_pipes()

    def _close_pipes(self) -> None:
        try:
            self.process.stdin.close()
        except OSError:
            pass
        if self.process.poll() is not None:
            for reader, pipe in zip(self._readers, (self.process.stdout, self.process.stderr)):
                reader.join(timeout=1)
                if not reader.is_alive():
                    pipe.close()


def _parse_option(words: List[str]) -> Option:
    at = words.index("type")
    name = " ".join(words[2:at])
    rest = words[at + 1:]
    kind = rest[0] if rest else ""
    fields: Dict[str, List[str]] = {}
    key = None
    for word in rest[1:]:
        if word in ("default", "min", "max", "var"):
            key = word
            if key == "var":
                fields.setdefault("var", []).append("")
            else:
                fields[key] = []
        elif key == "var":
            fields["var"][-1] = (fields["var"][-1] + " " + word).strip()
        elif key:
            fields[key].append(word)

    def number(k):
        try:
            return int(fields[k][0]) if fields.get(k) else None
        except ValueError:
            return None

    return Option(name, kind, " ".join(fields.get("default", [])), number("min"), number("max"),
                  tuple(fields.get("var", [])))
