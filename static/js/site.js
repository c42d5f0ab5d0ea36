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
})();
