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
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });

  // htmx: send the CSRF token (from <meta name="csrf-token">) with every request.
  document.addEventListener("htmx:configRequest", function (event) {
    var meta = document.querySelector('meta[name="csrf-token"]');
    if (meta) event.detail.headers["X-CSRFToken"] = meta.getAttribute("content");
  });
})();
