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
  // The menu button of a narrow screen (templates/base.html, static/css/site.css): it opens the
  // navigation over the page; Escape, a click or tap elsewhere, or the focus leaving the header close
  // it (Escape gives the focus back to the button).
  var toggle = document.querySelector("[data-nav-toggle]");
  if (toggle) {
    var header = toggle.closest(".site-header");
    var setOpen = function (open) {
      header.classList.toggle("nav-open", open);
      toggle.setAttribute("aria-expanded", open ? "true" : "false");
    };
    var isOpen = function () { return toggle.getAttribute("aria-expanded") === "true"; };
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
  }

  setInterval(countDown, 20000);
  countDown(); // the list the page came with: its time starts now
  document.addEventListener("htmx:load", countDown); // a list pushed over the lobby socket
})();
