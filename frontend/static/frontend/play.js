// Every game page (the frame, frontend/play): the play area is replaced after each action and
// each update; if that took the keyboard focus with it, give it to the next sensible action:
// the first one that is not a finish ("End the Combat Phase", "Deployment done", "End the
// turn"...: they come last and never take the focus, so Enter twice cannot end a turn
// unasked), else the actions heading. A question asked before a risky action (board.js)
// keeps the focus it took.
(function () {
  "use strict";
  document.addEventListener("htmx:afterSettle", function () {
    var play = document.querySelector(".b-play");
    var active = document.activeElement;
    if (!play || (active && active !== document.body && document.contains(active))) return;
    var next = play.querySelector(
      ".b-section:not(.b-section-finish) [data-testid=action]") ||
      document.getElementById("actions-title");
    if (next) next.focus({ preventScroll: true });
  });
})();
