// RummyHub Manipulation board: the table's melds and the hand. A drag, or picked cards moved onto a
// meld (a tap or a click on it, or Enter on it), that touches the table sends the arrangement
// shown as a draft; a drag inside the hand sends its order; a joker's "stands for" button declares
// it (the server shows a joker bare wherever it is to be declared anew, e.g. a freed one). A card
// that was on the table when the step began (data-on-table) is never taken into the hand. The drags, picks and commands are cards.js's; the server validates every draft with the
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

  // A card that lay on the table when the step began never goes back to a hand (RULES B.5.2 M2):
  // the hand list refuses it, so a drop there snaps back to where it came from, with the reason.
  function onTable(card) { return !!card && card.matches(".card[data-on-table]"); }

  // A card as the page draws it ("8♠"; a joker by its name).
  function cardName(card) {
    var rank = card.querySelector(".rank");
    var suit = card.querySelector(".suit");
    var face = card.querySelector(".card-face");
    if (rank && suit && suit.textContent) return rank.textContent + suit.textContent;
    return (face && face.getAttribute("aria-label")) || "";
  }

  function sayStays(list) {
    var slot = document.getElementById("melds-drop-reason");
    if (!slot || !list.length) return;
    // The cards as the server's own refusal writes them ("10♠ J♠", games.messages): a space between cards,
    // the whole isolated (FSI…PDI) so that a right-to-left sentence keeps its order around them.
    var cards = "\u2068" + list.map(cardName).join(" ") + "\u2069";
    slot.textContent = (slot.dataset.staysText || "%s").replace("%s", cards);
    slot.hidden = false;
    clearTimeout(sayStays.timer);
    sayStays.timer = setTimeout(clearStays, 8000); // a notice over the board, not for good
  }

  function clearStays() {
    var slot = document.getElementById("melds-drop-reason");
    if (slot) { slot.hidden = true; slot.textContent = ""; }
  }

  // Whether a drag was let go over the hand (by the pointer's position: the element under it may be
  // the dragged card's own ghost, or a highlight over the board).
  function droppedOnHand(evt) {
    var e = evt.originalEvent;
    var area = document.getElementById("hand-area");
    if (!e || !area) return false;
    var p = e.changedTouches && e.changedTouches.length ? e.changedTouches[0] : e;
    if (typeof p.clientX !== "number") return false;
    var r = area.getBoundingClientRect();
    return p.clientX >= r.left && p.clientX <= r.right && p.clientY >= r.top && p.clientY <= r.bottom;
  }

  // Where a drag was let go: the list of the meld (or the hand) under the pointer or the finger, and
  // nowhere else (SortableJS leaves the card in the last list it passed over: a drop at a meld's edge
  // or in the gap between two melds would land in the neighbour). null: no list there, or one that
  // refuses the card (a table card over the hand).
  function landing(evt) {
    var e = evt.originalEvent;
    var p = e && e.changedTouches && e.changedTouches.length ? e.changedTouches[0] : e;
    if (!p || typeof p.clientX !== "number") return evt.to;
    var under = document.elementsFromPoint(p.clientX, p.clientY);
    for (var i = 0; i < under.length; i++) {
      var el = under[i];
      if (el.closest(".sortable-fallback")) continue; // the dragged card's picture under the pointer
      var box = el.closest("#melds .meld-box, #hand-area");
      if (box) {
        var list = box.id === "hand-area" ? document.getElementById("hand") : box.querySelector(".meld");
        if (!list || (list.id === "hand" && onTable(evt.item))) return null;
        return list;
      }
      if (el.closest("#melds, #table-board")) return null;
    }
    return null;
  }

  // While a card is dragged the hand keeps its height (a card taken out of it may leave it a row
  // shorter): the melds above it, and the meld the card is aimed at, stay where they are.
  function holdHand(on) {
    ["hand-area", "hand"].forEach(function (id) {
      var el = document.getElementById(id);
      if (el) el.style.minHeight = on ? el.offsetHeight + "px" : "";
    });
  }

  // The dragged card back where it was.
  function putBack(evt) {
    var item = evt.item;
    item.remove();
    evt.from.insertBefore(item, evt.from.querySelectorAll(".card")[evt.oldIndex] || null);
  }

  // ---- the melds use the room there is ------------------------------------------------------
  // The melds wrap; when they do not all fit, their cards overlap (each shows its rank and suit), then
  // get smaller, as a card app's table does (table.css: #melds[data-fit]); the new-meld zone is docked
  // at the end, always in view.
  var FIT_LEVELS = 4;
  var dragging = false; // the cards keep their size while a card is dragged (its target must not move)
  function fit() {
    var el = document.getElementById("melds");
    if (!el || !el.isConnected || dragging) return;
    var before = el.dataset.fit;
    delete el.dataset.fit;
    for (var level = 1; level <= FIT_LEVELS && el.scrollHeight > el.clientHeight + 1; level++) el.dataset.fit = String(level);
    if (el.dataset.fit !== before) el.scrollTop = Math.min(el.scrollTop, el.scrollHeight);
    watch(el);
  }
  var watched = null;
  var observer = typeof ResizeObserver !== "undefined" ? new ResizeObserver(function () { fit(); }) : null;
  function watch(el) {
    if (!observer || watched === el) return;
    if (watched) observer.unobserve(watched);
    watched = el;
    observer.observe(el);
  }
  window.addEventListener("resize", fit);

  // ---- the marks of each player's last move --------------------------------------------------
  // The server marks the cards each player's last turn laid from the hand (data-mark="laid") or moved
  // from another meld ("moved"), and the melds they changed (data-mark-seq: the move's number in the
  // log), for everyone alike. The page hides them once this viewer has made a move after them (kept
  // for the tab: a reload keeps what was seen), and never marks the viewer's own moves.
  function seenKey() { var p = cards.page(); return "rummy-seen-" + (p ? p.dataset.table : ""); }
  function seen() {
    try { return Number(sessionStorage.getItem(seenKey()) || 0); } catch (e) { return 0; }
  }
  function showMarks() {
    var meta = document.getElementById("board-meta");
    var mine = meta ? meta.dataset.mySeat : "";
    var upTo = seen();
    document.querySelectorAll("#melds [data-mark-seq]").forEach(function (el) {
      el.classList.toggle("mark-seen", Number(el.dataset.markSeq) <= upTo || (mine !== "" && el.dataset.markSeat === mine));
    });
  }
  // A move of the viewer's own: every mark shown so far has been seen.
  function moved() {
    var newest = 0;
    document.querySelectorAll("#log-list li[data-seq], #melds [data-mark-seq]").forEach(function (el) {
      newest = Math.max(newest, Number(el.dataset.seq || el.dataset.markSeq) || 0);
    });
    try { sessionStorage.setItem(seenKey(), String(Math.max(newest, seen()))); } catch (e) { /* private mode */ }
    showMarks();
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest("#actions [data-action]");
    if (button && button.dataset.action !== "hint") moved();
  }, true);
  document.addEventListener("rummy:move", moved);

  // ---- a practice hint -------------------------------------------------------------------------
  // Its panel lies over the log (on a phone, over the lower part of the melds), never over the
  // players bar, the hand or the buttons; the cards it names are marked on the table and in the hand
  // (table.css: shown while the panel is open).
  function showHint() {
    var box = document.getElementById("hint-box");
    var panel = box && box.querySelector(".hint-panel");
    document.querySelectorAll(".card.hint-named").forEach(function (c) { c.classList.remove("hint-named"); });
    if (!panel) return;
    (panel.dataset.hintCards || "").split(" ").forEach(function (id) {
      if (!id) return;
      document.querySelectorAll("#melds .card[data-id], #hand .card[data-id]").forEach(function (c) {
        if (c.dataset.id === id) c.classList.add("hint-named");
      });
    });
    placeHint(box);
  }
  function placeHint(box) {
    var main = box.parentElement.getBoundingClientRect();
    var rtl = document.documentElement.dir === "rtl";
    var log = document.getElementById("log");
    var over = log && log.getClientRects().length && getComputedStyle(log).position !== "fixed" ? log.getBoundingClientRect() : null;
    var top, bottom, end, width;
    if (over) {
      top = over.top; bottom = over.bottom; width = over.width;
      end = rtl ? over.left - main.left : main.right - over.right;
    } else {
      var seats = document.getElementById("seats");
      var hand = document.getElementById("hand-area");
      top = seats ? seats.getBoundingClientRect().bottom + 4 : main.top;
      bottom = hand && hand.getClientRects().length ? hand.getBoundingClientRect().top - 4 : main.bottom;
      top = Math.max(top, bottom - Math.max(160, (bottom - top) * 0.6)); // the first melds stay in view above it
      end = 8; width = main.width - 16;
    }
    box.style.insetBlockStart = Math.max(0, top - main.top) + "px";
    box.style.insetInlineEnd = Math.max(0, end) + "px";
    box.style.maxInlineSize = Math.max(160, width) + "px";
    box.style.maxBlockSize = Math.max(80, bottom - top) + "px";
  }

  // After every swap, at once (before the page is painted: no mark flashes on and off).
  function arranged() { showMarks(); fit(); showHint(); }
  // (A socket frame swaps its fragments out of band, then says htmx:wsAfterMessage once, in the same task.)
  ["htmx:afterSwap", "htmx:wsAfterMessage"].forEach(function (name) {
    document.addEventListener(name, arranged);
  });
  document.addEventListener("DOMContentLoaded", arranged);

  // Set up again after every frame (``m`` is its #board-meta): the melds or the hand may be new.
  function setUp(m) {
    if (!sortables.reset()) return;
    var canMeld = m.dataset.canMeld === "true";
    // At a round's end the hand is the one it ended with: its order is not sent (services.hand_sort).
    if (!canMeld && m.dataset.status !== "playing") return;
    var lists = document.querySelectorAll(canMeld ? "#melds .meld, #hand" : "#hand");
    lists.forEach(function (list) {
      var group = canMeld ? "cards" : "hand-" + Math.random();
      if (canMeld && list.id === "hand") {
        group = { name: "cards", put: function (to, from, dragEl) { return !onTable(dragEl); } };
      }
      sortables.add(list, {
        group: group,
        draggable: ".card[data-ref]",
        emptyInsertThreshold: 0,
        // No scrolling of the melds under a passing card: the meld under the finger stays the one
        // aimed at (a meld out of view is scrolled to first, or picked cards are tapped onto it).
        scroll: false,
        onStart: function () { dragging = true; holdHand(true); clearStays(); },
        onEnd: function (evt) {
          dragging = false;
          var to = landing(evt); // where it was let go, as the page looked then
          holdHand(false);
          if (onTable(evt.item) && to !== evt.from && droppedOnHand(evt)) sayStays([evt.item]);
          if (to === null) {
            // Let go between the melds, off the table, or a table card over the hand: it goes back.
            putBack(evt);
            return false;
          }
          if (to !== evt.to) to.appendChild(evt.item);
          if (evt.from === to && (to !== evt.to || evt.oldIndex === evt.newIndex)) {
            if (to !== evt.to) putBack(evt);
            return false;
          }
          if (evt.from.id !== "hand" || to.id !== "hand") cards.sendDraft(collectTable());
          else cards.sendHandOrder(to);
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
    clearStays();
    var stays = [];
    var moved = cards.moveSelected(cards.board(), dest, function (card) {
      if (where === "hand" && onTable(card)) { stays.push(card); return false; }
      return true;
    });
    sayStays(stays);
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
    var option = event.target.closest("[data-joker-option]");
    var target = event.target.closest("[data-target-meld]");
    // A tap on a card picks it (cards.js); a tap on a meld around its cards moves the picks there.
    if (target && !option && !event.target.closest(".card-face")) {
      moveTo(target);
      return;
    }
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
