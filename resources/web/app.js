// controlroom's web view for field staff: plain JavaScript, no library, everything served by the station.
// The view arrives by server-sent events (/stream); the forms are answered once the station has stored them.
"use strict";
(function () {
  var S = {words: {}, role: "", name: "", badge: null, csrf: "", lang: "en", view: null, received: 0,
           lastAt: null, es: null, stale: false, denied: false, lastForm: null, watchdog: null};
  var KINDS = ["down", "knocked_out", "big_stone_on_shield", "bound", "cared_for", "strenuous", "healer_touch",
               "died", "permanent_kill", "respawned", "valhalla"];
  var BY = {bound: true, permanent_kill: true, cared_for: true, healer_touch: true};

  function $(id) { return document.getElementById(id); }
  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") { e.textContent = attrs[k]; } else if (k === "cls") { e.className = attrs[k]; }
      else { e.setAttribute(k, attrs[k]); }
    });
    (kids || []).forEach(function (k) { if (k) { e.appendChild(typeof k === "string" ? document.createTextNode(k) : k); } });
    return e;
  }
  function t(key, vars) {
    var s = S.words[key] || key;
    Object.keys(vars || {}).forEach(function (k) { s = s.split("{" + k + "}").join(vars[k]); });
    return s;
  }
  function two(n) { return (n < 10 ? "0" : "") + n; }
  function clock(ms) { var d = new Date(ms); return two(d.getHours()) + ":" + two(d.getMinutes()) + ":" + two(d.getSeconds()); }
  function gameClock(ms) {
    var s = Math.floor(ms / 1000);
    return two(Math.floor(s / 3600)) + ":" + two(Math.floor(s / 60) % 60) + ":" + two(s % 60);
  }
  function left(ms) {
    if (ms === null || ms === undefined) { return ""; }
    var s = Math.max(0, Math.ceil(ms / 1000));
    return Math.floor(s / 60) + ":" + two(s % 60);
  }
  function elapsed() {
    var v = S.view;
    return v ? (Date.now() - S.received) * (v.speed || 1) : 0;
  }

  // -- connection ---------------------------------------------------------------------------------------------
  function load(lang) {
    return fetch("/state" + (lang ? "?lang=" + lang : ""), {credentials: "same-origin"}).then(function (r) {
      if (r.status === 401 || r.status === 403) { denied(); return null; }
      if (!r.ok) { throw new Error("status " + r.status); }
      return r.json();
    }).then(function (st) {
      if (!st) { return; }
      S.words = st.words; S.role = st.role; S.name = st.name; S.badge = st.badge; S.csrf = st.csrf; S.lang = st.lang;
      document.documentElement.lang = st.lang;
      build();
      took(st.view);
      if (!S.es) { connect(); }
    });
  }
  function connect() {
    var es = S.es = new EventSource("/stream");
    es.addEventListener("view", function (e) { took(JSON.parse(e.data)); });
    es.addEventListener("ping", function () { alive(); });
    es.addEventListener("revoked", function () { es.close(); S.es = null; denied(); });
    es.addEventListener("closed", function () { lost(); });
    es.onerror = function () { lost(); };
  }
  function lost() {
    if (S.es) { S.es.close(); S.es = null; }
    if (S.denied) { return; }
    S.stale = true;
    showStatus();
    setTimeout(retry, 2000);
  }
  function retry() {
    if (S.es || S.denied) { return; }
    fetch("/state", {credentials: "same-origin"}).then(function (r) {
      if (r.status === 401 || r.status === 403) { denied(); return; }
      if (r.ok) { connect(); } else { setTimeout(retry, 2000); }
    }, function () { setTimeout(retry, 2000); });
  }
  function alive() {
    S.lastAt = Date.now();
    if (S.stale) { S.stale = false; showStatus(); }
    clearTimeout(S.watchdog);
    S.watchdog = setTimeout(lost, 25000);      // a Wi-Fi lost without a word: nothing came for 25 s
  }
  function took(view) {
    S.view = view; S.received = Date.now();
    alive();
    render();
  }
  function denied() {
    S.denied = true;
    if (S.es) { S.es.close(); S.es = null; }
    $("main").textContent = "";
    $("main").appendChild(el("p", {cls: "denied", text: S.words.no_access ||
      "This link is not valid (any more). Ask the game master for a new invite."}));
    var st = $("status"); st.className = "stale"; st.textContent = "";
  }
  function showStatus() {
    var st = $("status");
    if (S.stale) {
      st.className = "stale";
      st.textContent = t("stale", {time: S.lastAt ? clock(S.lastAt) : "--:--:--"});
    } else {
      st.className = "live";
      st.textContent = "";
    }
  }

  // -- the page's frame ---------------------------------------------------------------------------------------
  function section(id, title) {
    return el("section", {id: id}, [el("h2", {text: title}), el("div", {id: id + "-body", cls: "body"})]);
  }
  function build() {
    var main = $("main");
    main.textContent = "";
    $("who").textContent = t(S.role) + " · " + S.name;
    main.className = "role-" + S.role;
    if (S.role === "marshal") { main.appendChild(marshalForms()); }
    if (S.role === "valhalla") { main.appendChild(checkinForm()); }
    main.appendChild(el("div", {id: "answer", cls: "answer", role: "status"}));
    if (S.role === "safety") { main.appendChild(section("alarms", t("alarms"))); }
    if (S.role === "valhalla") {
      main.appendChild(section("due", t("due")));
    } else {
      main.appendChild(section("stopps", t("stopps")));
      main.appendChild(section("dying", t("dying")));
      main.appendChild(section("map", t("map")));
    }
    main.appendChild(section("sides", t("sides")));
  }
  function field(label, input) { return el("label", {cls: "field"}, [el("span", {text: label}), input]); }
  function marshalForms() {
    var kind = el("select", {id: "kind", name: "kind"});
    KINDS.forEach(function (k) { kind.appendChild(el("option", {value: k, text: t("k_" + k)})); });
    var badge = el("input", {id: "badge", name: "badge", type: "number", inputmode: "numeric", min: "1", required: ""});
    var by = el("input", {id: "by", name: "by", type: "number", inputmode: "numeric", min: "1"});
    var byField = field(t("by"), by);
    function showBy() { byField.style.display = BY[kind.value] ? "" : "none"; }
    kind.addEventListener("change", showBy);
    showBy();
    var casualty = el("form", {id: "casualty", cls: "card"}, [el("h2", {text: t("report")}), field(t("kind"), kind),
      field(t("badge"), badge), byField, el("button", {type: "submit", id: "send", cls: "primary", text: t("send")})]);
    casualty.addEventListener("submit", function (e) {
      e.preventDefault();
      var body = kind.value === "valhalla" ? {action: "valhalla", badge: badge.value}
        : {action: "casualty", kind: kind.value, badge: badge.value};
      if (kind.value !== "valhalla" && BY[kind.value] && by.value) { body.by = by.value; }
      send("/report", body);
    });
    var reason = el("select", {id: "reason"});
    ["danger", "injury", "unpleasant"].forEach(function (r) { reason.appendChild(el("option", {value: r, text: t(r)})); });
    var call = el("button", {type: "button", id: "call-stopp", cls: "danger", text: t("call_stopp")});
    call.addEventListener("click", function () { send("/report", {action: "stopp", reason: reason.value}); });
    var lift = el("select", {id: "lift"});
    var liftBtn = el("button", {type: "button", id: "lift-stopp", text: t("lift_stopp")});
    liftBtn.addEventListener("click", function () { if (lift.value) { send("/report", {action: "lift", stopp: lift.value}); } });
    var stopp = el("div", {cls: "card"}, [el("h2", {text: t("stopps")}), field(t("reason"), reason), call,
      el("div", {cls: "row"}, [lift, liftBtn])]);
    return el("div", {cls: "forms"}, [casualty, stopp]);
  }
  function checkinForm() {
    var badge = el("input", {id: "badge", type: "number", inputmode: "numeric", min: "1", required: ""});
    var form = el("form", {id: "checkin", cls: "card"}, [el("h2", {text: t("check_in")}), field(t("badge"), badge),
      el("button", {type: "submit", id: "send", cls: "primary", text: t("check_in")})]);
    form.addEventListener("submit", function (e) { e.preventDefault(); send("/checkin", {badge: badge.value}); });
    return form;
  }

  // -- forms --------------------------------------------------------------------------------------------------
  function formId() {
    var a = new Uint32Array(2);
    crypto.getRandomValues(a);
    return (a[0] & 0x1fffff) * 4294967296 + a[1] + 1;
  }
  function send(path, body) {
    body.form = formId();
    S.lastForm = {path: path, body: body};
    post(S.lastForm);
  }
  function post(f) {
    var box = $("answer");
    box.className = "answer wait"; box.textContent = t("sending");
    return fetch(f.path, {method: "POST", credentials: "same-origin", body: JSON.stringify(f.body),
                          headers: {"Content-Type": "application/json", "X-CSRF": S.csrf}})
      .then(function (r) {
        if (r.status === 401 || r.status === 403 && !r.headers.get("Content-Type").match(/json/)) {
          return r.text().then(function (text) { answered({stored: false, text: text, status: r.status}); });
        }
        var json = (r.headers.get("Content-Type") || "").indexOf("json") >= 0;
        return (json ? r.json() : r.text().then(function (text) { return {stored: false, text: text, status: r.status}; }))
          .then(function (a) { if (r.status === 504) { a.waited = true; } answered(a); });
      }, function () { answered({waited: true}); });
  }
  function answered(a) {
    var box = $("answer");
    box.textContent = "";
    var word = a.waited ? t("no_answer") : !a.stored ? t("not_stored") : a.again ? t("stored_again")
      : !a.counted ? t("not_counted") : t("stored");
    box.className = "answer " + (a.waited || !a.stored ? "bad" : a.counted === false ? "warn" : "ok");
    box.appendChild(el("strong", {text: word}));
    // The station's own words follow the status: after its "stored:" (or "not stored:"), which the status says.
    var detail = a.again ? "" : (a.text || "").trim();
    if (a.stored !== undefined && detail.indexOf(": ") > 0 && !a.waited) { detail = detail.slice(detail.indexOf(": ") + 2); }
    if (detail) { box.appendChild(el("span", {text: " " + detail})); }
    if (a.waited || (!a.stored && S.lastForm)) {
      var again = el("button", {type: "button", id: "resend", text: t("resend")});
      again.addEventListener("click", function () { post(S.lastForm); });
      box.appendChild(again);
    }
  }
  window.crResend = function () { return S.lastForm ? post(S.lastForm) : null; };   // (the tests resend a form)
  function ack(id) { send("/ack", {alarm: id}); }
  function checkin(badge) { send("/checkin", {badge: badge}); }

  // -- what the view says -------------------------------------------------------------------------------------
  function fill(id, nodes, empty) {
    var body = $(id + "-body");
    if (!body) { return; }
    body.textContent = "";
    if (!nodes.length && empty) { body.appendChild(el("p", {cls: "empty", text: empty})); }
    nodes.forEach(function (n) { body.appendChild(n); });
  }
  function render() {
    var v = S.view;
    if (!v || S.denied) { return; }
    $("game").textContent = v.game || "controlroom";
    tick();
    fill("sides", [sidesTable(v.sides || {})]);
    if (S.role === "valhalla") {
      fill("due", (v.dead || []).map(duePerson).concat(more(v.dead_count, (v.dead || []).length)), t("nobody_due"));
      return;
    }
    fill("stopps", (v.stopps || []).map(stoppRow), t("no_stopps"));
    fill("dying", (v.dying || []).map(dyingRow).concat(more(v.dying_count, (v.dying || []).length)), t("no_dying"));
    fill("map", [mapBox(v.map || {marks: []})]);
    if (S.role === "safety") { fill("alarms", (v.alarms || []).map(alarmRow), t("no_alarms")); }
    if (S.role === "marshal") { liftChoices(v.stopps || []); }
  }
  function more(count, shown) { return count > shown ? [el("p", {cls: "more", text: t("more", {n: count - shown})})] : []; }
  function sidesTable(sides) {
    var head = el("tr", {}, [el("th", {text: t("side")}), el("th", {text: t("active")}), el("th", {text: t("down")}),
      el("th", {text: t("dead")}), el("th", {text: t("in_valhalla")})]);
    var rows = Object.keys(sides).map(function (s) {
      var c = sides[s];
      return el("tr", {}, [el("td", {text: s}), el("td", {text: String(c.active || 0)}),
        el("td", {text: String((c.unconscious || 0) + (c.knocked_out || 0))}), el("td", {text: String(c.dead || 0)}),
        el("td", {text: String(c.in_valhalla || 0)})]);
    });
    return el("table", {cls: "sides"}, [el("thead", {}, [head]), el("tbody", {}, rows)]);
  }
  function stoppRow(s) {
    var who = s.caller ? (s.caller_name ? s.caller_name + " (" + s.caller + ")" : String(s.caller)) : "";
    var where = [s.place, s.square ? t("square") + " " + s.square : ""].filter(Boolean).join(" · ");
    return el("div", {cls: "item stopp" + (s.reason === "injury" ? " injury" : "")}, [
      el("strong", {text: "STOPP " + s.stopp}), " " + t(s.reason) + " · " + gameClock(s.called),
      who ? el("div", {text: t("caller") + ": " + who}) : null, where ? el("div", {text: where}) : null,
      s.groups && s.groups.length ? el("div", {text: s.groups.join(", ")}) : null]);
  }
  function dyingRow(p) {
    return el("div", {cls: "item dying"}, [el("span", {cls: "count", "data-left": p.held ? "" : String(p.left),
      text: p.held ? t("held") : left(p.left)}), " ", el("strong", {text: String(p.badge)}), " " + p.name + " · " + p.group]);
  }
  function duePerson(p) {
    var b = el("button", {type: "button", cls: "primary small", text: t("check_in")});
    b.addEventListener("click", function () { checkin(p.badge); });
    return el("div", {cls: "item due"}, [el("strong", {text: String(p.badge)}), " " + p.name + " · " + p.side + " / " + p.group
      + (p.left !== null && p.left !== undefined ? " · " + left(p.left) : ""), b]);
  }
  function alarmRow(a) {
    var b = el("button", {type: "button", cls: "primary small", text: t("acknowledge")});
    b.addEventListener("click", function () { ack(a.id); });
    var where = [a.place, a.square ? t("square") + " " + a.square : ""].filter(Boolean).join(" · ");
    return el("div", {cls: "item alarm " + a.kind}, [el("div", {text: gameClock(a.t) + " " + a.message}),
      a.caller ? el("div", {text: t("caller") + ": " + (a.caller_name || "") + " (" + a.caller + ")"}) : null,
      where ? el("div", {text: t("place") + ": " + where}) : null, b]);
  }
  function mapBox(m) {
    var box = el("div", {cls: "mapbox"});
    if (!m.image && !m.marks.length) { return el("p", {cls: "empty", text: t("no_map")}); }
    if (m.image) {
      box.appendChild(el("img", {src: "/map", alt: t("map")}));
    } else {
      box.className = "mapbox blank";
      box.appendChild(el("p", {cls: "empty", text: t("no_map")}));
      place(m.marks);
    }
    m.marks.forEach(function (k) {
      if (k.x === undefined) { return; }
      box.appendChild(at(el("span", {cls: "mark " + k.kind, text: k.label}), k));
    });
    (m.stopps || []).forEach(function (s) {
      if (s.x === undefined) { return; }
      box.appendChild(at(el("span", {cls: "mark stopp", text: "STOPP " + s.stopp}), s));
    });
    return box;
  }
  function at(e, p) { e.style.left = (p.x * 100) + "%"; e.style.top = (p.y * 100) + "%"; return e; }
  function place(marks) {          // no map: the points placed in the box they span
    var lats = marks.map(function (k) { return k.lat; }), lons = marks.map(function (k) { return k.lon; });
    if (!marks.length) { return; }
    var a = Math.min.apply(null, lats), b = Math.max.apply(null, lats);
    var c = Math.min.apply(null, lons), d = Math.max.apply(null, lons);
    marks.forEach(function (k) {
      k.x = 0.05 + 0.9 * (d > c ? (k.lon - c) / (d - c) : 0.5);
      k.y = 0.05 + 0.9 * (b > a ? (b - k.lat) / (b - a) : 0.5);
    });
  }
  function liftChoices(stopps) {
    var lift = $("lift");
    if (!lift) { return; }
    var mine = stopps.filter(function (s) { return s.stopp.indexOf("W") === 0; });
    var now = Array.prototype.map.call(lift.options, function (o) { return o.value; }).join(",");
    if (now === mine.map(function (s) { return s.stopp; }).join(",")) { return; }
    lift.textContent = "";
    mine.forEach(function (s) { lift.appendChild(el("option", {value: s.stopp, text: "STOPP " + s.stopp})); });
  }
  function tick() {
    var v = S.view;
    if (!v) { return; }
    var gone = elapsed();
    $("clock").textContent = gameClock(v.t + gone);
    Array.prototype.forEach.call(document.querySelectorAll(".count[data-left]"), function (e) {
      var l = e.getAttribute("data-left");
      if (l !== "" && l !== "null") { e.textContent = left(Number(l) - gone); }
    });
    if (S.stale) { showStatus(); }
  }

  // -- the tools ----------------------------------------------------------------------------------------------
  function theme(dark) {
    document.body.classList.toggle("dark", dark);
    try { localStorage.setItem("cr-theme", dark ? "dark" : "light"); } catch (e) { /* private mode */ }
  }
  var saved = null;
  try { saved = localStorage.getItem("cr-theme"); } catch (e) { saved = null; }
  theme(saved ? saved === "dark" : !(window.matchMedia && window.matchMedia("(prefers-color-scheme: light)").matches));
  $("theme").addEventListener("click", function () { theme(!document.body.classList.contains("dark")); });
  $("lang-en").addEventListener("click", function () { load("en"); });
  $("lang-et").addEventListener("click", function () { load("et"); });
  setInterval(tick, 1000);
  load(null).catch(function () { lost(); });
})();
