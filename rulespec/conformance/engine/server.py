"""Serve an engine over the engine protocol (JSON-RPC 2.0 as JSON Lines on stdin/stdout).

``rulespec serve GAME`` runs this with the reference engine, so the kit can check the reference
through exactly the path an out-of-process engine uses. ``serve`` takes any in-process adapter,
so a Python engine built on ``rulespec.reference.core`` gets the protocol for free.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from typing import IO, Any, AnyStr

from rulespec.conformance.engine.adapters import MAX_LINE, InProcessAdapter
from rulespec.conformance.engine.protocol import (
    BAD_CONFIG,
    ILLEGAL_ACTION,
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    NO_GAME,
    PARSE_ERROR,
    PROTOCOL,
    dumps,
    encode_line,
    loads,
)
from rulespec.reference.core import ConfigError
from rulespec.spec.errors import RulespecError


class _Fail(Exception):
    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data


class Server:
    """Answer protocol requests with an in-process adapter."""

    def __init__(self, adapter: InProcessAdapter) -> None:
        self.adapter = adapter
        self.running = True
        self._methods: dict[str, Callable[[dict[str, Any]], Any]] = {
            "hello": self._hello, "start": self._start, "legal_actions": self._legal,
            "state": self._state, "apply": self._apply, "shutdown": self._shutdown,
            "observation": self._observation,
        }

    def _hello(self, params: dict[str, Any]) -> Any:
        if params.get("protocol") != PROTOCOL:
            if "protocol" not in params:
                raise _Fail(INVALID_PARAMS, f'hello needs params {{"protocol": "{PROTOCOL}"}}: '
                            "say which protocol version the kit speaks")
            raise _Fail(INVALID_PARAMS, f"this engine speaks {PROTOCOL!r}, not "
                        f"{params.get('protocol')!r}")
        return self.adapter.hello().to_json()

    def _start(self, params: dict[str, Any]) -> Any:
        config = params.get("config")
        if not isinstance(config, dict):
            raise _Fail(INVALID_PARAMS, "start needs params {\"config\": {...}}")
        try:
            self.adapter.start(config)
        except (ConfigError, RulespecError) as exc:
            raise _Fail(BAD_CONFIG, str(exc)) from None
        return {}

    def _game(self) -> None:
        if self.adapter.engine is None:
            raise _Fail(NO_GAME, "no game in progress; send start first")

    def _legal(self, params: dict[str, Any]) -> Any:
        self._game()
        return self.adapter.legal().to_json()

    def _state(self, params: dict[str, Any]) -> Any:
        self._game()
        return {"state": self.adapter.state()}

    def _observation(self, params: dict[str, Any]) -> Any:
        self._game()
        player = params.get("player")
        if not isinstance(player, int) or isinstance(player, bool) or player < 0:
            raise _Fail(INVALID_PARAMS, "observation needs params {\"player\": N}, a seat "
                        "number from 0")
        return {"observation": self.adapter.observation(player)}

    def _apply(self, params: dict[str, Any]) -> Any:
        self._game()
        if "action" not in params:
            raise _Fail(INVALID_PARAMS, "apply needs params {\"action\": {...}}")
        rejection = self.adapter.apply(params["action"])
        if rejection is not None:
            raise _Fail(ILLEGAL_ACTION, "illegal action",
                        {"reason": rejection.reason, "clauses": list(rejection.clauses)})
        return {}

    def _shutdown(self, params: dict[str, Any]) -> Any:
        self.running = False
        return {}

    def answer(self, request: Any) -> dict[str, Any] | None:
        """Return the response object to one request (None for a notification)."""
        ident = request.get("id") if isinstance(request, dict) else None
        try:
            if (not isinstance(request, dict) or request.get("jsonrpc") != "2.0"
                    or not isinstance(request.get("method"), str)):
                raise _Fail(INVALID_REQUEST, "not a JSON-RPC 2.0 request object")
            method = self._methods.get(request["method"])
            if method is None:
                raise _Fail(METHOD_NOT_FOUND, f"unknown method {request['method']!r}; methods: "
                            + ", ".join(self._methods))
            params = request.get("params", {})
            if not isinstance(params, dict):
                raise _Fail(INVALID_PARAMS, "params must be an object")
            result = method(params)
        except _Fail as fail:
            if "id" not in (request if isinstance(request, dict) else {}):
                ident = None
            err: dict[str, Any] = {"code": fail.code, "message": fail.message}
            if fail.data is not None:
                err["data"] = fail.data
            return {"jsonrpc": "2.0", "id": ident, "error": err}
        except Exception as exc:  # the server must answer, whatever the engine did
            return {"jsonrpc": "2.0", "id": ident,
                    "error": {"code": INTERNAL_ERROR, "message": f"{type(exc).__name__}: {exc}"}}
        if isinstance(request, dict) and "id" not in request:
            return None
        return {"jsonrpc": "2.0", "id": ident, "result": result}

    def handle_line(self, line: str | bytes) -> str | None:
        """Return the response line to one request line (None when nothing is owed)."""
        reply = self.reply(line)
        return None if reply is None else dumps(reply)

    def reply(self, line: str | bytes) -> Any:
        """Return the response (an object, or a batch's list) to one request line; None when
        nothing is owed."""
        try:
            msg = loads(line)
        except json.JSONDecodeError as exc:
            return {"jsonrpc": "2.0", "id": None,
                    "error": {"code": PARSE_ERROR, "message": f"parse error: {exc.msg}"}}
        except (ValueError, RecursionError) as exc:
            # An integer of thousands of digits, or arrays nested thousands deep.
            reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
            return {"jsonrpc": "2.0", "id": None,
                    "error": {"code": PARSE_ERROR, "message": f"parse error: {reason}"}}
        if isinstance(msg, list):
            if not msg:
                return {"jsonrpc": "2.0", "id": None,
                        "error": {"code": INVALID_REQUEST, "message": "empty batch"}}
            answers = [a for a in (self.answer(m) for m in msg) if a is not None]
            return answers if answers else None
        return self.answer(msg)


def _request_lines(inp: IO[AnyStr]) -> Iterator[AnyStr | None]:
    """Yield the lines of ``inp``; None for a line over MAX_LINE (read past, never held whole)."""
    while True:
        line = inp.readline(MAX_LINE + 1)
        if not line:
            return
        newline = "\n" if isinstance(line, str) else b"\n"
        if len(line) <= MAX_LINE or line.endswith(newline):
            yield line
            continue
        while line and not line.endswith(newline):
            line = inp.readline(MAX_LINE)  # skip the rest of the over-long line
        yield None


def _too_long() -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": None, "error": {
        "code": INVALID_REQUEST,
        "message": f"request line longer than {MAX_LINE} bytes; send one JSON-RPC "
                   "message (or batch) per line, each at most that long"}}


def serve(adapter: InProcessAdapter, stdin: IO[str] | None = None,
          stdout: IO[str] | None = None) -> int:
    """Answer requests from ``stdin`` until shutdown or end of input; return an exit status.

    On the process's own standard streams the lines are read and written as bytes (no text
    layer; with msgspec installed, answers are encoded by it: ``protocol.encode_line``).
    """
    server = Server(adapter)
    if stdin is None and stdout is None and hasattr(sys.stdin, "buffer") \
            and hasattr(sys.stdout, "buffer"):
        return _serve_bytes(server, sys.stdin.buffer, sys.stdout.buffer)
    inp = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    for line in _request_lines(inp):
        if line is None:
            reply: str | None = dumps(_too_long())
        elif not line.strip():
            continue
        else:
            reply = server.handle_line(line)
        if reply is not None:
            out.write(reply + "\n")
            out.flush()
        if not server.running:
            break
    return 0


def _serve_bytes(server: Server, inp: IO[bytes], out: IO[bytes]) -> int:
    """Answer the lines of ``inp`` as they come, writing the answers to all the lines read at
    once in one go (a kit that sends several steps ahead gets them back in one write)."""
    fd = inp.fileno() if hasattr(inp, "fileno") and _is_pipe(inp) else None
    lines = _request_lines(inp) if fd is None else _chunked_lines(fd)
    replies: list[bytes] = []
    for line in lines:
        if line is _CHUNK_END:
            if replies:
                out.write(b"".join(replies))
                out.flush()
                replies.clear()
            continue
        if line is None:
            answer: Any = _too_long()
        elif not line.strip():
            continue
        else:
            answer = server.reply(line)
        if answer is not None:
            replies.append(encode_line(answer) + b"\n")
            if fd is None:
                out.write(replies.pop())
                out.flush()
        if not server.running:
            break
    if replies:
        out.write(b"".join(replies))
        out.flush()
    return 0


#: Yielded by ``_chunked_lines`` after the lines of one read: the time to send the answers.
_CHUNK_END = b"\x00end of chunk"


def _is_pipe(stream: IO[bytes]) -> bool:
    import stat

    try:
        return stat.S_ISFIFO(os.fstat(stream.fileno()).st_mode)
    except (OSError, ValueError, AttributeError):
        return False


def _chunked_lines(fd: int) -> Iterator[bytes | None]:
    """Yield the lines of the pipe ``fd`` as ``_request_lines`` does, then ``_CHUNK_END`` each
    time the lines at hand are used up (before waiting for more)."""
    buffer = b""
    skipping = False  # inside a line over MAX_LINE, read past up to its newline
    while True:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            if skipping:
                yield None
            elif buffer:
                yield buffer
            yield _CHUNK_END
            return
        buffer += chunk
        start = 0
        while True:
            nl = buffer.find(b"\n", start)
            if nl < 0:
                break
            line = buffer[start:nl + 1]
            start = nl + 1
            if skipping:
                skipping = False
                yield None
            elif len(line) <= MAX_LINE + 1:
                yield line
            else:
                yield None
        buffer = buffer[start:]
        if not skipping and len(buffer) > MAX_LINE:
            skipping, buffer = True, b""
        elif skipping:
            buffer = b""
        yield _CHUNK_END


def main(argv: list[str] | None = None) -> int:
    """Serve the reference engines: ``python -m rulespec.conformance.server [GAME ...]``."""
    from rulespec.reference.registry import engine_class
    from rulespec.spec.registry import get_spec

    games = list(sys.argv[1:] if argv is None else argv)
    engines = {g: engine_class(get_spec(g)) for g in games} if games else None
    return serve(InProcessAdapter(engines, name="rulespec-reference"))


if __name__ == "__main__":
    raise SystemExit(main())
