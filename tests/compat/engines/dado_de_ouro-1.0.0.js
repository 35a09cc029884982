#!/usr/bin/env node
// Dado de Ouro: an independent engine speaking the rulespec engine protocol (rulespec-engine/1).
//
// Written from the Portuguese rulebook (004_967b0044772e61e3.txt) and the published spec
// (specs/dado-de-ouro.yaml: its actions, state schema and invariants), as an outside implementer
// would, to show the conformance kit checks engines in any language. It implements the printed
// rules under the spec's default rulings, plus the readings that are only parameter values
// (the die of DDO-AMB-01, the score floor of DDO-AMB-09) and the parameter-only variants.
//
// Run: node dado_de_ouro.js   (JSON-RPC 2.0 requests, one per line, on stdin)

"use strict";

const readline = require("readline");

const GAME = "dado-de-ouro";
const PROTOCOL = "rulespec-engine/1";
const SEATS = 4; // "joga com quatro jogadores"

// The rulebook's numbers, and the readings this engine implements.
const PRINTED = {
  rounds_per_game: 10, // "dez rodadas"
  games_to_win: 3, // "vencer três jogos"
  tiebreak_rolls: 5, // "cinco vezes"
  starting_score: 0, // "começa o jogo com zero pontos"
  die_faces: [1, 2, 3, 4, 5, 6], // not printed: a common die (DDO-AMB-01, default d6)
  score_floor: null, // not printed: scores may go negative (DDO-AMB-09)
};
const RULINGS = {
  "DDO-AMB-01": ["d6", "d8", "d10"],
  "DDO-AMB-02": ["both-tiebreaks"],
  "DDO-AMB-03": ["max-first"],
  "DDO-AMB-04": ["game-starter"],
  "DDO-AMB-05": ["new-opening-roll"],
  "DDO-AMB-06": ["reroll-tied"],
  "DDO-AMB-07": ["sum-of-rolls"],
  "DDO-AMB-08": ["still-tied-only"],
  "DDO-AMB-09": ["negative-allowed", "floor-at-zero"],
  "DDO-AMB-10": ["same-starter"],
  "DDO-AMB-11": ["seat-zero"],
  "DDO-AMB-12": ["original-value"],
};
const RULING_PARAMETERS = {
  "DDO-AMB-01": {d6: {die_faces: [1, 2, 3, 4, 5, 6]}, d8: {die_faces: [1, 2, 3, 4, 5, 6, 7, 8]},
                 d10: {die_faces: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}},
  "DDO-AMB-09": {"negative-allowed": {score_floor: null}, "floor-at-zero": {score_floor: 0}},
};
const VARIANTS = {"short-game": {rounds_per_game: 5}, "single-game": {games_to_win: 1},
                  "custom-length": {}};

class Refusal extends Error {
  constructor(code, message, data) { super(message); this.code = code; this.data = data; }
}

const nulls = () => Array(SEATS).fill(null);
// Players of `group`, clockwise starting at seat `first` (or the next one of them after it).
const clockwiseFrom = (group, first) =>
  [...group].sort((a, b) => ((a - first + SEATS) % SEATS) - ((b - first + SEATS) % SEATS));

class Match {
  constructor(config) {
    if (config.game !== GAME) throw new Refusal(2, `this engine plays ${GAME}, not ${config.game}`);
    if (config.players !== SEATS) throw new Refusal(2, `${GAME} is for ${SEATS} players`);
    const p = {...PRINTED};
    for (const [amb, option] of Object.entries(config.rulings || {})) {
      if (RULINGS[amb] && !RULINGS[amb].includes(option))
        throw new Refusal(2, `ruling ${amb}=${option} is not implemented`);
      Object.assign(p, (RULING_PARAMETERS[amb] || {})[option] || {});
    }
    for (const v of config.variants || []) {
      if (!(v in VARIANTS)) throw new Refusal(2, `variant ${v} is not implemented`);
      Object.assign(p, VARIANTS[v]);
    }
    Object.assign(p, config.parameters || {});
    this.p = p;
    this.game = 1;
    this.gamesWon = Array(SEATS).fill(0);
    this.history = [];
    this.lastRound = null;
    this.phase = null;
    this.newGame();
  }

  // -- the flow -------------------------------------------------------------------------------

  newGame() {
    this.scores = Array(SEATS).fill(this.p.starting_score);
    this.round = 0;
    this.roundsPlayed = 0;
    this.gameStarter = null;
    this.roundStarter = null;
    this.opening = [];
    this.roundRolls = nulls();
    this.tie = null;
    this.pending = [];
    this.gainer = this.gain = this.loser = this.loss = null;
    this.maxPasses = [];
    this.minPasses = [];
    this.final = null;
    // The opening roll: everybody, clockwise from seat 0; the highest starts.
    this.startPass("opening", clockwiseFrom([0, 1, 2, 3], 0));
  }

  startPass(phase, order) {
    this.phase = phase;
    this.order = order;
    this.rolls = nulls();
    this.pos = 0;
  }

  get roller() { return this.phase === "over" ? null : this.order[this.pos]; }

  roll(face) {
    this.rolls[this.roller] = face;
    if (this.phase === "round") this.roundRolls[this.roller] = face;
    this.pos += 1;
    if (this.pos < this.order.length) return;
    const pass = this.rolls;
    if (this.phase === "opening") this.endOpeningPass(pass);
    else if (this.phase === "round") this.endMainRoll();
    else if (this.phase === "max_tiebreak" || this.phase === "min_tiebreak") this.endTiePass(pass);
    else if (this.phase === "final_draw") this.endDrawPass(pass);
    else if (this.phase === "final_rolls") this.endFinalPass(pass);
  }

  // Players of `group` who rolled the extreme (max or min) in `pass`.
  extremes(pass, group, kind) {
    const faces = group.map((s) => pass[s]);
    const best = kind === "max" ? Math.max(...faces) : Math.min(...faces);
    return [best, group.filter((s) => pass[s] === best)];
  }

  endOpeningPass(pass) {
    this.opening.push(pass);
    const [, top] = this.extremes(pass, this.order, "max");
    if (top.length > 1) { this.startPass("opening", top); return; } // the tied roll again
    this.gameStarter = top[0];
    this.startRound(top[0]);
  }

  startRound(starter) {
    this.round += 1;
    this.roundStarter = starter;
    this.roundRolls = nulls();
    this.tie = null;
    this.pending = [];
    this.gainer = this.gain = this.loser = this.loss = null;
    this.maxPasses = [];
    this.minPasses = [];
    this.startPass("round", clockwiseFrom([0, 1, 2, 3], starter));
  }

  endMainRoll() {
    const everyone = this.order;
    const [hi, highest] = this.extremes(this.roundRolls, everyone, "max");
    const [lo, lowest] = this.extremes(this.roundRolls, everyone, "min");
    if (highest.length === 1) { this.gainer = highest[0]; this.gain = hi; }
    else this.pending.push(["max", hi, highest]);
    if (lowest.length === 1) { this.loser = lowest[0]; this.loss = lo; }
    else this.pending.push(["min", lo, lowest]);
    this.nextTie();
  }

  nextTie() {
    if (this.pending.length === 0) { this.scoreRound(); return; }
    const [kind, value, players] = this.pending.shift();
    // The tied re-roll starting with whichever of them rolled first in the round.
    const roundOrder = clockwiseFrom([0, 1, 2, 3], this.roundStarter);
    const tied = roundOrder.filter((s) => players.includes(s));
    this.tie = {kind, value, players: tied, passes: []};
    this.startPass(kind === "max" ? "max_tiebreak" : "min_tiebreak", tied);
  }

  endTiePass(pass) {
    const tie = this.tie;
    tie.passes.push(pass);
    // Only those still tied roll again (the tie keeps the players tied in the round).
    const [, still] = this.extremes(pass, this.order, tie.kind);
    if (still.length > 1) {
      this.startPass(this.phase, still);
      return;
    }
    if (tie.kind === "max") { this.gainer = still[0]; this.gain = tie.value; this.maxPasses = tie.passes; }
    else { this.loser = still[0]; this.loss = tie.value; this.minPasses = tie.passes; }
    this.tie = null;
    this.nextTie();
  }

  scoreRound() {
    const before = [...this.scores];
    const after = before.map((score, seat) => {
      let next = score;
      if (seat === this.gainer) next += this.gain;
      if (seat === this.loser) next -= this.loss;
      if (this.p.score_floor !== null && next < this.p.score_floor) next = this.p.score_floor;
      return next;
    });
    this.scores = after;
    this.roundsPlayed += 1;
    this.lastRound = {
      game: this.game, round: this.round, tiebreak: false, starter: this.roundStarter,
      players: before.map((b, seat) => ({seat, face: this.roundRolls[seat], before: b,
                                          after: after[seat]})),
      gainer: this.gainer, gain: this.gain, loser: this.loser, loss: this.loss,
      max_passes: this.maxPasses, min_passes: this.minPasses,
    };
    this.tie = null;
    if (this.roundsPlayed < this.p.rounds_per_game) { this.startRound(this.gameStarter); return; }
    this.order = [];
    this.rolls = nulls();
    const top = Math.max(...this.scores);
    const leaders = [0, 1, 2, 3].filter((s) => this.scores[s] === top);
    if (leaders.length === 1) { this.winGame(leaders[0], null); return; }
    // The leaders' tie-break: a draw for who starts, then five rolls each.
    this.final = {mode: "sum", leaders, players: leaders, draw: [], starter: null,
                  repetition: 1, passes_done: 0, rounds_done: 0, totals: nulls()};
    this.startPass("final_draw", clockwiseFrom(leaders, 0));
  }

  endDrawPass(pass) {
    const f = this.final;
    f.draw.push(pass);
    const [, top] = this.extremes(pass, this.order, "max");
    if (top.length > 1) { this.startPass("final_draw", top); return; }
    f.starter = top[0];
    this.beginFinalRolls();
  }

  beginFinalRolls() {
    const f = this.final;
    f.passes_done = 0;
    f.totals = nulls();
    for (const s of f.players) f.totals[s] = 0;
    this.startPass("final_rolls", clockwiseFrom(f.players, f.starter));
  }

  endFinalPass(pass) {
    const f = this.final;
    for (const s of f.players) f.totals[s] += pass[s];
    f.passes_done += 1;
    if (f.passes_done < this.p.tiebreak_rolls) {
      this.startPass("final_rolls", this.order);
      return;
    }
    const [, best] = this.extremes(f.totals, f.players, "max");
    if (best.length === 1) {
      this.winGame(best[0], {leaders: f.leaders, repetitions: f.repetition, totals: f.totals});
      return;
    }
    f.players = best;
    f.repetition += 1;
    this.beginFinalRolls();
  }

  winGame(winner, tiebreak) {
    this.history.push({scores: [...this.scores], winner, rounds: this.roundsPlayed,
                       starter: this.gameStarter, tiebreak});
    this.gamesWon[winner] += 1;
    if (this.gamesWon[winner] >= this.p.games_to_win) {
      this.phase = "over";
      this.order = [];
      this.rolls = nulls();
      this.final = null;
      return;
    }
    this.game += 1;
    this.newGame();
  }

  // -- what the protocol asks -----------------------------------------------------------------

  result() {
    if (this.phase !== "over") return null;
    const counts = [...new Set(this.gamesWon)].sort((a, b) => b - a);
    return {
      scores: [...this.gamesWon],
      ranking: counts.map((c) => [0, 1, 2, 3].filter((s) => this.gamesWon[s] === c)),
      winners: [0, 1, 2, 3].filter((s) => this.gamesWon[s] >= this.p.games_to_win),
      game_winners: this.history.map((h) => h.winner),
    };
  }

  legal() {
    const r = this.roller;
    if (r === null) return {actor: null, actions: []};
    const faces = this.p.die_faces;
    return {actor: "chance", actions: faces.map((face) => ({kind: "roll", player: r, face})),
            probabilities: faces.map(() => `1/${faces.length}`)};
  }

  state() {
    const copy = (x) => JSON.parse(JSON.stringify(x));
    return {
      to_move: this.phase === "over" ? null : "chance",
      phase: this.phase,
      result: this.result(),
      game: this.game,
      games_won: [...this.gamesWon],
      history: copy(this.history),
      scores: [...this.scores],
      round: this.round,
      rounds_played: this.roundsPlayed,
      game_starter: this.gameStarter,
      round_starter: this.roundStarter,
      roller: this.roller,
      order: [...this.order],
      rolls: [...this.rolls],
      opening: copy(this.opening),
      round_rolls: [...this.roundRolls],
      tie: copy(this.tie),
      pending: this.pending.map(([kind]) => kind),
      gainer: this.gainer, gain: this.gain, loser: this.loser, loss: this.loss,
      last_round: copy(this.lastRound),
      final: copy(this.final),
    };
  }

  apply(action) {
    const refuse = (reason, clauses) => {
      throw new Refusal(1, "illegal action", {reason, clauses});
    };
    if (action === null || typeof action !== "object" || action.kind !== "roll")
      refuse(`unknown action ${JSON.stringify(action)}; the only action is a roll`, ["DDO-TURN-01"]);
    if (this.phase === "over") refuse("the match is over", ["DDO-MATCH-02"]);
    const keys = Object.keys(action).sort().join(",");
    if (keys !== "face,kind,player") refuse("a roll has exactly kind, player and face", ["DDO-TURN-01"]);
    if (action.player !== this.roller) refuse(`it is player ${this.roller}'s roll`, ["DDO-TURN-01"]);
    if (!Number.isInteger(action.face) || !this.p.die_faces.includes(action.face))
      refuse(`face ${JSON.stringify(action.face)} is not on the die`, ["DDO-DIE-01"]);
    this.roll(action.face);
  }
}

// -- the protocol -----------------------------------------------------------------------------

let match = null;

const methods = {
  hello(params) {
    if (params.protocol !== PROTOCOL) throw new Refusal(-32602, `this engine speaks ${PROTOCOL}`);
    return {protocol: PROTOCOL, name: "dado-de-ouro.js", version: "1.0.0",
            games: {[GAME]: {spec_version: "1.0.0", rulings: RULINGS,
                             variants: Object.keys(VARIANTS)}},
            capabilities: ["batch"]};
  },
  start(params) { match = new Match(params.config || {}); return {}; },
  legal_actions() { return game().legal(); },
  state() { return {state: game().state()}; },
  apply(params) { game().apply(params.action); return {}; },
  shutdown() { setImmediate(() => process.exit(0)); return {}; },
};

function game() {
  if (match === null) throw new Refusal(3, "no game in progress; send start first");
  return match;
}

function answer(request) {
  const id = request && typeof request === "object" && "id" in request ? request.id : null;
  if (!request || request.jsonrpc !== "2.0" || typeof request.method !== "string")
    return {jsonrpc: "2.0", id, error: {code: -32600, message: "invalid request"}};
  const method = methods[request.method];
  if (!method) return {jsonrpc: "2.0", id, error: {code: -32601, message: "unknown method"}};
  try {
    return {jsonrpc: "2.0", id, result: method(request.params || {})};
  } catch (e) {
    if (e instanceof Refusal) {
      const error = {code: e.code, message: e.message};
      if (e.data !== undefined) error.data = e.data;
      return {jsonrpc: "2.0", id, error};
    }
    return {jsonrpc: "2.0", id, error: {code: -32603, message: String(e && e.stack || e)}};
  }
}

readline.createInterface({input: process.stdin, terminal: false}).on("line", (line) => {
  if (!line.trim()) return;
  let message;
  try {
    message = JSON.parse(line);
  } catch (e) {
    process.stdout.write(JSON.stringify({jsonrpc: "2.0", id: null,
                                         error: {code: -32700, message: "parse error"}}) + "\n");
    return;
  }
  const reply = Array.isArray(message) ? message.map(answer) : answer(message);
  process.stdout.write(JSON.stringify(reply) + "\n");
});
