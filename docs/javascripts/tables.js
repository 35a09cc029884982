// Phones: the conformance matrix's rows show as cards (rulespec.css), every mark on screen
// without scrolling sideways. Each cell is labelled with its column's heading, copied here into
// data-label; the card layout applies only to a matrix so labelled (rs-labelled), so without
// JavaScript the table stays a table that scrolls in its own box.
(function () {
  "use strict";

  function label() {
    document.querySelectorAll(".rs-matrix:not(.rs-labelled)").forEach((matrix) => {
      matrix.querySelectorAll("table").forEach((table) => {
        if (!table.tHead || !table.tHead.rows.length) return;
        const heads = Array.from(table.tHead.rows[0].cells).map((th) => th.textContent.trim());
        Array.from(table.tBodies).forEach((body) => Array.from(body.rows).forEach((row) => {
          Array.from(row.cells).forEach((cell, i) => { if (heads[i]) cell.dataset.label = heads[i]; });
        }));
      });
      matrix.classList.add("rs-labelled");
    });
  }

  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(label);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", label);
  } else {
    label();
  }
})();
