// The invite's link carries its token after "#": a browser never sends that part in a request. It is handed
// to the station once, in a POST body, which keeps it in an HttpOnly cookie; then the page opens.
"use strict";
(function () {
  var token = location.hash.slice(1);
  history.replaceState(null, "", "/join");
  var msg = document.getElementById("msg");
  function refused() {
    msg.textContent = "This link is not valid (any more). Ask the game master for a new invite. / " +
      "See link ei kehti (enam). Küsi mängujuhilt uus kutse.";
  }
  if (!token) {
    fetch("/state", {credentials: "same-origin"}).then(function (r) {
      if (r.ok) { location.replace("/"); } else { refused(); }
    }, refused);
    return;
  }
  fetch("/session", {method: "POST", credentials: "same-origin", headers: {"Content-Type": "application/json"},
                     body: JSON.stringify({token: token})})
    .then(function (r) { if (r.ok) { location.replace("/"); } else { refused(); } }, refused);
})();
