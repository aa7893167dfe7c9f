// Battle clocks, progressive enhancement: the page shows each side's time left as the server
// computed it; this counts the running one down each second (an htmx swap brings fresh values).
(function () {
  "use strict";

  function text(seconds) {
    seconds = Math.max(0, Math.floor(seconds));
    var days = Math.floor(seconds / 86400), rest = seconds % 86400;
    var h = Math.floor(rest / 3600), m = Math.floor((rest % 3600) / 60), s = rest % 60;
    var two = function (n) { return (n < 10 ? "0" : "") + n; };
    if (days) { return days + " d " + two(h) + ":" + two(m) + ":" + two(s); }
    if (h) { return h + ":" + two(m) + ":" + two(s); }
    return m + ":" + two(s);
  }

  // The time left is counted from when the server's figure reached the page (the page's
  // load, or the swap that brought it), not from the first tick a second later: else the
  // clock would show one second too many.
  function mark(root) {
    var now = String(Date.now());
    Array.prototype.forEach.call(root.querySelectorAll("[data-clock-running]"), function (el) {
      if (!el.dataset.shownAt) { el.dataset.shownAt = now; }
    });
  }

  function tick() {
    var now = Date.now();
    Array.prototype.forEach.call(document.querySelectorAll("[data-clock-running]"), function (el) {
      if (!el.dataset.shownAt) { el.dataset.shownAt = String(now); }
      var left = Number(el.dataset.seconds) - (now - Number(el.dataset.shownAt)) / 1000;
      var out = el.querySelector(".b-clock-left");
      if (out) { out.textContent = text(left); }
      el.classList.toggle("low", left < 60);
    });
  }

  mark(document);
  document.addEventListener("htmx:load", function (event) {
    var elt = event.detail && event.detail.elt;
    if (elt && elt.querySelectorAll) { mark(elt.parentNode || elt); }
  });
  setInterval(tick, 1000);
})();
