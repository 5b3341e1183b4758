/* Referee: the installable app. Registers the service worker (static/sw.js, served at /sw.js)
   where the browser has one, and says so when a page is the copy saved on this phone.
   Everything works without it; nothing here may throw on an old browser.
   Its <script> tag (templates/base.html) carries data-sw (the worker's URL) and the sentences
   data-saved-copy ("{time}" is replaced) and data-reload, in the page's language. */
(function () {
  "use strict";

  var script = document.currentScript;
  function data(name, fallback) {
    return (script && script.getAttribute("data-" + name)) || fallback;
  }

  // A copy saved by the worker carries <meta name="referee-saved-copy" content="<its Date>">.
  function savedCopyNotice() {
    var meta = document.querySelector('meta[name="referee-saved-copy"]');
    var main = document.getElementById("main");
    if (!meta || !main || document.getElementById("saved-copy")) return;
    var when = new Date(meta.getAttribute("content"));
    var time = "";
    if (!isNaN(when.getTime())) {
      var lang = document.documentElement.lang || undefined;
      var today = when.toDateString() === new Date().toDateString();
      try {
        time = today
          ? when.toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" })
          : when.toLocaleString(lang, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
      } catch (e) {
        time = when.toLocaleString();
      }
    }
    var notice = document.createElement("p");
    notice.id = "saved-copy";
    notice.className = "flash flash-error";
    notice.setAttribute("role", "status");
    notice.textContent = data("saved-copy", "Saved copy ({time}).").replace("{time}", time) + " ";
    var reload = document.createElement("a");
    reload.href = window.location.href;
    reload.textContent = data("reload", "Reload");
    notice.appendChild(reload);
    main.insertBefore(notice, main.firstChild);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", savedCopyNotice);
  } else {
    savedCopyNotice();
  }

  // The offline page tries again by itself when the phone says it is back online.
  if (document.querySelector("[data-offline-page]")) {
    window.addEventListener("online", function () { window.location.reload(); });
  }

  // Service workers need a secure context: https, or localhost. On a plain-http LAN the site
  // simply works without one.
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  var worker = navigator.serviceWorker;
  try {
    if (worker.controller && !document.querySelector('meta[name="referee-saved-copy"]')) {
      worker.controller.postMessage({ type: "language", lang: document.documentElement.lang });
    }
  } catch (e) { /* a worker being replaced: nothing to tell it */ }
  function register() {
    worker.register(data("sw", "/sw.js"), { scope: "/" }).catch(function () {});
  }
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register);
})();
