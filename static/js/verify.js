// "Verify the deal" on a match page (docs/fairness.md): reads the match's game record and, for every
// round whose seed is revealed, recomputes in the browser (the Web Crypto API, nothing else) the
// commitment the table showed and the deal made from the seed, and compares them with the record's
// deal (the hands, upcard and stock that were played). The same checks as `python -m games.verify`.
// window.RummyFair exposes the pieces (commitment, stream, deal, verifyRecord) for tests.
(function () {
  "use strict";
  var CURRENT = "fy-hmac-sha256-v1";
  var LEGACY = "python-random";
  var TWO_32 = 4294967296;
  var RANKS = "A23456789TJQK";
  var SUITS = "SHDC";

  function hex(buffer) {
    return Array.from(new Uint8Array(buffer), function (b) { return b.toString(16).padStart(2, "0"); }).join("");
  }

  function seedBytes(seed) {
    if (typeof seed !== "string" || !/^[0-9a-f]{64}$/.test(seed)) throw new Error("a seed is 64 lowercase hex digits");
    var out = new Uint8Array(32);
    for (var i = 0; i < 32; i++) out[i] = parseInt(seed.substr(2 * i, 2), 16);
    return out;
  }

  function wholeNumber(n) {
    return typeof n === "number" && Number.isInteger(n) && n >= 0;
  }

  // SHA-256 of the ASCII text "rummyhub-deal|<algorithm>|<match id>|<round>|<seed>", in hex.
  async function commitment(seed, matchId, round, algorithm) {
    seedBytes(seed);
    if (!wholeNumber(matchId) || !wholeNumber(round)) throw new Error("a match id and a round are whole numbers");
    var text = "rummyhub-deal|" + (algorithm || CURRENT) + "|" + matchId + "|" + round + "|" + seed;
    return hex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  }

  // Draw k = HMAC-SHA-256(key = the seed's 32 bytes, message = k as 8 bytes big-endian); its first
  // 4 bytes, big-endian, are the number drawn.
  async function stream(seed) {
    var key = await crypto.subtle.importKey("raw", seedBytes(seed), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    var counter = 0;
    async function nextU32() {
      var message = new Uint8Array(8);
      var view = new DataView(message.buffer);
      view.setUint32(0, Math.floor(counter / TWO_32));
      view.setUint32(4, counter % TWO_32);
      counter += 1;
      return new DataView(await crypto.subtle.sign("HMAC", key, message)).getUint32(0, false);
    }
    // 0 … n-1, each equally likely: draws at or above the largest multiple of n not above 2^32 are skipped.
    async function below(n) {
      var limit = TWO_32 - (TWO_32 % n);
      for (;;) {
        var x = await nextU32();
        if (x < limit) return x % n;
      }
    }
    return { nextU32: nextU32, below: below, counter: function () { return counter; } };
  }

  // Pack by pack, suits S H D C, ranks A 2 … K ("AS.0" … "KC.0", "AS.1" …), then "JK.0", "JK.1" …
  function deckIds(packs, jokers) {
    if (!wholeNumber(packs) || !wholeNumber(jokers) || packs < 1 || packs > 2 || jokers > 4) throw new Error("bad deck");
    var out = [];
    for (var p = 0; p < packs; p++)
      for (var s = 0; s < 4; s++)
        for (var r = 0; r < 13; r++) out.push(RANKS[r] + SUITS[s] + "." + p);
    for (var j = 0; j < jokers; j++) out.push("JK." + j);
    return out;
  }

  // The deal the seed makes with the layout the record gives (packs, jokers, order, hand_size, ...).
  async function deal(seed, layout) {
    var seats = layout.hands.length, order = layout.order;
    if (!Array.isArray(order) || !order.length || order.some(function (s) { return !wholeNumber(s) || s >= seats; }))
      throw new Error("bad order");
    var deck = deckIds(layout.packs, layout.jokers);
    if (!wholeNumber(layout.hand_size) || layout.hand_size * order.length + (layout.upcard != null ? 1 : 0) > deck.length) throw new Error("bad hand size");
    var rng = await stream(seed);
    var dealer = layout.dealer_drawn ? await rng.below(seats) : null;
    for (var i = deck.length - 1; i > 0; i--) {
      var j = await rng.below(i + 1);
      var t = deck[i]; deck[i] = deck[j]; deck[j] = t;
    }
    var hands = [], pos = 0;
    for (var s = 0; s < seats; s++) hands.push([]);
    for (var k = 0; k < layout.hand_size; k++)
      for (var o = 0; o < order.length; o++) hands[order[o]].push(deck[pos++]);
    var upcard = layout.upcard != null ? deck[pos++] : null;
    return { dealer: dealer, hands: hands, upcard: upcard, stock: deck.slice(pos) };
  }

  function sameCards(a, b) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    var x = a.slice().sort(), y = b.slice().sort();
    return x.every(function (c, i) { return c === y[i]; });
  }

  async function dealMatches(variant, rnd) {
    var d = rnd.deal, n = d.hands.length, order = d.order;
    if (d.dealer !== rnd.dealer || order[order.length - 1] !== d.dealer) return false;
    if (variant === "manipulation")
      for (var k = 1; k <= n; k++) if (order[k - 1] !== (d.dealer + k) % n) return false;
    var made = await deal(rnd.seed, d);
    if (d.dealer_drawn && made.dealer !== d.dealer) return false;
    if (!made.hands.every(function (h, s) { return sameCards(h, d.hands[s]); })) return false;
    if ((d.upcard == null ? null : d.upcard) !== made.upcard) return false;
    return Array.isArray(d.stock) && d.stock.length === made.stock.length &&
      made.stock.every(function (c, i) { return c === d.stock[i]; });
  }

  // One round: {number, status: "ok" | "bad-commitment" | "bad-deal" | "legacy" | "unrevealed"}.
  async function checkRound(match, rnd) {
    var out = { number: rnd && rnd.number, status: "ok" };
    if (!rnd || rnd.seed == null || !rnd.deal) { out.status = "unrevealed"; return out; }
    var algorithm = rnd.shuffle || LEGACY;
    if (algorithm === LEGACY) { out.status = "legacy"; return out; }  // Python's random.Random: not in JS
    try {
      if (algorithm !== CURRENT || rnd.commitment !== await commitment(rnd.seed, match.id, rnd.number, algorithm)) {
        out.status = "bad-commitment";
      } else if (!(await dealMatches(match.variant, rnd))) {
        out.status = "bad-deal";
      }
    } catch (e) {
      out.status = "bad-deal";  // a malformed round (a seed, a layout that cannot be) does not check out
    }
    return out;
  }

  async function verifyRecord(record) {
    if (!record || record.format !== "rummyhub-game-record" || !Array.isArray(record.rounds)) throw new Error("not a game record");
    var match = record.match || {};
    var out = [];
    for (var i = 0; i < record.rounds.length; i++) out.push(await checkRound(match, record.rounds[i]));
    return out;
  }

  window.RummyFair = { commitment: commitment, stream: stream, deckIds: deckIds, deal: deal, verifyRecord: verifyRecord };

  var TEXT = { "ok": "okText", "bad-commitment": "badCommitmentText", "bad-deal": "badDealText",
               "legacy": "legacyText", "unrevealed": "unrevealedText" };

  function show(section, results) {
    var bad = false, checked = 0, legacy = 0;
    results.forEach(function (r) {
      var row = section.querySelector('[data-deal-round="' + r.number + '"] [data-verify-result]');
      if (r.status === "ok") checked++;
      if (r.status === "legacy") legacy++;
      if (r.status.indexOf("bad") === 0) bad = true;
      if (!row) return;
      row.textContent = section.dataset[TEXT[r.status]];
      row.dataset.status = r.status;
      row.classList.toggle("verify-ok", r.status === "ok");
      row.classList.toggle("verify-bad", r.status.indexOf("bad") === 0);
    });
    if (bad) return section.dataset.someBadText;
    if (checked) return section.dataset.allOkText;
    return legacy ? section.dataset.legacyText : section.dataset.noneText;
  }

  async function run(section, button) {
    var summary = section.querySelector("[data-verify-summary]");
    if (!window.crypto || !crypto.subtle) { summary.textContent = section.dataset.insecureText; return; }
    section.setAttribute("aria-busy", "true");
    button.disabled = true;
    summary.textContent = section.dataset.workingText;
    try {
      var response = await fetch(section.dataset.recordUrl, { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (!response.ok) throw new Error("HTTP " + response.status);
      summary.textContent = show(section, await verifyRecord(await response.json()));
    } catch (e) {
      summary.textContent = section.dataset.failedText;
    } finally {
      section.removeAttribute("aria-busy");
      button.disabled = false;
    }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-verify-deals]");
    var section = button && button.closest("[data-record-url]");
    if (section) run(section, button);
  });
})();
