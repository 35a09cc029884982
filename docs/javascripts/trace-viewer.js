// Trace viewer: step through a rulespec trace (JSON Lines: a header, one line per action,
// the result). The site's traces come as scripts (traces/catalog.js, traces/<name>.js) that
// call back into this file, so the page also works from file:// where fetch is refused.
// A trace script hands over the text itself or, as the site's build writes them, the text
// gzipped and in base64 ({gzip: "..."}: a tenth of the size), unpacked here with the
// browser's DecompressionStream.
// A visitor's own file is read with FileReader and never leaves the browser.
//
// A trace may record the state before the first step (the header's "state") and after each
// step, in full ("state") or as a JSON Patch of the state before it ("delta"); a trace the
// conformance kit wrote for a failure says in its result line which check failed, at which
// step, and what was expected there and what the engine did instead ("failure").
(function () {
  "use strict";

  let catalog = null;
  const waiting = {};

  window.rulespecTraceCatalog = function (data) {
    catalog = data;
    document.querySelectorAll(".rs-trace-viewer").forEach(setup);
  };
  window.rulespecTraceLoaded = function (name, text) {
    const done = waiting[name];
    delete waiting[name];
    if (done) done(text);
  };

  // Return (a promise of) the trace's text: a string as it is, {gzip: base64} unpacked.
  function unpack(data, name) {
    if (typeof data === "string") return Promise.resolve(data);
    if (!data || typeof data.gzip !== "string") {
      return Promise.reject(new Error(name + ": the trace script holds neither a text nor {gzip: ...}"));
    }
    if (typeof DecompressionStream === "undefined") {
      return Promise.reject(new Error(name + ": this browser cannot unpack the site's traces (it has no "
        + "DecompressionStream: Chrome 80, Firefox 113, Safari 16.4 or later); open the trace file "
        + "itself with the file chooser instead"));
    }
    const bytes = Uint8Array.from(atob(data.gzip), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text();
  }

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => {
      if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v);
    });
    (children || []).forEach((c) => node.appendChild(typeof c === "string" ? document.createTextNode(c) : c));
    return node;
  }

  function loadScript(src) {
    return new Promise((resolve, reject) => {
      const script = el("script", { src: src });
      script.onload = resolve;
      script.onerror = () => reject(new Error("could not load " + src));
      document.head.appendChild(script);
    });
  }

  // Apply a delta (JSON Patch: add, remove, replace) to a state without changing it: only the
  // objects and arrays on the changed paths are copied, the rest is shared.
  function applyDelta(state, ops, where) {
    if (!Array.isArray(ops)) throw new Error(where + ": a delta must be a list of operations");
    const fresh = new Set();
    let root = state;
    const copy = (value) => {
      if (Array.isArray(value)) return value.slice();
      if (value !== null && typeof value === "object") return Object.assign({}, value);
      throw new Error(where + ": a delta goes into " + JSON.stringify(value) + ", not an object or array");
    };
    const index = (items, token, end) => {
      const i = /^(0|[1-9][0-9]*)$/.test(token) ? Number(token) : -1;
      if (i < 0 || i >= items.length + (end ? 1 : 0)) throw new Error(where + ": no element " + token + " in an array of " + items.length);
      return i;
    };
    const key = (parent, token) => {
      if (Array.isArray(parent)) return index(parent, token, false);
      if (!Object.prototype.hasOwnProperty.call(parent, token)) throw new Error(where + ": no key " + JSON.stringify(token));
      return token;
    };
    ops.forEach((op) => {
      if (!op || !["add", "remove", "replace"].includes(op.op) || typeof op.path !== "string") {
        throw new Error(where + ": not a delta operation: " + JSON.stringify(op));
      }
      if (op.path === "") { root = op.value; fresh.clear(); return; }
      const tokens = op.path.slice(1).split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
      if (!fresh.has(root)) { root = copy(root); fresh.add(root); }
      let parent = root;
      tokens.slice(0, -1).forEach((token) => {
        const k = key(parent, token);
        let child = parent[k];
        if (!fresh.has(child)) { child = copy(child); fresh.add(child); parent[k] = child; }
        parent = child;
      });
      const last = tokens[tokens.length - 1];
      if (Array.isArray(parent)) {
        if (op.op === "add") parent.splice(last === "-" ? parent.length : index(parent, last, true), 0, op.value);
        else if (op.op === "remove") parent.splice(index(parent, last, false), 1);
        else parent[index(parent, last, false)] = op.value;
      } else if (parent === null || typeof parent !== "object") {
        throw new Error(where + ": a delta goes into " + JSON.stringify(parent) + ", not an object or array");
      } else if (op.op === "add") {
        parent[last] = op.value;
      } else {
        key(parent, last);
        if (op.op === "remove") delete parent[last]; else parent[last] = op.value;
      }
    });
    return root;
  }

  function parseTrace(text, name) {
    const trace = { name: name, text: text, header: null, initial: null, steps: [], states: [],
                    expects: [], result: null, failure: null };
    let current = null;
    text.split("\n").forEach((line, index) => {
      if (!line.trim()) return;
      const where = name + ":" + (index + 1);
      let record;
      try {
        record = JSON.parse(line);
      } catch (err) {
        throw new Error(where + ": not JSON: " + err.message);
      }
      if (record.type === "header") {
        trace.header = record;
        trace.initial = record.state || null;
        current = trace.initial;
      } else if (record.type === "step") {
        if (record.state) current = record.state;
        else if (record.delta && current) current = applyDelta(current, record.delta, where);
        else if (record.delta) throw new Error(where + ": a delta but no state before it");
        else current = null;
        trace.steps.push(record);
        trace.states.push(current);
      } else if (record.type === "expect") {
        trace.expects.push({ after: trace.steps.length, that: record.that, because: record.because });
      } else if (record.type === "result") {
        trace.result = record.result;
        trace.failure = record.failure || null;
      }
    });
    if (!trace.header) throw new Error(name + ": no header line (type \"header\"); is this a rulespec trace?");
    return trace;
  }

  // Flatten a JSON value into path -> text, for "what changed". A list of scalars (a hand,
  // a pile) stays one value: index by index it would report every shifted card.
  function flatten(value, path, out) {
    const scalars = Array.isArray(value) && value.every((v) => v === null || typeof v !== "object");
    if (value !== null && typeof value === "object" && !scalars) {
      const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
      if (!keys.length) out[path || "(root)"] = Array.isArray(value) ? "[]" : "{}";
      keys.forEach((k) => flatten(value[k], path + (Array.isArray(value) ? "[" + k + "]" : (path ? "." : "") + k), out));
    } else {
      out[path || "(root)"] = JSON.stringify(value);
    }
    return out;
  }

  function changes(before, after) {
    const a = before !== undefined && before !== null ? flatten(before, "", {}) : {};
    const b = flatten(after, "", {});
    const rows = [];
    Object.keys(b).forEach((k) => { if (a[k] !== b[k]) rows.push([k, k in a ? a[k] : "—", b[k]]); });
    Object.keys(a).forEach((k) => { if (!(k in b)) rows.push([k, a[k], "—"]); });
    return rows;
  }

  // The theme styles only tables without a class, so the class goes on a wrapper.
  function table(headers, rows, cls) {
    return el("div", { class: cls || "" }, [el("table", {}, [
      el("thead", {}, [el("tr", {}, headers.map((h) => el("th", { text: h })))]),
      el("tbody", {}, rows.map((r) => el("tr", {}, r.map((c) => {
        const td = el("td");
        if (c instanceof Node) td.appendChild(c); else td.textContent = c;
        return td;
      })))),
    ])]);
  }

  function json(value, cls) {
    return el("pre", { class: cls || "" }, [el("code", { text: JSON.stringify(value, null, 2) })]);
  }

  // Where the viewer is asked to go: the address's hash (#trace=NAME&step=N), else its query
  // (?trace=NAME&step=N: the links of the generated pages, which the docs build checks).
  function wanted() {
    const hash = new URLSearchParams(window.location.hash.slice(1));
    const params = hash.has("trace") || hash.has("step") ? hash : new URLSearchParams(window.location.search);
    const step = Number(params.get("step"));
    return { trace: params.get("trace"), step: params.get("step") === null || !Number.isFinite(step) ? null : step };
  }

  function setup(root) {
    if (root.dataset.ready || !catalog) return;
    root.dataset.ready = "1";
    const base = root.dataset.base || "traces/";
    const siteRoot = new URL(base + "../", window.location.href).href;
    root.innerHTML = "";
    const picker = el("select", { "aria-label": "Trace", class: "rs-trace-pick" });
    picker.add(new Option("Choose a trace…", ""));
    const groups = {};
    const kinds = { failure: "Conformance failures", example: "Rule examples: " };
    catalog.traces.forEach((t) => {
      const game = catalog.games[t.game];
      const title = game ? game.title : t.game;
      const label = t.kind === "failure" ? kinds.failure : t.kind === "example" ? kinds.example + title : title;
      if (!groups[label]) { groups[label] = el("optgroup", { label: label }); picker.appendChild(groups[label]); }
      groups[label].appendChild(new Option(t.name, t.name));
    });
    const file = el("input", { type: "file", accept: ".jsonl,.json,.txt", "aria-label": "Open a trace file" });
    const drop = el("div", { class: "rs-trace-drop", tabindex: "0" }, ["Drop a trace file here, or ", file]);
    const status = el("p", { class: "rs-trace-status", role: "status" });
    const controls = el("div", { class: "rs-trace-controls" });
    const view = el("div", { class: "rs-trace-view" });
    root.append(el("div", { class: "rs-filters" }, [picker]), drop, status, controls, view);

    let trace = null;
    let step = 0;
    let download = null;

    function attached() {
      if (document.body.contains(root)) return true;
      document.removeEventListener("keydown", onKey);
      window.removeEventListener("hashchange", onHash);
      return false;
    }

    function show(t, at) {
      trace = t;
      if (download) URL.revokeObjectURL(download);
      download = URL.createObjectURL(new Blob([t.text], { type: "application/x-ndjson" }));
      const start = at === null || at === undefined ? (t.failure && t.failure.step !== null && t.failure.step !== undefined ? t.failure.step : 0) : at;
      step = Math.max(0, Math.min(start || 0, t.steps.length));
      render();
    }

    function fail(err) {
      status.textContent = String(err.message || err);
      status.classList.add("rs-trace-error");
    }

    function loadNamed(name, at) {
      status.classList.remove("rs-trace-error");
      status.textContent = "Loading " + name + "…";
      new Promise((resolve) => {
        waiting[name] = resolve;
        loadScript(base + encodeURIComponent(name) + ".js").catch(fail);
      }).then((data) => unpack(data, name)).then((text) => {
        picker.value = name;
        show(parseTrace(text, name), at);
      }).catch(fail);
    }

    picker.addEventListener("change", () => { if (picker.value) loadNamed(picker.value, null); });
    function readFile(f) {
      const reader = new FileReader();
      reader.onload = () => {
        try { picker.value = ""; show(parseTrace(String(reader.result), f.name), null); } catch (err) { fail(err); }
      };
      reader.readAsText(f);
    }
    file.addEventListener("change", () => { if (file.files.length) readFile(file.files[0]); });
    drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("rs-over"); });
    drop.addEventListener("dragleave", () => drop.classList.remove("rs-over"));
    drop.addEventListener("drop", (e) => {
      e.preventDefault();
      drop.classList.remove("rs-over");
      if (e.dataTransfer.files.length) readFile(e.dataTransfer.files[0]);
    });

    function onKey(e) {
      if (!attached() || !trace || /INPUT|SELECT|TEXTAREA/.test(document.activeElement.tagName)) return;
      const moves = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: trace.steps.length };
      if (e.key in moves) { e.preventDefault(); go(moves[e.key]); }
    }
    document.addEventListener("keydown", onKey);

    // Back, forward, an edited address or a step link: go where the address says.
    function onHash() {
      if (!attached()) return;
      const want = wanted();
      if (want.trace && (!trace || want.trace !== trace.name)) loadNamed(want.trace, want.step);
      else if (trace && want.step !== null && want.step !== step) go(want.step);
    }
    window.addEventListener("hashchange", onHash);

    function go(n) {
      step = Math.max(0, Math.min(n, trace.steps.length));
      render();
    }

    // The state after step n (0: before the first step), or the last one recorded before it.
    function stateAt(n) {
      for (let i = n; i >= 1; i -= 1) if (trace.states[i - 1]) return { at: i, state: trace.states[i - 1] };
      return trace.initial ? { at: 0, state: trace.initial } : null;
    }

    function clauseLinks(game, ids) {
      const info = catalog.games[game];
      const list = el("ul", { class: "rs-trace-clauses" });
      ids.forEach((cid) => {
        const link = info && info.docs ? el("a", { href: siteRoot + info.docs + "rules/#" + cid }, [el("code", { text: cid })]) : el("code", { text: cid });
        list.appendChild(el("li", {}, [link, " " + ((info && info.clauses[cid]) || "")]));
      });
      return list;
    }

    function actionClauses(game, kind) {
      const info = catalog.games[game];
      if (!info || !info.actions[kind]) return el("p", { text: "No clauses known for the action kind " + JSON.stringify(kind) + "." });
      return clauseLinks(game, info.actions[kind]);
    }

    function stepHref(n) {
      const name = catalog.traces.some((t) => t.name === trace.name) ? "trace=" + encodeURIComponent(trace.name) + "&" : "";
      return "#" + name + "step=" + n;
    }

    // What the failing check expected at its step, and what the engine did instead.
    function failureBox(f) {
      const at = f.step === null || f.step === undefined ? null : f.step;
      const box = el("div", { class: "admonition failure rs-trace-failure" }, [
        el("p", { class: "admonition-title", text: "Failed " + f.check + (f.title ? " (" + f.title + ")" : "") + (at === null ? "" : " at step " + at) }),
        el("p", { text: f.message }),
      ]);
      if (f.clauses && f.clauses.length) box.append(el("p", { text: "Clauses:" }), clauseLinks(trace.header.game, f.clauses));
      // What changed in the spec since the release the engine was checked against.
      const info = catalog.games[trace.header.game];
      const version = trace.header.spec_version;
      if (info && info.docs && version) {
        const page = siteRoot + info.docs + "changes/";
        const listed = (info.since || []).includes(version);
        const said = listed ? "what changed in " + info.title + " since " + version
          : version === info.version ? "nothing since: " + version + " is " + info.title + "'s current release (its Changes page)"
            : info.title + "'s Changes page (" + version + " is not one of the releases it lists)";
        box.append(el("p", {}, ["Checked against spec " + version + ": ",
          el("a", { href: listed ? page + "#since-" + encodeURIComponent(version) : page, class: "rs-trace-since" }, [said])]));
      }
      if (at !== null && at !== step) {
        box.append(el("p", {}, [el("a", { href: stepHref(at), class: "rs-trace-goto" }, ["Go to step " + at + ", where it failed"])]));
        return box;
      }
      if (!("expected" in f) && !("actual" in f)) return box;
      const objects = [f.expected, f.actual].every((v) => v !== null && typeof v === "object");
      const rows = objects ? changes(f.expected, f.actual) : [["(value)", JSON.stringify(f.expected), JSON.stringify(f.actual)]];
      box.append(el("h4", { text: "Expected and actual" }),
        el("p", { class: "rs-trace-note", text: objects ? "Where they differ (expected: the reference, the spec or the recorded trace; actual: the engine)." : "" }),
        table(["Path", "Expected", "Actual"], rows, "rs-trace-expected"),
        el("details", {}, [el("summary", { text: "The whole expected value" }), json(f.expected)]),
        el("details", {}, [el("summary", { text: "The whole actual value" }), json(f.actual)]));
      return box;
    }

    function render() {
      status.classList.remove("rs-trace-error");
      const h = trace.header;
      const cfg = h.config || {};
      const rulings = Object.entries(cfg.rulings || {}).map(([k, v]) => k + "=" + v).join(", ");
      const known = trace.states.filter((s) => s).length;
      status.textContent = trace.name + ": " + (catalog.games[h.game] ? catalog.games[h.game].title : h.game)
        + ", " + cfg.players + " players, spec " + h.spec_version + ", " + trace.steps.length + " steps"
        + (cfg.variants && cfg.variants.length ? ", variants " + cfg.variants.join(", ") : "")
        + (known === trace.steps.length ? ", a state at every step" : ", states at " + known + " of " + trace.steps.length + " steps")
        + (trace.failure ? "; written for a " + trace.failure.check + " failure" : "");
      controls.innerHTML = "";
      const slider = el("input", { type: "range", min: "0", max: String(trace.steps.length), value: String(step), "aria-label": "Step" });
      slider.addEventListener("input", () => go(Number(slider.value)));
      const button = (label, target, name) => el("button", { class: "md-button rs-trace-" + name, type: "button", onclick: () => go(target) }, [label]);
      const file = trace.name.replace(/\.jsonl$/, "") + ".jsonl";
      controls.append(button("First", 0, "first"), button("Back", step - 1, "prev"),
        el("span", { class: "rs-trace-step", text: "step " + step + " of " + trace.steps.length }),
        button("Next", step + 1, "next"), button("Last", trace.steps.length, "last"), slider,
        el("a", { class: "md-button rs-trace-download", href: download, download: file, title: "The trace file, as the viewer read it" }, ["Download " + file]));
      view.innerHTML = "";
      if (trace.failure) view.append(failureBox(trace.failure));
      if (step === 0) {
        view.append(el("h3", { text: "Configuration" }), table(["Key", "Value"], [
          ["game", h.game], ["players", String(cfg.players)], ["rulings", rulings || "defaults"],
          ["variants", (cfg.variants || []).join(", ") || "none"],
          ["parameters", JSON.stringify(cfg.parameters || {})]], "rs-kv-table"));
      } else {
        const s = trace.steps[step - 1];
        const action = s.action || {};
        view.append(el("h3", {}, [el("a", { href: stepHref(step), class: "rs-trace-anchor", title: "Link to this step" }, ["Step " + step]),
          ": " + s.actor + " plays " + action.kind]));
        view.append(table(["Field", "Value"], Object.entries(action).map(([k, v]) => [k, JSON.stringify(v)]), "rs-trace-action"));
        view.append(el("h4", { text: "Clauses of " + action.kind }), actionClauses(h.game, action.kind));
      }
      const expects = trace.expects.filter((e) => e.after === step);
      if (expects.length) {
        view.append(el("h4", { text: "Expected here" }), el("ul", { class: "rs-trace-expects" },
          expects.map((e) => el("li", {}, [e.because + " ", el("code", { text: e.that })]))));
      }
      const now = stateAt(step);
      const before = step > 0 ? stateAt(step - 1) : null;
      if (step > 0 || now) view.append(el("h4", { text: step === 0 ? "State before the first step" : "What changed" }));
      if (!now) {
        if (step > 0) view.append(el("p", { text: "No state is recorded yet at this step." }));
      } else if (now.at !== step) {
        view.append(el("p", { class: "rs-trace-note", text: "The trace records no state after step " + step + "; the last recorded state is " + (now.at === 0 ? "the one before the first step" : "after step " + now.at) + "." }));
      } else if (step > 0) {
        const rows = changes(before && before.at < step ? before.state : null, now.state);
        view.append(el("p", { class: "rs-trace-note", text: before ? (before.at === 0 ? "Compared with the state before the first step." : "Compared with the state after step " + before.at + ".") : "The first recorded state." }));
        view.append(table(["Path", "Before", "After"], rows, "rs-trace-changes"));
      }
      if (now) {
        if (step > 0 || now.at > 0) view.append(el("h4", { text: now.at === 0 ? "State before the first step" : "State after step " + now.at }));
        view.append(json(now.state, "rs-trace-state"));
      }
      if (step === trace.steps.length && trace.result) {
        view.append(el("h4", { text: "Result" }), json(trace.result));
      }
      remember();
    }

    // Keep the address on the step shown. Browsers throttle replaceState (Chromium ignores it
    // after a few hundred calls in ten seconds), so while someone holds an arrow key the
    // address is updated once the stepping pauses.
    let pending = null;
    function remember() {
      if (pending !== null) return;
      pending = window.setTimeout(() => {
        pending = null;
        if (!trace || !attached()) return;
        const hash = stepHref(step);
        if (window.location.hash !== hash || window.location.search) {
          window.history.replaceState(null, "", window.location.pathname + hash);
        }
      }, 150);
    }

    const want = wanted();
    if (want.trace) loadNamed(want.trace, want.step);
  }

  // The generated pages link a trace as trace-viewer/?trace=NAME&step=N (a link the docs build
  // can check); nothing else is needed on them.
  function init() {
    const roots = document.querySelectorAll(".rs-trace-viewer");
    if (!roots.length) return;
    if (catalog) { roots.forEach(setup); return; }
    const base = roots[0].dataset.base || "traces/";
    loadScript(base + "catalog.js").catch((err) => { roots[0].textContent = String(err.message); });
  }

  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(init);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
