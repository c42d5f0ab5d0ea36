{% load static %}// RummyHub's service worker, served at /sw.js (notifications.views.service_worker) so that its
// scope is the whole site.  It shows the pushes of the notifications worker (a JSON payload: title,
// body, url, tag; notifications.services.push_payload) and the hidden tab's "your turn"
// (static/js/notify.js); a click opens the table, or focuses a tab that already shows it.
"use strict";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

self.addEventListener("push", function (event) {
  var data = {};
  if (event.data) {
    try { data = event.data.json(); } catch (e) { data = { body: event.data.text() }; }
  }
  event.waitUntil(self.registration.showNotification(data.title || "RummyHub", {
    body: data.body || "",
    tag: data.tag || "rummyhub",
    renotify: true,
    icon: "{% static 'img/favicon.svg' %}",
    data: { url: data.url || "/" }
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (target.origin !== self.location.origin) target = new URL("/", self.location.origin);
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
    for (var i = 0; i < windows.length; i++) {
      if (new URL(windows[i].url).pathname === target.pathname && "focus" in windows[i]) return windows[i].focus();
    }
    return self.clients.openWindow(target.href);
  }));
});
