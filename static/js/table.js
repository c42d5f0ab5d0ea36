// RummyHub table page: drag and drop (SortableJS), keyboard and tap selection,
// joker declarations. Every change is sent to the server as a draft; the server
// validates it with the engine and answers with the re-rendered board. No rule
// is decided here.
(function () {
  "use strict";

  var dragging = false;
  var staleWhileDragging = false;
  var socket = null;
  var socketOpen = false;
  var sortables = [];

  function page() { return document.querySelector(".table-page"); }
  function board() { return document.getElementById("table-board"); }

  function csrfHeaders() {
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}"); } catch (e) { return {}; }
  }

  // The arrangement currently shown: every meld's card refs, in order; the
  // "new meld" zone becomes a meld of its own.
  function collectTable() {
    var melds = [];
    board().querySelectorAll("#melds .meld").forEach(function (list) {
      var refs = [];
      list.querySelectorAll(".card[data-ref]").forEach(function (card) { refs.push(card.dataset.ref); });
      if (refs.length) melds.push(refs);
    });
    return melds;
  }

  function sendDraft(table) {
    var b = board();
    htmx.ajax("POST", page().dataset.draftUrl, {
      target: "#table-board",
      swap: "outerHTML",
      headers: csrfHeaders(),
      values: { table: JSON.stringify(table || collectTable()), version: b.dataset.version }
    });
  }

  function sendHandOrder() {
    var order = [];
    document.querySelectorAll("#hand .card[data-id]").forEach(function (c) { order.push(c.dataset.id); });
    htmx.ajax("POST", page().dataset.actUrl, {
      target: "#table-board",
      swap: "outerHTML",
      headers: csrfHeaders(),
      values: { action: "sort", mode: "custom", order: JSON.stringify(order) }
    });
  }

  function resync() {
    if (socket) socket.send(JSON.stringify({ type: "resync" }));
  }

  function initSortables() {
    sortables.forEach(function (s) { s.destroy(); });
    sortables = [];
    var b = board();
    if (!b || typeof Sortable === "undefined") return;
    var canMeld = b.dataset.canMeld === "true";
    var lists = canMeld ? b.querySelectorAll("#melds .meld, #hand") : b.querySelectorAll("#hand");
    lists.forEach(function (list) {
      sortables.push(Sortable.create(list, {
        group: canMeld ? "cards" : "hand-" + Math.random(),
        animation: 120,
        forceFallback: true,
        fallbackTolerance: 4,
        draggable: ".card[data-ref]",
        delay: 80,
        delayOnTouchOnly: true,
        onStart: function () { dragging = true; },
        onEnd: function (evt) {
          dragging = false;
          var moved = evt.from !== evt.to || evt.oldIndex !== evt.newIndex;
          if (!moved) {
            if (staleWhileDragging) { staleWhileDragging = false; resync(); }
            return;
          }
          staleWhileDragging = false;
          var touchesTable = evt.from.id !== "hand" || evt.to.id !== "hand";
          if (touchesTable) sendDraft(); else sendHandOrder();
        }
      }));
    });
  }

  // Keyboard and tap: pick cards (aria-pressed), then a target button.
  document.addEventListener("click", function (event) {
    var face = event.target.closest(".board .card-face[aria-pressed]");
    if (face) {
      face.setAttribute("aria-pressed", face.getAttribute("aria-pressed") === "true" ? "false" : "true");
      return;
    }
    var target = event.target.closest("[data-target-meld]");
    if (target) {
      var selected = board().querySelectorAll('.card-face[aria-pressed="true"]');
      if (!selected.length) return;
      var where = target.dataset.targetMeld;
      var dest = where === "hand" ? document.getElementById("hand")
        : board().querySelector('#melds .meld[data-meld="' + where + '"]');
      selected.forEach(function (f) { dest.appendChild(f.closest(".card")); });
      sendDraft();
      return;
    }
    var option = event.target.closest("[data-joker-option]");
    if (option) {
      // Declare the bare joker of that meld as the chosen card ("7S" → "JK=7S.<deck>").
      var meld = board().querySelector('#melds .meld[data-meld="' + option.dataset.meldIndex + '"]');
      var joker = meld && meld.querySelector('.card[data-ref^="JK."]');
      if (!joker) return;
      joker.dataset.ref = "JK=" + option.dataset.jokerOption + "." + joker.dataset.id.split(".")[1];
      sendDraft();
    }
  });

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

  // What the Gin board's script (gin.js, loaded after this one) shares with this one: the CSRF
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

  // The board is replaced by socket pushes and by command responses: set up
  // drag and drop again whenever a new board element appears.
  function refresh() {
    var b = board();
    if (b && !b.dataset.ready) { b.dataset.ready = "1"; initSortables(); }
  }
  ["htmx:afterSettle", "htmx:oobAfterSwap", "htmx:wsAfterMessage", "htmx:load"].forEach(function (name) {
    document.addEventListener(name, refresh);
  });
  document.addEventListener("DOMContentLoaded", function () {
    var on = localStorage.getItem("rummyhub-four-colour") === "1";
    var box = document.querySelector("[data-four-colour]");
    if (box) box.checked = on;
    applyFourColour(on);
    refresh();
  });
  // The chat form clears itself after a successful send (the server re-renders it empty).
})();
