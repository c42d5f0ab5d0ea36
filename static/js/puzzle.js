// RummyHub puzzles: the game's board scripts (cards.js, manipulation.js, gin.js) expect the table's
// page script (table.js: its socket, CSRF header and resync). A puzzle has no socket: every move is an
// HTTP post answered with the board, so this stands in for it. No rule is decided here.
(function () {
  "use strict";
  function csrfHeaders() {
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}"); } catch (e) { return {}; }
  }
  function resync() { window.location.reload(); }
  window.RummyTable = {
    csrfHeaders: csrfHeaders,
    resync: resync,
    dragStart: function () {},
    dragEnd: function () {}
  };

  // Every answer is a new board: the focus goes back to the control it was on (a meld, a card, the
  // Submit button after a refusal); once the puzzle is answered, to its next step (the next puzzle).
  var focused = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "table-board") {
      focused = window.RummyCards.focusKey(document.activeElement);
    }
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (focused === null) return;
    var key = focused;
    focused = null;
    window.RummyCards.restoreFocus(key, function () {
      return document.querySelector("#puzzle-verdict [data-action='next-puzzle']") || window.RummyCards.handFocus();
    });
  });
})();
