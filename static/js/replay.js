// Replay keyboard steps: ← / → (mirrored in right-to-left pages), Home, End; none past either end.
// Each key clicks the matching step link, so htmx swaps the step in (or the
// browser follows the link without htmx).
(function () {
  "use strict";
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var target = event.target;
    if (target && target.closest && target.closest("input, select, textarea, [contenteditable]")) return;
    var rtl = document.documentElement.dir === "rtl";
    var keys = {
      ArrowLeft: rtl ? "next" : "prev",
      ArrowRight: rtl ? "prev" : "next",
      Home: "first",
      End: "last",
    };
    var which = keys[event.key];
    if (!which) return;
    var link = document.querySelector('#replay-step [data-replay-nav="' + which + '"]');
    // At the first or the last step the way back or on is disabled: the key does nothing then.
    if (!link || link.getAttribute("aria-disabled") === "true") return;
    event.preventDefault();
    link.click();
  });
})();
