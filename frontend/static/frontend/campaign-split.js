// The campaign split editor, progressive enhancement: recount the cards and Battle Points of
// each deck as the player moves cards (without JavaScript the server's totals for the choice
// shown are what the page says, and the split is checked by the server either way). The
// listener sits on the document: the editor may arrive later, in a fragment htmx swaps in.
(function () {
  "use strict";
  var recount = function (form) {
    form.querySelectorAll("[data-testid=split-totals] tr[data-battle]").forEach(function (row) {
      var battle = row.dataset.battle;
      var count = parseInt(row.dataset.forcedCount, 10) || 0;
      var bp = parseInt(row.dataset.forcedBp, 10) || 0;
      form.querySelectorAll("tr[data-card]").forEach(function (card) {
        var picked = card.querySelector("input[type=radio]:checked");
        if (picked && picked.value === battle) {
          count += 1;
          bp += parseInt(card.dataset.bp, 10) || 0;
        }
      });
      row.querySelector("[data-testid=split-count-" + battle + "]").textContent = count;
      row.querySelector("[data-testid=split-bp-" + battle + "]").textContent = bp;
    });
  };
  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest("[data-testid=split-editor]");
    if (form) recount(form);
  });
})();
