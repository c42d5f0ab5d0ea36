// RummyHub Manipulation board: the table's melds and the hand. A drag, or picked cards moved onto a
// meld (a tap or a click on it, or Enter on it), that touches the table sends the arrangement
// shown as a draft; a drag inside the hand sends its order; a joker's "stands for" button declares
// it. The drags, picks and commands are cards.js's; the server validates every draft with the
// engine and answers with the fragments that changed.
(function () {
  "use strict";

  var cards = window.RummyCards;
  var sortables = new cards.Sortables();

  // The arrangement currently shown: every meld's card refs, in order; the
  // "new meld" zone becomes a meld of its own.
  function collectTable() {
    var melds = [];
    cards.board().querySelectorAll("#melds .meld").forEach(function (list) {
      var refs = [];
      list.querySelectorAll(".card[data-ref]").forEach(function (card) { refs.push(card.dataset.ref); });
      if (refs.length) melds.push(refs);
    });
    return melds;
  }

  // Set up again after every frame (``m`` is its #board-meta): the melds or the hand may be new.
  function setUp(m) {
    if (!sortables.reset()) return;
    var canMeld = m.dataset.canMeld === "true";
    var lists = document.querySelectorAll(canMeld ? "#melds .meld, #hand" : "#hand");
    lists.forEach(function (list) {
      sortables.add(list, {
        group: canMeld ? "cards" : "hand-" + Math.random(),
        draggable: ".card[data-ref]",
        onEnd: function (evt) {
          if (evt.from === evt.to && evt.oldIndex === evt.newIndex) return false;
          if (evt.from.id !== "hand" || evt.to.id !== "hand") cards.sendDraft(collectTable());
          else cards.sendHandOrder(evt.to);
          return true;
        }
      });
    });
  }

  // Picked cards onto a meld, the new-meld zone or back to the hand; true when some moved.
  function moveTo(target) {
    var where = target.dataset.targetMeld;
    var dest = where === "hand" ? document.getElementById("hand")
      : cards.board().querySelector('#melds .meld[data-meld="' + where + '"]');
    var moved = cards.moveSelected(cards.board(), dest);
    if (moved.length) cards.sendDraft(collectTable());
    return moved.length > 0;
  }

  document.addEventListener("keydown", function (event) {
    var target = event.target.matches && event.target.matches(".meld-box[data-target-meld]") ? event.target : null;
    if (!target || (event.key !== "Enter" && event.key !== " ")) return;
    event.preventDefault();
    moveTo(target);
  });

  document.addEventListener("click", function (event) {
    var target = event.target.closest("[data-target-meld]");
    // A tap on a card picks it (cards.js); a tap on a meld around its cards moves the picks there.
    if (target && !event.target.closest(".card-face")) {
      moveTo(target);
      return;
    }
    var option = event.target.closest("[data-joker-option]");
    if (option) {
      // Declare the bare joker of that meld as the chosen card ("7S" → "JK=7S.<deck>").
      var meld = cards.board().querySelector('#melds .meld[data-meld="' + option.dataset.meldIndex + '"]');
      var joker = meld && meld.querySelector('.card[data-ref^="JK."]');
      if (!joker) return;
      joker.dataset.ref = "JK=" + option.dataset.jokerOption + "." + joker.dataset.id.split(".")[1];
      cards.sendDraft(collectTable());
    }
  });

  cards.onEachBoard(function () { return document.getElementById("board-meta"); }, "ready", setUp);
})();
