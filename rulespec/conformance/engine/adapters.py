"""Adapters: how the kit talks to an engine, in the same process or over the engine protocol.

``Adapter`` is the typed protocol every adapter satisfies. ``InProcessAdapter`` wraps any
``rulespec.reference.core.Engine`` class (the reference itself, or a Python engine built on the core);
``SubprocessAdapter`` runs a command and speaks JSON-RPC 2.0 as JSON Lines on its stdin/stdout,
with a per-call timeout and a cap on line length, so an engine that crashes, hangs or prints
garbage becomes an ``EngineFailure`` and never a crash or hang of the kit.
"""

from __future__ import annotations

import contextlib
import os
import select
import shlex
import subprocess
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from typing import IO, Any, Protocol, runtime_checkable

from rulespec.conformance.engine import processes
from rulespec.conformance.engine.protocol import (
    BAD_CONFIG,
    PROTOCOL,
    ConfigRefused,
    EngineCrashed,
    EngineError,
    EngineFailure,
    EngineTimeout,
    Hello,
    Legal,
    ProtocolViolation,
    declared_parameters,
    dumps,
    encode_known,
    encode_line,
    finite_json,
    legal_of,
    loads,
    loads_known,
    observation_of,
    rejection_of,
    state_of,
    without_rulings,
)
from rulespec.data import installed_version
from rulespec.reference.core import (
    ConfigError,
    Engine,
    IllegalAction,
    Rejection,
    config_from_json,
)
from rulespec.reference.observation import observation
from rulespec.reference.registry import engine_class
from rulespec.spec.model import Spec
from rulespec.spec.registry import get_spec

#: Default seconds an engine may take to answer one call.
DEFAULT_TIMEOUT = 10.0
#: Seconds a freshly started engine may take to answer its first call (hello).
DEFAULT_STARTUP_TIMEOUT = 30.0
#: Longest response line accepted, in bytes (a guard against runaway output).
MAX_LINE = 4 * 1024 * 1024
#: Steps the kit sends ahead over the protocol (``SubprocessAdapter.pipeline``).
PIPELINE = 4
#: Steps an engine's states are compared as bytes before the kit stops trying, if none matched
#: (``SubprocessAdapter.expect``).
KNOWN_TRIES = 32
#: Requests sent ahead that are written out together (two steps of three requests): the engine
#: gets work as the kit goes, without a system call per step.
FLUSH_AT = 6


@runtime_checkable
class Adapter(Protocol):
    """What the kit needs from an engine under test."""

    def hello(self) -> Hello:
        """Return what the engine supports."""
        ...

    def start(self, config: Mapping[str, Any]) -> None:
        """Begin a new game from a JSON configuration; raise ConfigError if unplayable."""
        ...

    def legal(self) -> Legal:
        """Return who is to move and the legal actions (with probabilities at chance nodes)."""
        ...

    def state(self) -> dict[str, Any]:
        """Return the canonical JSON state."""
        ...

    def apply(self, action: Any) -> Rejection | None:
        """Apply ``action``; return None when accepted, the engine's Rejection when refused."""
        ...

    def step(self, action: Any) -> tuple[Rejection | None, dict[str, Any], Legal]:
        """Apply ``action``, then return (rejection or None, state, legal) in one go."""
        ...

    def probe(self, action: Any) -> tuple[Rejection | None, dict[str, Any] | None]:
        """Try an action expected to be illegal: (rejection or None, state if it was refused)."""
        ...

    def send_step(self, action: Any) -> Callable[[], StepResult]:
        """Start ``step(action)``; return a function that waits for and returns its result.

        Several may be in flight; their results must be collected in the order they were sent
        (a result never collected is skipped by the next call).
        """
        ...

    def send_probe(self, action: Any) -> Callable[[], ProbeResult]:
        """Start ``probe(action)``; like ``send_step``."""
        ...

    def close(self) -> None:
        """Release the engine (end its process)."""
        ...


#: What ``step`` returns: the rejection (None when accepted), the state, the legal actions.
StepResult = tuple[Rejection | None, dict[str, Any], Legal]
#: What ``probe`` returns: the rejection (None when accepted), the state when refused.
ProbeResult = tuple[Rejection | None, dict[str, Any] | None]
#: What an optional ``send_replay`` collects: the rejection (None when accepted), the state.
ReplayResult = tuple[Rejection | None, dict[str, Any]]


class InProcessAdapter:
    """Run an engine class built on ``rulespec.reference.core.Engine`` in this process."""

    def __init__(self, engines: Mapping[str, type[Engine]] | None = None, *,
                 name: str = "reference", factory: Callable[[Spec], type[Engine]] | None = None
                 ) -> None:
        """Serve ``engines`` (game id -> class); without them, the reference of every game."""
        self.name = name
        self._engines = dict(engines) if engines is not None else None
        self._factory = factory or engine_class
        self.engine: Engine | None = None
        #: Ruling keys left out of every ``start`` (``hold``).
        self.held: frozenset[str] = frozenset()

    def _class(self, spec: Spec) -> type[Engine]:
        if self._engines is not None:
            if spec.game_id not in self._engines:
                raise ConfigError(f"{self.name} does not play {spec.game_id!r}")
            return self._engines[spec.game_id]
        return self._factory(spec)

    def hello(self) -> Hello:
        """Declare every ruling option and variant of the games served."""
        from rulespec.spec.registry import usable_game_ids

        ids = list(self._engines) if self._engines is not None else usable_game_ids()
        games: dict[str, Any] = {}
        for gid in ids:
            spec = get_spec(gid)
            games[gid] = {
                "spec_version": spec.version,
                "rulings": {aid: [str(o["id"]) for o in a["options"]]
                            for aid, a in spec.ambiguities.items()},
                "variants": sorted(spec.variants),
                "players": list(range(spec.min_players, spec.max_players + 1)),
                "parameters": declared_parameters(spec),
            }
        return Hello(self.name, installed_version("0"), games, ("batch", "observation"))

    def start(self, config: Mapping[str, Any]) -> None:
        """Build a fresh engine for ``config``."""
        config = without_rulings(config, self.held)
        game = config.get("game")
        if not isinstance(game, str):
            raise ConfigError(f"configuration needs a game id, not {game!r}")
        spec = get_spec(game)
        self.engine = self._class(spec)(spec, config_from_json(spec, dict(config)))

    def hold(self, records: frozenset[str]) -> None:
        """Leave ``records`` out of every ``start``'s rulings (``rulespec.conformance.judging.versions``)."""
        self.held = frozenset(records)

    def _engine(self) -> Engine:
        if self.engine is None:
            raise ConfigError("no game in progress; call start first")
        return self.engine

    def legal(self) -> Legal:
        """Ask the engine who moves and what is legal."""
        return legal_of(self._engine())

    def state(self) -> dict[str, Any]:
        """Return the engine's canonical state."""
        return self._engine().state()

    def observation(self, player: int) -> Any:
        """Return ``player``'s view: what ``state.hidden`` and the rulings hide, replaced."""
        return observation(self._engine(), player)

    def apply(self, action: Any) -> Rejection | None:
        """Apply ``action``, turning IllegalAction into a Rejection."""
        try:
            self._engine().apply(action)
        except IllegalAction as exc:
            return Rejection(exc.reason, exc.clauses)
        return None

    def step(self, action: Any) -> tuple[Rejection | None, dict[str, Any], Legal]:
        """Apply, then report state and legal actions."""
        rejection = self.apply(action)
        return rejection, self.state(), self.legal()

    def probe(self, action: Any) -> tuple[Rejection | None, dict[str, Any] | None]:
        """Apply an action expected to be illegal; the state when it was refused."""
        rejection = self.apply(action)
        return rejection, self.state() if rejection is not None else None

    def send_step(self, action: Any) -> Callable[[], StepResult]:
        """Step now (there is nothing to overlap in one process)."""
        result = self.step(action)
        return lambda: result

    def send_probe(self, action: Any) -> Callable[[], ProbeResult]:
        """Probe now."""
        result = self.probe(action)
        return lambda: result

    def send_replay(self, action: Any) -> Callable[[], ReplayResult]:
        """Apply and report the state (no legal actions): a step of a determinism replay."""
        result = (self.apply(action), self.state())
        return lambda: result

    def close(self) -> None:
        """Drop the game."""
        self.engine = None


class SubprocessAdapter:
    """Run ``command`` and speak the engine protocol with it over stdin/stdout.

    The process is started on first use and restarted by ``start`` after a failure. Its
    standard error goes to a temporary file whose tail is quoted when the engine fails.
    """

    def __init__(self, command: str | Sequence[str], *, timeout: float = DEFAULT_TIMEOUT,
                 startup_timeout: float = DEFAULT_STARTUP_TIMEOUT, max_line: int = MAX_LINE,
                 cwd: str | None = None, env: Mapping[str, str] | None = None) -> None:
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv:
            raise ConfigError("the engine command is empty; give the program to run")
        self.timeout = timeout
        self.startup_timeout = max(timeout, startup_timeout)
        self.max_line = max_line
        self.cwd = cwd
        self.env = dict(env) if env is not None else None
        self.proc: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] | None = None
        self._buffer = b""
        self._next_id = 0
        self._inflight: list[list[int]] = []
        #: The last request id sent for sure (later ones may wait in the pipe's buffer).
        self._flushed_id = 0
        self._hello: Hello | None = None
        self.calls = 0
        #: The answer ``expect`` announced for the next batch collected: its bytes and value.
        self._known: dict[bytes, Any] = {}
        #: The last state encoded for ``expect`` (a probe expects the state of the step before).
        self._encoded: tuple[Any, bytes | None] = (None, None)
        #: How many announced answers came byte for byte as announced, and how many did not.
        self.known_hits = 0
        self.known_misses = 0
        #: How many steps the kit may send ahead of the one it checks (``Conformance``): the
        #: engine gets them in one write and the kit reads the answers as it checks.
        self.pipeline = PIPELINE
        #: Ruling keys left out of every ``start`` (``hold``).
        self.held: frozenset[str] = frozenset()

    # -- process -----------------------------------------------------------------------------

    def _spawn(self) -> subprocess.Popen[bytes]:
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the process
        try:
            with processes.spawning():
                self.proc = subprocess.Popen(
                    self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                    stderr=self._stderr, cwd=self.cwd,
                    env=None if self.env is None else {**os.environ, **self.env},
                    start_new_session=True)
                processes.register(self.proc)
        except OSError as exc:
            raise EngineCrashed(f"cannot start engine {shlex.join(self.argv)!r}: {exc}") from None
        if self.proc.stdout is not None:
            # Read without blocking: an answer already written is taken at once, without asking
            # select first (``_read_line``), which saves a system call per answer.
            os.set_blocking(self.proc.stdout.fileno(), False)
        self._buffer = b""
        return self.proc

    def _process(self) -> subprocess.Popen[bytes]:
        if self.proc is None or self.proc.poll() is not None:
            if self.proc is not None:
                raise self._crashed("the engine process has exited and closed its output")
            return self._spawn()
        return self.proc

    def stderr_tail(self, limit: int = 2000) -> str:
        """Return the end of what the engine wrote to standard error."""
        if self._stderr is None:
            return ""
        with contextlib.suppress(OSError, ValueError):
            self._stderr.flush()
            size = self._stderr.seek(0, os.SEEK_END)
            self._stderr.seek(max(0, size - limit))
            return self._stderr.read().decode("utf-8", "replace")
        return ""

    def _crashed(self, what: str) -> EngineCrashed:
        code = self.proc.poll() if self.proc is not None else None
        # One line, however many the engine wrote (a traceback of its own, say).
        tail = " | ".join(line.strip() for line in self.stderr_tail().splitlines() if line.strip())
        msg = f"{what} (exit status {code})" if code is not None else what
        if tail:
            msg += f"; its stderr ends with: {tail[-600:]}"
        self.kill()
        return EngineCrashed(msg)

    def kill(self) -> None:
        """End the engine process now (and its process group)."""
        proc, self.proc = self.proc, None
        if proc is not None and proc.poll() is None:
            processes.kill_group(proc)
        if proc is not None:
            processes.unregister(proc)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=2)
            for stream in (proc.stdin, proc.stdout):
                with contextlib.suppress(OSError):
                    if stream is not None:
                        stream.close()
        self._buffer = b""
        self._inflight = []

    # -- wire --------------------------------------------------------------------------------

    def _send(self, payload: Any, *, flush: bool = True, built: bool = False) -> None:
        """Write one request line; unless ``flush``, it waits in the pipe's buffer until the kit
        next awaits an answer or ``FLUSH_AT`` requests wait (``_send_batch``): the steps sent
        ahead reach the engine a few at a time while the kit checks earlier ones. Such a write
        does not ask whether the process still runs (a system call per step): the flush or the
        read finds out.

        ``built``: the payload holds only values an engine built (a step's action is one of the
        reference's legal actions), so ``encode_line`` may write it (msgspec, when installed).
        Another payload (a probe's odd values) is written so too when it holds no NaN or
        infinity (where msgspec writes null); else by the standard library, the reference.
        """
        proc = self.proc if not flush and self.proc is not None else self._process()
        if proc.stdin is None:  # pragma: no cover - Popen was given PIPE
            raise EngineCrashed("no pipe to the engine")
        try:
            line = (encode_line(payload) if built or finite_json(payload)
                    else dumps(payload).encode("utf-8"))
            proc.stdin.write(line + b"\n")
            if flush:
                proc.stdin.flush()
                self._flushed_id = self._next_id
        except (BrokenPipeError, OSError):
            raise self._crashed("the engine closed its input") from None

    def _flush(self) -> None:
        """Send the requests still waiting in the buffer."""
        proc = self.proc
        self._flushed_id = self._next_id
        if proc is None or proc.stdin is None:
            return
        try:
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._crashed("the engine process has exited and closed its output"
                                if proc.poll() is not None else
                                "the engine closed its input") from None

    def _read_line(self, what: str, timeout: float | None = None) -> bytes:
        # A process that has exited is found at the end of its output (the answers it wrote
        # before are read first), without asking the system at every line.
        proc = self.proc if self.proc is not None else self._process()
        if proc.stdout is None:  # pragma: no cover
            raise EngineCrashed("no pipe from the engine")
        fd = proc.stdout.fileno()
        limit = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + limit
        while True:
            nl = self._buffer.find(b"\n")
            if nl >= 0:
                line, self._buffer = self._buffer[:nl], self._buffer[nl + 1:]
                if len(line) > self.max_line:
                    self.kill()
                    raise ProtocolViolation(f"{what}: response line of {len(line)} bytes is "
                                            f"longer than the {self.max_line}-byte limit")
                return line
            if len(self._buffer) > self.max_line:
                self.kill()
                raise ProtocolViolation(f"{what}: response line longer than the "
                                        f"{self.max_line}-byte limit")
            # An answer already written is read at once; the time limit is asked only while
            # the kit waits, or while a line is coming in pieces (a trickle never ends it).
            left = deadline - time.monotonic() if self._buffer else 1.0
            if left > 0:
                try:
                    chunk = os.read(fd, 1 << 16)
                except BlockingIOError:  # nothing written yet: wait for it
                    left = deadline - time.monotonic()
                    if left > 0:
                        select.select([fd], [], [], left)
                        continue
            if left <= 0:
                self.kill()
                raise EngineTimeout(f"{what}: no answer within {limit:g} s; the engine "
                                    "hangs or is too slow (raise --timeout if it is just slow)")
            if not chunk:
                raise self._crashed(f"{what}: the engine closed its output")
            self._buffer += chunk

    def expect(self, state: Mapping[str, Any], legal: Legal | None = None) -> None:
        """Say which state (and legal actions) the next batch collected should carry.

        Optional for an adapter: the kit calls it when it knows the answer a conformant engine
        gives. An answer that is byte for byte the reference server's encoding of ``state``
        (or of ``legal``) is then taken as that object itself without being parsed; any other
        answer is parsed as ever, so nothing changes but the time. An engine that never writes
        its answers that way (another key order, spaces) stops being asked after a few steps.
        """
        if self.known_hits == 0 and self.known_misses >= KNOWN_TRIES:
            return
        last, encoded = self._encoded
        if last is not state:
            encoded = encode_known(state)
            self._encoded = (state, encoded)
        known: dict[bytes, Any] = {}
        if encoded is not None:
            known[b'{"state":' + encoded + b"}"] = {"state": state}
        if legal is not None:
            # A long list of chance outcomes costs far more to read than to write.
            legal_encoded = encode_known(legal.to_json())
            if legal_encoded is not None:
                known[legal_encoded] = legal
        self._known = known

    def _decode(self, line: bytes, what: str) -> Any:
        known, self._known = self._known, {}
        try:
            if known:
                msg = loads_known(line, known)
                if isinstance(msg, list) and any(
                        isinstance(m, dict) and m.get("result") is v
                        for m in msg for v in known.values()):
                    self.known_hits += 1
                else:
                    self.known_misses += 1
                return msg
            return loads(line)
        except RecursionError:
            self.kill()
            raise ProtocolViolation(f"{what}: the engine printed JSON nested too deeply to "
                                    "read") from None
        except ValueError:  # not JSON, not UTF-8, or an integer of thousands of digits
            self.kill()
            raise ProtocolViolation(f"{what}: the engine printed something that is not JSON: "
                                    f"{line[:200]!r}; write only protocol lines to stdout and "
                                    "logs to stderr") from None

    def _check_response(self, msg: Any, ident: int, method: str) -> Any:
        if not isinstance(msg, dict) or msg.get("jsonrpc") != "2.0":
            self.kill()
            raise ProtocolViolation(f"{method}: not a JSON-RPC 2.0 response: {msg!r:.200}")
        if msg.get("id") != ident:
            self.kill()
            raise ProtocolViolation(f"{method}: answer carries id {msg.get('id')!r:.40} but the "
                                    f"request had id {ident}")
        if "error" in msg:
            err = msg["error"]
            if not isinstance(err, dict) or not isinstance(err.get("code"), int):
                self.kill()
                raise ProtocolViolation(f"{method}: malformed error object {err!r:.200}")
            raise EngineError(method, err["code"], str(err.get("message", "")), err.get("data"))
        if "result" not in msg:
            self.kill()
            raise ProtocolViolation(f"{method}: response has neither result nor error")
        return msg["result"]

    def _request(self, method: str, params: Mapping[str, Any]) -> dict[str, Any]:
        self._next_id += 1
        return {"jsonrpc": "2.0", "id": self._next_id, "method": method, "params": dict(params)}

    def call(self, method: str, params: Mapping[str, Any] | None = None) -> Any:
        """Send one request and return its result; raise EngineFailure or EngineError."""
        req = self._request(method, params or {})
        self.calls += 1
        fresh = self.proc is None
        self._send(req)
        self._drain()
        wait = self.startup_timeout if fresh else self.timeout
        msg = self._decode(self._read_line(method, wait), method)
        return self._check_response(msg, req["id"], method)

    def batch(self, calls: Sequence[tuple[str, Mapping[str, Any]]]) -> list[Any]:
        """Send a JSON-RPC batch; return each result or the EngineError it raised, in order."""
        reqs = [self._request(m, p) for m, p in calls]
        self.calls += 1
        self._send(reqs)
        self._drain()
        return self._collect(reqs, "+".join(m for m, _ in calls))

    def _collect(self, reqs: list[dict[str, Any]], what: str) -> list[Any]:
        msg = self._decode(self._read_line(what), what)
        if not isinstance(msg, list) or len(msg) != len(reqs):
            self.kill()
            raise ProtocolViolation(f"{what}: a batch of {len(reqs)} requests needs an array of "
                                    f"{len(reqs)} responses, not {msg!r:.200}")
        by_id = {m.get("id"): m for m in msg if isinstance(m, dict)}
        out: list[Any] = []
        for req in reqs:
            if req["id"] not in by_id:
                self.kill()
                got = sorted(str(k) for k in by_id)
                raise ProtocolViolation(f"{what}: no answer in the batch carries id {req['id']} "
                                        f"(the answers carry ids {', '.join(got)[:80]})")
            try:
                out.append(self._check_response(by_id[req["id"]], req["id"], req["method"]))
            except EngineError as exc:
                out.append(exc)
        return out

    # -- the adapter -------------------------------------------------------------------------

    def hello(self) -> Hello:
        """Say hello (once per process) and read the engine's declaration."""
        if self._hello is None or self.proc is None:
            self._hello = Hello.from_json(self.call("hello", {"protocol": PROTOCOL}))
        return self._hello

    def hold(self, records: frozenset[str]) -> None:
        """Leave ``records`` out of every ``start``'s rulings (``rulespec.conformance.judging.versions``)."""
        self.held = frozenset(records)

    def start(self, config: Mapping[str, Any]) -> None:
        """Start a game, restarting the process first if it failed before."""
        if self.proc is None:
            self._hello = None
        self.hello()
        try:
            result = self.call("start", {"config": without_rulings(config, self.held)})
        except EngineError as exc:
            if exc.code == BAD_CONFIG:
                raise ConfigRefused(exc.message) from None
            raise
        if not isinstance(result, dict):
            raise ProtocolViolation(f"start: result must be an object, not {result!r:.100}")

    def legal(self) -> Legal:
        """Ask for the legal actions."""
        return Legal.from_json(self.call("legal_actions"))

    def state(self) -> dict[str, Any]:
        """Ask for the canonical state."""
        return state_of(self.call("state"))

    def observation(self, player: int) -> Any:
        """Ask for ``player``'s observation (optional: declared in ``hello``'s capabilities)."""
        return observation_of(self.call("observation", {"player": player}))

    def apply(self, action: Any) -> Rejection | None:
        """Apply an action; an ILLEGAL_ACTION error becomes a Rejection."""
        try:
            self.call("apply", {"action": action})
        except EngineError as exc:
            return rejection_of(exc)
        return None

    def step(self, action: Any) -> tuple[Rejection | None, dict[str, Any], Legal]:
        """Apply, then fetch state and legal actions (one batch when the engine can)."""
        if "batch" in self.hello().capabilities:
            applied, state, legal = self.batch([("apply", {"action": action}), ("state", {}),
                                                ("legal_actions", {})])
            rejection = rejection_of(applied) if isinstance(applied, EngineError) else None
            for part in (state, legal):
                if isinstance(part, EngineError):
                    raise part
            return rejection, state_of(state), Legal.from_json(legal)
        rejection = self.apply(action)
        return rejection, self.state(), self.legal()

    def send_step(self, action: Any) -> Callable[[], StepResult]:
        """Send the step's batch now and read the answer later, so the kit can work meanwhile."""
        if "batch" not in self.hello().capabilities:
            return lambda: self.step(action)
        collect = self._send_batch([("apply", {"action": action}), ("state", {}),
                                    ("legal_actions", {})], "apply+state+legal_actions",
                                   built=True)

        def result() -> StepResult:
            applied, state, legal = collect()
            rejection = rejection_of(applied) if isinstance(applied, EngineError) else None
            for part in (state, legal):
                if isinstance(part, EngineError):
                    raise part
            # The reference's own Legal when the answer was its encoding, byte for byte.
            return (rejection, state_of(state),
                    legal if isinstance(legal, Legal) else Legal.from_json(legal))

        return result

    def send_probe(self, action: Any) -> Callable[[], ProbeResult]:
        """Send the probe's batch now and read the answer later."""
        if "batch" not in self.hello().capabilities:
            return lambda: self.probe(action)
        collect = self._send_batch([("apply", {"action": action}), ("state", {})],
                                   "apply+state")

        def result() -> ProbeResult:
            applied, state = collect()
            if isinstance(state, EngineError):
                raise state
            if not isinstance(applied, EngineError):
                return None, None
            return rejection_of(applied), state_of(state)

        return result

    def send_replay(self, action: Any) -> Callable[[], ReplayResult]:
        """Send a step of a determinism replay: apply, then the state (no legal actions, which
        the replay does not compare)."""
        if "batch" not in self.hello().capabilities:
            return lambda: (self.apply(action), self.state())
        collect = self._send_batch([("apply", {"action": action}), ("state", {})],
                                   "apply+state", built=True)

        def result() -> ReplayResult:
            applied, state = collect()
            if isinstance(state, EngineError):
                raise state
            return (rejection_of(applied) if isinstance(applied, EngineError) else None,
                    state_of(state))

        return result

    def _send_batch(self, calls: Sequence[tuple[str, Mapping[str, Any]]],
                    what: str, *, built: bool = False) -> Callable[[], list[Any]]:
        reqs = [self._request(m, p) for m, p in calls]
        self.calls += 1
        self._send(reqs, flush=False, built=built)
        ticket = [r["id"] for r in reqs]
        self._inflight.append(ticket)

        def collect() -> list[Any]:
            # What was sent ahead goes out when its answer is awaited, or once FLUSH_AT
            # requests wait: the engine then works on the next steps while the kit checks this
            # one, instead of idling until the kit needs them.
            if ticket[-1] > self._flushed_id or self._next_id - self._flushed_id >= FLUSH_AT:
                self._flush()
            self._drain(until=ticket)
            self._inflight.pop(0)
            return self._collect(reqs, what)

        return collect

    def _drain(self, until: list[int] | None = None) -> None:
        """Read and drop the answers to requests sent but never collected (before ``until``)."""
        while self._inflight and self._inflight[0] is not until:
            self._inflight.pop(0)
            self._read_line("an answer no longer awaited")

    def probe(self, action: Any) -> tuple[Rejection | None, dict[str, Any] | None]:
        """Apply an action expected to be illegal, and fetch the state in the same batch."""
        if "batch" in self.hello().capabilities:
            applied, state = self.batch([("apply", {"action": action}), ("state", {})])
            if isinstance(state, EngineError):
                raise state
            if not isinstance(applied, EngineError):
                return None, None
            return rejection_of(applied), state_of(state)
        rejection = self.apply(action)
        return rejection, self.state() if rejection is not None else None

    def close(self) -> None:
        """Ask the engine to shut down; kill it if it does not within the timeout."""
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(EngineFailure, EngineError):
                self.call("shutdown")
            proc = self.proc
            if proc is not None:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=min(self.timeout, 2.0))
        self.kill()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None
