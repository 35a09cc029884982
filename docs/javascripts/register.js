// Ambiguity register tables: filter by the columns named in data-filters, a free-text box,
// sort by clicking a column heading (numbers as numbers, empty cells last), export what is
// shown as CSV or JSON. Filters and sort live in the address (?game=fool&status=ruled&sort=-id)
// so a view can be shared. A cell whose shown text is not its value (a game's display name, an
// outcome-change rate) carries the value in data-key. Without JavaScript the full table is shown.
(function () {
  "use strict";

  function cellKey(row, index) {
    const cell = row.cells[index];
    if (!cell) return "";
    const keyed = cell.querySelector("[data-key]");
    return keyed ? keyed.dataset.key : cell.textContent.trim();
  }

  function cellText(row, index) {
    const cell = row.cells[index];
    return cell ? cell.textContent.trim() : "";
  }

  const NUMBER = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

  // Numbers (an outcome-change rate keyed as 0.212500) compare as numbers, so 0.05 < 0.2;
  // other keys as text, digit runs by value (OURO-AMB-2 < OURO-AMB-10).
  function compareKeys(x, y) {
    if (NUMBER.test(x) && NUMBER.test(y)) return Number(x) - Number(y);
    return x.localeCompare(y, undefined, { numeric: true });
  }

  function slug(name) {
    return name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
  }

  function download(name, type, body) {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([body], { type: type }));
    link.download = name;
    document.body.appendChild(link);
    link.click();
    setTimeout(() => { URL.revokeObjectURL(link.href); link.remove(); }, 0);
  }

  function csvField(value) {
    return /[",\n]/.test(value) ? '"' + value.replace(/"/g, '""') + '"' : value;
  }

  function setup(container) {
    if (container.dataset.ready) return;
    container.dataset.ready = "1";
    const table = container.querySelector("table");
    if (!table || !table.tBodies.length) return;
    const body = table.tBodies[0];
    const rows = Array.from(body.rows);
    const heads = Array.from(table.tHead.rows[0].cells);
    const headers = heads.map((th) => th.textContent.trim());
    const names = (container.dataset.filters || "").split(",").filter(Boolean);
    const params = new URLSearchParams(window.location.search);
    const bar = document.createElement("div");
    bar.className = "rs-filters";
    const selects = [];

    names.forEach((name) => {
      const index = headers.indexOf(name);
      if (index < 0) return;
      const labels = {};
      rows.forEach((r) => { labels[cellKey(r, index)] = cellText(r, index); });
      const values = Object.keys(labels).sort((a, b) => labels[a].localeCompare(labels[b]));
      const label = document.createElement("label");
      label.textContent = name + " ";
      const select = document.createElement("select");
      select.dataset.column = String(index);
      select.dataset.param = slug(name);
      select.setAttribute("aria-label", "Filter by " + name.toLowerCase());
      select.add(new Option("all", ""));
      values.forEach((v) => select.add(new Option(labels[v], v)));
      const wanted = params.get(select.dataset.param);
      if (wanted) {
        // The id is canonical; a display name (as older links had) is accepted too.
        const hit = values.find((v) => v === wanted)
          || values.find((v) => labels[v].toLowerCase() === wanted.toLowerCase());
        if (hit !== undefined) select.value = hit;
      }
      select.addEventListener("change", apply);
      label.appendChild(select);
      bar.appendChild(label);
      selects.push(select);
    });

    const search = document.createElement("input");
    search.type = "search";
    search.placeholder = "Filter text";
    search.setAttribute("aria-label", "Filter by text");
    search.value = params.get("q-register") || "";
    search.addEventListener("input", apply);
    bar.appendChild(search);
    const count = document.createElement("span");
    count.className = "rs-count";
    bar.appendChild(count);
    const exports = document.createElement("span");
    exports.className = "rs-export";
    [["CSV", "csv"], ["JSON", "json"]].forEach(([label, format]) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "md-button rs-export-" + format;
      button.textContent = "Export " + label;
      button.addEventListener("click", () => exportShown(format));
      exports.appendChild(button);
    });
    bar.appendChild(exports);
    container.insertBefore(bar, container.firstChild);

    function shownRecords() {
      return Array.from(body.rows).filter((r) => !r.hidden).map((r) => {
        const record = {};
        headers.forEach((h, i) => { record[slug(h)] = cellKey(r, i); });
        const link = r.cells[0].querySelector("a");
        if (link) record.url = link.href;
        return record;
      });
    }

    function exportShown(format) {
      const records = shownRecords();
      if (format === "json") {
        download("ambiguities.json", "application/json", JSON.stringify(records, null, 2) + "\n");
        return;
      }
      const keys = records.length ? Object.keys(records[0]) : headers.map(slug);
      const lines = [keys.join(",")].concat(records.map((r) => keys.map((k) => csvField(r[k] || "")).join(",")));
      download("ambiguities.csv", "text/csv", lines.join("\n") + "\n");
    }

    let sortIndex = -1;
    let ascending = true;

    function sortRows() {
      heads.forEach((h) => h.removeAttribute("aria-sort"));
      if (sortIndex < 0) {
        rows.forEach((row) => body.appendChild(row));
        return;
      }
      heads[sortIndex].setAttribute("aria-sort", ascending ? "ascending" : "descending");
      const direction = ascending ? 1 : -1;
      const sorted = rows.slice().sort((a, b) => {
        const x = cellKey(a, sortIndex);
        const y = cellKey(b, sortIndex);
        // Empty cells (a record not measured) go last whichever the direction.
        if (x === "" || y === "") return (x === "") - (y === "");
        return direction * compareKeys(x, y);
      });
      sorted.forEach((row) => body.appendChild(row));
    }

    function apply() {
      const needle = search.value.trim().toLowerCase();
      let shown = 0;
      rows.forEach((row) => {
        const ok = selects.every((s) => !s.value || cellKey(row, Number(s.dataset.column)) === s.value)
          && (!needle || row.textContent.toLowerCase().includes(needle));
        row.hidden = !ok;
        if (ok) shown += 1;
      });
      count.textContent = shown + " of " + rows.length + " shown";
      const url = new URL(window.location.href);
      selects.forEach((s) => {
        if (s.value) url.searchParams.set(s.dataset.param, s.value);
        else url.searchParams.delete(s.dataset.param);
      });
      if (needle) url.searchParams.set("q-register", search.value.trim());
      else url.searchParams.delete("q-register");
      if (sortIndex >= 0) url.searchParams.set("sort", (ascending ? "" : "-") + slug(headers[sortIndex]));
      else url.searchParams.delete("sort");
      if (url.href !== window.location.href) window.history.replaceState(null, "", url.href);
    }

    heads.forEach((th, index) => {
      th.tabIndex = 0;
      th.title = "Sort by " + th.textContent.trim();
      const sort = () => {
        ascending = sortIndex === index ? !ascending : true;
        sortIndex = index;
        sortRows();
        apply();
      };
      th.addEventListener("click", sort);
      th.addEventListener("keydown", (e) => { if (e.key === "Enter") sort(); });
    });

    const wantedSort = params.get("sort");
    if (wantedSort) {
      const index = headers.map(slug).indexOf(wantedSort.replace(/^-/, ""));
      if (index >= 0) {
        sortIndex = index;
        ascending = !wantedSort.startsWith("-");
        sortRows();
      }
    }
    apply();
  }

  function init() {
    document.querySelectorAll(".rs-register").forEach(setup);
  }

  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(init);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
