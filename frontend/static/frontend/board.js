// Playing on the board (progressive enhancement: without this file the action buttons work).
// Each action form carries data-select (the card or piece it acts with: "piece:<id>" or
// "card:<number>"), data-target ("place:<name>" or "piece:<id>") and data-plain (no options).
// Click (or Enter on) one of your cards on the board or in your Reserve: its targets light up
// and the action list shows only its actions; click a lit target to play it (the plain
// action, or the only one); several choices left (formations, terrain): the list shows them.
// At phone widths the selected card's actions sit next to it: the action list is docked just
// under the card (moved within the play area, so its htmx attributes still apply) until the
// selection is cleared or the play area is swapped.
(function () {
  "use strict";
  var selected = null;
  var narrow = window.matchMedia("(max-width: 899px)");
  var home = null;  // where the action list lives when it is not docked under a card

  function play() { return document.getElementById("battle-play"); }
  function board() { var p = play(); return p && p.querySelector("[data-testid=board] svg"); }
  function actions() { return document.getElementById("battle-actions"); }
  function forms() {
    var p = play();
    return p ? Array.prototype.slice.call(p.querySelectorAll("form.b-act[data-select]")) : [];
  }
  function each(list, fn) { Array.prototype.forEach.call(list, fn); }

  // The elements a key names: a piece on the board, a place, or a card of my Reserve.
  function elementsOf(key) {
    var p = play();
    if (!p || !key) return [];
    var i = key.indexOf(":"), kind = key.slice(0, i), value = key.slice(i + 1);
    var svg = board();
    if (kind === "piece") return svg ? svg.querySelectorAll('.piece[data-piece="' + CSS.escape(value) + '"]') : [];
    if (kind === "place") {
      return svg ? svg.querySelectorAll('.position[data-place="' + CSS.escape(value) + '"], .front[data-place="' +
        CSS.escape(value) + '"], .reserve[data-place="' + CSS.escape(value) + '"]') : [];
    }
    if (kind === "card") return p.querySelectorAll('.b-reserve li[data-select="' + CSS.escape(key) + '"]');
    return [];
  }

  function dock(el) {
    var a = actions(), p = play();
    if (!a || !p || !el || !narrow.matches) return;
    if (!home) { home = document.createComment("actions"); a.parentNode.insertBefore(home, a); }
    p.appendChild(a);
    a.classList.add("b-docked");
    var r = el.getBoundingClientRect(), top = p.getBoundingClientRect().top;
    a.style.top = (r.bottom - top + 6) + "px";
  }

  function undock() {
    var a = actions();
    if (a && home && home.parentNode) { home.parentNode.insertBefore(a, home); home.remove(); }
    home = null;
    if (a) { a.classList.remove("b-docked"); a.removeAttribute("style"); }
  }

  function prepare() {
    selected = null;
    home = null;  // a new play area: its action list is in its place
    var log = document.querySelector(".b-log-turns");  // the newest lines in view
    if (log) log.scrollTop = log.scrollHeight;
    var seen = {};
    forms().forEach(function (f) { seen[f.dataset.select] = true; });
    Object.keys(seen).forEach(function (key) {
      each(elementsOf(key), function (el) {
        el.classList.add("selectable");
        el.dataset.key = key;
        if (!el.hasAttribute("tabindex")) el.setAttribute("tabindex", "0");
      });
    });
  }

  function clear() {
    selected = null;
    undock();
    var p = play();
    if (!p) return;
    each(p.querySelectorAll(".selected, .lit"), function (el) {
      el.classList.remove("selected", "lit");
      if (el.dataset.litTab) { el.removeAttribute("tabindex"); delete el.dataset.litTab; }
    });
    var a = actions();
    if (a) {
      a.classList.remove("b-filtered");
      each(a.querySelectorAll(".b-hide"), function (el) { el.classList.remove("b-hide"); });
      var note = a.querySelector(".b-filter-note");
      if (note) note.remove();
    }
  }

  // Show only `shown` forms in the action list (and a way back to all of them).
  function filter(shown, words) {
    var a = actions();
    if (!a) return;
    a.classList.add("b-filtered");
    each(a.querySelectorAll("form.b-act"), function (f) {
      f.classList.toggle("b-hide", shown.indexOf(f) < 0);
    });
    each(a.querySelectorAll(".b-group, .b-section"), function (g) {
      g.classList.toggle("b-hide", !g.querySelector("form.b-act:not(.b-hide)"));
    });
    var note = a.querySelector(".b-filter-note");
    if (!note) {
      note = document.createElement("p");
      note.className = "b-filter-note";
      note.setAttribute("data-testid", "filter-note");
      note.setAttribute("role", "status");
      var title = a.querySelector("h2");
      title.parentNode.insertBefore(note, title.nextSibling);
    }
    note.textContent = words + " ";
    var all = document.createElement("button");
    all.type = "button";
    all.textContent = "Show all actions";
    all.addEventListener("click", clear);
    note.appendChild(all);
  }

  function select(key, el) {
    clear();
    selected = key;
    each(elementsOf(key), function (e) { e.classList.add("selected"); });
    var mine = forms().filter(function (f) { return f.dataset.select === key; });
    mine.forEach(function (f) {
      each(elementsOf(f.dataset.target), function (t) {
        t.classList.add("lit");
        if (!t.hasAttribute("tabindex")) { t.setAttribute("tabindex", "0"); t.dataset.litTab = "1"; }
      });
    });
    var name = (el && (el.getAttribute("aria-label") || el.textContent) || "this card").trim();
    filter(mine, "Showing the " + mine.length + " action" + (mine.length === 1 ? "" : "s") +
      " of " + name.split(":")[0].slice(0, 80) + ". Click a lit place or card to play.");
    dock(el);
  }

  function submit(form) {
    var button = form.querySelector("button[type=submit]");
    if (button) button.click();
  }

  function target(key) {
    var choices = forms().filter(function (f) {
      return f.dataset.select === selected && f.dataset.target === key;
    });
    if (!choices.length) return false;
    var plain = choices.filter(function (f) { return f.dataset.plain; });
    if (choices.length === 1) submit(choices[0]);
    else if (plain.length === 1) submit(plain[0]);
    else filter(choices, "Choose how:");
    return true;
  }

  function keyOfTarget(el) {
    if (el.classList.contains("piece")) return "piece:" + el.dataset.piece;
    return "place:" + el.dataset.place;
  }

  function activate(node) {
    var svg = board();
    var piece = node.closest(".piece");
    var place = node.closest(".position, .front, .reserve");
    var card = node.closest(".b-reserve li[data-select]");
    if (card && card.classList.contains("selectable")) {
      if (selected === card.dataset.key) clear(); else select(card.dataset.key, card);
      return true;
    }
    if (!svg || !svg.contains(node)) return false;
    if (selected && piece && piece.classList.contains("lit")) return target(keyOfTarget(piece));
    if (selected && place && place.classList.contains("lit")) return target(keyOfTarget(place));
    if (piece && piece.classList.contains("selectable")) {
      if (selected === piece.dataset.key) clear(); else select(piece.dataset.key, piece);
      return true;
    }
    clear();
    return false;
  }

  document.addEventListener("click", function (event) {
    // A Reserve card's name selects it; with Ctrl, Shift or Cmd it opens the card's page.
    var link = event.target.closest("a");
    if (link && link.closest(".b-reserve li.selectable") &&
        !(event.ctrlKey || event.metaKey || event.shiftKey || event.altKey)) {
      activate(link);
      event.preventDefault();
      return;
    }
    if (event.target.closest("a, button, input, select, textarea, label")) return;
    if (activate(event.target)) event.preventDefault();
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && selected) { clear(); return; }
    if (event.key !== "Enter" && event.key !== " ") return;
    var el = event.target;
    if (!el.closest || !el.closest(".piece, .position, .front, .reserve, .b-reserve li")) return;
    if (activate(el)) event.preventDefault();
  });
  // htmx settles a swapped element by copying its old attributes, style too, which the
  // Content-Security-Policy forbids as an attribute: no docked list is left when one comes.
  document.addEventListener("htmx:beforeSwap", undock);
  document.addEventListener("htmx:afterSettle", function () {
    prepare();
    // an action that can lose the battle asks first: the question takes the focus
    var confirm = document.querySelector("[data-testid=confirm-button]");
    if (confirm) confirm.focus();
  });
  prepare();
})();
