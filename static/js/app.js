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
  document.addEventListener("DOMContentLoaded", function () {
    var boards = document.querySelectorAll("[data-card-keyboard]");
    for (var i = 0; i < boards.length; i++) boards[i].hidden = false;
  });
  // New table: the "who deals first" choices show the names as they are typed.
  document.addEventListener("input", function (event) {
    var seat = event.target.getAttribute && event.target.getAttribute("data-seat-name");
    if (seat === null || seat === undefined) return;
    var labels = document.querySelectorAll('[data-seat-label="' + seat + '"]');
    for (var i = 0; i < labels.length; i++) {
      labels[i].textContent = event.target.value.trim() || labels[i].getAttribute("data-default");
    }
  });

  function init() {
    var forms = document.querySelectorAll("form[data-total]");
    for (var i = 0; i < forms.length; i++) {
      // A last count the server filled in (a refused entry, a correction) is the scorer's own:
      // show it as it was typed instead of recomputing it.
      var inputs = forms[i].querySelectorAll('input[type="number"]');
      var last = inputs[inputs.length - 1];
      if (last && last.value !== "") last.setAttribute("data-touched", "");
      fillTotal(forms[i]);
    }
  }
  document.addEventListener("DOMContentLoaded", init);
  document.addEventListener("htmx:load", init);

  // htmx: send the CSRF token (from <meta name="csrf-token">) with every request.
  document.addEventListener("htmx:configRequest", function (event) {
    var meta = document.querySelector('meta[name="csrf-token"]');
    if (meta) event.detail.headers["X-CSRFToken"] = meta.getAttribute("content");
  });
})();
