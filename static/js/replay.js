// Replay keyboard steps: ← / → (mirrored in right-to-left pages), Home, End; none past either end.
// Each key clicks the matching step link, so htmx swaps the step in (or the
// browser follows the link without htmx).
//
// A key pressed while a step is on its way waits for it: it is taken from the step the page
// will show, not from the one it showed when the key came (→ → → ← faster than the server
// answers ends two steps on). htmx wires the new step's links only once it has settled, so
// the waiting keys are taken then, one step at a time. A held key (auto-repeat) waits only
// when nothing else does: the steps follow the server's pace and stop soon after it is let go.
(function () {
  "use strict";
  var waiting = []; // the keys pressed since the step on its way was asked for
  var busy = false; // a step is on its way to #replay-step (from a key, a click, the scrubber)
  var MAX_WAITING = 20;

  function isReplayStep(node) {
    return !!node && node.id === "replay-step";
  }

  // Clicks the step link ``which`` of the step shown; false when there is none (an end).
  function go(which) {
    var link = document.querySelector('#replay-step [data-replay-nav="' + which + '"]');
    // At the first or the last step the way back or on is disabled: the key does nothing then.
    if (!link || link.getAttribute("aria-disabled") === "true") return false;
    link.click();
    return true;
  }

  function next() {
    while (!busy && waiting.length) go(waiting.shift());
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (isReplayStep(event.detail && event.detail.target)) busy = true;
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!isReplayStep(event.target)) return;
    busy = false;
    next();
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var detail = event.detail || {};
    if (!isReplayStep(detail.target) || detail.successful) return;
    // No step came (the server refused, the line dropped): the keys that waited for it are dropped too.
    busy = false;
    waiting = [];
  });

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
    if (!which || !document.getElementById("replay-step")) return;
    if (busy) {
      event.preventDefault();
      if (waiting.length < MAX_WAITING && !(event.repeat && waiting.length)) waiting.push(which);
    } else if (go(which)) {
      event.preventDefault(); // at an end the key keeps its own meaning (Home and End scroll the page)
    }
  });
})();
