/* A tap answers without a page load: the few lines a hand's pages need, in place of a library.
   The protocol is this app's own, a few headers and attributes; the server's half, and the
   whole protocol in short, is referee/views/boost.py.

   What the client sends: every request this script makes says X-Swap: true (and X-CSRFToken);
   one whose answer's <main> will take the place of the page's also says X-Swap-Main: true.
   What the server answers: for X-Swap-Main, only the page's <title> and <main>; for a part's
   address, that part alone; it may add X-Swap-Push-Url (the address the bar shows) or
   X-Swap-Redirect (the step left that part: fetch that address's <main> instead). The target
   is chosen here, by the markup, never by the server:

   - Inside an element marked data-swap-main (a hand's <main>, the table page's next hand),
     links and forms are fetched, and the answer's <main> takes the place of the page's: the
     title follows, the address is pushed (Back steps back: it loads that address again) and the
     page shows from the top. A refusal (4xx) is shown like any answer; a form that saves a
     hand is the outbox's (app.js).
   - A form or link with data-swap="#id" and data-swap-url fetches that address instead, and
     the answer takes the place of that element only (the Derby's race, card by card).
   - A form with data-live="#id" and data-live-url sends its fields there as they are typed
     (after a pause), and puts the answer inside that element (Samba's live score).

   A step that only reads (GET) is asked for as the finger goes down, and shown when it lifts.
   One tap at a time: a tap while an answer is awaited is dropped. When the network fails or
   takes too long, the tap is done again as a plain page load or form post, which the service
   worker and the browser handle as without this script. Without JavaScript the links and forms
   are plain ones. After every swap, "referee:swapped" is dispatched on the document with the
   new element. */
(function () {
  "use strict";
  if (!window.fetch || !window.AbortController || !window.URLSearchParams || !history.pushState) return;

  var TIMEOUT = 10000; // ms before a tap is done again as a plain page load
  var LIVE_DELAY = 350; // ms of pause in the typing before the live score is asked for
  var EARLY_WAIT = 2000; // ms an answer asked for as a finger went down waits for its click
  var busy = false;

  function csrf() {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.getAttribute("content") : "";
  }

  function headers(wantsMain) {
    var h = { "X-Swap": "true", "X-CSRFToken": csrf() };
    if (wantsMain) h["X-Swap-Main"] = "true";
    return h;
  }

  function swapped(element) {
    document.dispatchEvent(new CustomEvent("referee:swapped", { detail: { target: element } }));
  }

  // Each history entry a swap made is marked with its own id, and so is the page first loaded:
  // Back (or Forward) to another marked entry loads that address again, as a page. An entry the
  // page made itself (a #link) is not marked and changes nothing.
  var current = history.state && history.state.referee;
  if (!current) {
    current = "p" + Date.now();
    history.replaceState({ referee: current }, "");
  }
  function push(url) {
    current = "s" + Date.now() + Math.random().toString(36).slice(2);
    history.pushState({ referee: current }, "", url);
  }
  window.addEventListener("popstate", function (event) {
    if (event.state && event.state.referee && event.state.referee !== current) location.reload();
  });

  function fragment(html) {
    var template = document.createElement("template");
    template.innerHTML = html;
    return template.content;
  }

  /* An answer's <main> in place of the page's; url: the address to push (none: keep it); hash:
     the part of the page to show (a link's or form's #fragment), else the top. The new <main>
     takes the focus, so a screen reader starts there, as on a new page. */
  /* One element of the page replaced by its new version from an answer; url: the address to
     push (none: keep it). The new element, or null when either is missing. */
  function swapIn(answer, selector, url) {
    var next = answer.querySelector(selector);
    var part = document.querySelector(selector);
    if (!next || !part) return null;
    part.replaceWith(next);
    if (url) push(url);
    return next;
  }

  function showMain(html, url, hash) {
    var answer = fragment(html);
    var title = answer.querySelector("title");
    var next = swapIn(answer, "#main", url && url + (hash || ""));
    if (!next) return false;
    if (title) document.title = title.textContent;
    next.setAttribute("tabindex", "-1");
    next.focus({ preventScroll: true });
    var shown = hash && hash.length > 1 && document.getElementById(decodeURIComponent(hash.slice(1)));
    if (shown) shown.scrollIntoView();
    else window.scrollTo(0, 0);
    swapped(next);
    return true;
  }

  function plain(request) {
    // A part's address (data-swap-url) answers only that part: the page's own address instead.
    if (!request.form) return location.assign(request.page || request.url);
    var submitter = request.submitter;
    if (submitter && submitter.name) {
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = submitter.name;
      input.value = submitter.value;
      request.form.appendChild(input);
    }
    request.form.submit();
  }

  function options(request, controller) {
    var settings = { method: request.method, credentials: "same-origin", headers: headers(request.wantsMain), signal: controller.signal };
    if (request.body) {
      settings.body = request.body;
      settings.headers["Content-Type"] = "application/x-www-form-urlencoded";
    }
    return settings;
  }

  // The answer asked for as a finger went down (see "pointerdown" below), until its click.
  var early = null;
  function dropEarly() {
    if (!early) return;
    clearTimeout(early.timer);
    early.controller.abort();
    early = null;
  }

  /* request: {method, url, page (the address without a script, for a part's request), hash,
     body, form and submitter (a post), control (what was tapped),
     target ("#main" or a part's selector), wantsMain}. The promise ends when the answer is shown.
     The tapped control looks pressed until then: on a slow network the tap was seen. */
  function follow(request) {
    if (busy) return Promise.resolve();
    busy = true;
    // A live score still to be asked for, or on its way, is for the page this tap leaves: it
    // would only hold up the tap's own answer on a slow link.
    if (request.target === "#main") stopLive();
    var control = request.control;
    if (control) control.classList.add("is-pending");
    var controller, answer;
    if (early && request.method === "GET" && early.url === request.url && early.wantsMain === request.wantsMain) {
      controller = early.controller;
      answer = early.answer;
      clearTimeout(early.timer);
      early = null;
    } else {
      dropEarly();
      controller = new AbortController();
      answer = fetch(request.url, options(request, controller));
    }
    var timer = setTimeout(function () { controller.abort(); }, TIMEOUT);
    return answer.then(function (response) {
      var redirect = response.headers.get("X-Swap-Redirect");
      if (redirect) {
        busy = false;
        return follow({ method: "GET", url: redirect, target: "#main", wantsMain: true });
      }
      if (response.status === 204) return undefined;
      var pushed = response.headers.get("X-Swap-Push-Url");
      return response.text().then(function (html) {
        var shown;
        if (request.target === "#main") {
          // A refused post keeps the address: reloading it would not post again.
          var address = pushed || (request.method === "GET" || response.redirected ? response.url : null);
          shown = showMain(html, address, request.hash);
        } else {
          var next = swapIn(fragment(html), request.target, pushed);
          shown = !!next;
          if (shown) swapped(next);
        }
        if (!shown) plain(request);
      });
    }).catch(function () {
      plain(request);
    }).then(function () {
      clearTimeout(timer);
      if (control) control.classList.remove("is-pending");
      busy = false;
    });
  }

  // A part's address keeps its own query (the Derby's race names its table) and adds the form's.
  function withFields(url, params) {
    params.forEach(function (value, name) { url.searchParams.append(name, value); });
    return url;
  }

  function sameOrigin(url) {
    return url.origin === location.origin;
  }

  // What a tap on a link asks for, or null when the browser should follow it itself.
  function linkRequest(link) {
    if (link.hasAttribute("download") || (link.target && link.target !== "_self")) return null;
    var part = link.getAttribute("data-swap");
    if (!part && !link.closest("[data-swap-main]")) return null;
    var url = new URL(part ? link.getAttribute("data-swap-url") : link.href, location.href);
    if (!sameOrigin(url) || (url.hash && url.pathname === location.pathname && url.search === location.search)) return null;
    return { method: "GET", url: url.href, page: link.href, hash: new URL(link.href).hash, control: link,
      target: part || "#main", wantsMain: !part };
  }

  // What sending a form with this button asks for, or null when the browser should send it.
  function formRequest(form, submitter) {
    if (form.hasAttribute("data-outbox")) return null;
    var part = form.getAttribute("data-swap");
    if (!part && !form.closest("[data-swap-main]")) return null;
    var action = (submitter && submitter.getAttribute("formaction")) ||
      (part ? form.getAttribute("data-swap-url") : form.getAttribute("action")) || location.href;
    var url = new URL(action, location.href);
    if (!sameOrigin(url)) return null;
    var data = new FormData(form);
    if (submitter && submitter.name) data.append(submitter.name, submitter.value);
    var params = new URLSearchParams(data);
    var method = (form.getAttribute("method") || "get").toUpperCase();
    if (method !== "GET") {
      return { method: method, url: url.href, body: params.toString(), form: form, submitter: submitter,
        control: submitter, target: part || "#main", wantsMain: !part };
    }
    var page = new URL(form.getAttribute("action") || location.href, location.href);
    page.search = params.toString();
    var hash = page.hash;
    if (part) withFields(url, params);
    else url.search = params.toString();
    url.hash = "";
    return { method: "GET", url: url.href, page: page.href, hash: hash, control: submitter,
      target: part || "#main", wantsMain: !part };
  }

  document.addEventListener("click", function (event) {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    var link = event.target.closest && event.target.closest("a[href]");
    var request = link && linkRequest(link);
    if (!request) return;
    event.preventDefault();
    follow(request);
  });

  document.addEventListener("submit", function (event) {
    // A browser that does not say which button sent the form: its own submit keeps the button.
    if (event.defaultPrevented || !("submitter" in event)) return;
    var request = formRequest(event.target, event.submitter);
    if (!request) return;
    event.preventDefault();
    follow(request);
  });

  /* A step's answer is asked for as the finger goes down on its link or button, not when it
     lifts: a tap lasts a tenth of a second, which the answer spends on its way. Only for what
     only reads (GET: a hand's steps keep their draft in the address; nothing is written); the
     click then takes that answer if it asks for the same address, and a finger that scrolls
     instead (pointercancel) or taps nothing drops it. */
  function earlyRequest(control) {
    if (control.tagName === "A") return linkRequest(control);
    if (control.type !== "submit" || control.disabled || !control.form) return null;
    return formRequest(control.form, control);
  }
  document.addEventListener("pointerdown", function (event) {
    if (busy || !event.isPrimary || event.button !== 0 || !event.target.closest) return;
    var control = event.target.closest("a[href], button");
    var request = control && earlyRequest(control);
    dropEarly();
    if (!request || request.method !== "GET") return;
    var controller = new AbortController();
    var answer = fetch(request.url, options(request, controller));
    answer.catch(function () { /* dropped, or lost: the click asks again */ });
    early = { url: request.url, wantsMain: request.wantsMain, controller: controller, answer: answer,
      timer: setTimeout(dropEarly, EARLY_WAIT) };
  }, { passive: true });
  document.addEventListener("pointercancel", dropEarly, { passive: true });

  // The live score: the form's fields, after a pause in the typing; a newer question replaces
  // an older one still on its way.
  var live = { timer: 0, controller: null };
  function stopLive() {
    clearTimeout(live.timer);
    if (live.controller) live.controller.abort();
    live.controller = null;
  }
  function askLive(form) {
    stopLive();
    var controller = new AbortController();
    live.controller = controller;
    var url = withFields(new URL(form.getAttribute("data-live-url"), location.href), new URLSearchParams(new FormData(form)));
    fetch(url.href, { credentials: "same-origin", headers: headers(false), signal: controller.signal })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        var box = document.querySelector(form.getAttribute("data-live"));
        if (html === null || !box || live.controller !== controller) return;
        box.innerHTML = html;
        swapped(box);
      })
      .catch(function () { /* a newer question replaced it, or no network: the check button still works */ });
  }
  document.addEventListener("input", function (event) {
    var form = event.target.form;
    if (!form || !form.hasAttribute("data-live-url")) return;
    clearTimeout(live.timer);
    live.timer = setTimeout(function () { askLive(form); }, LIVE_DELAY);
  });

  // For the outbox (app.js): a saved hand's answer, the table page, shown in the same way.
  window.refereeSwap = { showMain: showMain };
})();
