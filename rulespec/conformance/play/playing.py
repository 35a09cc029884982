"""Play one checked game: the engine under test and the reference side by side, step by step.

The mixin ``GamePlay`` holds the kit's game loop (actions sent, states, legal actions and probes
checked, determinism replayed) and the recording of the failure a game ends with; the kit's driver
(``rulespec.conformance.play.runner.Conformance``) decides which games are played and when.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, NoReturn

from rulespec.conformance.engine.adapters import Adapter, StepResult
from rulespec.conformance.engine.protocol import (
    ConfigRefused,
    EngineError,
    EngineFailure,
    EngineTimeout,
    Hello,
    Legal,
    legal_of,
)
from rulespec.conformance.explain.inference import explain_failure
from rulespec.conformance.judging import causes
from rulespec.conformance.judging.budget import Budget
from rulespec.conformance.judging.checks import Failure
from rulespec.conformance.judging.scope import refusal
from rulespec.conformance.judging.verdicts import Finding, Verdicts, state_diff, unique
from rulespec.conformance.judging.versions import VersionView
from rulespec.conformance.play.options import Options
from rulespec.conformance.play.probes import ActionPool, ProbeMaker, after_end
from rulespec.conformance.play.progress import KitListener
from rulespec.conformance.play.steering import Watch
from rulespec.conformance.play.tracefile import write_failure_trace
from rulespec.reference.core import (
    Action,
    Actor,
    Config,
    ConfigError,
    Engine,
    Rejection,
    config_from_json,
)
from rulespec.spec.model import Spec
from rulespec.spec.statediff import diff_states

#: Steps of a determinism replay sent before their answers are read (bounded so the requests
#: never fill the pipe while the engine waits for its answers to be read).
_REPLAY_CHUNK = 16
#: Games that passed kept per configuration as evidence for the ruling inference, and the most
#: actions they may hold together.
_PASSED_GAMES = 8
_PASSED_STEPS = 20_000


class FoundFailure(Exception):
    """A check failed inside a Hypothesis example (Hypothesis shrinks these)."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(f"{failure.check}: {failure.message}")
        self.failure = failure


class AbortConfig(BaseException):
    """The engine broke the protocol: stop this configuration at once, without shrinking."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.message)
        self.failure = failure


class OutOfTime(BaseException):
    """The shrinking budget is spent: stop Hypothesis at once and keep the smallest failure.

    Returning early from each example instead leaves Hypothesis's shrinker running its own
    bookkeeping over the long choice sequence for many more seconds.
    """


class Stopped(OutOfTime):
    """The run's budget is spent, or ``-x`` stopped it: no new game starts."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class GamePlay:
    """The kit's game loop and failure recording, mixed into the kit's driver.

    The attributes below are the driver's (set in its ``__init__``); the loop reads and updates
    them so that the driver sees, after each game, how many steps were checked and the smallest
    failure found.
    """

    adapter: Adapter
    spec: Spec
    options: Options
    reference: Callable[[Spec, Config], Engine]
    verdicts: Verdicts
    probes: ProbeMaker
    watch: Watch
    steps_checked: int
    full_checks: int
    observed: int
    _observes: bool | None
    level: str
    dead: str | None
    _examples: int
    _last: Failure | None
    _last_states: list[Any]
    _last_legal: Legal | None
    _found_at: float | None
    _first_length: int | None
    _cap: int | None
    _deadline: float
    _project: Callable[[Any], Any]
    _expect: Callable[..., None] | None
    budget: Budget
    listener: KitListener | None
    #: Seconds the failure being shrunk may take (``options.shrink_seconds``, within budget).
    _shrink_for: float
    #: The actions of the last games of this configuration that passed every check: evidence
    #: that the engine follows the configured rulings there (``inference.explain_failure``).
    _passed: list[list[Action]]
    #: The rulings that explained the run's failures so far (tried first on the next one).
    known_matches: list[dict[str, str]]
    #: The release the engine is checked as (its explanations are in that release's terms).
    version: VersionView

    def _play(self, config: Config, choose: Callable[[int], int],
              prefix: Sequence[Action] = ()) -> None:
        """Play one game, choosing each action with ``choose(n) -> index``.

        The cyclic garbage collector is paused for the game (and resumed however it ends): the
        game keeps every state it saw, acyclic JSON the collector would otherwise traverse again
        and again as the game grows (a third of the kit's time on long games). Reference counting
        still frees everything else at once; a game is bounded by ``max_steps``.
        """
        self.watch.steering.begin(prefix)
        if not gc.isenabled():
            self._play_game(config, choose)
            return
        gc.disable()
        try:
            self._play_game(config, choose)
        finally:
            gc.enable()

    def _play_game(self, config: Config, choose: Callable[[int], int]) -> None:
        now = time.perf_counter()
        if ((self._found_at is not None and now - self._found_at > self._shrink_for)
                or now > self._deadline):
            raise OutOfTime  # keep the smallest failing game found so far
        if self._found_at is None and self._deadline == float("inf"):
            stop = self.budget.reason()
            if stop is not None:
                raise Stopped(stop)
        self._examples += 1
        spec, opts = self.spec, self.options
        cfg = config.to_json()
        game = _Game(config, cfg)
        ref = self.reference(spec, config)
        try:
            self.adapter.start(cfg)
            state = self._project(self.adapter.state())
            legal = self.adapter.legal()
        except (EngineFailure, EngineError, ConfigError) as exc:
            raise AbortConfig(self._protocol_failure(cfg, exc)) from None
        game.states.append(state)
        game.legal = legal
        expected = self._project(ref.state())
        self._check_state(game, state, expected, None, None)
        ref_legal = legal_of(ref)
        self._check(game, self.verdicts.legal(legal, ref_legal, None))
        pool = ActionPool()
        # The action objects already offered to the pool (held, so that their ids stay theirs):
        # an engine hands out the same objects again and again, keyed once each.
        offered: dict[int, Action] = {}
        # Checks of steps (and probes) sent but not yet checked, oldest first. The next action is
        # chosen from the reference alone, so the engine can work on step n + 1 while the kit
        # checks step n; one step is kept in flight, or the adapter's ``pipeline`` (a process
        # gets that many steps in one write, which saves a round trip per step).
        inflight: list[Callable[[], None]] = []
        depth = max(1, int(getattr(self.adapter, "pipeline", 1)))
        # What every step calls, looked up once per game (none of it changes during a game).
        probe_every, pick, watch = opts.probe_every, self.watch.steering.pick, self.watch.step
        send, project, step_check = self.adapter.send_step, self._project, self._step_check
        current, apply, ref_state = ref.current_player, ref.apply, ref.state
        applied = game.ref_actions.append
        for n in range(1, (self._cap or opts.max_steps) + 1):
            actor = current()
            if actor is None:
                break
            if probe_every and n % probe_every == 0:
                inflight.append(self._send_probe(game, ref, ref_legal, pool, actor, choose))
            # Offsetting each choice by a fixed pseudo-random sequence makes the simplest choice
            # sequence (all zeros, where Hypothesis starts and shrinks to) a varied game rather
            # than a degenerate one (endless dice ties, or a cycle that never ends the game).
            action = pick(ref_legal.actions, choose, n, _offset(n))
            if len(pool) < 256 and id(action) not in offered:
                if len(offered) < 4096:
                    offered[id(action)] = action
                pool.add(action)
            try:
                collect = send(action)
            except (EngineFailure, EngineError) as exc:
                while inflight:
                    inflight.pop(0)()
                game.steps.append((actor, action))
                raise AbortConfig(self._protocol_failure(cfg, exc, game)) from None
            apply(action)
            applied(action)
            before, expected = expected, project(ref_state())
            watch(before, action, expected)
            ref_legal = legal_of(ref)
            inflight.append(step_check(game, collect, actor, action, expected, ref_legal))
            while len(inflight) > depth:
                inflight.pop(0)()
        while inflight:
            inflight.pop(0)()
        self.watch.game_over(ref)
        if opts.probe_every and game.steps and ref.current_player() is None:
            probe, why = after_end(game.steps[-1][1], self.verdicts.end_clauses)
            self._probe(game, probe.action, why, game.steps[-1][0])()
        if opts.determinism_every and (self._examples - 1) % opts.determinism_every == 0:
            self._check_determinism(game)
            if self.level != "none" and self._declares_observation():
                self._check_observations(game)
        self._keep_passed(game.ref_actions)

    def _keep_passed(self, actions: list[Action]) -> None:
        """Keep a game that passed as evidence of what the engine does (the last few only)."""
        if not actions:
            return
        self._passed.append(actions)
        while len(self._passed) > _PASSED_GAMES or (
                len(self._passed) > 1 and sum(map(len, self._passed)) > _PASSED_STEPS):
            self._passed.pop(0)

    def _step_check(self, game: _Game, collect: Callable[[], StepResult], actor: Actor,
                    action: Action, expected: dict[str, Any],
                    expected_legal: Legal) -> Callable[[], None]:
        """Return the function that collects a sent step and checks it."""

        def check() -> None:
            try:
                self._announce(expected, expected_legal)
                rejection, new_state, legal = collect()
                new_state = self._project(new_state)
            except (EngineFailure, EngineError) as exc:
                game.steps.append((actor, action))
                raise AbortConfig(self._protocol_failure(game.cfg, exc, game)) from None
            prev = game.states[-1]
            game.steps.append((actor, action))
            game.states.append(new_state)
            game.legal = legal
            if rejection is not None:
                self._check(game, self.verdicts.refused(action, rejection))
            self.steps_checked += 1
            self._check_state(game, new_state, expected, prev, action)
            self._check(game, self.verdicts.legal(legal, expected_legal, action))

        return check

    def _check_state(self, game: _Game, state: dict[str, Any], expected: dict[str, Any],
                     prev: dict[str, Any] | None, action: Action | None) -> None:
        """Check a state: schema and invariants when sampled or different, then the diff."""
        # Compared once (the states can be long); the very object when the adapter found the
        # engine's answer byte for byte the reference's (``expect``).
        differs = state is not expected and state != expected
        full = self.level == "full" and (
            differs or self.options.full or state.get("result") is not None
            or game.since_full >= self.options.sample_every)
        if full:
            game.since_full = 0
            self.full_checks += 1
            found = self.verdicts.schema_and_invariants(state, prev, action, game.params,
                                                        game.cfg)
            if found is not None and differs:  # where it departs names the cause too
                found = replace(found, diff=tuple(diff_states(state, expected,
                                                              self.verdicts.schema)))
            self._check(game, found)
        else:
            game.since_full += 1
        if differs:
            self._check(game, self.verdicts.state(state, expected, action))

    def _send_probe(self, game: _Game, ref: Engine, ref_legal: Legal,
                    pool: ActionPool, actor: Actor,
                    choose: Callable[[int], int]) -> Callable[[], None]:
        """Send an illegal action; return the function that checks how the engine took it.

        A family of probes is chosen first, then a probe of it, so small families (an extra key,
        an unknown kind) are tried as often as large ones (the actions legal earlier).
        """
        legal = ref_legal.actions
        # One Hypothesis choice per probe (the family): more would lengthen the choice sequence
        # the shrinker works on. The template and the probe within the family follow the step.
        n = len(game.steps)
        template = legal[_offset(n) % len(legal)] if legal else None
        probe = self.probes.pick_from_pool(legal, pool, template, choose, _offset(n + 1))
        if probe is None:  # the chosen family held only legal actions: nothing to probe
            return lambda: None
        applied = len(game.ref_actions)

        def why() -> Rejection:
            # Asked only when the engine mishandles the probe: the reference is taken back to
            # the position the probe was sent in (it has moved on since), and says why.
            then = self.reference(self.spec, config_from_json(self.spec, dict(game.cfg)))
            for done in game.ref_actions[:applied]:
                then.apply(done)
            return self.probes.explain(probe, then.rejection(probe.action))

        return self._probe(game, probe.action, why, actor)

    def _probe(self, game: _Game, bad: Any, why: Rejection | Callable[[], Rejection],
               actor: Actor) -> Callable[[], None]:
        """Send the illegal action ``bad``; return the function that checks how it was taken."""
        cfg = game.cfg
        try:
            collect = self.adapter.send_probe(bad)
        except (EngineFailure, EngineError) as exc:
            game.steps.append((actor, bad))
            raise AbortConfig(self._protocol_failure(cfg, exc, game)) from None

        def check() -> None:
            state = game.states[-1]  # the engine's state before the probe, checked by now
            try:
                self._announce(state)
                rejection, after = collect()
                after = self._project(after) if after is not None else None
            except (EngineFailure, EngineError) as exc:
                game.steps.append((actor, bad))
                raise AbortConfig(self._protocol_failure(cfg, exc, game)) from None
            found = self.verdicts.probe(bad, why, rejection, state, after)
            if rejection is None:
                game.steps.append((actor, bad))
                game.states.append(None)
                game.legal = None
            self._check(game, found)

        return check

    def _check_determinism(self, game: _Game) -> None:
        try:
            self.adapter.start(game.cfg)
            first = self._project(self.adapter.state())
            if first != game.states[0]:
                self._fail(game, "DETERMINISM", (), "a fresh game starts in a different state: "
                           + state_diff(first, game.states[0] or {}), step=0,
                           expected=game.states[0], actual=first)
            steps = list(enumerate(game.steps, 1))
            # Only the states are compared: an adapter that can leave out the legal actions
            # (``send_replay``, optional) is asked for the states alone.
            send = getattr(self.adapter, "send_replay", None) or self._replay_by_steps
            for start in range(0, len(steps), _REPLAY_CHUNK):
                chunk = steps[start:start + _REPLAY_CHUNK]
                pending = [send(action) for _, (_, action) in chunk]
                for (i, (_, action)), collect in zip(chunk, pending, strict=True):
                    self._announce(game.states[i])
                    rejection, state = collect()
                    state = self._project(state)
                    if rejection is not None or state != game.states[i]:
                        what = (f"refused it ({rejection.reason})" if rejection is not None
                                else state_diff(state, game.states[i] or {}))
                        self._fail(game, "DETERMINISM", self.verdicts.clauses(action),
                                   f"replaying the same actions, step {i} ({action!r}) differs: "
                                   f"{what}", step=i, expected=game.states[i],
                                   actual=state if rejection is None else
                                   {"action": action, "accepted": False,
                                    "reason": rejection.reason})
        except (EngineFailure, EngineError) as exc:
            raise AbortConfig(self._protocol_failure(game.cfg, exc, game)) from None

    def _declares_observation(self) -> bool:
        """Return whether the engine declares the optional ``observation`` method (asked once)."""
        if self._observes is None:
            hello = self._hello()
            self._observes = hello is not None and "observation" in hello.capabilities
        return self._observes

    def _check_observations(self, game: _Game) -> None:
        """Replay ``game`` and compare every player's observation with the reference's at
        every step (check OBSERVATION): what the spec's ``state.hidden`` and the configured
        rulings hide from a player must be hidden, the rest shown as in the state."""
        from rulespec.reference.observation import observation

        ask = getattr(self.adapter, "observation", None)
        if not callable(ask):
            return
        ref = self.reference(self.spec, game.config)
        ref_actions = game.ref_actions
        players = int(game.cfg.get("players") or 0)
        try:
            self.adapter.start(game.cfg)
            for i in range(len(ref_actions) + 1):
                if i:
                    rejection = self.adapter.apply(ref_actions[i - 1])
                    ref.apply(ref_actions[i - 1])
                    if rejection is not None:
                        return  # DETERMINISM, checked just before, says why
                for p in range(players):
                    # An observable-level engine may leave out the hidden fields: they are left
                    # out of both sides, as for its states.
                    got, want = self._project(ask(p)), self._project(observation(ref, p))
                    self.observed += 1
                    if got != want:
                        self._fail(game, "OBSERVATION", self.verdicts.clauses(
                            ref_actions[i - 1]) if i else (),
                            f"player {p}'s observation after step {i} differs from the "
                            f"reference's: {_observation_diff(got, want)}",
                            step=i, expected=want, actual=got)
        except (EngineFailure, EngineError) as exc:
            raise AbortConfig(self._protocol_failure(game.cfg, exc, game)) from None

    def _announce(self, state: dict[str, Any] | None, legal: Legal | None = None) -> None:
        """Tell the adapter what a conformant engine answers next (its optional ``expect``),
        so that it may skip parsing that answer; only at level full, where whole states are
        compared."""
        if self._expect is None or state is None or self.level != "full":
            return
        if legal is None:
            self._expect(state)
        else:
            self._expect(state, legal)

    def _replay_by_steps(self, action: Any) -> Callable[[], tuple[Rejection | None, Any]]:
        """``send_replay`` for an adapter without it: a whole step, its legal actions dropped."""
        collect = self.adapter.send_step(action)

        def result() -> tuple[Rejection | None, Any]:
            rejection, state, _ = collect()
            return rejection, state

        return result

    # -- failures ----------------------------------------------------------------------------

    def _check(self, game: _Game, found: Finding | None) -> None:
        """Turn a check's finding into the failure of this game (nothing when it passed)."""
        if found is not None:
            self._fail(game, found.check, found.clauses, found.message, subject=found.subject,
                       also=found.also, diff=tuple(c.to_json() for c in found.diff),
                       cause=found.cause, expected=found.expected, actual=found.actual)

    def _fail(self, game: _Game, check: str, clauses: Iterable[str], message: str, *,
              subject: str | None = None, also: tuple[str, ...] = (),
              step: int | None = None, diff: tuple[Mapping[str, Any], ...] = (),
              cause: str | None = None, expected: Any = None, actual: Any = None) -> NoReturn:
        at = len(game.steps) if step is None else step
        failure = Failure(check, tuple(unique(clauses)), message, game.cfg, step=at,
                          actions=tuple(game.steps[:at]), also=also, subject=subject, diff=diff,
                          cause=cause, expected=expected, actual=actual)
        game.failure_states = list(game.states[:at + 1])
        if self._found_at is None:
            self._found_at = time.perf_counter()
            self._shrink_for = self.budget.allow(self.options.shrink_seconds)
            self.watch.steering.freeze()
        if self._first_length is None:
            self._first_length = at
        # Hypothesis tries smaller and smaller games: keep the smallest (the first among equals).
        same = self._cap is None or self._last is None or failure.check == self._last.check
        if self._last is None or (len(failure.actions) < len(self._last.actions) and same):
            self._last = replace(failure)
            self._last_states = game.failure_states
            self._last_legal = game.legal if at == len(game.steps) else None
        raise FoundFailure(failure)

    def _protocol_failure(self, cfg: Mapping[str, Any], exc: Exception,
                          game: _Game | None = None, *,
                          why_sent: str = "a configuration the run was asked for") -> Failure:
        kind = getattr(exc, "kind", "error")
        if isinstance(exc, EngineTimeout):
            where = f"a {cfg['players']}-player game" if "players" in cfg else "its handshake"
            self.dead = f"the engine stopped answering in {where} ({str(exc).split(';')[0]})"
        steps = tuple(game.steps) if game else ()
        self._last_states = list(game.states) if game else []
        if isinstance(exc, ConfigError):
            says = exc.engine_says if isinstance(exc, ConfigRefused) else str(exc)
            return Failure("PROTOCOL", (), refusal(self.spec, self._hello(), cfg, says,
                                                   why_sent),
                           dict(cfg), step=len(steps), actions=steps, subject="refused",
                           cause=causes.refused_config(says))
        return Failure("PROTOCOL", (), f"{kind}: {exc}", dict(cfg), step=len(steps),
                       actions=steps, subject=kind)

    def _hello(self) -> Hello | None:
        """Return the engine's hello (None when it cannot be read)."""
        try:
            return self.adapter.hello()
        except EngineFailure:
            return None

    def _write_trace(self, failure: Failure) -> Failure:
        """Write the failing game as a trace ``rulespec replay`` runs; return it with the path.

        The failure also gets the length of the first failing game found (before shrinking) and
        the ruling options under which the reference does what the engine did.
        """
        if failure.check != "PROTOCOL" and self._first_length is not None:
            failure = replace(failure, shrunk_from=self._first_length)
        if self.options.infer_rulings and self.level == "full":
            failure = explain_failure(self.spec, self.reference, failure, self._last_states,
                                      self._last_legal, passed=self._passed,
                                      budget=self.budget.allow(self.options.infer_seconds),
                                      known=self.known_matches)
        # Below the full level the states are partial: the trace records the actions only.
        states = self._last_states if self.level == "full" else []
        return self._confirmed(write_failure_trace(self.spec, failure, states,
                                                   self.options.trace_dir))

    def _confirmed(self, failure: Failure) -> Failure:
        """Return ``failure`` stamped with when it was found; tell the listener (a failure is
        printed as it is found) and the budget (``-x`` stops the run at the first one)."""
        failure = replace(self.version.explain(failure), found_after=self.budget.elapsed())
        self.known_matches.extend(dict(m) for m in failure.matches
                                  if dict(m) not in self.known_matches)
        if self.listener is not None:
            self.listener.failure(failure)
        self.budget.found()
        return failure



class _Game:
    """The game being played in one example: its configuration, actions and engine states."""

    def __init__(self, config: Config, cfg: dict[str, Any]) -> None:
        self.cfg = cfg
        self.config = config
        self.params = dict(config.parameters)
        self.steps: list[tuple[Actor, Action]] = []
        #: Actions applied to the reference so far (ahead of ``steps`` by the step in flight).
        self.ref_actions: list[Action] = []
        self.states: list[dict[str, Any] | None] = []
        self.failure_states: list[dict[str, Any] | None] = []
        #: The engine's answer to legal_actions after the last step checked.
        self.legal: Legal | None = None
        self.since_full = 0


def _observation_diff(got: Any, want: Any) -> str:
    """Say how an observation differs from the reference's, briefly."""
    if isinstance(got, dict) and isinstance(want, dict):
        return state_diff(got, want)
    return f"{got!r:.120} where the reference gives {want!r:.120}"


def _offset(n: int) -> int:
    """Return the n-th term of a fixed pseudo-random sequence (Knuth's multiplicative hash)."""
    return ((n * 2654435761) & 0xFFFFFFFF) >> 8

