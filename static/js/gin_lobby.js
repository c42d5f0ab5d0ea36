// Lobby "create a table" form: show the options of the chosen game, and for a Gin
// variant fill in that variant's defaults (the engine's, rendered as JSON by the
// server) in every field the player has not changed. Without JavaScript every
// option is shown and a blank Gin choice means "the variant's default".
(function () {
  "use strict";
  var GIN = ["gin_box", "gin", "oklahoma", "hollywood"];

  function setup(form) {
    var select = form.querySelector('[name="variant"]');
    var data = document.getElementById("gin-defaults");
    if (!select || !data) return;
    var defaults = JSON.parse(data.textContent);
    var touched = {};
    form.addEventListener("change", function (event) {
      if (event.target.name && event.target.name.indexOf("gin_") === 0) touched[event.target.name] = true;
    });

    function fill(variant) {
      var values = defaults[variant] || {};
      Object.keys(values).forEach(function (name) {
        var input = form.querySelector('[name="' + name + '"]');
        if (!input || touched[name]) return;
        if (input.type === "checkbox") input.checked = !!values[name];
        else input.value = String(values[name]);
      });
    }

    function apply() {
      var variant = select.value;
      var gin = GIN.indexOf(variant) >= 0;
      form.querySelectorAll("[data-family]").forEach(function (el) {
        el.hidden = el.dataset.family !== (gin ? "gin" : "manipulation");
      });
      form.querySelectorAll("[data-family-note]").forEach(function (el) { el.hidden = !gin; });
      form.querySelectorAll("[data-variants]").forEach(function (el) {
        el.hidden = gin && el.dataset.variants.split(" ").indexOf(variant) < 0;
      });
      var seats = form.querySelector('[data-field="seats"]');
      if (seats) seats.hidden = gin;
      var seatsInput = form.querySelector('[name="seats"]');
      if (gin && seatsInput) seatsInput.value = variant === "gin_box" ? "3" : "2";
      var bots = form.querySelector('[name="bots"]');
      var most = gin ? (variant === "gin_box" ? 2 : 1) : 4;
      if (bots && +bots.value > most) bots.value = String(most);
      if (gin) fill(variant);
    }

    select.addEventListener("change", apply);
    apply();
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-create-form]").forEach(setup);
  });
})();
