// RummyHub cards, for both games' boards: dragging cards (SortableJS, the npm copy in
// static/vendor), picking them with the keyboard or a tap (aria-pressed) and moving the picked
// ones, and the two commands a drag makes: the player's hand order (hand_sort "custom") and a
// draft (the Manipulation table being arranged, a Gin knock layout). Each game's script
// (manipulation.js, gin.js) says only which lists take which cards and what a drop means.
// No rule is decided here: the server checks every command and answers with the board.
(function () {
  "use strict";

  var table = window.RummyTable; // table.js: CSRF header, resync, pushes held during a drag

  function page() { return document.querySelector(".table-page"); }
  function board() { return document.getElementById("table-board"); }

  // One command whose answer is the re-rendered board (over the socket while it is open:
  // table.js routes the act and draft URLs there).
  function post(url, values) {
    htmx.ajax("POST", url, { target: "#table-board", swap: "outerHTML", headers: table.csrfHeaders(), values: values });
  }

  // The order of the cards in a hand list, kept on the server for that player.
  function sendHandOrder(list) {
    var order = [];
    list.querySelectorAll(".card[data-id]").forEach(function (c) { order.push(c.dataset.id); });
    post(page().dataset.actUrl, { action: "sort", mode: "custom", order: JSON.stringify(order) });
  }

  // A draft: the Manipulation table's melds (card refs) or a Gin knock layout, checked by the server.
  function sendDraft(draft) {
    draftSent = true;
    document.dispatchEvent(new CustomEvent("rummy:move")); // a move of the viewer's own (manipulation.js)
    post(page().dataset.draftUrl, { table: JSON.stringify(draft), version: board().dataset.version });
  }

  // A refused draft changes nothing on the server, but the page already shows the refused
  // arrangement (and a socket sends only the fragments that changed): the board is asked for again,
  // and the refusal is kept on it.
  var draftSent = false;
  var keptError = null;
  document.addEventListener("htmx:wsAfterMessage", function (event) {
    if ((event.detail.message || "").indexOf('id="board-meta"') === -1) return;
    var slot = document.getElementById("board-error");
    if (keptError !== null) {
      if (slot && !slot.querySelector(".board-error")) slot.innerHTML = keptError;
      keptError = null;
      return;
    }
    if (!draftSent) return;
    draftSent = false;
    if (slot && slot.querySelector(".board-error")) {
      keptError = slot.innerHTML;
      table.resync();
    }
  });

  // A list whose cards can be dragged. ``options`` are SortableJS's; its onEnd reads the drop and
  // sends its move, and then the pushes held back during the drag are applied (table.js).
  function sortable(list, options) {
    var o = { animation: 120, forceFallback: true, fallbackTolerance: 4, delay: 80, delayOnTouchOnly: true };
    Object.keys(options).forEach(function (k) { o[k] = options[k]; });
    var ended = options.onEnd;
    var started = options.onStart;
    o.onStart = function (evt) { table.dragStart(); if (started) started(evt); };
    o.onEnd = function (evt) {
      try {
        if (ended) ended(evt);
      } finally {
        table.dragEnd();
      }
    };
    return Sortable.create(list, o);
  }

  // The lists a board set up, dropped when the next board replaces it.
  function Sortables() { this.all = []; }
  Sortables.prototype.reset = function () {
    this.all.forEach(function (s) { s.destroy(); });
    this.all = [];
    return typeof Sortable !== "undefined";
  };
  Sortables.prototype.add = function (list, options) { if (list) this.all.push(sortable(list, options)); };

  // Keyboard and tap: a card that may be picked is a toggle button (aria-pressed); Escape drops
  // the picks. ``moveSelected`` moves the cards picked inside ``scope`` to the end of ``dest``.
  document.addEventListener("click", function (event) {
    var face = event.target.closest(".board .card-face[aria-pressed]");
    if (face) face.setAttribute("aria-pressed", face.getAttribute("aria-pressed") === "true" ? "false" : "true");
  });
  document.addEventListener("keydown", function (event) {
    var b = board();
    if (event.key !== "Escape" || !b || !b.contains(event.target)) return;
    b.querySelectorAll('.card-face[aria-pressed="true"]').forEach(function (f) { f.setAttribute("aria-pressed", "false"); });
  });
  // ``accept(card)``, if given, says which of them may go there (the others stay, still picked);
  // a card moved is no longer picked.
  function moveSelected(scope, dest, accept) {
    var cards = [];
    scope.querySelectorAll('.card-face[aria-pressed="true"]').forEach(function (f) {
      var c = f.closest(".card");
      if (!accept || accept(c)) cards.push(c);
    });
    if (!dest) return [];
    cards.forEach(function (c) {
      dest.appendChild(c);
      var face = c.querySelector(".card-face[aria-pressed]");
      if (face) face.setAttribute("aria-pressed", "false");
    });
    return cards;
  }

  // ``setUp(element)`` once for each new element ``find()`` returns: the board is replaced by
  // socket pushes and by command responses.
  // A socket frame swaps its fragments one by one (#board-meta first): the lists are set up once the
  // whole frame is in, not on the first swap (that would set up the lists the frame then replaces).
  function onEachBoard(find, flag, setUp) {
    var queued = false;
    function run() {
      queued = false;
      var el = find();
      if (el && !el.dataset[flag]) { el.dataset[flag] = "1"; setUp(el); }
    }
    function refresh() {
      if (!queued) { queued = true; setTimeout(run, 0); }
    }
    ["htmx:afterSettle", "htmx:oobAfterSwap", "htmx:wsAfterMessage", "htmx:load"].forEach(function (name) {
      document.addEventListener(name, refresh);
    });
    document.addEventListener("DOMContentLoaded", refresh);
  }

  // The focused control, by what identifies it on any board: a board answered with a new one (a
  // socket's frame, a form's answer over HTTP) puts the focus back where it was (table.js, puzzle.js).
  function focusKey(el) {
    if (!el || el === document.body) return null;
    if (el.id) return "#" + el.id;
    var card = el.closest(".card[data-id]");
    if (card) return '.card[data-id="' + card.dataset.id + '"] .card-face';
    var attrs = ["data-action", "data-target-meld", "data-joker-option", "data-knock-card", "data-suggest", "name"];
    for (var i = 0; i < attrs.length; i++) {
      var v = el.getAttribute(attrs[i]);
      if (v !== null) return el.tagName.toLowerCase() + "[" + attrs[i] + '="' + CSS.escape(v) + '"]';
    }
    return null;
  }

  // The hand's card that takes the focus (its roving tab stop).
  function handFocus() { return document.querySelector("#hand [tabindex='0'], #gin-hand [tabindex='0']"); }

  // Back to the control ``key`` names, when the swap left the focus nowhere; ``fallback()`` when that
  // control is gone (a button or an element with an id: a card that left the hand is followed by nothing).
  function restoreFocus(key, fallback) {
    if (!key || (document.activeElement !== document.body && document.activeElement)) return;
    var el = document.querySelector(key);
    if (!el && fallback && /^(button|#)/.test(key)) el = fallback();
    if (el && el.focus) el.focus({ preventScroll: true });
  }

  window.RummyCards = {
    post: post, sendHandOrder: sendHandOrder, sendDraft: sendDraft, Sortables: Sortables,
    moveSelected: moveSelected, onEachBoard: onEachBoard, board: board, page: page,
    focusKey: focusKey, handFocus: handFocus, restoreFocus: restoreFocus
  };
})();
