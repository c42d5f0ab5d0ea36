// The command line (issue 30, docs/typed-commands.md): a player types "read hand", "new 7H 8H 9H",
// "end turn"... The server parses and carries out the command (games/typed, games/commands.py) and
// answers into #typed-log (an aria-live log); this script only opens the panel, clears the input
// once a command is sent, echoes it (hidden from screen readers, who heard it typed) and reads the
// other players' moves from the board's own log lines into the same live region. It never moves the
// focus when the board changes.
(function () {
  "use strict";
  var KEEP = 40; // lines the live region keeps
  var lastSeq = null; // the newest log line already read (or there at load)

  function panel() { return document.getElementById("typed"); }
  function log() { return document.getElementById("typed-log"); }
  function open() { var p = panel(); return p && !p.hidden; }

  function trim() {
    var l = log();
    while (l && l.children.length > KEEP) l.removeChild(l.firstElementChild);
  }
  function say(text, cls, hidden) {
    var l = log();
    if (!l || !text) return;
    var line = document.createElement("p");
    line.className = cls;
    line.dir = "auto"; // a line in the page's language or in English (a catalogue not yet complete)
    line.textContent = text;
    if (hidden) line.setAttribute("aria-hidden", "true");
    l.appendChild(line);
    trim();
    l.scrollTop = l.scrollHeight;
  }

  function newestSeq() {
    var seqs = Array.prototype.map.call(document.querySelectorAll("#log-list li[data-seq]"), function (li) {
      return Number(li.dataset.seq);
    });
    return seqs.length ? Math.max.apply(null, seqs) : 0;
  }

  // The others' moves: the log lines newer than the last read, oldest first (one's own moves are
  // answered by the command's own answer).
  function readNewMoves() {
    if (lastSeq === null) { lastSeq = newestSeq(); return; }
    var meta = document.getElementById("board-meta");
    var mine = meta ? meta.dataset.mySeat : "";
    var fresh = Array.prototype.filter.call(document.querySelectorAll("#log-list li[data-seq]"), function (li) {
      return Number(li.dataset.seq) > lastSeq;
    });
    fresh.sort(function (a, b) { return Number(a.dataset.seq) - Number(b.dataset.seq); });
    fresh.forEach(function (li) {
      lastSeq = Math.max(lastSeq, Number(li.dataset.seq));
      if (open() && (mine === "" || mine === undefined || li.dataset.seat !== mine)) say(li.textContent.trim(), "typed-line typed-event");
    });
  }

  function show(focus) {
    var p = panel();
    if (!p) return;
    p.hidden = false;
    document.body.classList.add("typed-on");
    if (focus) document.getElementById("typed-input").focus();
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("[data-typed-open]");
    if (!link) return;
    event.preventDefault();
    show(true);
  });

  // The command is sent (over the socket, or posted): the input is emptied for the next one.
  document.addEventListener("htmx:configRequest", function (event) {
    var form = event.detail.elt;
    if (!form || form.id !== "typed-form") return;
    var input = document.getElementById("typed-input");
    say("› " + input.value, "typed-echo", true);
    setTimeout(function () { input.value = ""; }, 0);
  });
  document.addEventListener("htmx:wsAfterMessage", readNewMoves);
  document.addEventListener("htmx:afterSettle", readNewMoves);

  document.addEventListener("DOMContentLoaded", function () {
    lastSeq = newestSeq();
    if (location.hash === "#typed-input") show(true);
  });
})();
