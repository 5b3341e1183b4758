/* Referee: small progressive enhancements. No framework; everything works without it. */
(function () {
  "use strict";

  // Steppers: the − / + buttons next to a number input (templates/_macros.html).
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-stepper] [data-step]");
    if (!button) return;
    var input = document.getElementById(button.getAttribute("aria-controls"));
    if (!input || input.disabled || input.readOnly) return;
    var step = parseInt(button.getAttribute("data-step"), 10) || 0;
    var value = (parseInt(input.value, 10) || 0) + step;
    if (input.min !== "" && value < Number(input.min)) value = Number(input.min);
    if (input.max !== "" && value > Number(input.max)) value = Number(input.max);
    if (String(value) === input.value) return;
    input.value = String(value);
    input.setAttribute("data-touched", "");
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });

  // Quick counts (Samba's card counter): one tap sets how many cards of a kind, as the stepper
  // would after as many taps.
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-set][aria-controls]");
    if (!button) return;
    var input = document.getElementById(button.getAttribute("aria-controls"));
    if (!input || input.disabled || input.readOnly) return;
    var value = button.getAttribute("data-set");
    if (input.value === value) return;
    input.value = value;
    input.setAttribute("data-touched", "");
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });

  // Counts that must add up (tricks to 13): the last input fills itself with what is left,
  // until the scorer types into it. The server does the same for a single blank count.
  function fillTotal(form) {
    var inputs = form.querySelectorAll('input[type="number"]');
    if (!inputs.length) return;
    var total = parseInt(form.getAttribute("data-total"), 10);
    var last = inputs[inputs.length - 1];
    var sum = 0;
    for (var i = 0; i < inputs.length - 1; i++) sum += parseInt(inputs[i].value, 10) || 0;
    if (!last.hasAttribute("data-touched")) last.value = String(Math.max(0, total - sum));
    sum += parseInt(last.value, 10) || 0;
    var out = form.querySelector("[data-total-out]");
    if (out) {
      out.textContent = out.getAttribute(sum === total ? "data-ok" : "data-off")
        .replace("{sum}", String(sum)).replace("{total}", String(total));
      out.classList.toggle("negative", sum !== total);
    }
  }
  document.addEventListener("input", function (event) {
    var form = event.target.closest && event.target.closest("form[data-total]");
    if (!form) return;
    var inputs = form.querySelectorAll('input[type="number"]');
    if (event.isTrusted && event.target === inputs[inputs.length - 1]) event.target.setAttribute("data-touched", "");
    fillTotal(form);
  });
  // Samba's card counter: counting cards into the boxes (each input carries its value in
  // data-points) fills the points field it belongs to (data-counter names it).
  document.addEventListener("input", function (event) {
    var box = event.target.closest && event.target.closest("[data-counter]");
    if (!box) return;
    var inputs = box.querySelectorAll("input[data-points]");
    var sum = 0;
    for (var i = 0; i < inputs.length; i++) {
      sum += (parseInt(inputs[i].value, 10) || 0) * Number(inputs[i].getAttribute("data-points"));
    }
    var target = document.getElementById(box.getAttribute("data-counter"));
    if (target && target.value !== String(sum)) {
      target.value = String(sum);
      target.dispatchEvent(new Event("input", { bubbles: true }));
    }
  });
  // Samba meld checker: a card keyboard that types into the last meld field touched.
  var meldInput = null;
  document.addEventListener("focusin", function (event) {
    if (event.target.hasAttribute && event.target.hasAttribute("data-meld-input")) meldInput = event.target;
  });
  var pendingRank = null;
  document.addEventListener("click", function (event) {
    var key = event.target.closest && event.target.closest("[data-card-keyboard] button");
    if (!key) return;
    var input = meldInput || document.querySelector("[data-meld-input]");
    if (!input) return;
    var words = input.value.trim() ? input.value.trim().split(/\s+/) : [];
    if (key.hasAttribute("data-rank")) {
      pendingRank = key.getAttribute("data-rank");
      var ranks = key.parentNode.querySelectorAll("[data-rank]");
      for (var i = 0; i < ranks.length; i++) ranks[i].classList.toggle("is-picked", ranks[i] === key);
      return;
    }
    if (key.hasAttribute("data-suit") && pendingRank) words.push(pendingRank + key.getAttribute("data-suit"));
    else if (key.hasAttribute("data-card")) words.push(key.getAttribute("data-card"));
    else if (key.hasAttribute("data-erase")) words.pop();
    else return;
    input.value = words.join(" ");
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
  // The keyboard (a bar at the bottom of the screen) shows only while a meld field is being
  // filled: from the moment one has the focus until the focus or a tap goes elsewhere than a
  // meld field or a key. With a finger, it comes and goes once the tap is over: appearing
  // under the finger it would take the tap, and going (with the room kept for it) it would move
  // the page under the finger. A tapped field is then scrolled clear of it (scroll padding).
  var pressing = false;
  document.addEventListener("pointerdown", function () { pressing = true; }, true);
  document.addEventListener("pointercancel", function () { pressing = false; }, true);
  document.addEventListener("keydown", function () { pressing = false; }, true);  // a press that was a scroll
  function meldBoard() { return document.querySelector("[data-card-keyboard]"); }
  function meldLabel(node) {  // a meld field's label: its click goes on to the field
    var label = node.closest("label");
    return label && label.control && label.control.hasAttribute("data-meld-input");
  }
  document.addEventListener("focusin", function (event) {
    var board = meldBoard(), target = event.target;
    if (!board || pressing) return;
    if (target.hasAttribute && target.hasAttribute("data-meld-input")) board.hidden = false;
    else if (!board.contains(target)) board.hidden = true;
  });
  document.addEventListener("click", function (event) {
    pressing = false;
    var board = meldBoard(), target = event.target;
    if (!board || !target.closest) return;
    if (target.hasAttribute("data-meld-input")) {
      board.hidden = false;
      target.scrollIntoView({ block: "nearest" });
    } else if (!target.closest("[data-card-keyboard]") && !meldLabel(target)) {
      board.hidden = true;
    }
  });

  // Samba's hand: the live score bar at the bottom is as tall as its content; the page keeps
  // that much room under a field it scrolls to. Set on <html> itself, and only when it changes:
  // a custom property there would restyle the whole page at every swap, on a slow phone too.
  function measureLive() {
    var bar = document.querySelector(".samba-form .live");
    var room = bar ? bar.offsetHeight + 16 + "px" : "";
    var root = document.documentElement.style;
    if (root.scrollPaddingBottom !== room) root.scrollPaddingBottom = room;
  }
  document.addEventListener("DOMContentLoaded", measureLive);
  document.addEventListener("referee:swapped", measureLive);
  document.addEventListener("toggle", measureLive, true);
  // Samba's points fields: the keyboard's "next" key (Enter) goes from the table's points to the
  // hand's; on the hand's it puts the keyboard away rather than sending the form half filled.
  document.addEventListener("keydown", function (event) {
    var field = event.target;
    if (event.key !== "Enter" || !field.hasAttribute || !field.hasAttribute("data-points-field")) return;
    event.preventDefault();
    var next = document.getElementById(field.getAttribute("data-next") || "");
    if (next) next.focus();
    else field.blur();
  });
  // "Next: <team>" brings the next team's card with its first points field ready: the label's
  // radio is checked here, in the tap itself, so that the focus given then stays (a phone opens
  // its keyboard) instead of going to the radio, as a label's click would have it.
  var focusAfterTab = null;
  document.addEventListener("click", function (event) {
    var next = event.target.closest && event.target.closest(".next-team[data-focus]");
    var radio = next && document.getElementById(next.getAttribute("for"));
    if (!radio) return;
    event.preventDefault();
    radio.checked = true;
    focusAfterTab = next.getAttribute("data-focus");
    radio.dispatchEvent(new Event("change", { bubbles: true }));
  });
  // Choosing another team (its tab, or "Next") shows its card from the top.
  document.addEventListener("change", function (event) {
    if (event.target.name !== "tab" || !event.target.closest(".team-tabs")) return;
    var ready = focusAfterTab && document.getElementById(focusAfterTab);
    focusAfterTab = null;
    var card = document.querySelector('.team-card[data-team="' + event.target.value + '"]');
    var tabs = event.target.closest(".team-tabs");
    if (card && card.getBoundingClientRect().top < tabs.offsetHeight) {
      window.scrollBy(0, card.getBoundingClientRect().top - tabs.offsetHeight - 8);
    }
    if (ready) ready.focus();
  });
  // New table: the "who deals first" choices show the names as they are typed, and only the
  // seats that have a name (a hint stands in while none has). The server refuses the others.
  document.addEventListener("input", function (event) {
    var seat = event.target.getAttribute && event.target.getAttribute("data-seat-name");
    if (seat === null || seat === undefined) return;
    var labels = document.querySelectorAll('[data-seat-label="' + seat + '"]');
    for (var i = 0; i < labels.length; i++) {
      labels[i].textContent = event.target.value.trim() || labels[i].getAttribute("data-default");
    }
    showDealers();
  });
  function showDealers() {
    var chips = document.querySelectorAll("[data-dealer-seat]");
    if (!chips.length) return;
    var shown = 0;
    for (var i = 0; i < chips.length; i++) {
      var name = document.querySelector('[data-seat-name="' + chips[i].getAttribute("data-dealer-seat") + '"]');
      chips[i].hidden = !(name && name.value.trim());
      if (!chips[i].hidden) shown++;
    }
    var hint = document.querySelector("[data-dealer-empty]");
    if (hint) hint.hidden = shown > 0;
    showSeating(shown);
  }
  // The seating drawing has as many seats as names typed (the server draws each table size the
  // game is played at); while fewer are named than the game needs, the one the page came with.
  function showSeating(named) {
    var box = document.querySelector("[data-seating-first]");
    if (!box) return;
    var wanted = box.querySelector('[data-seating="' + named + '"]') ? named : box.getAttribute("data-seating-first");
    var drawings = box.querySelectorAll("[data-seating]");
    for (var i = 0; i < drawings.length; i++) {
      drawings[i].toggleAttribute("hidden", drawings[i].getAttribute("data-seating") !== String(wanted));
    }
  }
  document.addEventListener("DOMContentLoaded", showDealers);
  // "Add a player" (below) opens a seat's dealer chip too: keep it folded until it has a name.
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("[data-add-seat]")) showDealers();
  });

  function init() {
    var forms = document.querySelectorAll("form[data-total]");
    for (var i = 0; i < forms.length; i++) {
      // A last count the server filled in that does not make the total (a refused entry) is the
      // scorer's own: show it as it was typed instead of recomputing it. Counts that make the
      // total (a correction opened again) go on filling the last one as the others change.
      var inputs = forms[i].querySelectorAll('input[type="number"]');
      var last = inputs[inputs.length - 1], sum = 0;
      for (var j = 0; j < inputs.length; j++) sum += parseInt(inputs[j].value, 10) || 0;
      var total = parseInt(forms[i].getAttribute("data-total"), 10);
      if (last && last.value !== "" && sum !== total) last.setAttribute("data-touched", "");
      fillTotal(forms[i]);
    }
  }
  document.addEventListener("DOMContentLoaded", init);
  document.addEventListener("referee:swapped", init);

  // Live pages: ask whether the table changed (a 304 when it did not), and redraw the page when
  // it did, unless the reader is typing in a field of it (then on the next change). One watcher
  // for the document: it finds <main> at each tick, as a tap may have swapped in another page.
  var watching = false;
  function watchTable() {
    var busy = false;
    function redraw(main) {
      // Asked the way swap.js asks (referee/views/boost.py): only the title and <main> come back,
      // gzipped; a ranking of 300 players is a tenth of its size on the club's Wi-Fi.
      return fetch(window.location.href, {
        credentials: "same-origin", cache: "no-store", headers: { "X-Swap": "true", "X-Swap-Main": "true" }
      })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) {
          if (!html) return;
          var next = new DOMParser().parseFromString(html, "text/html").querySelector("main");
          if (!next) return;
          var open = {};
          var details = main.querySelectorAll("details[id]");
          for (var i = 0; i < details.length; i++) open[details[i].id] = details[i].open;
          main.innerHTML = next.innerHTML;
          for (var id in open) { var d = document.getElementById(id); if (d) d.open = open[id]; }
          main.setAttribute("data-version", next.getAttribute("data-version") || "");
          document.dispatchEvent(new Event("referee:redrawn"));
        });
    }
    function tick() {
      var main = document.querySelector("main[data-live-version]");
      if (!main || busy || document.visibilityState !== "visible") return;
      var version = main.getAttribute("data-version");
      var typing = document.activeElement && main.contains(document.activeElement) &&
        /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement.tagName);
      busy = true;
      fetch(main.getAttribute("data-live-version"), { credentials: "same-origin", cache: "no-cache" })
        .then(function (r) { return r.status === 200 ? r.json() : null; })
        .then(function (data) {
          if (data && String(data.version) !== version && !typing && main.isConnected) return redraw(main);
        })
        .catch(function () {})
        .then(function () { busy = false; });
    }
    setInterval(tick, 1500);
    document.addEventListener("visibilitychange", tick);
  }
  function startWatching() {
    if (watching || !document.querySelector("main[data-live-version]") || !window.fetch || !window.DOMParser) return;
    watching = true;
    watchTable();
  }
  document.addEventListener("referee:swapped", startWatching);
  document.addEventListener("DOMContentLoaded", function () {
    startWatching();
    // The TV view keeps the screen awake where the browser allows it (Screen Wake Lock).
    if (document.documentElement.hasAttribute("data-wake-lock") && navigator.wakeLock) {
      var lock = function () { navigator.wakeLock.request("screen").catch(function () {}); };
      lock();
      document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible") lock(); });
    }
  });

  // The session clock: the minutes left count down on the page; when time is up the page is
  // drawn again by the server, which then says to start the last round.
  function minutesText(total) {
    var h = Math.floor(total / 60), m = total % 60;
    if (!h) return m + " min";
    return m ? h + " h " + m + " min" : h + " h";
  }
  function tickClock() {
    var box = document.querySelector("[data-clock-ends]");
    if (!box) return;
    var left = (Date.parse(box.getAttribute("data-clock-ends")) - Date.now()) / 1000;
    var shown = box.querySelector("[data-clock-left]");
    if (left <= 0) {
      if (shown && !box.hasAttribute("data-clock-done")) { box.setAttribute("data-clock-done", ""); window.location.reload(); }
      return;
    }
    if (shown) shown.textContent = minutesText(Math.ceil(left / 60));
  }
  document.addEventListener("DOMContentLoaded", function () { tickClock(); setInterval(tickClock, 15000); });
  document.addEventListener("referee:redrawn", tickClock);

  // Copy buttons: data-copy names the element whose text (or value) goes to the clipboard.
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) return;
    var source = document.querySelector(button.getAttribute("data-copy"));
    if (!source) return;
    var text = "value" in source && source.value !== undefined ? source.value : source.textContent;
    var done = function () {
      var label = button.getAttribute("data-copied");
      if (!label) return;
      var before = button.textContent;
      button.textContent = label;
      setTimeout(function () { button.textContent = before; }, 2500);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, function () { selectText(source); });
    } else {
      // Plain http on a LAN has no clipboard API: select the text, copy the old way.
      selectText(source);
      try { if (document.execCommand("copy")) done(); } catch (e) { /* the text stays selected */ }
    }
  });
  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-print]")) window.print();
  });
  // A form whose action others rely on (new cards for a table) asks first: data-confirm holds
  // the question. Without JavaScript it is sent at once.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.hasAttribute && form.hasAttribute("data-confirm") && !window.confirm(form.getAttribute("data-confirm"))) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);
  // A paper table's final chips: their sum against the table's stock as they are typed, so a
  // miscount shows before the save (which refuses it anyway).
  document.addEventListener("input", function (event) {
    var form = event.target.form;
    if (!form || !form.hasAttribute("data-sum-to")) return;
    var stock = Number(form.getAttribute("data-sum-to")), total = 0;
    var fields = form.querySelectorAll("input[inputmode=numeric]");
    for (var i = 0; i < fields.length; i++) total += Number(fields[i].value) || 0;
    var which = total === stock ? "data-sum-ok" : total < stock ? "data-sum-short" : "data-sum-over";
    var out = form.querySelector("[data-sum]");
    if (out) out.textContent = form.getAttribute(which).replace("{total}", total).replace("{stock}", stock).replace("{gap}", Math.abs(stock - total));
  });
  function selectText(node) {
    if (node.select) { node.focus(); node.select(); return; }
    var range = document.createRange();
    range.selectNodeContents(node);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  // A lost connection does not lose a hand: saving a hand goes through fetch; when the network
  // fails, the form (with its idempotency key) waits in localStorage and is sent again when
  // the connection returns, or when a page of the app opens. The server stores it once.
  var OUTBOX = "referee-outbox";
  function outbox() {
    try { return JSON.parse(localStorage.getItem(OUTBOX) || "[]"); } catch (e) { return []; }
  }
  function keepOutbox(list) {
    try { localStorage.setItem(OUTBOX, JSON.stringify(list)); } catch (e) { /* private mode */ }
    showOutbox();
  }
  function showOutbox() {
    var list = outbox();
    var bar = document.getElementById("outbox-bar");
    if (!list.length) { if (bar) bar.remove(); return; }
    if (!bar) {
      bar = document.createElement("p");
      bar.id = "outbox-bar";
      bar.className = "flash flash-error outbox-bar";
      bar.setAttribute("role", "status");
      var main = document.querySelector("main");
      if (main) main.insertBefore(bar, main.firstChild);
    }
    var text = document.body.getAttribute("data-outbox-text") || "{n}";
    bar.textContent = text.replace("{n}", String(list.length));
  }
  // Where taps swap <main> (swap.js), the answer to a save is the table page itself, with its
  // address in X-Swap-Push-Url: it replaces <main> at once, one round trip instead of two.
  function showPage(html, url) {
    if (!window.refereeSwap.showMain(html, url)) window.location.href = url;
  }
  function sendSaved(item) {
    var headers = { "Content-Type": "application/x-www-form-urlencoded", "X-Referee-Outbox": "1" };
    if (window.refereeSwap) headers["X-Swap"] = "true";
    return fetch(item.url, {
      method: "POST", body: item.body, credentials: "same-origin", headers: headers
    }).then(function (response) {
      // The server failed (or a proxy in front of it, while it restarts): the hand may not be
      // stored, so it stays to be sent again; its save token makes a second arrival harmless.
      if (response.status >= 500) return queue(item);
      keepOutbox(outbox().filter(function (other) { return other.body !== item.body; }));
      var type = response.headers.get("Content-Type") || "";
      var pushed = response.headers.get("X-Swap-Push-Url");
      if (response.ok && pushed) {
        return response.text().then(function (html) { showPage(html, pushed); });
      }
      if (response.ok && type.indexOf("json") >= 0) {
        return response.json().then(function (data) { window.location.href = data.location; });
      }
      // A conflict or a refusal: show the server's page, with its choices (only its <main>
      // where taps swap it).
      return response.text().then(function (html) {
        if (window.refereeSwap && window.refereeSwap.showMain(html)) return;
        document.open(); document.write(html); document.close();
      });
    }, function () {
      return queue(item);
    });
  }
  // A hand that did not arrive waits on the phone, and is sent again when the phone is back
  // online, when any page of the app opens, and a little later (a weak connection that the
  // phone still calls online, a server restarting): one retry per failure, so never a storm.
  var RETRY = 8000;
  var retry = 0;
  function queue(item) {
    var list = outbox().filter(function (other) { return other.body !== item.body; });
    list.push(item);
    keepOutbox(list);
    clearTimeout(retry);
    retry = setTimeout(flushOutbox, RETRY);
    return "queued";
  }
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.hasAttribute || !form.hasAttribute("data-outbox") || !window.fetch || !window.URLSearchParams) return;
    event.preventDefault();
    var data = new FormData(form);
    if (event.submitter && event.submitter.name) data.append(event.submitter.name, event.submitter.value);
    var buttons = form.querySelectorAll("button");
    for (var i = 0; i < buttons.length; i++) buttons[i].disabled = true;
    sendSaved({ url: form.action, body: new URLSearchParams(data).toString(), at: Date.now() }).then(function (how) {
      for (var i = 0; i < buttons.length; i++) buttons[i].disabled = false;
      if (how === "queued") window.scrollTo(0, 0);
    });
  });
  function flushOutbox() {
    var list = outbox();
    if (list.length && navigator.onLine !== false) sendSaved(list[0]);
  }
  window.addEventListener("online", flushOutbox);
  document.addEventListener("DOMContentLoaded", function () { showOutbox(); flushOutbox(); });
})();

// New table: seats beyond the usual few start folded; "Add a player" opens the next one (with
// its "who deals first" choice). A seat that already holds a name never folds. No JavaScript:
// every seat shows.
(function () {
  "use strict";
  function seats(index) { return document.querySelectorAll('[data-more-seat="' + index + '"]'); }
  document.addEventListener("DOMContentLoaded", function () {
    var add = document.querySelector("[data-add-seat]");
    if (!add) return;
    var folded = document.querySelectorAll(".field[data-more-seat]");
    var first = null;
    for (var i = 0; i < folded.length; i++) {
      var input = folded[i].querySelector("input");
      if (input && input.value.trim()) continue;
      var index = folded[i].getAttribute("data-more-seat");
      if (first === null) first = index;
      var parts = seats(index);
      for (var j = 0; j < parts.length; j++) parts[j].hidden = true;
    }
    add.hidden = first === null;
    add.addEventListener("click", function () {
      var next = document.querySelector(".field[data-more-seat][hidden]");
      if (!next) return;
      var parts = seats(next.getAttribute("data-more-seat"));
      for (var j = 0; j < parts.length; j++) parts[j].hidden = false;
      var input = next.querySelector("input");
      if (input) input.focus();
      add.hidden = !document.querySelector(".field[data-more-seat][hidden]");
    });
  });
})();

// A hand in progress lives in its address (?d=…). The phone keeps that address, by table and
// hand place (main[data-draft]), so the page's own links (the table, the rules) never lose it:
// the hand's first page offers it back ([data-draft-offer]) until it is saved or discarded.
(function () {
  "use strict";
  var PREFIX = "referee:draft:";
  function store() {
    try { return window.localStorage; } catch (e) { return null; }
  }
  function keys(box, table) {
    var found = [];
    for (var i = 0; i < box.length; i++) {
      var key = box.key(i);
      if (key && key.indexOf(PREFIX + table + ":") === 0) found.push(key);
    }
    return found;
  }
  function offer(main, box, key) {
    var card = main.querySelector("[data-draft-offer]");
    if (!card) return;
    // A place already saved (by this phone or another) will never be continued: forget it.
    var place = key.split(":");
    var found = keys(box, place[2]);
    for (var i = 0; i < found.length; i++) {
      if (Number(found[i].split(":")[3]) < Number(place[3])) box.removeItem(found[i]);
    }
    var kept = box.getItem(key);
    if (!kept) return;
    card.querySelector("[data-draft-continue]").setAttribute("href", kept);
    card.hidden = false;
  }
  function keep() {
    var main = document.querySelector("main[data-draft]"), box = store();
    if (!main || !box) return;
    var key = PREFIX + main.getAttribute("data-draft");
    if (new URLSearchParams(location.search).has("d")) {
      try { box.setItem(key, location.pathname + location.search); } catch (e) { /* full: nothing kept */ }
    } else {
      offer(main, box, key);
    }
  }
  document.addEventListener("DOMContentLoaded", keep);
  document.addEventListener("referee:swapped", keep);
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-draft-discard]");
    var main = document.querySelector("main[data-draft]"), box = store();
    if (!button || !main || !box) return;
    box.removeItem(PREFIX + main.getAttribute("data-draft"));
    button.closest("[data-draft-offer]").hidden = true;
  });
  // Saving (the outbox sends it, or keeps it to send again): the phone no longer needs the draft.
  document.addEventListener("submit", function (event) {
    var main = document.querySelector("main[data-draft]"), box = store();
    if (main && box && event.target.hasAttribute && event.target.hasAttribute("data-outbox")) {
      box.removeItem(PREFIX + main.getAttribute("data-draft"));
    }
  }, true);
})();
