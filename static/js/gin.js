// RummyHub Gin board: draw by drag (stock or discard pile into the hand) or click,
// discard by drag onto the pile or pick-and-press, hand order by drag (kept on the
// server: hand_sort custom), the knock layout editor (cards dragged, or selected and
// moved with "Move here", between melds, a new meld and the deadwood; every change is
// sent to the server, which checks it and answers with the board), and the advisor's
// card suggestions; a card picked in the hand is also chosen in the discard's and the knock's lists.
// Every move is one of the board's real forms: this file only fills
// and submits them. The drags, picks, hand order and drafts are cards.js's. No rule is decided here.
(function () {
  "use strict";

  var cards = window.RummyCards;
  var sortables = new cards.Sortables();

  function gb() { return document.getElementById("gin-board"); }

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

  function initEditor() {
    var ed = editor();
    if (!ed) return;
    ed.querySelectorAll(".gin-layout-group").forEach(function (list) {
      sortables.add(list, {
        group: "gin-layout", draggable: ".card[data-id]",
        onEnd: function (evt) {
          if (evt.from === evt.to) return false; // the order inside a row does not matter
          focusAfterSwap = evt.item.dataset.id;
          cards.sendDraft(collectLayout(ed));
          return true;
        }
      });
    });
  }

  // Keyboard and tap: cards picked (cards.js), then "Move here" on a row.
  document.addEventListener("click", function (event) {
    var ed = editor();
    var move = ed && event.target.closest("[data-move-here]");
    if (!move || !ed.contains(move)) return;
    var moved = cards.moveSelected(ed, move.parentElement.querySelector(".gin-layout-group"));
    if (!moved.length) return;
    focusAfterSwap = moved[0].dataset.id;
    cards.sendDraft(collectLayout(ed));
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

  function initSortables(b) {
    if (!sortables.reset()) return;
    var canDraw = b.dataset.canDraw === "true";
    var canDiscard = b.dataset.canDiscard === "true";
    var hand = document.getElementById("gin-hand");
    if (hand) {
      sortables.add(hand, {
        group: { name: "gin", pull: canDiscard, put: canDraw },
        draggable: ".card[data-id]",
        onUpdate: function () { cards.sendHandOrder(hand); },
        onAdd: function (evt) {
          var source = evt.item.dataset.source;
          evt.item.remove();
          submitAction(source === "stock" ? "draw_stock" : "draw_discard");
        }
      });
    }
    if (canDraw) {
      ["gin-stock", "gin-discard"].forEach(function (id) {
        var list = document.getElementById(id);
        if (!list || !list.querySelector(".gin-draggable")) return;
        sortables.add(list, { group: { name: "gin", pull: "clone", put: false }, sort: false, draggable: ".gin-draggable" });
      });
    }
    initEditor();
    var pile = document.getElementById("gin-discard");
    if (canDiscard && pile) {
      sortables.add(pile, {
        group: { name: "gin", pull: false, put: true }, sort: false, draggable: ".nothing",
        onAdd: function (evt) {
          var id = evt.item.dataset.id;
          evt.item.remove();
          discard(id);
        }
      });
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
      // The list of knock choices, when the card is one of them (a knock with it discards it).
      var knocks = b.querySelector("[data-knock-select]");
      var knock = knocks && knocks.querySelector('option[data-knock-card="' + card.dataset.id + '"]');
      if (knock) knocks.value = knock.value;
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

  cards.onEachBoard(gb, "ginReady", function (b) { initSortables(b); markSuggestion(b); restoreFocus(); });
})();
