// live.js is the one script of pbem's web pages (internal/web serves it
// at /live.js; the pages' Content-Security-Policy allows no other). It
// does two things, and the page works without it:
//
//  - A live page (main's data-live="yes") follows its game: it listens
//    to the page's event stream (/e/TOKEN, server-sent events), which
//    says only the version of this seat's page, and when that is not the
//    version shown, it fetches this same page, with this seat's own
//    token, and puts its <main> in place of the old one. No reload.
//  - The history's slider shows the point it is dragged to: its label
//    follows at once, and the table follows as soon as the page of that
//    point arrives.
"use strict";
(function () {
  var stream = null;
  var retry = null;
  var busy = false;  // a page is being fetched
  var want = null;   // the address to show once it has come
  var wantPush = false;

  function main() { return document.getElementById("pb-main"); }

  // shown is the address of the point shown: the page's own, or ?at=N.
  function shown() {
    var at = main().getAttribute("data-at");
    return location.pathname + (at === "now" ? "" : "?at=" + at);
  }

  // swap fetches url and puts its main in place of this page's; push
  // makes url the page's address. While a fetch is under way, the last
  // address asked for waits for it.
  function swap(url, push) {
    want = url;
    wantPush = wantPush || push;
    if (busy) { return; }
    busy = true;
    var to = want, toPush = wantPush;
    want = null;
    wantPush = false;
    // no-cache: the browser asks again each time, with the page's ETag,
    // and an unchanged page comes back as 304 from its cache.
    fetch(to, { credentials: "omit", cache: "no-cache" }).then(function (res) {
      if (!res.ok) { throw new Error("HTTP " + res.status); }
      return res.text();
    }).then(function (html) {
      var doc = new DOMParser().parseFromString(html, "text/html");
      var fresh = doc.getElementById("pb-main");
      if (!fresh) { return; }
      main().replaceWith(document.importNode(fresh, true));
      document.title = doc.title;
      if (toPush) { history.replaceState(null, "", to); }
      wire();
    }).catch(function () {
      // The next version, or the next drag, tries again.
    }).then(function () {
      busy = false;
      if (want !== null) { swap(want, false); }
    });
  }

  // listen opens the event stream of a live page, once.
  function listen() {
    if (stream !== null || !window.EventSource) { return; }
    var url = location.pathname.replace(/\/s\/([a-z2-7]{26})$/, "/e/$1");
    if (url === location.pathname) { return; }
    stream = new EventSource(url);
    stream.onopen = function () { document.documentElement.setAttribute("data-pbem-stream", "open"); };
    stream.addEventListener("version", function (e) {
      if (e.data !== main().getAttribute("data-version")) { swap(shown(), false); }
    });
    stream.onerror = function () {
      // Refused (too many open pages) or gone: try again later, and
      // catch up then.
      document.documentElement.setAttribute("data-pbem-stream", "closed");
      if (stream.readyState === EventSource.CLOSED) {
        stream = null;
        if (retry === null) {
          retry = setTimeout(function () { retry = null; swap(shown(), false); listen(); }, 30000);
        }
      }
    };
  }

  // wire sets up the page shown: its slider, and its stream while live.
  function wire() {
    var m = main();
    if (!m) { return; }
    if (m.getAttribute("data-live") === "yes") {
      listen();
    } else if (stream !== null && m.getAttribute("data-at") === "now") {
      stream.close(); // the game is over: nothing more will change
      stream = null;
      document.documentElement.setAttribute("data-pbem-stream", "closed");
    }
    var slider = document.getElementById("at");
    var label = document.getElementById("pb-at-label");
    var points = document.querySelectorAll("#pb-points > li");
    if (!slider || !label) { return; }
    var last = points.length - 1;
    slider.addEventListener("input", function () {
      var n = parseInt(slider.value, 10);
      var text = points[n] ? points[n].textContent : "";
      label.textContent = n >= last ? "Now, after point " + last : "Point " + n + " of " + last + ": " + text;
      swap(location.pathname + (n >= last ? "" : "?at=" + n), true);
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", wire);
  } else {
    wire();
  }
})();
