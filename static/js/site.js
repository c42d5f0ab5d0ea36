// RummyHub: small glue for every page (no framework). Third-party code comes
// from django-htmx (htmx 2) and npm (SortableJS); this file is our own.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-dismiss]");
    if (!button) return;
    var notice = button.closest("[data-notice]");
    if (notice) notice.remove();
  });

  // The "Your move" list's time left (templates/games/your_moves.html), counted down every 20 s from
  // what the server said when it drew the list (no clock of this machine's is trusted), in the words
  // the template translated: as games.board.words.time_left_text says it.
  function timeLeft(formats, left) {
    if (left <= 0) return formats.formatUp;
    var minutes = Math.ceil(left / 60);
    var days = Math.floor(minutes / 1440), hours = Math.floor((minutes % 1440) / 60), mins = minutes % 60;
    var fmt = days ? formats.formatDh : hours ? formats.formatHm : formats.formatM;
    var time = fmt.replace("%(d)s", days).replace("%(h)s", hours).replace("%(m)s", mins);
    return formats.formatLeft.replace("%(time)s", time);
  }
  function countDown() {
    var list = document.getElementById("your-moves");
    if (!list || !list.dataset.formatLeft) return;
    list.querySelectorAll(".time-left[data-left]").forEach(function (span) {
      if (!span.dataset.seenAt) span.dataset.seenAt = String(Date.now());
      var left = Number(span.dataset.left) - (Date.now() - Number(span.dataset.seenAt)) / 1000;
      span.textContent = timeLeft(list.dataset, left);
      span.classList.toggle("time-left-low", left < 3600);
    });
  }
  // The menu button (templates/base.html, static/css/site.css): on a narrow screen it opens the
  // navigation over the page; Escape, a click or tap elsewhere, or the focus leaving the header close
  // it (Escape gives the focus back to the button).  On a wider screen the navigation stays in the
  // header's line while it fits there; where it does not (a long language, a long name) it goes
  // behind the button too (.nav-narrow) rather than making the header a second line.
  var toggle = document.querySelector("[data-nav-toggle]");
  if (toggle) {
    var header = toggle.closest(".site-header");
    var isOpen = function () { return toggle.getAttribute("aria-expanded") === "true"; };
    var setOpen = function (open) {
      header.classList.toggle("nav-open", open);
      toggle.setAttribute("aria-expanded", open ? "true" : "false");
    };
    var visible = function () { return getComputedStyle(toggle).display !== "none"; };
    var fit = function () {
      // Measured with the navigation in the line (not narrowed, not open over the page).
      var open = isOpen();
      header.classList.remove("nav-narrow", "nav-open");
      var narrow = false;
      if (!visible()) {
        var line = header.querySelector(".brand").getBoundingClientRect();
        narrow = Array.prototype.some.call(header.children, function (el) {
          var r = el.getBoundingClientRect();
          return r.height > 0 && (r.top >= line.bottom - 1 || r.bottom > line.bottom + 8);
        });
      }
      header.classList.toggle("nav-narrow", narrow);
      setOpen(open && visible()); // still open where the button is; wide again, the navigation is in the line
    };
    toggle.addEventListener("click", function () { setOpen(!isOpen()); });
    document.addEventListener("keydown", function (event) {
      if (event.key !== "Escape" || !isOpen()) return;
      var inside = header.contains(document.activeElement);
      setOpen(false);
      if (inside) toggle.focus();
    });
    document.addEventListener("click", function (event) {
      if (isOpen() && !header.contains(event.target)) setOpen(false);
    });
    header.addEventListener("focusout", function (event) {
      if (isOpen() && event.relatedTarget && !header.contains(event.relatedTarget)) setOpen(false);
    });
    var pending = false;
    window.addEventListener("resize", function () {
      if (pending) return;
      pending = true;
      requestAnimationFrame(function () {
        pending = false;
        fit();
      });
    });
    fit();
    if (document.fonts && document.fonts.ready) document.fonts.ready.then(fit); // the webfonts change the widths
  }

  // Requests sent by htmx (forms, buttons, panels).  htmx 2 swaps no 4xx or 5xx answer by itself: an
  // answer the server marks as a refusal to show (plumbing/answers.py: the board with its reason, the
  // chat form with its own) is swapped like any other; any other refused or failed request is said in
  // a notice (the server's own words when it answered plain text), never dropped in silence.
  var SHOWN = "X-Refusal-Shown";
  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr;
    if (!xhr || xhr.status < 400 || !xhr.getResponseHeader(SHOWN)) return;
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  });
  // The words and the notice's markup: templates/base.html's #request-errors.
  function requestWords() { return document.getElementById("request-errors"); }
  function sayFailed(text) {
    var words = requestWords();
    if (!words || !text) return;
    var old = document.querySelector("[data-request-error]");
    if (old) old.remove();
    var notice = words.content.firstElementChild.cloneNode(true);
    notice.querySelector("span").textContent = text;
    document.body.appendChild(notice); // fixed at the bottom of the screen (site.css): nothing on the page moves
  }
  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail.xhr, words = requestWords();
    if (!xhr || !words) return;
    var type = xhr.getResponseHeader("Content-Type") || "";
    var body = type.indexOf("text/plain") === 0 ? (xhr.responseText || "").trim() : "";
    var status = String(xhr.status);
    sayFailed(body && body.length <= 300 ? body
      : xhr.status === 429 ? words.dataset.tooMany
      : xhr.status >= 500 ? words.dataset.failed.replace("%(code)s", status)
      : words.dataset.refused.replace("%(code)s", status));
  });
  document.addEventListener("htmx:sendError", function () {
    var words = requestWords();
    if (words) sayFailed(words.dataset.offline);
  });

  // A <details> whose body htmx loads as it opens (hx-trigger="toggle once": a round's deals on a duplicate
  // tournament's page), opened before htmx had bound it (a tap while the page's scripts still loaded, on a
  // slow connection or a busy machine): its toggle was missed and the body never came.  It is asked for as
  // htmx binds it (htmx:load comes once the element's triggers are bound; a toggle already used is not).
  document.addEventListener("htmx:load", function (event) {
    var root = event.target, selector = "details[open][hx-trigger^='toggle']";
    var opened = Array.prototype.slice.call(root.querySelectorAll(selector));
    if (root.matches(selector)) opened.push(root);
    opened.forEach(function (details) { htmx.trigger(details, "toggle"); });
  });

  setInterval(countDown, 20000);
  countDown(); // the list the page came with: its time starts now
  document.addEventListener("htmx:load", countDown); // a list pushed over the lobby socket
})();
