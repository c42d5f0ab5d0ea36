// "Notify me" (templates/notifications/notify_me.html) and the hidden tab's "your turn".
//
// The page asks for permission only when the player presses "Notify me"; then it registers the
// service worker (/sw.js), subscribes this device to push with the site's VAPID key and posts the
// subscription to the server (notifications.views.subscribe).  A table page whose tab is hidden
// shows "your turn" through the same service worker (table.js sends "rummyhub:your-turn") when the
// player allowed notifications on this device.
(function () {
  "use strict";
  if (window.rummyhubNotify) return; // the profile and a table may both include this script
  window.rummyhubNotify = true;
  var FLAG = "rummyhub-notify";

  function supported() {
    return "serviceWorker" in navigator && "Notification" in window;
  }
  function csrf() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"] || ""; } catch (e) { return ""; }
  }
  function keyBytes(text) {
    var padded = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(padded);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }
  function say(box, which, extra) {
    var status = box.querySelector("[data-notify-status]");
    if (status) status.textContent = (box.dataset[which] || "") + (extra ? " " + extra : "");
    box.dataset.state = which;
  }
  function registration() {
    return navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(function () {
      return navigator.serviceWorker.ready;
    });
  }
  function store(box, subscription) {
    return fetch(box.dataset.subscribeUrl, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
      body: JSON.stringify(subscription.toJSON())
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (answer) {
        if (!response.ok) throw new Error(answer.message || String(response.status));
        return answer;
      });
    });
  }
  function turnOn(box) {
    if (!supported()) { say(box, "unsupportedText"); return Promise.resolve(); }
    return Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") { say(box, "deniedText"); return; }
      localStorage.setItem(FLAG, "1");
      return registration().then(function (reg) {
        if (!reg.pushManager) throw new Error("no push");
        return reg.pushManager.getSubscription().then(function (existing) {
          return existing || reg.pushManager.subscribe({
            userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.pushKey)
          });
        });
      }).then(function (subscription) {
        return store(box, subscription);
      }).then(function () {
        say(box, "onText");
      }).catch(function (error) {
        // No push service reachable (or refused): this device still shows the hidden tab's notices.
        say(box, "failedText", error && error.message ? "(" + error.message + ")" : "");
      });
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-notify-button]");
    if (!button) return;
    var box = button.closest("[data-notify-me]");
    button.disabled = true;
    turnOn(box).finally(function () { button.disabled = false; });
  });

  function showState() {
    document.querySelectorAll("[data-notify-me]").forEach(function (box) {
      if (!supported()) { say(box, "unsupportedText"); return; }
      if (Notification.permission === "denied") say(box, "deniedText");
      else if (Notification.permission === "granted" && localStorage.getItem(FLAG) === "1") say(box, "onText");
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", showState);
  else showState();

  // A real-time table's turn while the tab is hidden.
  document.addEventListener("rummyhub:your-turn", function (event) {
    if (!document.hidden || !supported() || Notification.permission !== "granted") return;
    if (localStorage.getItem(FLAG) !== "1") return;
    var page = document.querySelector("[data-table]");
    var table = page ? page.dataset.table : "";
    navigator.serviceWorker.getRegistration("/").then(function (reg) {
      if (!reg) return;
      return reg.showNotification(event.detail.text || "RummyHub", {
        body: event.detail.title || "",
        tag: "table-" + table,
        renotify: true,
        data: { url: location.pathname }
      });
    });
  });
})();
