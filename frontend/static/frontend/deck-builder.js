/* Deck builder: ask before leaving the page while there are unsaved changes.
 *
 * Unsaved = the server marked the working list or settings as differing from the last saved
 * version (the "unsaved changes" badge in #deck-panel, refreshed by every htmx edit), or the
 * name/description field no longer holds what was saved (data-saved; typing is seen before the
 * field's change event posts it). The beforeunload handler is set only while unsaved; a
 * submit of the builder form itself (Save, or an edit without htmx) carries the edits along,
 * so it leaves without asking. A failed Save comes back with the edits and asks again.
 */
(function () {
  "use strict";
  var form = document.getElementById("deck-form");
  if (!form) return;
  var armed = false;

  function text(value) {
    return (value || "").replace(/\r\n?/g, "\n").trim();
  }

  function unsaved() {
    if (document.querySelector("#deck-panel [data-testid=unsaved]")) return true;
    var fields = form.querySelectorAll("[data-saved]");
    for (var i = 0; i < fields.length; i++) {
      if (text(fields[i].value) !== text(fields[i].getAttribute("data-saved"))) return true;
    }
    return false;
  }

  function ask(event) {
    event.preventDefault();
    event.returnValue = "";  // older browsers need it set to show the prompt
  }

  function arm(on) {
    if (on === armed) return;
    armed = on;
    if (on) window.addEventListener("beforeunload", ask);
    else window.removeEventListener("beforeunload", ask);
  }

  function update() { arm(unsaved()); }

  form.addEventListener("input", update);
  form.addEventListener("change", update);
  document.body.addEventListener("htmx:afterSettle", update);
  form.addEventListener("submit", function () { arm(false); });
  update();
})();
