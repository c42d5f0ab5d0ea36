// History filters: leave empty fields out of the request, so the pushed URL
// (hx-push-url) stays short and shareable: /history/?mine=on, not ?variant=&player=&...
(function () {
  "use strict";
  document.addEventListener("htmx:configRequest", function (event) {
    var form = event.detail.elt && event.detail.elt.closest && event.detail.elt.closest(".history-filters");
    if (!form || event.detail.verb !== "get") return;
    var params = event.detail.parameters;
    Object.keys(params).forEach(function (key) {
      if (params[key] === "") delete params[key];
    });
  });
})();
