"""A protocol server that serves the reference correctly, then misbehaves on purpose.

Usage: python -m tests.conformance.engines.misbehave MODE AFTER [GAME]

After AFTER correct answers it does MODE once: ``crash`` (exit with status 3), ``hang`` (never
answer), ``garbage`` (print a line that is not JSON), ``wrong-id`` (answer with another id),
``huge`` (print a line longer than the kit accepts), ``silent-exit`` (close stdout and exit 0),
``bad-result`` (answer legal_actions with a malformed result), ``stderr`` (flood stderr, then
answer correctly: must NOT be a failure), ``no-batch`` (declare no batch capability and refuse
batches: the kit must fall back to one request per line; not a failure), ``trickle`` (write
an answer a byte at a time, slower than any time limit, never ending the line), ``spaced``
(answer correctly, with spaces after JSON's commas and colons: not a failure).
"""

from __future__ import annotations

import json
import os
import sys
import time

from rulespec.conformance.engine.adapters import InProcessAdapter
from rulespec.conformance.server import Server


def main() -> int:
    """Serve, then misbehave."""
    mode, after = sys.argv[1], int(sys.argv[2])
    server = Server(InProcessAdapter())
    answered = 0
    for line in sys.stdin:
        if mode == "no-batch" and line.lstrip().startswith("["):
            sys.stdout.write('{"jsonrpc": "2.0", "id": null, "error": {"code": -32600, '
                             '"message": "batches are not supported"}}\n')
            sys.stdout.flush()
            continue
        reply = server.handle_line(line)
        if reply is None:
            continue
        if mode == "spaced":
            reply = json.dumps(json.loads(reply), ensure_ascii=False)
        if mode == "no-batch" and '"capabilities"' in reply:
            msg = json.loads(reply)
            msg["result"]["capabilities"] = []
            reply = json.dumps(msg)
        if answered >= after:
            if mode == "crash":
                sys.stderr.write("engine: segmentation fault (simulated)\n")
                sys.stderr.flush()
                os._exit(3)
            elif mode == "hang":
                time.sleep(3600)
            elif mode == "trickle":
                while True:
                    sys.stdout.write(" ")
                    sys.stdout.flush()
                    time.sleep(0.05)
            elif mode == "garbage":
                reply = "DEBUG: rolling the die now"
            elif mode == "wrong-id":
                msg = json.loads(reply)
                if isinstance(msg, list):
                    msg = [dict(m, id=m["id"] + 1000) for m in msg]
                else:
                    msg["id"] = msg["id"] + 1000
                reply = json.dumps(msg)
            elif mode == "huge":
                reply = '{"jsonrpc": "2.0", "id": 0, "result": "' + "x" * (6 * 1024 * 1024) + '"}'
            elif mode == "silent-exit":
                sys.stdout.close()
                os._exit(0)
            elif mode == "bad-result" and '"actions"' in reply:
                msg = json.loads(reply)
                items = msg if isinstance(msg, list) else [msg]
                for m in items:
                    if isinstance(m.get("result"), dict) and "actions" in m["result"]:
                        m["result"]["actions"] = "none"
                reply = json.dumps(msg)
            elif mode == "stderr":
                sys.stderr.write("noise " * 20000 + "\n")
        sys.stdout.write(reply + "\n")
        sys.stdout.flush()
        answered += 1
        if not server.running:
            break
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
