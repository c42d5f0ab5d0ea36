// Lobby "create a table" form: show the options of the chosen game, and for a Gin
// variant fill in that variant's defaults (the engine's, rendered as JSON by the
// server) in every field the player has not changed. Each variant's family, seats
// and most bots come from the server too (#variant-tables, from its GameSpec).
// Without JavaScript every option is shown and a blank Gin choice means "the
// variant's default".
(function () {
  "use strict";

  function setup(form) {
    var select = form.querySelector('[name="variant"]');
    var data = document.getElementById("gin-defaults");
    var tablesData = document.getElementById("variant-tables");
    if (!select || !data || !tablesData) return;
    var defaults = JSON.parse(data.textContent);
    var tables = JSON.parse(tablesData.textContent);
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
      var table = tables[variant];
      if (!table) return;
      var gin = table.family === "gin";
      form.querySelectorAll("[data-family]").forEach(function (el) {
        el.hidden = el.dataset.family !== table.family;
      });
      form.querySelectorAll("[data-family-note]").forEach(function (el) { el.hidden = !gin; });
      form.querySelectorAll("[data-variants]").forEach(function (el) {
        el.hidden = gin && el.dataset.variants.split(" ").indexOf(variant) < 0;
      });
      var seats = form.querySelector('[data-field="seats"]');
      if (seats) seats.hidden = table.fixed;
      var seatsInput = form.querySelector('[name="seats"]');
      if (table.fixed && seatsInput) seatsInput.value = String(table.seats);
      var bots = form.querySelector('[name="bots"]');
      if (bots && +bots.value > table.most_bots) bots.value = String(table.most_bots);
      if (gin) fill(variant);
    }

    // A turn-based table (a time per move) has no real-time turn timer: its field is hidden then.
    var moveTime = form.querySelector('[name="move_time"]');
    var timer = form.querySelector('[data-field="turn_timer"]');
    function timed() {
      if (moveTime && timer) timer.hidden = moveTime.value !== "0" && moveTime.value !== "";
    }

    select.addEventListener("change", apply);
    if (moveTime) moveTime.addEventListener("change", timed);
    apply();
    timed();
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-create-form]").forEach(setup);
  });
})();
