"""A protocol server that serves the reference, then misbehaves on purpose (a script).

Usage: python hostile_engine.py MODE [AFTER]

Modes that break the handshake (the kit must exit 3): ``exit`` (exit before reading anything),
``traceback`` (die with a Python traceback on stderr), ``garbage-hello`` (answer hello with a
line that is not JSON), ``bad-hello`` (a hello result missing its fields), ``old-protocol``
(declare another protocol version), ``deep-hello`` (JSON nested 100,000 deep), ``huge-int``
(an integer of 5,000 digits).

Modes that misbehave after AFTER correct answers (the kit must report a PROTOCOL failure,
exit 1): ``silent`` (never answer again, holding stdout open), ``crash``, ``garbage``,
``deep``, ``nan`` (NaN in a result), ``null-result``, ``wrong-jsonrpc``, ``sleepy-child`` (start a
child process that ignores SIGTERM, then never answer: the kit must end the whole group).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

#: Modes that break the handshake: answered without importing rulespec (a fast start).
HANDSHAKE = ("garbage-hello", "bad-hello", "old-protocol", "deep-hello", "huge-int")


def _say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def _misbehave(mode: str, reply: str) -> str | None:
    """Return the line to print instead of ``reply`` (None: print nothing, hang)."""
    if mode == "crash":
        sys.stderr.write("engine: segmentation fault (simulated)\n")
        sys.stderr.flush()
        os._exit(3)
    if mode == "garbage":
        return "DEBUG: rolling the die now"
    if mode in ("deep", "deep-hello"):
        return '{"jsonrpc": "2.0", "id": 1, "result": ' + "[" * 100_000 + "]" * 100_000 + "}"
    if mode == "huge-int":
        return '{"jsonrpc": "2.0", "id": 1, "result": ' + "7" * 5000 + "}"
    if mode == "nan":
        return reply.replace('"result":{', '"result":{"x":NaN,', 1).replace('"result": {', '"result": {"x": NaN, ', 1)
    if mode == "null-result":
        msg = json.loads(reply)
        if isinstance(msg, list):
            return json.dumps([{"jsonrpc": "2.0", "id": m["id"], "result": None} for m in msg])
        return json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": None})
    if mode == "wrong-jsonrpc":
        return reply.replace('"2.0"', '"1.0"')
    if mode == "garbage-hello":
        return "Welcome to my engine!"
    if mode == "bad-hello":
        return json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"name": 5}})
    if mode == "old-protocol":
        return json.dumps({"jsonrpc": "2.0", "id": 1, "result": {
            "protocol": "rulespec-engine/0", "name": "old", "version": "0",
            "games": {"fool": {"spec_version": "1.0.0", "rulings": {}, "variants": []}}}})
    if mode == "sleepy-child":
        subprocess.Popen([sys.executable, "-c", "import signal, time; "
                          "signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(3600)"])
    if mode in ("silent", "sleepy-child"):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        time.sleep(3600)
    return reply


def main() -> int:
    """Serve, then misbehave."""
    mode = sys.argv[1]
    after = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    if mode == "exit":
        return 4
    if mode == "traceback":
        raise RuntimeError("my engine is broken")
    if mode in HANDSHAKE:
        sys.stdin.readline()
        _say(_misbehave(mode, "") or "")
        time.sleep(60)  # the kit ends this process once it has read the answer
        return 0
    from rulespec.conformance.engine.adapters import InProcessAdapter
    from rulespec.conformance.server import Server

    server = Server(InProcessAdapter())
    answered = 0
    for line in sys.stdin:
        reply = server.handle_line(line)
        if reply is None:
            continue
        if answered >= after:
            out = _misbehave(mode, reply)
            if out is not None:
                _say(out)
        else:
            _say(reply)
        answered += 1
        if not server.running:
            break
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
