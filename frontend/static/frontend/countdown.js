// Ticks every countdown (".t-countdown[data-ends]", an ISO date and time) once a minute, in
// the server's words (frontend/tournaments/online.py countdown_text): "in 2 h 14 min".
// Without JavaScript the text the server wrote stays. No inline script (the site's CSP).
(function () {
  "use strict";
  function words(ends) {
    var seconds = Math.floor((ends - Date.now()) / 1000);
    if (isNaN(seconds)) { return null; }
    if (seconds <= 0) { return "passed"; }
    var minutes = Math.floor(seconds / 60);
    var days = Math.floor(minutes / 1440);
    var hours = Math.floor((minutes % 1440) / 60);
    minutes = minutes % 60;
    if (days) { return "in " + days + " d" + (hours ? " " + hours + " h" : ""); }
    if (hours) { return "in " + hours + " h" + (minutes ? " " + minutes + " min" : ""); }
    return minutes ? "in " + minutes + " min" : "in less than a minute";
  }
  function tick() {
    document.querySelectorAll(".t-countdown[data-ends]").forEach(function (el) {
      var text = words(Date.parse(el.getAttribute("data-ends")));
      if (text !== null && el.textContent !== text) { el.textContent = text; }
    });
  }
  setInterval(tick, 30000);
  document.addEventListener("htmx:afterSwap", tick);
})();
