// Ambiguity register tables: filter by the columns named in data-filters, a free-text box,
// and sort by clicking a column heading. Filters are mirrored in the address (?status=ruled)
// so a filtered view can be shared; without JavaScript the full table is shown.
(function () {
  "use strict";

  function cellText(row, index) {
    const cell = row.cells[index];
    return cell ? cell.textContent.trim() : "";
  }

  function setup(container) {
    if (container.dataset.ready) return;
    container.dataset.ready = "1";
    const table = container.querySelector("table");
    if (!table || !table.tBodies.length) return;
    const body = table.tBodies[0];
    const rows = Array.from(body.rows);
    const headers = Array.from(table.tHead.rows[0].cells).map((th) => th.textContent.trim());
    const names = (container.dataset.filters || "").split(",").filter(Boolean);
    const params = new URLSearchParams(window.location.search);
    const bar = document.createElement("div");
    bar.className = "rs-filters";
    const selects = [];

    names.forEach((name) => {
      const index = headers.indexOf(name);
      if (index < 0) return;
      const values = Array.from(new Set(rows.map((r) => cellText(r, index)))).sort();
      const label = document.createElement("label");
      label.textContent = name + " ";
      const select = document.createElement("select");
      select.dataset.column = String(index);
      select.dataset.param = name.toLowerCase();
      select.setAttribute("aria-label", "Filter by " + name.toLowerCase());
      select.add(new Option("all", ""));
      values.forEach((v) => select.add(new Option(v, v)));
      const wanted = params.get(select.dataset.param);
      if (wanted && values.includes(wanted)) select.value = wanted;
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
    container.insertBefore(bar, container.firstChild);

    function apply() {
      const needle = search.value.trim().toLowerCase();
      let shown = 0;
      rows.forEach((row) => {
        const ok = selects.every((s) => !s.value || cellText(row, Number(s.dataset.column)) === s.value)
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
      if (url.href !== window.location.href) window.history.replaceState(null, "", url.href);
    }

    Array.from(table.tHead.rows[0].cells).forEach((th, index) => {
      th.tabIndex = 0;
      th.title = "Sort by " + th.textContent.trim();
      const sort = () => {
        const ascending = th.getAttribute("aria-sort") !== "ascending";
        Array.from(table.tHead.rows[0].cells).forEach((h) => h.removeAttribute("aria-sort"));
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        const sorted = rows.slice().sort((a, b) =>
          cellText(a, index).localeCompare(cellText(b, index), undefined, { numeric: true }));
        if (!ascending) sorted.reverse();
        sorted.forEach((row) => body.appendChild(row));
      };
      th.addEventListener("click", sort);
      th.addEventListener("keydown", (e) => { if (e.key === "Enter") sort(); });
    });

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
