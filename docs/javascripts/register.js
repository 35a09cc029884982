// Ambiguity register tables: filter by the columns named in data-filters, a free-text box (over
// every column, shown or not), sort by clicking a column heading (numbers as numbers, empty cells
// last), choose the columns shown (data-columns names those shown first), export what is shown
// as CSV or JSON (every column). Filters, sort and a chosen set of columns live in the address
// (?game=fool&status=ruled&sort=-id&columns=id,title) so a view can be shared. The Id column
// stays in view while the table scrolls sideways; a column sorted on is shown and scrolled
// into view. A cell whose shown text is not its value (a game's display name, an outcome-change
// rate) carries the value in data-key. A filter may offer groups of values (data-groups: "open"
// is reported, triaged and deferred); a column named in data-descending sorts largest first on
// its first click. What the address asks for and the table cannot show (an unknown value or
// column, several values of one filter) is said above the table, not dropped silently. Without
// JavaScript the full table is shown.
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

  // What the text filter reads: every cell, hidden columns too, and each cell's key (a game's
  // id as well as its name).
  function haystack(row) {
    if (row.dataset.haystack === undefined) {
      row.dataset.haystack = Array.from(row.cells).map((cell) => {
        const keyed = cell.querySelector("[data-key]");
        return cell.textContent + (keyed ? " " + keyed.dataset.key : "");
      }).join(" \u0000 ").toLowerCase();
    }
    return row.dataset.haystack;
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

    // What the address asked for and this table cannot show, said above the table.
    const refused = [];
    // Groups of values one option selects (data-groups="Status:open=reported|triaged|deferred").
    const groups = {};
    (container.dataset.groups || "").split(";").filter(Boolean).forEach((spec) => {
      const [column, rest] = spec.split(":");
      const [value, members] = (rest || "").split("=");
      if (!column || !value || !members) return;
      (groups[column] = groups[column] || {})[value] = members.split("|");
    });
    // The columns whose first click sorts largest first (a measured effect: importance).
    const descendingFirst = new Set((container.dataset.descending || "").split(",").filter(Boolean));

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
      const grouped = groups[name] || {};
      select.groups = {};
      Object.keys(grouped).forEach((g) => {
        select.groups[g] = new Set(grouped[g]);
        select.add(new Option(g + " (" + grouped[g].join(", ") + ")", g));
      });
      values.forEach((v) => select.add(new Option(labels[v], v)));
      const asked = params.getAll(select.dataset.param).join(",").split(",")
        .map((w) => w.trim()).filter(Boolean);
      // The id is canonical; a display name (as older links had) is accepted too.
      const find = (wanted) => (wanted in select.groups ? wanted : undefined)
        ?? values.find((v) => v === wanted)
        ?? values.find((v) => labels[v].toLowerCase() === wanted.toLowerCase());
      if (asked.length === 1 && find(asked[0]) !== undefined) {
        select.value = find(asked[0]);
      } else if (asked.length > 1) {
        const set = new Set(asked.map((w) => find(w) ?? w));
        const same = Object.keys(select.groups).find((g) => select.groups[g].size === set.size
          && Array.from(set).every((v) => select.groups[g].has(v)));
        if (same !== undefined) select.value = same;
        else refused.push(name.toLowerCase() + " is one value at a time (asked: " + asked.join(", ")
          + "); showing every " + name.toLowerCase() + ".");
      } else if (asked.length === 1) {
        const known = Object.keys(select.groups).concat(values.map((v) => labels[v]));
        refused.push("No record here has " + name.toLowerCase() + " \u201c" + asked[0]
          + "\u201d; showing every " + name.toLowerCase() + ". Choose one of: " + known.join(", ") + ".");
      }
      select.addEventListener("change", apply);
      label.appendChild(select);
      bar.appendChild(label);
      selects.push(select);
    });

    // Columns: the chooser lists every column but the Id (always shown).
    const allSlugs = headers.map(slug);
    const firstShown = (container.dataset.columns || "").split(",").filter(Boolean).map(slug);
    const defaults = firstShown.length ? firstShown : allSlugs.slice();
    const wantedColumns = (params.get("columns") || "").split(",").map(slug)
      .filter((c) => allSlugs.includes(c));
    const shownColumns = new Set(wantedColumns.length ? wantedColumns : defaults);
    shownColumns.add(allSlugs[0]);
    const chooser = document.createElement("span");
    chooser.className = "rs-columns";
    const chooserLabel = document.createElement("button");
    chooserLabel.type = "button";
    chooserLabel.className = "md-button rs-columns-toggle";
    chooserLabel.setAttribute("aria-expanded", "false");
    chooser.appendChild(chooserLabel);
    const boxes = document.createElement("div");
    boxes.className = "rs-columns-list";
    boxes.hidden = true;
    chooser.appendChild(boxes);
    const openChooser = (open) => {
      boxes.hidden = !open;
      chooserLabel.setAttribute("aria-expanded", String(open));
    };
    chooserLabel.addEventListener("click", () => openChooser(boxes.hidden));
    document.addEventListener("click", (e) => { if (!chooser.contains(e.target)) openChooser(false); });
    chooser.addEventListener("keydown", (e) => { if (e.key === "Escape") { openChooser(false); chooserLabel.focus(); } });
    const checks = [];
    headers.forEach((name, index) => {
      if (index === 0) return;
      const label = document.createElement("label");
      const box = document.createElement("input");
      box.type = "checkbox";
      box.dataset.column = String(index);
      box.checked = shownColumns.has(allSlugs[index]);
      box.addEventListener("change", () => {
        if (box.checked) shownColumns.add(allSlugs[index]);
        else shownColumns.delete(allSlugs[index]);
        showColumns();
        apply();
      });
      label.appendChild(box);
      label.appendChild(document.createTextNode(" " + name));
      boxes.appendChild(label);
      checks.push(box);
    });
    bar.appendChild(chooser);

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
    const notice = document.createElement("p");
    notice.className = "rs-refused";
    notice.setAttribute("role", "status");
    notice.hidden = true;
    bar.after(notice);
    function say() {
      notice.textContent = refused.join(" ");
      notice.hidden = !refused.length;
    }

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

    function showColumns() {
      const allRows = [table.tHead.rows[0]].concat(rows);
      headers.forEach((_, index) => {
        const show = shownColumns.has(allSlugs[index]);
        allRows.forEach((row) => { if (row.cells[index]) row.cells[index].hidden = !show; });
      });
      checks.forEach((box) => { box.checked = shownColumns.has(allSlugs[Number(box.dataset.column)]); });
      chooserLabel.textContent = "Columns (" + shownColumns.size + " of " + headers.length + ")";
    }

    // Bring the sorted column into view beside the sticky Id column.
    function revealColumn(index) {
      // The theme wraps tables in a scrolling box once the page is shown.
      const wrap = table.closest(".md-typeset__scrollwrap");
      const head = heads[index];
      if (!wrap || !head || head.hidden) return;
      const pinned = heads[0].getBoundingClientRect().width;
      const box = wrap.getBoundingClientRect();
      const cell = head.getBoundingClientRect();
      if (cell.left < box.left + pinned) wrap.scrollLeft -= box.left + pinned - cell.left;
      else if (cell.right > box.right) wrap.scrollLeft += Math.min(cell.right - box.right, cell.left - box.left - pinned);
    }

    function sortRows() {
      heads.forEach((h) => h.removeAttribute("aria-sort"));
      if (sortIndex < 0) {
        rows.forEach((row) => body.appendChild(row));
        return;
      }
      heads[sortIndex].setAttribute("aria-sort", ascending ? "ascending" : "descending");
      if (!shownColumns.has(allSlugs[sortIndex])) {
        shownColumns.add(allSlugs[sortIndex]);
        showColumns();
      }
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
        const ok = selects.every((s) => {
          if (!s.value) return true;
          const key = cellKey(row, Number(s.dataset.column));
          return s.value in s.groups ? s.groups[s.value].has(key) : key === s.value;
        })
          && (!needle || haystack(row).includes(needle));
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
      const chosen = allSlugs.filter((c) => shownColumns.has(c));
      const usual = allSlugs.filter((c) => c === allSlugs[0] || defaults.includes(c));
      if (chosen.join(",") !== usual.join(",")) url.searchParams.set("columns", chosen.join(","));
      else url.searchParams.delete("columns");
      if (url.href !== window.location.href) window.history.replaceState(null, "", url.href);
    }

    heads.forEach((th, index) => {
      th.tabIndex = 0;
      th.title = "Sort by " + th.textContent.trim();
      const sort = () => {
        ascending = sortIndex === index ? !ascending : !descendingFirst.has(headers[index]);
        sortIndex = index;
        sortRows();
        apply();
        revealColumn(index);
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
      } else {
        refused.push("No column \u201c" + wantedSort.replace(/^-/, "") + "\u201d to sort by; "
          + "the table keeps its order. Columns: " + allSlugs.join(", ") + ".");
      }
    }
    const unknownColumns = (params.get("columns") || "").split(",").map(slug)
      .filter((c) => c && !allSlugs.includes(c));
    if (unknownColumns.length) {
      refused.push("No column " + unknownColumns.map((c) => "\u201c" + c + "\u201d").join(", ")
        + " to show. Columns: " + allSlugs.join(", ") + ".");
    }
    say();
    showColumns();
    apply();
    if (sortIndex >= 0) revealColumn(sortIndex);
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
