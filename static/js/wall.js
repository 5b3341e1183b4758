// The wall's pages (templates/championship/_wall.html): on a wide screen, one page at a time,
// each for data-seconds, then the next, and again from the first after the last. The live
// redraw (app.js) replaces the pages: the page on screen stays by its name (data-page), so a
// new version every few seconds never sends the wall back to its first page. Without this
// script, or on a phone, every page is shown and the page scrolls.
(function () {
  "use strict";
  var wide = window.matchMedia ? window.matchMedia("(min-width: 60rem) and (orientation: landscape)") : null;
  var shown = null; // the data-page of the page on screen
  var timer = null;

  function pages() { return Array.prototype.slice.call(document.querySelectorAll("[data-wall] .wall-page")); }

  function show(list, index) {
    for (var i = 0; i < list.length; i++) list[i].classList.toggle("is-current", i === index);
    shown = list.length ? list[index].getAttribute("data-page") : null;
  }

  function current(list) {
    for (var i = 0; i < list.length; i++) if (list[i].getAttribute("data-page") === shown) return i;
    return 0;
  }

  function step() {
    var list = pages();
    if (list.length) show(list, (current(list) + 1) % list.length);
  }

  function start() {
    var wall = document.querySelector("[data-wall]");
    var on = !!(wall && wide && wide.matches && pages().length > 1);
    document.documentElement.classList.toggle("wall-js", on);
    if (timer) { clearInterval(timer); timer = null; }
    if (!on) return;
    show(pages(), current(pages()));
    var seconds = parseInt(wall.getAttribute("data-seconds"), 10) || 8;
    timer = setInterval(step, seconds * 1000);
  }

  function redrawn() {
    // New pages, same rhythm: keep the page on screen (or the first of a shorter wall).
    if (!timer) return start();
    var list = pages();
    if (list.length) show(list, current(list));
  }

  start();
  document.addEventListener("referee:redrawn", redrawn);
  if (wide && wide.addEventListener) wide.addEventListener("change", start);
})();
