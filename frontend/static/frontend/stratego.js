// Stratego: Waterloo's page (frontend/stratego/views.py). Two things, both optional (the
// page works without them): a lit square on the board plays its action (it submits the
// action's form, whose button is also in the panel); and the set-up editor: click a piece,
// then a square or a reserve slot, and the two swap; the Deploy form's action follows.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("[data-submit]");
    if (!link) return;
    var form = document.getElementById(link.getAttribute("data-submit"));
    if (!form) return;
    event.preventDefault();
    if (form.requestSubmit) form.requestSubmit(); else form.submit();
  });

  function setup() {
    var svg = document.querySelector("svg[data-setup]");
    var input = document.getElementById("sw-placement");
    if (!svg || !input || svg.dataset.ready) return;
    svg.dataset.ready = "1";
    var slots = {};
    svg.querySelectorAll("[data-slot]").forEach(function (r) { slots[r.dataset.slot] = r; });
    function pieceAt(slot) { return svg.querySelector('[data-piece][data-at="' + slot + '"]'); }
    function place(piece, slot) {
      var r = slots[slot];
      piece.dataset.at = slot;
      piece.setAttribute("transform", "translate(" + r.dataset.x + " " + r.dataset.y + ")");
    }
    var picked = null;
    function write() {
      var action = JSON.parse(input.value);
      var placement = {};
      var reserve = 0;
      svg.querySelectorAll("[data-piece]").forEach(function (p) {
        var at = p.dataset.at;
        if (at.charAt(0) === "r") { reserve += 1; return; }
        var cr = at.split(",");
        placement[p.dataset.piece] = [parseInt(cr[0], 10), parseInt(cr[1], 10)];
      });
      action.placement = placement;
      input.value = JSON.stringify(action);
      var count = document.getElementById("sw-setup-count");
      if (count) count.textContent = Object.keys(placement).length + " on the board, " + reserve + " in reserve (at most 10).";
    }
    function clear() {
      svg.querySelectorAll(".picked").forEach(function (e) { e.classList.remove("picked"); });
    }
    svg.addEventListener("click", function (event) {
      var piece = event.target.closest("[data-piece]");
      var slot = piece ? piece.dataset.at : (event.target.dataset && event.target.dataset.slot);
      if (!slot) return;
      if (picked === null) {
        if (!piece) return;
        picked = slot;
        piece.classList.add("picked");
        return;
      }
      if (slot !== picked) {
        var a = pieceAt(picked), b = pieceAt(slot);
        if (a) place(a, slot);
        if (b) place(b, picked);
        write();
      }
      picked = null;
      clear();
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
  document.addEventListener("htmx:afterSettle", setup);
})();
