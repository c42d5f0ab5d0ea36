// RummyHub Gin board: draw by drag (stock or discard pile into the hand) or click,
// discard by drag onto the pile or pick-and-press, hand order by drag (kept on the
// server: hand_sort custom), the knock layout editor (cards dragged, or selected and
// moved with "Move here", between melds, a new meld and the deadwood; every change is
// sent to the server, which checks it and answers with the board), and the advisor's
// card suggestions. Every move is one of the board's real forms: this file only fills
// and submits them. No rule is decided here.
(function () {
  "use strict";

  var shared = window.RummyTable; // table.js: CSRF header, resync, pushes held during a drag
  var sortables = [];

  function gb() { return document.getElementById("gin-board"); }
  function page() { return document.querySelector(".table-page"); }

  function submitAction(kind) {
    var button = gb().querySelector('[data-action="' + kind + '"]');
    if (button && button.form) button.form.requestSubmit(button);
  }

  function discard(cardId) {
    var select = gb().querySelector("[data-discard-select]");
    if (!select) return;
    select.value = cardId;
    if (select.value !== cardId) return; // not a legal discard (e.g. the card just taken)
    submitAction("discard");
  }

  function sendHandOrder() {
    var order = [];
    document.querySelectorAll("#gin-hand .card[data-id]").forEach(function (c) { order.push(c.dataset.id); });
    htmx.ajax("POST", page().dataset.actUrl, {
      target: "#table-board", swap: "outerHTML", headers: shared.csrfHeaders(),
      values: { action: "sort", mode: "custom", order: JSON.stringify(order) }
    });
  }

  // ---- the knock layout editor --------------------------------------------------
  var focusAfterSwap = null; // card id (or "move") to focus on the re-rendered board

  function editor() { return document.getElementById("gin-knock-editor"); }

  // The layout shown: every meld row and the new-meld row, in order (empty ones dropped);
  // cards in the deadwood row are in no meld.
  function collectLayout(ed) {
    var melds = [];
    ed.querySelectorAll('.gin-layout-group[data-group="meld"], .gin-layout-group[data-group="new"]').forEach(function (list) {
      var ids = [];
      list.querySelectorAll(".card[data-id]").forEach(function (c) { ids.push(c.dataset.id); });
      if (ids.length) melds.push(ids);
    });
    return { card: ed.dataset.card, melds: melds };
  }

  function sendLayout() {
    var ed = editor();
    if (!ed) return;
    htmx.ajax("POST", page().dataset.draftUrl, {
      target: "#table-board", swap: "outerHTML", headers: shared.csrfHeaders(),
      values: { table: JSON.stringify(collectLayout(ed)), version: document.getElementById("table-board").dataset.version }
    });
  }

  function initEditor() {
    var ed = editor();
    if (!ed || typeof Sortable === "undefined") return;
    ed.querySelectorAll(".gin-layout-group").forEach(function (list) {
      var options = base({ group: "gin-layout", draggable: ".card[data-id]" });
      var ended = options.onEnd;
      options.onEnd = function (evt) {
        ended(evt);
        if (evt.from === evt.to) return; // the order inside a row does not matter
        focusAfterSwap = evt.item.dataset.id;
        sendLayout();
      };
      sortables.push(Sortable.create(list, options));
    });
  }

  // Keyboard and tap: select cards (aria-pressed), then "Move here" on a row. Captured
  // before any other click handler, so a selection is only this editor's.
  document.addEventListener("click", function (event) {
    var ed = editor();
    if (!ed || !ed.contains(event.target)) return;
    var face = event.target.closest(".card-face[aria-pressed]");
    if (face) {
      event.stopPropagation();
      face.setAttribute("aria-pressed", face.getAttribute("aria-pressed") === "true" ? "false" : "true");
      return;
    }
    var move = event.target.closest("[data-move-here]");
    if (move) {
      event.stopPropagation();
      var picked = ed.querySelectorAll('.card-face[aria-pressed="true"]');
      var target = move.parentElement.querySelector(".gin-layout-group");
      if (!picked.length || !target) return;
      picked.forEach(function (f) { target.appendChild(f.closest(".card")); });
      focusAfterSwap = picked[0].closest(".card").dataset.id;
      sendLayout();
    }
  }, true);

  document.addEventListener("keydown", function (event) {
    var ed = editor();
    if (event.key !== "Escape" || !ed || !ed.contains(event.target)) return;
    ed.querySelectorAll('.card-face[aria-pressed="true"]').forEach(function (f) { f.setAttribute("aria-pressed", "false"); });
  });

  var editorShown = null; // the knock card of the editor on the previous board

  function restoreFocus() {
    var ed = editor();
    var card = ed ? ed.dataset.card : null;
    if (ed && card !== editorShown && ed.scrollIntoView) ed.scrollIntoView({ block: "nearest" }); // just opened
    editorShown = card;
    if (!focusAfterSwap) return;
    var face = ed && ed.querySelector('.card[data-id="' + focusAfterSwap + '"] .card-face');
    focusAfterSwap = null;
    if (face) face.focus();
  }

  function base(extra) {
    var o = {
      animation: 120, forceFallback: true, fallbackTolerance: 4, delay: 80, delayOnTouchOnly: true,
      onStart: function () { shared.dragStart(); },
      onEnd: function () { if (shared.dragEnd()) setTimeout(shared.resync, 50); }
    };
    Object.keys(extra).forEach(function (k) { o[k] = extra[k]; });
    return o;
  }

  function initSortables() {
    sortables.forEach(function (s) { s.destroy(); });
    sortables = [];
    var b = gb();
    if (!b || typeof Sortable === "undefined") return;
    var canDraw = b.dataset.canDraw === "true";
    var canDiscard = b.dataset.canDiscard === "true";
    var hand = document.getElementById("gin-hand");
    if (hand) {
      sortables.push(Sortable.create(hand, base({
        group: { name: "gin", pull: canDiscard, put: canDraw },
        draggable: ".card[data-id]",
        onUpdate: function () { sendHandOrder(); },
        onAdd: function (evt) {
          var source = evt.item.dataset.source;
          evt.item.remove();
          submitAction(source === "stock" ? "draw_stock" : "draw_discard");
        }
      })));
    }
    if (canDraw) {
      ["gin-stock", "gin-discard"].forEach(function (id) {
        var list = document.getElementById(id);
        if (!list || !list.querySelector(".gin-draggable")) return;
        sortables.push(Sortable.create(list, base({
          group: { name: "gin", pull: "clone", put: false }, sort: false, draggable: ".gin-draggable"
        })));
      });
    }
    initEditor();
    var pile = document.getElementById("gin-discard");
    if (canDiscard && pile) {
      sortables.push(Sortable.create(pile, base({
        group: { name: "gin", pull: false, put: true }, sort: false, draggable: ".nothing",
        onAdd: function (evt) {
          var id = evt.item.dataset.id;
          evt.item.remove();
          discard(id);
        }
      })));
    }
  }

  function select(card, scope) {
    document.querySelectorAll(scope + " .gin-selected").forEach(function (c) { c.classList.remove("gin-selected"); });
    card.classList.add("gin-selected");
  }

  document.addEventListener("click", function (event) {
    var b = gb();
    if (!b) return;
    var face = event.target.closest("#gin-board .card-face");
    if (!face) return;
    var card = face.closest(".card");
    var list = card.parentElement;
    if (list.id === "gin-hand") {
      select(card, "#gin-hand");
      var sel = b.querySelector("[data-discard-select]");
      if (sel) sel.value = card.dataset.id;
    } else if (list.id === "gin-captain-hand") {
      select(card, "#gin-captain-hand");
      // A click on one of the captain's cards suggests discarding it.
      var sug = b.querySelector("[data-suggest-select]");
      var option = sug && sug.querySelector('option[data-card="' + card.dataset.id + '"]');
      if (option) { sug.value = option.value; submitAction("suggest-discard"); }
    } else if (list.id === "gin-discard") {
      var picked = b.querySelector("#gin-hand .gin-selected");
      if (b.dataset.canDiscard === "true" && picked) discard(picked.dataset.id);
      else if (b.querySelector('[data-action="draw_discard"]')) submitAction("draw_discard");
      else if (b.querySelector('[data-action="take_upcard"]')) submitAction("take_upcard");
    } else if (list.id === "gin-stock") {
      submitAction("draw_stock");
    }
  });

  // The captain sees the advisor's suggested move highlighted on its button.
  function markSuggestion(b) {
    var kind = b.dataset.advisedAction;
    if (!kind) return;
    b.querySelectorAll('[data-action="' + kind + '"]').forEach(function (el) { el.classList.add("gin-suggested-action"); });
  }

  function refresh() {
    var b = gb();
    if (b && !b.dataset.ginReady) { b.dataset.ginReady = "1"; initSortables(); markSuggestion(b); restoreFocus(); }
  }
  ["htmx:afterSettle", "htmx:oobAfterSwap", "htmx:wsAfterMessage", "htmx:load"].forEach(function (name) {
    document.addEventListener(name, refresh);
  });
  document.addEventListener("DOMContentLoaded", refresh);
})();
