// RummyHub table page, for both games. The board is a row of fragments (#board-meta, #seats,
// #melds, #hand-area, #actions, #log ...): a socket frame carries #board-meta and the fragments
// that changed, each swapped by its id, so whatever did not change (a card being picked, the
// focused button, a drag) stays as it is. This file keeps the page around those swaps: frames held
// back during a drag (and applied in order after it) or skipped when not newer, focus and picked cards kept across a swap, what
// changed marked, "your turn" said (banner, title, an optional sound), the clocks counted down,
// the page's moves sent over the socket. The cards are cards.js's; no rule is decided here.
(function () {
  "use strict";

  var dragging = false;
  // A card pressed and not yet dragged (SortableJS starts the drag once it moves a few pixels, or
  // after a moment on touch): a board frame swapped in then would set the lists up anew and drop
  // the press, so frames are held from the press, as during the drag.
  var pressing = false;
  var held = []; // board frames that came during a press or a drag, applied in order once it ends
  var HELD_MAX = 50; // beyond that they are dropped and the whole board asked for again
  var heldOverflow = false;
  var socket = null;
  var socketOpen = false;
  var rawSocket = null; // the ws extension's WebSocket: held frames are handed to it again

  function page() { return document.querySelector(".table-page"); }
  function board() { return document.getElementById("table-board"); }
  function meta() { return document.getElementById("board-meta"); }

  function csrfHeaders() {
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}"); } catch (e) { return {}; }
  }

  function send(message) { if (socket) socket.send(JSON.stringify(message)); }
  function resync() { send({ type: "resync" }); }

  // ---- before a frame: hold it back during a drag, skip it when not newer, remember the page --
  var VERSION = /id="board-meta"[^>]*data-version="(\d+)"/;
  var REPLY = /id="board-meta"[^>]*data-reply="true"/;
  var before = null; // what the page showed before the frame being swapped in

  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    var message = event.detail.message || "";
    var match = VERSION.exec(message);
    if (!match) return;
    // During a drag a frame waits (the drag goes on undisturbed); it is applied when the drag ends.
    // Each frame carries what changed since the one before, so none is ever skipped.
    if (dragging || pressing) {
      if (held.length < HELD_MAX) held.push(message); else heldOverflow = true;
      event.preventDefault();
      return;
    }
    var m = meta();
    // An older board is skipped; one of the same version brings what changed since (a clock, a dot).
    if (m && !REPLY.test(message) && Number(match[1]) < Number(m.dataset.version)) { event.preventDefault(); return; }
    before = snapshot();
  });

  function meldCards() {
    var out = {};
    document.querySelectorAll("#melds .meld .card[data-id]").forEach(function (c) { out[c.dataset.id] = true; });
    return out;
  }

  // Where each table card is on the screen, by id (a rearrangement slides them from there).
  // (Inside the melds' region, which may itself have moved on the page, and scrolls.)
  function meldPlaces() {
    var out = {};
    var region = document.getElementById("melds");
    if (!region) return out;
    var origin = region.getBoundingClientRect();
    document.querySelectorAll("#melds .meld").forEach(function (meld) {
      meld.querySelectorAll(".card[data-id]").forEach(function (c, i) {
        var r = c.getBoundingClientRect();
        out[c.dataset.id] = { left: r.left - origin.left + region.scrollLeft, top: r.top - origin.top + region.scrollTop,
                              where: meld.dataset.meld + ":" + i };
      });
    });
    return out;
  }

  function handCards() {
    var out = null;
    document.querySelectorAll("#hand .card[data-id], #gin-hand .card[data-id]").forEach(function (c) {
      out = out || {};
      out[c.dataset.id] = true;
    });
    return out;
  }

  function snapshot() {
    var picked = [];
    document.querySelectorAll('#table-board .card-face[aria-pressed="true"]').forEach(function (f) {
      var c = f.closest(".card[data-id]");
      if (c) picked.push(c.dataset.id);
    });
    var melds = document.getElementById("melds");
    var discard = document.querySelector("#gin-discard .card[data-id]");
    return {
      focus: window.RummyCards.focusKey(document.activeElement),
      picked: picked,
      meldCards: meldCards(),
      meldPlaces: meldPlaces(),
      handCards: handCards(),
      meldsScroll: melds ? melds.scrollTop : 0,
      discard: discard ? discard.dataset.id : null,
      myTurn: meta() ? meta().dataset.myTurn === "true" : false
    };
  }

  // A frame may put a card into the hand that the page itself already put somewhere (a drag or
  // "Selected back to hand" whose answer this frame is): the server's card replaces the page's own
  // copy. A card it puts after one the page no longer has in the hand (moved meanwhile) cannot be
  // placed: the whole board is asked for.
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    var fragment = event.detail.fragment;
    if (!fragment || !target || !target.closest || !target.closest("#hand")) return;
    fragment.querySelectorAll(".card[data-id]").forEach(function (card) {
      document.querySelectorAll('#table-board .card[data-id="' + CSS.escape(card.dataset.id) + '"]')
        .forEach(function (own) { own.remove(); });
    });
  });
  document.addEventListener("htmx:oobErrorNoTarget", function (event) {
    var content = event.detail.content;
    if (content && content.querySelector && content.querySelector(".card[data-id]")) resync();
  });

  // ---- after a frame (or a whole board from a form): put the page back together -------------
  document.addEventListener("htmx:wsAfterMessage", function (event) {
    var message = event.detail.message || "";
    // The socket's first frame ends its opening (the server sends one: the board if the table moved
    // on since the page was drawn, else the online dots): from here on the page is kept up to date
    // frame by frame. data-live says so (a test waits for it, rather than for a fixed time).
    if (socketOpen && page() && page().dataset.live !== "true") page().dataset.live = "true";
    if (message.indexOf('id="socket-error"') !== -1) { endBusy(); if (draftInFlight) draftAnswered(); return; }
    if (!VERSION.test(message)) return;
    endBusy();
    settle(before, !REPLY.test(message));
    before = null;
    // The draft's answer (or, long after it went, whatever board came: it was asked for again).
    if (draftInFlight && (REPLY.test(message) || Date.now() - draftInFlight.since > 6000)) draftAnswered();
  });

  // A form answered over HTTP replaced the whole board (a new #board-meta that no frame brought):
  // the socket's idea of what the page shows is void, so it is told to send every fragment next time.
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "table-board") before = snapshot();
  });
  // A refusal posted without a socket (the board with its reason, the chat form with its own) is
  // swapped like any answer: the server marks it so (plumbing/answers.py; static/js/site.js).
  document.addEventListener("htmx:afterSettle", function () {
    if (!meta() || meta() === settledMeta) return;
    endBusy();
    settle(before, false);
    before = null;
    send({ type: "shown" });
  });

  var settledMeta = null; // the #board-meta the page was last put together around
  var seatShown = null; // the viewer's seat when the side panel (the chat form) was drawn

  // A seat taken or left without a reload: the side panel (a player's chat form, a spectator's
  // note) is drawn for who the viewer is, so it is fetched again.
  function refreshSide() {
    if (!document.querySelector(".table-side")) return;
    htmx.ajax("GET", location.pathname + "?part=side", { target: ".table-side", swap: "outerHTML" }).then(showOptions);
  }
  function settle(prev, fromOthers) {
    var m = meta();
    var b = board();
    if (!m || !b) return;
    settledMeta = m;
    ["version", "reply", "myTurn", "canMeld", "status"].forEach(function (k) {
      if (m.dataset[k] !== undefined) b.dataset[k] = m.dataset[k]; else delete b.dataset[k];
    });
    b.classList.toggle("board-my-turn", m.dataset.myTurn === "true");
    markMySeat(m.dataset.mySeat);
    showNewResults();
    fillInvite();
    trimLog();
    if (seatShown !== null && seatShown !== m.dataset.mySeat) refreshSide();
    seatShown = m.dataset.mySeat;
    clockOffset = Number(m.dataset.nowMs || Date.now()) - Date.now();
    tick();
    if (!prev) return;
    restorePicks(prev.picked);
    var melds = document.getElementById("melds");
    if (melds) melds.scrollTop = prev.meldsScroll;
    if (fromOthers) {
      markChanges(prev);
      slide(prev.meldPlaces);
    }
    // The card just drawn (or taken) is marked in the hand, whoever's move brought the frame.
    if (prev.handCards) {
      document.querySelectorAll("#hand .card[data-id], #gin-hand .card[data-id]").forEach(function (c) {
        if (!prev.handCards[c.dataset.id]) c.classList.add("card-new");
      });
    }
    roving();
    // The control is gone (the Draw button after a draw): the hand takes the focus.
    window.RummyCards.restoreFocus(prev.focus, window.RummyCards.handFocus);
    var mine = m.dataset.myTurn === "true";
    if (!mine) clearHint();
    if (mine && !prev.myTurn) yourTurn();
    if (!mine) turnOver();
  }

  // A practice hint is for this turn only: closed by its button, emptied when the turn passes.
  function clearHint() {
    var box = document.getElementById("hint-box");
    if (box && box.firstChild) box.innerHTML = "";
  }
  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-hint-close]")) clearHint();
  });

  // The page's toggles: the log and the chat on a phone, the results dialog put aside.
  document.addEventListener("click", function (event) {
    var t = event.target.closest("[data-toggle]");
    if (!t || !page()) return;
    if (t.dataset.toggle === "results-hidden") { setResults(page().classList.contains("results-hidden")); return; }
    page().classList.toggle(t.dataset.toggle);
  });

  // ---- the result dialog of a round and of the match (#results, role=dialog) -------------------
  // It opens by itself when a round or the match ends (the focus goes to its title, and comes back
  // where it was when it is closed); Escape or "Show the table" closes it, "Show the results" opens it
  // again. Its buttons press the real ones of the player's own action bar (#actions: Ready, Rematch).
  var hiddenResults = null; // the results put aside; new results (the next round's) show again
  var shownResults = null; // the results the focus was last moved into
  var focusBefore = null; // where the focus was before the dialog took it
  function resultsOpen() {
    var r = document.getElementById("results");
    return !!(r && r.getAttribute("role") === "dialog" && page() && !page().classList.contains("results-hidden"));
  }
  function focusResults() {
    var title = document.getElementById("results-title");
    if (!title) return;
    var active = document.activeElement;
    // A player at the command line keeps it: the round's end is read there ("layout", "what changed").
    if (active && active.closest && active.closest("#typed")) return;
    if (active && active !== document.body && !active.closest("#results")) focusBefore = window.RummyCards.focusKey(active);
    title.focus({ preventScroll: false });
  }
  function setResults(show) {
    var p = page();
    var r = document.getElementById("results");
    if (!p) return;
    p.classList.toggle("results-hidden", !show);
    hiddenResults = show ? null : (r ? r.dataset.resultsKey : null);
    if (show) { focusResults(); return; }
    var back = (focusBefore && document.querySelector(focusBefore)) || document.querySelector(".results-open");
    focusBefore = null;
    if (back && back.getClientRects().length) back.focus();
  }
  function showNewResults() {
    var r = document.getElementById("results");
    if (!page() || !r) return;
    if (r.dataset.resultsKey !== hiddenResults) page().classList.remove("results-hidden");
    if (!resultsOpen()) { shownResults = null; return; }
    if (shownResults === r.dataset.resultsKey) return;
    shownResults = r.dataset.resultsKey;
    var banner = document.getElementById("turn-banner");
    if (banner) banner.hidden = true; // a last "Your turn" is over: the round is
    focusResults();
  }
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || !resultsOpen()) return;
    // Escape closes the dialog from anywhere on the board but a field being typed in.
    if (event.target.closest && event.target.closest("input, textarea, select, .table-side")) return;
    event.preventDefault();
    setResults(false);
  });
  document.addEventListener("click", function (event) {
    var b = event.target.closest("[data-results-do]");
    if (!b) return;
    var real = document.querySelector('#actions [data-action="' + b.dataset.resultsDo + '"]');
    if (!real) return;
    if (real.form) real.form.requestSubmit(real); else real.click();
  });

  // ---- the link to the table: shown whole, copied to the clipboard (or selected to be copied) ----
  function fillInvite() {
    document.querySelectorAll("[data-invite-path]").forEach(function (input) {
      input.value = location.origin + input.dataset.invitePath;
    });
  }
  document.addEventListener("click", function (event) {
    var b = event.target.closest("[data-copy-link]");
    if (!b) return;
    var box = b.closest(".invite-link");
    var input = box && box.querySelector("[data-invite-path]");
    var status = box && box.querySelector(".invite-status");
    if (!input) return;
    fillInvite();
    function selected() {
      input.focus();
      input.select();
      if (status) status.textContent = b.dataset.selectText || "";
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(function () {
        if (status) status.textContent = b.dataset.copiedText || "";
      }, selected);
    } else {
      var done = false;
      try { input.select(); done = document.execCommand && document.execCommand("copy"); } catch (e) { done = false; }
      if (done && status) status.textContent = b.dataset.copiedText || ""; else selected();
    }
  });

  // New log lines come at the top; the page keeps as many as the server's log holds.
  function trimLog() {
    var list = document.getElementById("log-list");
    if (!list) return;
    var keep = Number(list.dataset.keep) || 40;
    while (list.children.length > keep) list.lastElementChild.remove();
  }

  function restorePicks(ids) {
    ids.forEach(function (id) {
      var f = document.querySelector('#table-board .card[data-id="' + id + '"] .card-face[aria-pressed]');
      if (f) f.setAttribute("aria-pressed", "true");
    });
  }

  // The viewer's seat, marked on the public seat list (it is the same markup for every viewer).
  function markMySeat(seat) {
    var label = (page() && page().dataset.youText) || "";
    document.querySelectorAll("#seats .seat").forEach(function (li) {
      var me = seat !== "" && li.dataset.seat === seat;
      li.classList.toggle("seat-me", me);
      var badge = li.querySelector(".badge-me");
      if (me && !badge) {
        badge = document.createElement("span");
        badge.className = "badge badge-me";
        badge.textContent = label;
        (li.querySelector(".seat-name") || li).appendChild(badge);
      } else if (!me && badge) {
        badge.remove();
      }
    });
  }

  // What another player's move changed: the cards new on the table, the melds rearranged, the
  // new discard. A short highlight (none when the system asks for reduced motion; see table.css).
  function markChanges(prev) {
    document.querySelectorAll("#melds .meld").forEach(function (list) {
      var changed = false;
      list.querySelectorAll(".card[data-id]").forEach(function (c) {
        if (!prev.meldCards[c.dataset.id]) { c.classList.add("card-new"); changed = true; }
      });
      if (changed) list.closest(".meld-box").classList.add("meld-changed");
    });
    var discard = document.querySelector("#gin-discard .card[data-id]");
    if (discard && discard.dataset.id !== prev.discard) discard.classList.add("card-new");
  }

  // A table card another player moved (to another meld, or to another place in its meld) slides from
  // where it was to where it is now: a quarter of a second; not at all when the system asks for
  // reduced motion. Cards only pushed along by the others do not move.
  var reducedMotion = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
  function slide(before) {
    if (!before || (reducedMotion && reducedMotion.matches)) return;
    var now = meldPlaces();
    document.querySelectorAll("#melds .meld .card[data-id]").forEach(function (c) {
      var was = before[c.dataset.id];
      var is = now[c.dataset.id];
      if (!was || !is || was.where === is.where || !c.animate) return;
      var dx = was.left - is.left;
      var dy = was.top - is.top;
      if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
      c.animate([{ transform: "translate(" + dx + "px, " + dy + "px)" }, { transform: "none" }],
        { duration: 250, easing: "ease-out" });
    });
  }

  // ---- the keyboard: the hand and the melds are one Tab stop each ---------------------------
  // Inside them the arrow keys move (Up and Down from meld to meld), Home and End go to the ends,
  // and a card's rank (A 2-9 0 or T J Q K, * for a joker) goes to the next card of that rank;
  // N goes to the new-meld zone. Enter or Space picks a card, Enter on a meld moves the picks there.
  var GROUPS = "#hand, #melds, #gin-hand";
  function items(group) {
    return Array.prototype.slice.call(group.querySelectorAll(
      group.id === "melds" ? ".meld-box[data-target-meld], .card-face" : ".card-face"));
  }
  function roving() {
    document.querySelectorAll(GROUPS).forEach(function (group) {
      var all = items(group);
      if (!all.length) return;
      var current = all.filter(function (el) { return el === document.activeElement; })[0]
        || all.filter(function (el) { return el.dataset.rovingCurrent === "1"; })[0] || all[0];
      all.forEach(function (el) { el.tabIndex = el === current ? 0 : -1; });
    });
  }
  function rovingTo(group, el) {
    if (!el) return;
    items(group).forEach(function (x) { x.tabIndex = -1; delete x.dataset.rovingCurrent; });
    el.tabIndex = 0;
    el.dataset.rovingCurrent = "1";
    el.focus();
  }
  var RANK_KEYS = { a: "A", t: "10", "0": "10", j: "J", q: "Q", k: "K", "*": "★" };
  function rankOf(el) {
    var r = el.querySelector && el.querySelector(".rank");
    return r ? r.textContent.trim() : null;
  }
  document.addEventListener("keydown", function (event) {
    var group = event.target.closest && event.target.closest(GROUPS);
    if (!group || event.altKey || event.ctrlKey || event.metaKey) return;
    var all = items(group);
    var i = all.indexOf(event.target);
    if (i === -1) return;
    var rtl = document.documentElement.dir === "rtl";
    var key = event.key;
    var next = null;
    var boxes = all.filter(function (el) { return el.classList.contains("meld-box"); });
    if (key === (rtl ? "ArrowLeft" : "ArrowRight")) next = all[Math.min(i + 1, all.length - 1)];
    else if (key === (rtl ? "ArrowRight" : "ArrowLeft")) next = all[Math.max(i - 1, 0)];
    else if (key === "Home") next = all[0];
    else if (key === "End") next = all[all.length - 1];
    else if ((key === "ArrowDown" || key === "ArrowUp") && group.id === "melds" && boxes.length) {
      var box = event.target.closest(".meld-box");
      var b = boxes.indexOf(box);
      next = key === "ArrowDown" ? boxes[Math.min(b + 1, boxes.length - 1)] : boxes[Math.max(b === -1 ? 0 : b - 1, 0)];
    } else if ((key === "n" || key === "N") && group.id === "melds") {
      next = group.querySelector('.meld-box[data-target-meld="new"]');
    } else if (key.length === 1) {
      var rank = RANK_KEYS[key.toLowerCase()] || (/[2-9]/.test(key) ? key : null);
      if (!rank) return;
      for (var k = 1; k <= all.length && !next; k++) {
        var el = all[(i + k) % all.length];
        if (rankOf(el) === rank) next = el;
      }
      if (!next) return;
    } else {
      return;
    }
    event.preventDefault();
    rovingTo(group, next);
  });

  // ---- your turn: the banner, the tab's title, and a sound if the player turned it on ---------
  var baseTitle = document.title;
  function yourTurn() {
    var p = page();
    var text = (p && p.dataset.yourTurnText) || "";
    var banner = document.getElementById("turn-banner");
    if (banner) {
      banner.textContent = text;
      banner.hidden = false;
      clearTimeout(yourTurn.timer);
      yourTurn.timer = setTimeout(function () { banner.hidden = true; }, 4000);
    }
    document.title = "● " + text + " · " + baseTitle;
    if (localStorage.getItem("rummyhub-turn-sound") === "1") beep();
    // For static/js/notify.js: a notification when this tab is hidden (if the player allowed them).
    document.dispatchEvent(new CustomEvent("rummyhub:your-turn", { detail: { text: text, title: baseTitle } }));
  }
  // The turn has passed (the player moved, or the timer played for them): the banner and the title
  // say nothing of it any more, even within the banner's four seconds.
  function turnOver() {
    var banner = document.getElementById("turn-banner");
    if (banner && !banner.hidden) {
      clearTimeout(yourTurn.timer);
      banner.hidden = true;
    }
    document.title = baseTitle;
  }
  function beep() {
    try {
      var Ctx = window.AudioContext || window.webkitAudioContext;
      var ctx = beep.ctx || (beep.ctx = new Ctx());
      var osc = ctx.createOscillator();
      var gain = ctx.createGain();
      osc.frequency.value = 660;
      gain.gain.setValueAtTime(0.15, ctx.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.35);
      osc.connect(gain).connect(ctx.destination);
      osc.start();
      osc.stop(ctx.currentTime + 0.35);
    } catch (e) { /* no audio here: the banner and the title say it */ }
  }

  // ---- the clocks: the turn timer, the wait between rounds, counted down every second ---------
  var clockOffset = 0; // server time minus this browser's time, from the last frame
  function secondsTime(left) {
    var fmt = (page() && page().dataset.secondsText) || "%s s";
    return fmt.replace("%s", String(Math.ceil(left)));
  }
  // A turn-based table's time left, as games.board.words.duration_text says it: "2 d 3 h",
  // "5 h 10 min", "12 min" (minutes rounded up), in the formats the template translated.
  function longTime(formats, left) {
    var minutes = Math.max(0, Math.ceil(left / 60));
    var days = Math.floor(minutes / 1440), hours = Math.floor((minutes % 1440) / 60), mins = minutes % 60;
    var fmt = days ? formats.formatDh : hours ? formats.formatHm : formats.formatM;
    return fmt.replace("%(d)s", days).replace("%(h)s", hours).replace("%(m)s", mins);
  }
  function tick() {
    document.querySelectorAll(".timer[data-deadline-ms]").forEach(function (t) {
      var total = Number(t.dataset.total) || 1;
      var left = Math.max(0, (Number(t.dataset.deadlineMs) - (Date.now() + clockOffset)) / 1000);
      var text = t.querySelector(".timer-text");
      if (text) text.textContent = t.dataset.formatDh ? longTime(t.dataset, left) : secondsTime(left);
      t.style.setProperty("--fraction", Math.min(1, left / total).toFixed(3));
      t.classList.toggle("timer-low", t.dataset.formatDh ? left <= 3600 : left <= 10);
    });
    // A countdown said in a sentence (the result dialog's "The next round starts in 28 s ...").
    document.querySelectorAll(".countdown[data-deadline-ms][data-text]").forEach(function (c) {
      var left = Math.max(0, (Number(c.dataset.deadlineMs) - (Date.now() + clockOffset)) / 1000);
      c.textContent = c.dataset.text.replace("%s", String(Math.ceil(left)));
    });
  }
  setInterval(tick, 500);

  // ---- the page's moves over the socket --------------------------------------------------------
  document.addEventListener("htmx:wsOpen", function (event) {
    socket = event.detail.socketWrapper;
    rawSocket = event.detail.event.target;
    socketOpen = true;
  });
  document.addEventListener("htmx:wsClose", function () {
    socketOpen = false;
    if (page()) delete page().dataset.live; // live again after the reconnection's first frame
  });

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
  function endBusy() {
    clearTimeout(busyTimer);
    var b = board();
    if (b) b.removeAttribute("aria-busy");
  }
  // While the table's socket is open, the page's moves (the act and draft forms, drags,
  // sorting) go over it instead of HTTP: the server runs the same checks and services
  // and answers with this viewer's changed fragments. Without a socket they are ordinary posts.
  document.addEventListener("htmx:configRequest", function (event) {
    var p = page();
    if (!p || !socket || !socketOpen || event.detail.verb !== "post") return;
    var path = event.detail.path;
    var kind = path === p.dataset.actUrl ? "act" : path === p.dataset.draftUrl ? "draft" : path === p.dataset.typedUrl ? "typed" : null;
    if (!kind) return;
    var fields = {};
    event.detail.formData.forEach(function (value, key) {
      if (key !== "csrfmiddlewaretoken") fields[key] = String(value);
    });
    event.preventDefault();
    // A typed command is read against the table as the server has it (no version of the page's):
    // its answer comes for the command line's live region, with a board only if it made a move.
    if (kind === "typed") { send({ type: "command", kind: kind, fields: fields }); return; }
    if (draftInFlight) { queued.push({ kind: kind, fields: fields }); return; }
    sendCommand(kind, fields);
  });

  // A command sent while the page's own draft (an arrangement of the melds, a knock layout) is still
  // on its way would name the version before that draft and be refused as stale: it waits for the
  // draft's answer and goes with the version the draft made. Only the first command waiting takes that
  // version (a second click on a move names the same old version and is still refused as stale).
  var draftInFlight = null; // {base: the version the draft was sent from, since: when}
  var queued = [];
  function sendCommand(kind, fields) {
    if (kind === "draft") draftInFlight = { base: fields.version, since: Date.now() };
    send({ type: "command", kind: kind, fields: fields });
    markBusy();
  }
  function draftAnswered() {
    draftInFlight = null;
    var waiting = queued;
    queued = [];
    var m = meta();
    var now = m ? m.dataset.version : null;
    waiting.forEach(function (c, i) {
      if (draftInFlight) { queued.push(c); return; } // a queued draft is in flight again: the rest wait for it
      if (i === 0 && now !== null && c.fields.version !== undefined) c.fields.version = now;
      sendCommand(c.kind, c.fields);
    });
  }

  // What cards.js and the boards' scripts (loaded after this one) share with the page: the CSRF
  // header, asking the socket for the board again, and holding pushes back during a drag.
  window.RummyTable = {
    csrfHeaders: csrfHeaders,
    resync: resync,
    dragStart: function () { dragging = true; },
    // Ends the drag (after its move was read and sent): the frames held back meanwhile are applied
    // in the order they came, then the move's answer comes. Too many of them: the whole board.
    dragEnd: function () {
      dragging = false;
      pressing = false;
      applyHeld();
    }
  };

  // The press of a card of the board (any card a list may let be dragged) holds frames back until
  // it is let go or becomes a drag.
  document.addEventListener("pointerdown", function (event) {
    if (event.button !== 0 || !event.target.closest) return;
    if (event.target.closest("#table-board .card[data-id]")) pressing = true;
  }, true);
  function pressEnded() {
    if (!pressing || dragging) return; // a drag's end is dragEnd's
    pressing = false;
    applyHeld();
  }
  document.addEventListener("pointerup", function () { setTimeout(pressEnded, 0); }, true);
  document.addEventListener("pointercancel", function () { setTimeout(pressEnded, 0); }, true);
  window.addEventListener("blur", function () { setTimeout(pressEnded, 0); });

  function applyHeld() {
    var frames = held;
    held = [];
    if (heldOverflow || (frames.length && !rawSocket)) {
      heldOverflow = false;
      resync();
      return;
    }
    frames.forEach(function (message) { rawSocket.dispatchEvent(new MessageEvent("message", { data: message })); });
  }

  // ---- display options: four-colour suits, the turn sound ------------------------------------
  function applyFourColour(on) { document.body.classList.toggle("four-colour", on); }
  document.addEventListener("change", function (event) {
    if (event.target.matches("[data-four-colour]")) {
      localStorage.setItem("rummyhub-four-colour", event.target.checked ? "1" : "");
      applyFourColour(event.target.checked);
    } else if (event.target.matches("[data-turn-sound]")) {
      localStorage.setItem("rummyhub-turn-sound", event.target.checked ? "1" : "");
      if (event.target.checked) beep();
    }
  });

  function showOptions() {
    var on = localStorage.getItem("rummyhub-four-colour") === "1";
    var box = document.querySelector("[data-four-colour]");
    if (box) box.checked = on;
    applyFourColour(on);
    var sound = document.querySelector("[data-turn-sound]");
    if (sound) sound.checked = localStorage.getItem("rummyhub-turn-sound") === "1";
  }

  document.addEventListener("DOMContentLoaded", function () {
    showOptions();
    roving();
    settle(null, false);
  });
})();
