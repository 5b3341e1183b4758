/* Referee service worker. Served at /sw.js by referee/views/pwa.py (scope: the whole site),
   which fills in CONFIG: the cache version, the shell to precache, the offline page.

   - Static files carry ?v=<version> in their URL, so they come from the cache first.
   - Pages come from the network first. If it has not answered within a few seconds, the copy
     of that page saved on this phone is shown (marked as such, see pwa.js); if the network
     fails and there is no copy, the offline page.
   - Nothing else is touched: writes (POST and every non-GET), the JSON API, fragments asked by a script and
     other origins go to the network exactly as without a worker. Hands are never cached or
     replayed here; the page's own script queues them with idempotency keys. */
"use strict";

var CONFIG = {"version": "dev", "shell": [], "offline": "/offline"};

var PREFIX = "referee-";
// The API and static files, at the root or in a club's address (/k/<slug>/..., referee/clubs.py).
var CLUB_API = /^(\/k\/[^/]+)?\/api\//;
var CLUB_STATIC = /^(\/k\/[^/]+)?\/static\//;
var SHELL_CACHE = PREFIX + "shell-" + CONFIG.version;
var PAGES_CACHE = PREFIX + "pages-" + CONFIG.version;
var NAVIGATION_TIMEOUT = 4000; // ms to wait for the network before showing a saved copy
var PAGES_MAX = 40; // saved pages kept, the oldest dropped first
var SAVED_COPY_META = "referee-saved-copy";

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(SHELL_CACHE).then(function (cache) {
      return cache.addAll(CONFIG.shell.map(function (url) {
        // Versioned URLs never change, so the HTTP cache may answer; the rest is revalidated.
        return new Request(url, { cache: /[?&]v=/.test(url) ? "default" : "no-cache" });
      }));
    }).then(function () {
      return self.skipWaiting();
    })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf(PREFIX) === 0 && name !== SHELL_CACHE && name !== PAGES_CACHE;
      }).map(function (name) {
        return caches.delete(name);
      }));
    }).then(function () {
      // The page request starts while the worker boots: one less delay on a slow phone.
      if (self.registration.navigationPreload) return self.registration.navigationPreload.enable();
    }).then(function () {
      return self.clients.claim();
    })
  );
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return; // writes always go straight to the network
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (CLUB_API.test(url.pathname) || url.pathname === self.location.pathname) return;
  if (request.mode === "navigate") {
    event.respondWith(navigate(event));
  } else if (CLUB_STATIC.test(url.pathname) && url.searchParams.has("v")) {
    event.respondWith(cacheFirst(request));
  }
  // Anything else: the network, as if there were no worker.
});

// The page reports its language; the offline page is fetched again if it was stored in another.
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type !== "language" || typeof data.lang !== "string") return;
  event.waitUntil(caches.open(SHELL_CACHE).then(function (cache) {
    return cache.match(CONFIG.offline).then(function (page) {
      if (page && page.headers.get("Content-Language") === data.lang) return undefined;
      return cache.add(new Request(CONFIG.offline, { cache: "no-cache" }));
    });
  }).catch(function () {}));
});

function navigate(event) {
  var request = event.request;
  var stored = Promise.resolve();
  var network = Promise.resolve(event.preloadResponse).then(function (preloaded) {
    return preloaded || fetch(request);
  }).then(function (response) {
    if (savable(response)) stored = savePage(request.url, response.clone());
    return response;
  });
  // Keep the worker alive until the network has answered and the copy is saved, even when a
  // saved copy was shown first.
  event.waitUntil(network.then(function () { return stored; }, function () {}));

  return new Promise(function (resolve) {
    var answered = false;
    function answer(response) {
      if (!answered) {
        answered = true;
        resolve(response);
      }
    }
    network.then(answer, function () {
      savedPage(request.url).then(function (copy) {
        return copy || offlinePage();
      }).then(answer);
    });
    setTimeout(function () {
      if (answered) return;
      savedPage(request.url).then(function (copy) {
        if (copy) answer(copy);
        // No copy: keep waiting for the network, however slow.
      });
    }, NAVIGATION_TIMEOUT);
  });
}

function savable(response) {
  return response && response.status === 200 && response.type === "basic" &&
    (response.headers.get("Content-Type") || "").indexOf("text/html") === 0 &&
    !/no-store|private/i.test(response.headers.get("Cache-Control") || "");
}

function savePage(url, response) {
  return caches.open(PAGES_CACHE).then(function (cache) {
    return cache.put(url, response).then(function () {
      return cache.keys();
    }).then(function (keys) {
      return Promise.all(keys.slice(0, Math.max(0, keys.length - PAGES_MAX)).map(function (key) {
        return cache.delete(key);
      }));
    });
  }).catch(function () {});
}

// The saved copy of a page, marked with a <meta> saying when it was saved (its Date header),
// so that the page can say it is a copy; null when there is none.
function savedPage(url) {
  return caches.open(PAGES_CACHE).then(function (cache) {
    return cache.match(url, { ignoreVary: true });
  }).then(function (copy) {
    if (!copy) return null;
    return copy.text().then(function (html) {
      var saved = (copy.headers.get("Date") || "").replace(/[^\w ,:+-]/g, "");
      var meta = '<meta name="' + SAVED_COPY_META + '" content="' + saved + '">';
      var headers = new Headers(copy.headers);
      headers.delete("Content-Length");
      headers.delete("Content-Encoding");
      return new Response(html.replace(/<head>/i, function (head) { return head + meta; }), {
        status: copy.status,
        statusText: copy.statusText,
        headers: headers
      });
    });
  }).catch(function () {
    return null;
  });
}

function offlinePage() {
  return caches.match(CONFIG.offline, { cacheName: SHELL_CACHE, ignoreVary: true }).then(function (page) {
    return page || new Response("Offline", { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  });
}

function cacheFirst(request) {
  return caches.open(SHELL_CACHE).then(function (cache) {
    return cache.match(request, { ignoreVary: true }).then(function (hit) {
      return hit || fetch(request).then(function (response) {
        if (response.status === 200 && response.type === "basic") {
          cache.put(request, response.clone()).catch(function () {});
        }
        return response;
      });
    });
  });
}
