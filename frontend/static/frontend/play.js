// Every game page (the frame, frontend/play): the play area is replaced after each action and
// each update; if that took the keyboard focus with it, give it to the next sensible action:
// the first one that is not a finish ("End the Combat Phase", "Deployment done", "End the
// turn"...: they come last and never take the focus, so Enter twice cannot end a turn
// unasked; nor a campaign's Retreat), else the actions heading. A question asked before a
// risky action (board.js) keeps the focus it took.
(function () {
  "use strict";
  // game/actions.py ENDING_ACTIONS, wherever a game lists them (La Belle Alliance's lone
  // "Pass", Stratego's "End the turn"); a campaign's Retreat concedes a battle: not either.
  var ENDING = ["deployment_done", "roll_morale", "pass", "end_phase", "end_turn"];
  var AFTER = "eagles-focus-after-action";
  function focusNext() {
    var play = document.querySelector(".b-play");
    if (!play) return;
    var next = null;
    var buttons = play.querySelectorAll(
      ".b-section:not(.b-section-finish):not(.b-section-retreat) [data-testid=action]");
    for (var i = 0; i < buttons.length && !next; i++) {
      if (ENDING.indexOf(buttons[i].dataset.type) < 0) next = buttons[i];
    }
    next = next || document.getElementById("actions-title");
    if (next) next.focus({ preventScroll: true });
  }
  document.addEventListener("htmx:afterSettle", function () {
    var active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) return;
    focusNext();
  });
  // Pages whose actions post a whole form (Stratego, La Belle Alliance: the answer is a new
  // page): the action's submit leaves a note for the page it comes back to, which then
  // focuses as above. Only after an action: a page opened afresh keeps the browser's focus.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.closest || !form.closest(".b-play") || form.hasAttribute("hx-post")) return;
    try { sessionStorage.setItem(AFTER, location.pathname); } catch (e) { /* private mode */ }
  });
  var noted = null;
  try {
    noted = sessionStorage.getItem(AFTER);
    sessionStorage.removeItem(AFTER);
  } catch (e) { /* no storage: no focus moved */ }
  if (noted === location.pathname) {
    if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", focusNext);
    } else {
      focusNext();
    }
  }
})();
// The tab's title starts with the menu badge's count, "(1) ...", the games where it is your
// move (base.html): the badge is swapped out of band with every update of the play area (a
// move, the opponent's, the end), so the title follows it, without a reload.
(function () {
  "use strict";
  function retitle() {
    var slot = document.getElementById("your-move-slot");
    if (!slot || slot.dataset.count === undefined) return;
    var count = parseInt(slot.dataset.count, 10) || 0;
    var bare = document.title.replace(/^\(\d+\) /, "");
    var title = count ? "(" + count + ") " + bare : bare;
    if (title !== document.title) document.title = title;
  }
  document.addEventListener("htmx:oobAfterSwap", retitle);
  document.addEventListener("htmx:afterSettle", retitle);
})();
