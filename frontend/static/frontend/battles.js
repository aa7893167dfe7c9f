// Battle pages, progressive enhancement (everything works without this file).
(function () {
  "use strict";

  // New battle form: offer only the decks and scales that fit the chosen battle and side (the server
  // checks the choice again; without JavaScript every deck is listed and a wrong one is
  // refused with a message).
  var form = document.querySelector("[data-testid=new-battle-form]");
  if (form) {
    var deck = form.elements.deck_version;
    var update = function () {
      var battle = form.elements.battle.value;
      var side = (form.querySelector("input[name=side]:checked") || {}).value;
      Array.prototype.forEach.call(deck.querySelectorAll("optgroup"), function (group) {
        var fits = false;
        Array.prototype.forEach.call(group.querySelectorAll("option"), function (option) {
          // Dealt choices (no data-battle) fit every battle and side.
          var ok = !option.dataset.battle ||
            (option.dataset.battle === battle && option.dataset.side === side);
          option.disabled = !ok;
          fits = fits || ok;
        });
        group.hidden = !fits;
        group.disabled = !fits;
      });
      // 2.0: only the scales that keep every army's deck whole for this battle.
      var scale = form.elements.scale;
      if (scale) {
        Array.prototype.forEach.call(scale.options, function (option) {
          var ok = (" " + option.dataset.battles + " ").indexOf(" " + battle + " ") >= 0;
          option.disabled = !ok;
          option.hidden = !ok;
        });
        if (scale.selectedOptions.length && scale.selectedOptions[0].disabled) scale.value = "1";
      }
      if (deck.selectedOptions.length && deck.selectedOptions[0].disabled) deck.value = "";
    };
    form.addEventListener("change", function (event) {
      if (event.target.name === "battle" || event.target.name === "side") update();
    });
    update();

    // The opponent: the computer's strength matters only against the computer; typing a
    // username chooses "a player I name".
    var bots = form.querySelector("[data-testid=bot-choice]");
    var name = form.elements.opponent_name;
    var opponent = function () {
      var chosen = (form.querySelector("input[name=opponent]:checked") || {}).value;
      if (bots) bots.hidden = chosen !== "computer";
    };
    form.addEventListener("change", function (event) {
      if (event.target.name === "opponent") opponent();
    });
    if (name) {
      name.addEventListener("input", function () {
        var player = form.querySelector("input[name=opponent][value=player]");
        if (player && name.value && !player.checked) { player.checked = true; opponent(); }
      });
    }
    opponent();
  }
})();
