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
})();
