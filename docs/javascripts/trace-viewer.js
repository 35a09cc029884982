// Trace viewer: step through a rulespec trace (JSON Lines: a header, one line per action,
// the result). The golden traces come as scripts (traces/catalog.js, traces/<name>.js) that
// call back into this file, so the page also works from file:// where fetch is refused.
// A visitor's own file is read with FileReader and never leaves the browser.
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

  function parseTrace(text, name) {
    const lines = text.split("\n").filter((l) => l.trim());
    const trace = { name: name, header: null, steps: [], result: null };
    lines.forEach((line, index) => {
      let record;
      try {
        record = JSON.parse(line);
      } catch (err) {
        throw new Error(name + ":" + (index + 1) + ": not JSON: " + err.message);
      }
      if (record.type === "header") trace.header = record;
      else if (record.type === "step") trace.steps.push(record);
      else if (record.type === "result") trace.result = record.result;
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
    const a = before ? flatten(before, "", {}) : {};
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

  function setup(root) {
    if (root.dataset.ready || !catalog) return;
    root.dataset.ready = "1";
    const base = root.dataset.base || "traces/";
    const siteRoot = new URL(base + "../", window.location.href).href;
    root.innerHTML = "";
    const picker = el("select", { "aria-label": "Golden trace", class: "rs-trace-pick" });
    picker.add(new Option("Choose a trace…", ""));
    const groups = {};
    catalog.traces.forEach((t) => {
      const game = catalog.games[t.game];
      const label = (t.kind === "failure" ? "Conformance failures" : (game ? game.title : t.game));
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

    function show(t, at) {
      trace = t;
      step = Math.max(0, Math.min(at || 0, t.steps.length));
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
      }).then((text) => {
        picker.value = name;
        show(parseTrace(text, name), at);
      }).catch(fail);
    }

    picker.addEventListener("change", () => { if (picker.value) loadNamed(picker.value, 0); });
    function readFile(f) {
      const reader = new FileReader();
      reader.onload = () => {
        try { picker.value = ""; show(parseTrace(String(reader.result), f.name), 0); } catch (err) { fail(err); }
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
    document.addEventListener("keydown", (e) => {
      if (!trace || /INPUT|SELECT|TEXTAREA/.test(document.activeElement.tagName)) return;
      const moves = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: trace.steps.length };
      if (e.key in moves) { e.preventDefault(); go(moves[e.key]); }
    });

    function go(n) {
      step = Math.max(0, Math.min(n, trace.steps.length));
      render();
    }

    // The last recorded state at or before step n (step 0 has none unless the header has one).
    function stateAt(n) {
      for (let i = n; i >= 1; i -= 1) if (trace.steps[i - 1].state) return { at: i, state: trace.steps[i - 1].state };
      return trace.header.state ? { at: 0, state: trace.header.state } : null;
    }

    function clauseLinks(game, kind) {
      const info = catalog.games[game];
      if (!info || !info.actions[kind]) return el("p", { text: "No clauses known for the action kind " + JSON.stringify(kind) + "." });
      const list = el("ul", { class: "rs-trace-clauses" });
      info.actions[kind].forEach((cid) => {
        const id = info.docs ? el("a", { href: siteRoot + info.docs + "rules/#" + cid }, [el("code", { text: cid })]) : el("code", { text: cid });
        list.appendChild(el("li", {}, [id, " " + (info.clauses[cid] || "")]));
      });
      return list;
    }

    function render() {
      status.classList.remove("rs-trace-error");
      const h = trace.header;
      const cfg = h.config || {};
      const rulings = Object.entries(cfg.rulings || {}).map(([k, v]) => k + "=" + v).join(", ");
      status.textContent = trace.name + ": " + (catalog.games[h.game] ? catalog.games[h.game].title : h.game)
        + ", " + cfg.players + " players, spec " + h.spec_version + ", " + trace.steps.length + " steps"
        + (cfg.variants && cfg.variants.length ? ", variants " + cfg.variants.join(", ") : "");
      controls.innerHTML = "";
      const slider = el("input", { type: "range", min: "0", max: String(trace.steps.length), value: String(step), "aria-label": "Step" });
      slider.addEventListener("input", () => go(Number(slider.value)));
      const button = (label, target, name) => el("button", { class: "md-button rs-trace-" + name, type: "button", onclick: () => go(target) }, [label]);
      controls.append(button("First", 0, "first"), button("Back", step - 1, "prev"),
        el("span", { class: "rs-trace-step", text: "step " + step + " of " + trace.steps.length }),
        button("Next", step + 1, "next"), button("Last", trace.steps.length, "last"), slider);
      view.innerHTML = "";
      if (step === 0) {
        view.append(el("h3", { text: "Configuration" }), table(["Key", "Value"], [
          ["game", h.game], ["players", String(cfg.players)], ["rulings", rulings || "defaults"],
          ["variants", (cfg.variants || []).join(", ") || "none"],
          ["parameters", JSON.stringify(cfg.parameters || {})]], "rs-kv-table"));
      } else {
        const s = trace.steps[step - 1];
        const action = s.action || {};
        view.append(el("h3", { text: "Step " + step + ": " + s.actor + " plays " + action.kind }));
        view.append(table(["Field", "Value"], Object.entries(action).map(([k, v]) => [k, JSON.stringify(v)]), "rs-trace-action"));
        view.append(el("h4", { text: "Clauses of " + action.kind }), clauseLinks(h.game, action.kind));
      }
      const now = stateAt(step);
      const before = step > 0 ? stateAt(step - 1) : null;
      view.append(el("h4", { text: "What changed" }));
      if (!now) {
        view.append(el("p", { text: "No state is recorded yet at this step." }));
      } else if (now.at !== step) {
        view.append(el("p", { class: "rs-trace-note", text: "The trace records no state after step " + step + "; the last recorded state is after step " + now.at + "." }));
      } else {
        const rows = changes(before && before.at < step ? before.state : null, now.state);
        view.append(el("p", { class: "rs-trace-note", text: before ? "Compared with the state after step " + before.at + "." : "The first recorded state." }));
        view.append(table(["Path", "Before", "After"], rows, "rs-trace-changes"));
      }
      if (now) {
        view.append(el("h4", { text: "State after step " + now.at }));
        view.append(el("pre", { class: "rs-trace-state" }, [el("code", { text: JSON.stringify(now.state, null, 2) })]));
      }
      if (step === trace.steps.length && trace.result) {
        view.append(el("h4", { text: "Result" }), el("pre", {}, [el("code", { text: JSON.stringify(trace.result, null, 2) })]));
      }
      if (catalog.traces.some((t) => t.name === trace.name)) {
        const hash = "#trace=" + encodeURIComponent(trace.name) + "&step=" + step;
        if (window.location.hash !== hash) window.history.replaceState(null, "", hash);
      }
    }

    const params = new URLSearchParams(window.location.hash.slice(1));
    if (params.get("trace")) loadNamed(params.get("trace"), Number(params.get("step") || 0));
  }

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
