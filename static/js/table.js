// RummyHub table page, for both games: the table's socket (the page's moves go over it while it
// is open), pushed boards held back during a drag or skipped when not newer, asking for the
// board again, the four-colour option. The cards (drag and drop, picking, the hand order and
// drafts) are cards.js's; each game's board script says what its lists take. No rule is decided here.
(function () {
  "use strict";

  var dragging = false;
  var staleWhileDragging = false;
  var socket = null;
  var socketOpen = false;

  function page() { return document.querySelector(".table-page"); }
  function board() { return document.getElementById("table-board"); }

  function csrfHeaders() {
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}"); } catch (e) { return {}; }
  }

  function resync() {
    if (socket) socket.send(JSON.stringify({ type: "resync" }));
  }

  // Keep pushes from replacing the board in the middle of a drag.
  // A pushed board no newer than the one shown (e.g. the push that follows this
  // player's own command, whose response already showed it) is skipped, unless
  // it is the reply to this page's own request (data-reply: a refusal, a sort).
  var VERSION = /id="table-board"[^>]*data-version="(\d+)"/;
  var REPLY = /id="table-board"[^>]*data-reply="true"/;
  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    var message = event.detail.message || "";
    var match = VERSION.exec(message);
    if (!match) return;
    if (dragging) { staleWhileDragging = true; event.preventDefault(); return; }
    var b = board();
    if (b && !REPLY.test(message) && Number(match[1]) <= Number(b.dataset.version)) event.preventDefault();
  });
  document.addEventListener("htmx:wsOpen", function (event) { socket = event.detail.socketWrapper; socketOpen = true; });
  document.addEventListener("htmx:wsClose", function () { socketOpen = false; });

  // While the table's socket is open, the page's moves (the act and draft forms, drags,
  // sorting) go over it instead of HTTP: the server runs the same checks and services
  // and answers with this viewer's board. Without a socket they are ordinary posts.
  var busyTimer = null;
  function markBusy() {
    var b = board();
    if (!b) return;
    b.setAttribute("aria-busy", "true");
    clearTimeout(busyTimer);
    // No answer in time (a half-open connection): ask for the board again; the ws
    // extension queues the request until the socket is back.
    busyTimer = setTimeout(function () { if (board() && board().getAttribute("aria-busy") === "true") resync(); }, 6000);
  }
  // A refusal that carries no board (too fast, a server fault) ends the wait too.
  document.addEventListener("htmx:wsAfterMessage", function (event) {
    if ((event.detail.message || "").indexOf('id="socket-error"') === -1) return;
    clearTimeout(busyTimer);
    var b = board();
    if (b) b.removeAttribute("aria-busy");
  });
  document.addEventListener("htmx:configRequest", function (event) {
    var p = page();
    if (!p || !socket || !socketOpen || event.detail.verb !== "post") return;
    var path = event.detail.path;
    var kind = path === p.dataset.actUrl ? "act" : path === p.dataset.draftUrl ? "draft" : null;
    if (!kind) return;
    var fields = {};
    event.detail.formData.forEach(function (value, key) {
      if (key !== "csrfmiddlewaretoken") fields[key] = String(value);
    });
    event.preventDefault();
    socket.send(JSON.stringify({ type: "command", kind: kind, fields: fields }));
    markBusy();
  });

  // What cards.js and the boards' scripts (loaded after this one) share with the page: the CSRF
  // header, asking the socket for the board again, and holding pushes back during a drag.
  window.RummyTable = {
    csrfHeaders: csrfHeaders,
    resync: resync,
    dragStart: function () { dragging = true; },
    // Ends the drag; true when a push was held back meanwhile (the caller asks for the board again).
    dragEnd: function () {
      var stale = staleWhileDragging;
      dragging = false;
      staleWhileDragging = false;
      return stale;
    }
  };

  function applyFourColour(on) { document.body.classList.toggle("four-colour", on); }
  document.addEventListener("change", function (event) {
    if (event.target.matches("[data-four-colour]")) {
      localStorage.setItem("rummyhub-four-colour", event.target.checked ? "1" : "");
      applyFourColour(event.target.checked);
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    var on = localStorage.getItem("rummyhub-four-colour") === "1";
    var box = document.querySelector("[data-four-colour]");
    if (box) box.checked = on;
    applyFourColour(on);
  });
  // The chat form clears itself after a successful send (the server re-renders it empty).
})();
