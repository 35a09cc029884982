"""The bad-input corpus: specs, traces, configurations, command lines and hostile engines.

Each ``Case`` is a command line run in a fresh folder holding ``files``, the exit code it must
end with (the contract in ``rulespec.exitcodes``) and words its message must contain. Files are
text or bytes; ``{trace}`` in a trace file is replaced by lines of a real golden trace, and
``{engine}`` in an argument by the command of the hostile engine script.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from rulespec.spec.registry import golden_paths

HERE = Path(__file__).resolve().parent
ENGINE = f"{sys.executable} {HERE / 'hostile_engine.py'}"

OK, FAILED, USAGE, ENGINE_FAILED = 0, 1, 2, 3


@dataclass(frozen=True)
class Case:
    """One bad input: the command, the files it reads, the exit code and the message's words."""

    id: str
    argv: tuple[str, ...]
    code: int
    words: tuple[str, ...]
    files: dict[str, str | bytes] = field(default_factory=dict)
    #: Needs a subprocess engine (slower): kept to the few cases that need one.
    engine: bool = False
    #: What the command reads on standard input (``rulespec serve``: a hostile client).
    stdin: str = ""


CASES: list[Case] = []


def case(id: str, argv: str | list[str], code: int, *words: str,
         files: dict[str, str | bytes] | None = None, engine: bool = False,
         stdin: str = "") -> None:
    """Add a case; ``argv`` is split on spaces when given as a string."""
    args = tuple(argv.split()) if isinstance(argv, str) else tuple(argv)
    CASES.append(Case(id, args, code, words, dict(files or {}), engine, stdin))


# -- specs: `rulespec validate FILE` (a problem in the spec is a failed check: exit 1) -------

def spec(id: str, content: str | bytes, *words: str, code: int = FAILED) -> None:
    """Add a spec case: validate one file holding ``content``."""
    case(f"spec-{id}", "validate s.yaml", code, *words, files={"s.yaml": content})


TOY = (HERE.parent / "specs" / "valid" / "toy.yaml").read_text(encoding="utf-8")
spec("nul-byte", "game:\x00\n", "s.yaml:1:6", "NUL byte")
spec("control-char", "game: a\x07b\n", "s.yaml:1:8", "U+0007")
spec("nul-in-toy", TOY.replace("game:", "game:\x00", 1), "NUL byte")
spec("nested-lists-20000", "a: " + "[" * 20_000 + "]" * 20_000 + "\n", "s.yaml:1:", "64 levels")
spec("nested-maps-500", "".join(" " * i + f"k{i}:\n" for i in range(500)) + " " * 500 + "x: 1\n",
     "64 levels")
spec("nested-flow-maps", "a: " + "{b: " * 3000 + "1" + "}" * 3000 + "\n", "64 levels")
spec("list-300k", "a:\n" + "- 1\n" * 300_000, "more than 50000 values", "s.yaml:")
spec("flow-list-100k", "a: [" + "1," * 100_000 + "1]\n", "more than 50000 values")
spec("size-3mb", "a: '" + "x" * (3 * 1024 * 1024) + "'\n", "bytes", "at most 2097152")
spec("alias-bomb", "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{c}: &{c} [{', '.join(['*' + p] * 10)}]\n" for p, c in zip("abcdef", "bcdefg", strict=True)),
    "alias bomb")
spec("alias-deep", "a0: &a0 [[[[[[[[[[1]]]]]]]]]]\n" + "".join(
    f"a{i}: &a{i} [[[[[[[[[[*a{i - 1}]]]]]]]]]]\n" for i in range(1, 40)), "aliases nest")
spec("merge-key", "a: &a {x: 1}\nb:\n  <<: *a\n", "merge keys")
spec("duplicate-key", "format: rulespec/1\nformat: again\n", "s.yaml:2:1", "duplicate key 'format'")
spec("tab-indent", "game:\n\tid: x\n", "s.yaml:2", "YAML syntax error")
spec("unclosed-bracket", "a: [1, 2\n", "YAML syntax error")
spec("unclosed-quote", 'a: "abc\n', "YAML syntax error")
spec("bad-indent", "a:\n  b: 1\n c: 2\n", "YAML syntax error")
spec("not-utf8", b"game: \xff\xfe\n", "not UTF-8")
spec("latin1", "game: caf\u00e9\n".encode("latin-1"), "not UTF-8")
spec("empty", "", "empty")
spec("only-comments", "# nothing here\n", "empty")
spec("scalar-top", "just a string\n", "mapping at the top level")
spec("list-top", "- 1\n- 2\n", "mapping at the top level")
spec("python-tag", "a: !!python/object:os.system {}\n", "unsupported YAML tag")
spec("custom-tag", "a: !custom 1\n", "unsupported YAML")
spec("custom-tag-list", "a: !custom [1]\n", "s.yaml:1:4", "unsupported YAML tag")
spec("two-documents", "a: 1\n---\nb: 2\n", "YAML syntax error")
spec("missing-keys", "x: 1\n", "missing required key 'game'", "missing required key 'zones'",
     "'x' was unexpected")
spec("wrong-type-game", "game: 5\n", "is not of type")
spec("huge-int",
     "a: " + "9" * 5000 + "\n", "s.yaml:1:4", "integer too long")
spec("nan-value", "game: .nan\n", "is not of type")
spec("binary-garbage", bytes(range(256)) * 4, "s.yaml")
spec("bom-then-garbage", "\ufeff]]]\n", "YAML syntax error")
spec("anchor-undefined", "a: *nope\n", "YAML syntax error")
spec("toy-truncated", TOY[: len(TOY) // 2], "s.yaml")
spec("toy-unknown-key", TOY + "\nsurprise: 1\n", "'surprise' was unexpected")
spec("toy-duplicated", TOY + "\n" + TOY, "duplicate key")
PARAM_SCHEMA = "    schema: {type: integer, minimum: 1}"
for name, schema, words in (
        ("unknown-type", "{type: nteger, minimum: 1}", ("s.yaml:59:13", "not a valid JSON Schema")),
        ("ref-to-nothing", '{$ref: "#/nope"}', ("s.yaml:59:", "points to nothing")),
        ("ref-remote", '{$ref: "https://example.com/s.json"}', ("s.yaml:59:", "not local")),
        ("ref-not-string", "{$ref: 5}", ("s.yaml:59:13", "not of type 'string'"))):
    spec(f"param-schema-{name}", TOY.replace(PARAM_SCHEMA, f"    schema: {schema}"), *words)
spec("state-schema-ref-to-nothing", TOY.replace("bank: {type: integer, minimum: 0}",
                                                'bank: {$ref: "#/$defs/coins"}'),
     "$.state.schema", "points to nothing")
for name, text in (("empty", "sources: [{}]\n"), ("not-a-list", "sources: 5\n"),
                   ("list-ids", "sources:\n  - {id: [1], file: x, sha256: 1}\nclauses:\n"
                                "  - citation: {source: [1], section: a, quote: q}\n")):
    case(f"spec-sources-{name}", "validate s.yaml --sources src", FAILED, "s.yaml:",
         files={"s.yaml": text, "src/x": "rules"})
case("spec-dev-zero", "validate /dev/zero", FAILED, "/dev/zero", "over 2097152 bytes")
case("spec-missing-file", "validate nope.yaml", USAGE, "no such file or folder", "nope.yaml")
case("spec-empty-folder", "validate empty", USAGE, "holds no *.yaml", files={"empty/x.txt": ""})
case("spec-sources-missing", "validate s.yaml --sources nowhere", USAGE, "--sources",
     files={"s.yaml": TOY})
case("spec-yaml-folder", "validate d.yaml", USAGE, "holds no *.yaml",
     files={"d.yaml/readme.txt": ""})


# -- traces: `rulespec replay FILE` (unreadable: exit 2; readable but disagreeing: exit 1) ----

GOLDEN = next(p for p in golden_paths("dado-de-ouro") if "single-game" in p.name)
LINES = GOLDEN.read_text(encoding="utf-8").splitlines()
HEADER, FIRST, LAST = json.loads(LINES[0]), json.loads(LINES[1]), json.loads(LINES[-1])


def trace(id: str, lines: list[str] | str | bytes, code: int, *words: str) -> None:
    """Add a trace case: replay one file."""
    if isinstance(lines, list):
        content: str | bytes = "\n".join(lines) + "\n"
    else:
        content = lines
    case(f"trace-{id}", "replay t.jsonl", code, *words, files={"t.jsonl": content})


def edited(index: int, change: Callable[[dict[str, object]], object]) -> list[str]:
    """Return the golden lines with line ``index`` replaced by ``change(its object)``."""
    obj = json.loads(LINES[index])
    new = change(obj)
    out = list(LINES)
    out[index] = new if isinstance(new, str) else json.dumps(obj if new is None else new)
    return out


def with_config(**changes: object) -> list[str]:
    """Return the golden lines with the header's configuration changed."""
    return edited(0, lambda h: {**h, "config": {**h["config"], **changes}})  # type: ignore[dict-item]


def with_step(**changes: object) -> list[str]:
    """Return the golden lines with the first step changed."""
    return edited(1, lambda s: {**s, **changes})


trace("golden-ok", LINES, OK, "ok", "replayed 52 steps")
def step_line(text: str) -> list[str]:
    """Return the golden lines with the first step's line replaced by ``text``."""
    return [LINES[0], text, *LINES[2:]]


def face(value: str) -> list[str]:
    """Return the golden lines with the first die face written as ``value``."""
    return step_line(LINES[1].replace('"face":6', f'"face":{value}'))


trace("nan", face("NaN"), USAGE, "t.jsonl:2", "NaN is not a JSON number")
trace("infinity", face("Infinity"), USAGE, "t.jsonl:2", "Infinity")
trace("minus-infinity", face("-Infinity"), USAGE, "t.jsonl:2", "-Infinity")
trace("float-overflow", face("1e999"), USAGE, "t.jsonl:2", "finite")
trace("int-5000-digits", face("7" * 5000), USAGE, "t.jsonl:2", "5000 digits", "24-digit limit")
trace("action-nested-100000", step_line('{"type":"step","n":1,"actor":"chance","action":'
      + "[" * 100_000 + "]" * 100_000 + "}"), USAGE, "t.jsonl:2", "nest more than 64")
trace("state-nested-100", step_line(LINES[1][:-1] + ',"state":' + '{"a":' * 100 + "1"
      + "}" * 100 + "}"), USAGE, "t.jsonl:2", "nest more than 64")
trace("unknown-step-key", with_step(note="hi"), USAGE, "t.jsonl:2", "unknown key(s) 'note'")
trace("unknown-header-key", edited(0, lambda h: {**h, "author": "me"}), USAGE, "t.jsonl:1",
      "'author'")
trace("unknown-result-key", edited(len(LINES) - 1, lambda r: {**r, "extra": 1}), USAGE,
      f"t.jsonl:{len(LINES)}", "'extra'")
trace("unknown-config-key", with_config(seed=3), USAGE, "t.jsonl:1", "unknown configuration key")
trace("players-string", with_config(players="2"), USAGE, "t.jsonl:1", "config.players",
      "whole number", "'2'")
trace("players-float", with_config(players=4.0), USAGE, "config.players", "4.0")
trace("players-bool", with_config(players=True), USAGE, "config.players", "True")
trace("rulings-list", with_config(rulings=["d6"]), USAGE, "config.rulings")
trace("rulings-int-value", with_config(rulings={"DDO-AMB-01": 6}), USAGE, "config.rulings")
trace("variants-string", with_config(variants="single-game"), USAGE, "config.variants")
trace("parameters-list", with_config(parameters=[]), USAGE, "config.parameters")
trace("config-other-game", with_config(game="fool"), USAGE, "differs from the header's game")
trace("step-n-string", with_step(n="1"), USAGE, "t.jsonl:2", "step number '1'")
trace("step-n-bool", with_step(n=True), USAGE, "t.jsonl:2", "step number True")
trace("step-n-gap", with_step(n=2), USAGE, "step number 2, expected 1")
trace("actor-negative", with_step(actor=-1), USAGE, "actor must be a player index")
trace("actor-bool", with_step(actor=False), USAGE, "actor must be a player index")
trace("actor-float", with_step(actor=0.0), USAGE, "actor must be a player index")
trace("action-string", with_step(action="roll"), USAGE, "action must be an object")
trace("action-no-kind", with_step(action={"face": 6}), USAGE, "action must be an object")
trace("action-kind-int", with_step(action={"kind": 3}), USAGE, "action must be an object")
trace("state-list", with_step(state=[1]), USAGE, "state must be an object")
trace("step-missing-action", edited(1, lambda s: {k: v for k, v in s.items() if k != "action"}),
      USAGE, "misses 'action'")
trace("result-list", edited(len(LINES) - 1, lambda r: {**r, "result": [1]}), USAGE,
      "result must be an object or null")
trace("result-count", edited(len(LINES) - 1, lambda r: {**r, "steps": 7}), USAGE,
      "counts 7 steps but the trace has 52")
trace("result-count-string", edited(len(LINES) - 1, lambda r: {**r, "steps": "52"}), USAGE,
      "counts '52' steps")
trace("empty", "", USAGE, "empty trace")
trace("blank-lines", "\n\n   \n", USAGE, "empty trace")
trace("binary", bytes(range(256)), USAGE, "not UTF-8")
trace("not-json", ["this is not json"], USAGE, "t.jsonl:1", "not valid JSON")
trace("json-array-line", ["[1, 2]"], USAGE, "t.jsonl:1", "JSON object with a 'type'")
trace("type-int", ['{"type": 1}'], USAGE, "unknown line type 1")
trace("no-header", LINES[1:], USAGE, "the first line must be the header")
trace("two-headers", [LINES[0], *LINES], USAGE, "t.jsonl:2", "second header")
trace("text-after-result", [*LINES, LINES[1]], USAGE, "text after the result line")
trace("cut-off", LINES[:-1], USAGE, "without a result line")
trace("format-other", edited(0, lambda h: {**h, "format": "rulespec-trace/9"}), USAGE,
      "unsupported trace format")
trace("format-missing", edited(0, lambda h: {k: v for k, v in h.items() if k != "format"}),
      USAGE, "misses 'format'")
trace("game-unknown", edited(0, lambda h: {**h, "game": "chess", "config": {
    **h["config"], "game": "chess"}}), USAGE, "unknown game 'chess'")  # type: ignore[dict-item]
trace("line-5mb", [LINES[0], '{"type":"step","n":1,"x":"' + "x" * (5 * 1024 * 1024) + '"}'],
      USAGE, "t.jsonl:2", "longer than 4194304")
trace("ruling-unknown", with_config(rulings={"DDO-AMB-01": "d100"}), FAILED, "header",
      "d100")
trace("players-out-of-range", with_config(players=9), FAILED, "header")
trace("illegal-action", with_step(action={"kind": "roll", "face": 99, "player": 0}), FAILED,
      "step 1 (line 2)")
trace("wrong-actor", with_step(actor=2), FAILED, "step 1 (line 2)", "recorded actor 2")
trace("wrong-result", edited(len(LINES) - 1, lambda r: {**r, "result": {"winners": [3]}}),
      FAILED, "result: recorded")
case("trace-dev-zero", "replay /dev/zero", USAGE, "/dev/zero:1", "longer than")
case("trace-missing-file", "replay nope.jsonl", USAGE, "no such trace file")
case("trace-folder", "replay d", USAGE, "d", files={"d/x": ""})


# -- configurations: `rulespec play GAME` options (a refused configuration: exit 2) ---------

case("config-players-too-many", "play fool --players 99 -q", USAGE, "4", "8", "99")
case("config-players-zero", "play fool --players 0 -q", USAGE, "--players", "0")
case("config-players-word", "play fool --players four -q", USAGE, "--players", "four")
case("config-ruling-shape", "play dado-de-ouro --ruling DDO-AMB-01 -q", USAGE, "NAME=VALUE")
case("config-ruling-conflict", "play dado-de-ouro -r DDO-AMB-01=d6 -r DDO-AMB-01=d8 -q", USAGE,
     "DDO-AMB-01 twice", "'d6' and 'd8'")
case("config-ruling-same-twice", "play dado-de-ouro -r DDO-AMB-01=d8 -r DDO-AMB-01=d8 -q", OK,
     "result after")
case("config-ruling-unknown-ambiguity", "play dado-de-ouro -r DDO-AMB-99=x -q", USAGE,
     "DDO-AMB-99")
case("config-ruling-unknown-option", "play dado-de-ouro -r DDO-AMB-01=d100 -q", USAGE, "d100")
case("config-ruling-placeholder", ["play", "dado-de-ouro", "--ruling", "DDO-AMB-01=<option>",
                                   "-q"], USAGE, "<option>")
case("config-variant-unknown", "play dado-de-ouro --variant turbo -q", USAGE, "turbo")
case("config-param-shape", "play ruby-rhino --param target_score -q", USAGE, "NAME=VALUE")
case("config-param-unknown", "play ruby-rhino --param warp=9 -q", USAGE, "warp")
case("config-param-wrong-type", "play ruby-rhino --param target_score=lots -q", USAGE,
     "target_score")
case("config-param-conflict", "play ruby-rhino -p target_score=5 -p target_score=6 -q", USAGE,
     "target_score twice")
case("config-param-nan", "play ruby-rhino --param target_score=NaN -q", USAGE, "target_score")
case("config-all-with-game", "play fool --all", USAGE, "--all")
case("config-no-game", "play", USAGE, "name a GAME")
case("config-game-unknown", "play chess", USAGE, "unknown game 'chess'", "known games")


# -- command lines: every command's options and arguments ---------------------------------

case("cli-no-command", "nosuch", USAGE, "No such command")
case("cli-unknown-option", "games --colour", USAGE, "--colour")
case("cli-games-format", "games --format xml", USAGE, "--format", "xml")
case("cli-version", "--version", OK, "version")
case("cli-help", "--help", OK, "Exit codes")
case("cli-play-max-steps-negative", "play fool --max-steps -5", USAGE, "--max-steps", "-5",
     "x>=1")
case("cli-play-max-steps-zero", "play fool --max-steps 0", USAGE, "--max-steps")
case("cli-play-max-steps-one", "play fool --max-steps 1 -q", FAILED, "did not end within 1")
case("cli-play-seed-word", "play fool --seed abc", USAGE, "--seed", "abc")
case("cli-play-trace-missing-folder", "play fool -q --trace nowhere/g.jsonl", USAGE, "--trace",
     "does not exist")
case("cli-play-trace-is-folder", "play fool -q --trace d", USAGE, "--trace",
     files={"d/x": ""})
case("cli-play-ok-trace", "play ruby-rhino -q --trace g.jsonl", OK, "trace written to g.jsonl")
case("cli-bench-seconds-negative", "bench fool --seconds -1", USAGE, "--seconds", "-1")
case("cli-bench-seconds-zero", "bench fool --seconds 0", USAGE, "--seconds", "0<x")
case("cli-bench-seconds-word", "bench fool --seconds soon", USAGE, "--seconds", "soon")
case("cli-bench-seconds-huge", "bench fool --seconds 1e9", USAGE, "--seconds")
case("cli-bench-players-zero", "bench fool --players 0", USAGE, "--players")
case("cli-bench-players-out-of-range", "bench fool --players 2 --seconds 0.01", USAGE, "fool")
case("cli-bench-unknown-game", "bench chess --seconds 0.01", USAGE, "unknown game 'chess'")
case("cli-ambiguities-unknown-game", "ambiguities chess", USAGE, "unknown game 'chess'")
case("cli-ambiguities-status", "ambiguities fool --status open", USAGE, "--status", "open")
case("cli-ambiguities-severity", "ambiguities fool --severity huge", USAGE, "--severity")
case("cli-ambiguities-format", "ambiguities fool --format pdf", USAGE, "--format")
case("cli-ambiguities-empty", "ambiguities ouro-de-tolo --status reported --format markdown", OK,
     "no ambiguity record is reported", "statuses in use")
case("cli-validate-format", "validate --format yaml", USAGE, "--format")
case("cli-replay-no-argument", "replay", USAGE, "TRACE")
case("cli-conform-no-game", "conform", USAGE, "--game")
case("cli-conform-unknown-game", "conform --game chess", USAGE, "unknown game 'chess'")
case("cli-conform-players", "conform --game fool --players 3", USAGE, "4 to 8", "not 3")
case("cli-conform-ruling-shape", "conform --game fool --ruling nonsense", USAGE,
     "AMBIGUITY=OPTION")
case("cli-conform-ruling-conflict", "conform --game dado-de-ouro -r DDO-AMB-01=d6 "
     "-r DDO-AMB-01=d8", USAGE, "DDO-AMB-01 twice")
case("cli-conform-ruling-unknown", "conform --game dado-de-ouro -r DDO-AMB-01=d100 --examples 1",
     USAGE, "d100")
case("cli-conform-timeout-zero", "conform --game fool --timeout 0", USAGE, "--timeout", "0<x")
case("cli-conform-timeout-negative", "conform --game fool --timeout -3", USAGE, "--timeout")
case("cli-conform-timeout-nan", "conform --game fool --timeout nan", USAGE, "--timeout")
case("cli-conform-examples-zero", "conform --game fool --examples 0", USAGE, "--examples")
case("cli-conform-max-steps-negative", "conform --game fool --max-steps -5", USAGE,
     "--max-steps", "-5")
case("cli-conform-format", "conform --game fool --format html", USAGE, "--format")
case("cli-conform-engine-empty", ["conform", "--game", "fool", "--engine", ""], USAGE,
     "--engine is empty")
case("cli-conform-engine-blank", ["conform", "--game", "fool", "--engine", "   "], USAGE,
     "--engine is empty")
case("cli-conform-engine-quote", ["conform", "--game", "fool", "--engine", "python3 'oops"],
     USAGE, "--engine", "quotes")
case("cli-conform-report-missing-folder", "conform --game fool --report nowhere/r.xml", USAGE,
     "--report", "does not exist")
case("cli-conform-report-folder", "conform --game fool --report d", USAGE, "--report",
     files={"d/x": ""})
case("cli-conform-trace-dir-file", "conform --game fool --trace-dir f", USAGE, "--trace-dir",
     "is a file", files={"f": ""})
case("cli-conform-bench-unknown-game", "conform-bench chess", USAGE, "unknown game 'chess'")
case("cli-conform-bench-examples", "conform-bench fool --examples 0", USAGE, "--examples")
case("cli-conform-bench-engine-empty", ["conform-bench", "fool", "--engine", ""], USAGE,
     "--engine is empty")
case("cli-serve-unknown-game", "serve chess", USAGE, "unknown game 'chess'")


# -- hostile clients: `rulespec serve` answers every line, whatever it is, and exits 0 ----------

def client(id: str, line: str, *words: str) -> None:
    """Add a case feeding ``line`` (then a shutdown) to ``rulespec serve fool``."""
    shutdown = '{"jsonrpc": "2.0", "id": 99, "method": "shutdown", "params": {}}'
    case(f"serve-{id}", "serve fool", OK, *words, stdin=f"{line}\n{shutdown}\n")


client("not-json", "hello engine", "-32700", "parse error")
client("deep-json", "[" * 100_000 + "]" * 100_000, "-32700", "nested too deeply")
client("huge-int", '{"jsonrpc": "2.0", "id": ' + "9" * 5000 + "}", "-32700")
client("empty-batch", "[]", "-32600", "empty batch")
client("over-long-line", '{"jsonrpc": "2.0", "id": 1, "method": "hello", "params": {"pad": "'
       + "x" * (5 * 1024 * 1024) + '"}}', "-32600", "longer than")
client("unknown-method", '{"jsonrpc": "2.0", "id": 1, "method": "fly", "params": {}}', "-32601")
client("apply-before-start", '{"jsonrpc": "2.0", "id": 1, "method": "apply", '
       '"params": {"action": {"kind": "x"}}}', '"id":1', "error")
client("start-bad-config", '{"jsonrpc": "2.0", "id": 1, "method": "start", '
       '"params": {"config": {"game": "fool", "players": "4"}}}', '"id":1', "error")


# -- hostile engines: `rulespec conform --engine CMD` (cannot run: 3; misbehaves: 1) -------

def hostile(id: str, mode: str, code: int, *words: str, after: int | None = None,
            game: str = "ruby-rhino", extra: str = "--no-golden") -> None:
    """Add a case checking the hostile engine in ``mode`` (misbehaving after ``after``)."""
    cmd = f"{ENGINE} {mode}" + ("" if after is None else f" {after}")
    players = "2" if game == "ruby-rhino" else "4"
    case(f"engine-{id}", ["conform", "--engine", cmd, "--game", game, "--players", players,
                          "--examples", "2", "--timeout", "1", *extra.split()],
         code, *words, engine=True)


case("engine-not-found", ["conform", "--engine", "/nonexistent/engine", "--game", "fool"],
     ENGINE_FAILED, "failed to run", "cannot start", engine=True)
case("engine-not-executable", ["conform", "--engine", str(HERE / "corpus.py"), "--game", "fool"],
     ENGINE_FAILED, "failed to run", "cannot start", engine=True)
hostile("exits-at-once", "exit", ENGINE_FAILED, "failed to run", "closed its output")
hostile("traceback", "traceback", ENGINE_FAILED, "failed to run", "my engine is broken")
hostile("garbage-hello", "garbage-hello", ENGINE_FAILED, "failed to run", "not JSON")
hostile("bad-hello", "bad-hello", ENGINE_FAILED, "failed to run", "hello")
hostile("old-protocol", "old-protocol", ENGINE_FAILED, "rulespec-engine/0")
hostile("deep-hello", "deep-hello", ENGINE_FAILED, "nested too deeply")
hostile("huge-int-hello", "huge-int", ENGINE_FAILED, "not JSON")
hostile("silent-after-hello", "silent", FAILED, "PROTOCOL", "no answer within 1 s",
        "golden traces: not run", after=1, extra="")
hostile("crash-mid-game", "crash", FAILED, "PROTOCOL", "segmentation fault", after=5)
hostile("garbage-mid-game", "garbage", FAILED, "PROTOCOL", "not JSON", after=5)
hostile("deep-mid-game", "deep", FAILED, "PROTOCOL", "nested too deeply", after=5)
hostile("null-result", "null-result", FAILED, "PROTOCOL", after=3)
hostile("wrong-jsonrpc", "wrong-jsonrpc", FAILED, "PROTOCOL", "JSON-RPC 2.0", after=3)
