// Folded blocks of a heavy page whose body the build moved to a file of its own
// (rulespec/docsgen/parts.py): when the block is opened, fetch the part and put its content in
// place of the link. Where fetch is refused (a site opened from file://) the link stays: it
// opens the part as a page of its own.
//
// An ambiguity record's fold (details.rs-record) opens when the address names the record (its
// heading) or an id in its body; a moved body lists its ids on its placeholder (data-ids), so
// an address such as #OURO-EX-VALUES-COMPONENTS opens the record, loads it and scrolls there.
// An address of an entry that moved to a page of its own (a link of class rs-moved names it:
// the Python API's index) is sent on to that page.
(function () {
  "use strict";

  // Tables loaded with a part scroll in their own box, as the theme does for the page's own.
  function wrapTables(root) {
    root.querySelectorAll("table").forEach((table) => {
      if (table.closest(".md-typeset__scrollwrap")) return;
      const wrap = document.createElement("div");
      wrap.className = "md-typeset__scrollwrap";
      const inner = document.createElement("div");
      inner.className = "md-typeset__table";
      table.replaceWith(wrap);
      inner.appendChild(table);
      wrap.appendChild(inner);
    });
  }

  function load(holder) {
    if (holder.rsLoading) return holder.rsLoading;
    holder.dataset.state = "loading";
    const link = holder.querySelector("a");
    const address = link ? link.href : holder.dataset.part;
    holder.rsLoading = fetch(address).then((response) => {
      if (!response.ok) throw new Error(address + ": " + response.status);
      return response.text();
    }).then((text) => {
      const part = new DOMParser().parseFromString(text, "text/html");
      const nodes = Array.from(part.body.childNodes).map((n) => document.importNode(n, true));
      holder.replaceChildren(...nodes);
      wrapTables(holder);
      holder.dataset.state = "loaded";
    }).catch(() => {
      holder.dataset.state = "failed";
    });
    return holder.rsLoading;
  }

  function opened(folded) {
    return Promise.all(Array.from(folded.querySelectorAll(":scope > .rs-part[data-part]"), load));
  }

  document.addEventListener("toggle", (event) => {
    const folded = event.target;
    if (!(folded instanceof HTMLDetailsElement) || !folded.open) return;
    opened(folded);
  }, true);

  // The record fold that belongs to a record's heading: the first after it, before the next
  // heading of its level.
  function recordFold(heading) {
    for (let node = heading.nextElementSibling; node; node = node.nextElementSibling) {
      if (node.tagName === heading.tagName) return null;
      if (node.matches("details.rs-record")) return node;
    }
    return null;
  }

  function follow() {
    let id;
    try {
      id = decodeURIComponent(window.location.hash.slice(1));
    } catch (error) {
      return;
    }
    if (!id) return;
    const target = document.getElementById(id);
    if (target) {
      const fold = /^H[1-6]$/.test(target.tagName) ? recordFold(target) : null;
      if (fold && !fold.open) fold.open = true;
      for (let up = target.closest("details:not([open])"); up; up = up.parentElement.closest("details:not([open])")) {
        up.open = true;
      }
      return;
    }
    const holder = Array.from(document.querySelectorAll(".rs-part[data-ids]"))
      .find((h) => h.dataset.ids.split(" ").includes(id));
    const folded = holder && holder.closest("details");
    if (!folded) {
      // An entry that moved to a page of its own (the Python API's index links each).
      const moved = Array.from(document.querySelectorAll("a.rs-moved"))
        .find((a) => a.hash === "#" + encodeURIComponent(id) || a.hash === "#" + id);
      if (moved) window.location.replace(moved.href);
      return;
    }
    folded.open = true;
    load(holder).then(() => {
      const found = document.getElementById(id);
      if (found) found.scrollIntoView();
    });
  }

  window.addEventListener("hashchange", follow);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", follow);
  } else {
    follow();
  }
})();
