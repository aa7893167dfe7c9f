// Live battle and campaign pages (issues 12, 13): the game's websocket (play/live/, at
// ws/battles/<id>/ or ws/campaigns/<id>/) tells this page when the game moved; it fetches its play
// fragment (htmx) once, if the message's seq is newer than the board it shows (never a stale
// board). While the socket is open the fragment's htmx polling is cancelled; if the socket
// cannot open, polling goes on (the fallback). Without JavaScript the pages still work.
// The page's element with data-live-url says what to listen to: data-live-type is the
// socket's message type ("battle" by default, "campaign"); data-live-select="1": htmx picks
// the element out of the answer (the game page frame answers its play area, with the header
// swapped out of band).
// One update per action: while the page's own action (an htmx POST from its play area) is
// in flight, a message is only noted; the POST's answer is the new play area, and only if
// the game moved on beyond it (the computer's answer) is the fragment fetched after it; and an
// answer showing the very seq and status already shown is not swapped in (rendered once).
// Never under the pointer: while a pointer is pressed, or a question asked before a risky
// action is open, an update waits (pointerup, or the question answered, lets it in).
// Without the socket, a game page (data-fallback-poll) asks again every 5 s: even in the
// player's own move, an end decided elsewhere (a resignation, the clock) reaches the page.
(function () {
  "use strict";
  var first = document.querySelector("[data-live-url]");
  if (!first || !first.id || !window.WebSocket || !window.htmx) return;
  var ID = first.id;
  var TYPE = first.dataset.liveType || "battle";
  var LIVE_HEADER = "X-Eagles-Live";
  var live = false;
  var latest = { seq: -1, status: "", paused: false };  // the newest battle message received
  var inflight = false;
  var posting = 0;  // the page's own actions in flight (htmx POSTs from the play area)
  var retries = 0;
  var socket = null;
  var pressed = false;  // a pointer is down: an update now could remove what it presses
  var deferred = false;  // an update waits for the pointer (or the question) to be done

  function play() { return document.getElementById(ID); }
  function shown() {
    var p = play();
    return { seq: parseInt(p.dataset.seq, 10), status: p.dataset.status || "",
             paused: p.dataset.paused === "1" };
  }
  // A tournament's pause or resume changes neither seq nor status: it counts too.
  function newer(m, s) {
    return m.seq > s.seq || (m.seq === s.seq && (m.status !== s.status || !!m.paused !== s.paused));
  }

  function busy() {
    var p = play();
    return pressed || (!!p && !!p.querySelector("[data-testid=confirm]"));
  }

  function refresh() {
    if (inflight) return;  // one at a time; the swap handler checks again after it
    if (busy()) { deferred = true; return; }
    deferred = false;
    inflight = true;
    var context = { source: "#" + ID, target: "#" + ID, swap: "outerHTML",
                    headers: { "X-Eagles-Live": "1" } };
    if (first.dataset.liveSelect) context.select = "#" + ID;
    htmx.ajax("GET", play().dataset.fragmentUrl, context).then(done, done);
  }
  function done() {
    inflight = false;
    if (!posting && newer(latest, shown())) refresh();
  }

  function hello() {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ type: "hello", since: shown().seq }));
    }
  }

  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + first.dataset.liveUrl);
    socket.onopen = function () {
      live = true;
      retries = 0;
      document.documentElement.dataset.live = "on";
      hello();  // on connect and on every reconnect: what happened since the board shown
    };
    socket.onmessage = function (event) {
      var m;
      try { m = JSON.parse(event.data); } catch (e) { return; }
      if (!m || m.type !== TYPE || typeof m.seq !== "number") return;
      if (newer(m, latest)) latest = { seq: m.seq, status: m.status, paused: !!m.paused };
      if (!posting && newer(m, shown())) refresh();
    };
    socket.onclose = function (event) {
      live = false;
      document.documentElement.dataset.live = "off";
      if (event.code === 4403) return;  // not ours to watch: the page's polling stays
      retries = Math.min(retries + 1, 6);
      setTimeout(connect, 500 * Math.pow(2, retries - 1));
    };
  }

  // While live, the fragment's periodic GETs (hx-trigger="every ...") are not needed; nor,
  // while the pointer is pressed or a question is open, is one now.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var cfg = event.detail.requestConfig || {};
    var elt = event.detail.elt;
    if (elt && elt.id === ID && cfg.verb === "get" &&
        !(cfg.headers && cfg.headers[LIVE_HEADER]) && (live || busy())) {
      event.preventDefault();
    }
  });
  // A GET's answer (live or polled) showing what is already shown is not swapped in: one
  // render per seq.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var cfg = event.detail.requestConfig || {};
    var elt = event.detail.elt;
    var xhr = event.detail.xhr;
    if (!elt || elt.id !== ID || cfg.verb !== "get" || !xhr || xhr.status !== 200) return;
    var m = /<div id="[^"]*-play"[^>]*>/.exec(xhr.responseText || "");
    if (!m) return;
    var attr = function (name) {
      var a = new RegExp(name + '="([^"]*)"').exec(m[0]);
      return a ? a[1] : "";
    };
    var answer = { seq: parseInt(attr("data-seq"), 10), status: attr("data-status"),
                   paused: attr("data-paused") === "1" };
    if (!isNaN(answer.seq) && !newer(answer, shown()) && !newer(shown(), answer)) {
      event.detail.shouldSwap = false;
    }
  });
  // The pointer: an update waits until it is released (then it comes in).
  document.addEventListener("pointerdown", function () { pressed = true; }, true);
  var released = function () {
    pressed = false;
    if (deferred) setTimeout(function () { if (!posting && !busy()) refresh(); }, 0);
  };
  document.addEventListener("pointerup", released, true);
  document.addEventListener("pointercancel", released, true);
  // The question is answered (its POST swaps the play area): a waiting update may come in.
  document.addEventListener("htmx:afterSettle", function () {
    if (deferred && !posting && !busy()) refresh();
  });
  // The page's own action: its answer is the update; a message meanwhile waits for it. The
  // request's end (its xhr's loadend, after htmx swapped the answer in) checks again.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var cfg = event.detail.requestConfig || {};
    var elt = event.detail.elt;
    var xhr = event.detail.xhr;
    if (event.defaultPrevented || !xhr || !cfg.verb || cfg.verb === "get" || !elt ||
        !play() || !play().contains(elt)) return;
    posting += 1;
    xhr.addEventListener("loadend", function () {
      setTimeout(function () {
        posting = Math.max(posting - 1, 0);
        if (!posting && !inflight && newer(latest, shown())) refresh();
      }, 0);
    });
  });
  // A page back from the background (a phone asleep) asks again for what it missed.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") hello();
  });
  // Without the socket, the watch page (no htmx polling) and the game pages refresh every
  // 5 s (an answer that shows nothing new is not swapped in).
  if (first.dataset.fallbackPoll) {
    setInterval(function () { if (!live && !posting) refresh(); }, 5000);
  }
  connect();
})();
