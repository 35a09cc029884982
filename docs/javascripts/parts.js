// Folded blocks of a heavy page whose body the build moved to a file of its own
// (rulespec/docsgen/parts.py): when the block is opened, fetch the part and put its content in
// place of the link. Where fetch is refused (a site opened from file://) the link stays: it
// opens the part as a page of its own.
(function () {
  "use strict";

  function load(holder) {
    if (holder.dataset.state) return;
    holder.dataset.state = "loading";
    const link = holder.querySelector("a");
    const address = link ? link.href : holder.dataset.part;
    fetch(address).then((response) => {
      if (!response.ok) throw new Error(address + ": " + response.status);
      return response.text();
    }).then((text) => {
      const part = new DOMParser().parseFromString(text, "text/html");
      const nodes = Array.from(part.body.childNodes).map((n) => document.importNode(n, true));
      holder.replaceChildren(...nodes);
      holder.dataset.state = "loaded";
    }).catch(() => {
      holder.dataset.state = "failed";
    });
  }

  document.addEventListener("toggle", (event) => {
    const folded = event.target;
    if (!(folded instanceof HTMLDetailsElement) || !folded.open) return;
    folded.querySelectorAll(":scope > .rs-part[data-part]").forEach(load);
  }, true);
})();
