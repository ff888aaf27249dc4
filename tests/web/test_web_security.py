"""The web server's doors: no token, no game data; revoked within 2 s; size, CSRF, rate limits; no tracebacks."""

from __future__ import annotations

import http.client
import json
import logging
import threading
import time

import pytest

from controlroom.engine.output import FormAnswer
from controlroom.game.views import make_delta
from controlroom.store.game import GameStore
from controlroom.store.invites import revoke_invite
from controlroom.web.station import WebOptions, web_server

PATHS = [("GET", "/"), ("GET", "/state"), ("GET", "/stream"), ("GET", "/map"), ("GET", "/static/app.js"),
         ("GET", "/static/app.css"), ("GET", "/no/such/path"), ("POST", "/report"), ("POST", "/ack"),
         ("POST", "/checkin")]


class Served:
    """The web server of a game, in this process; its core answers every form as stored."""

    def __init__(self, game, db: str | None = None) -> None:
        self.game = game
        self.server = web_server(db or str(game.path), WebOptions("127.0.0.1:0"))
        self.sent = []
        self.server.hub.send = self._core
        self.server.start()
        with GameStore.open(db or game.path, create=False) as store:
            state = store.open_fold(saved=False).state
        self.server.hub.put("delta", make_delta(state, (), (), full=True))

    def _core(self, cmd) -> None:
        self.sent.append(cmd)
        self.server.hub.put("answer", FormAnswer(cmd.request, True, "stored: " + cmd.said))

    def request(self, method: str, path: str, token: str | None = None, body: bytes | None = None,
                headers: dict | None = None, timeout: float = 10) -> tuple[int, bytes, http.client.HTTPMessage]:
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=timeout)
        head = dict(headers or {})
        if token is not None:
            head["Cookie"] = f"cr_token={token}"
        try:
            conn.request(method, path, body=body, headers=head)
            response = conn.getresponse()
            data = response.read() if path != "/stream" or response.status != 200 else response.read(200)
            return response.status, data, response.headers
        finally:
            conn.close()

    def csrf(self, token: str) -> str:
        return json.loads(self.request("GET", "/state", token)[1])["csrf"]

    def post(self, path: str, token: str, form: dict, csrf: str | None = None) -> tuple[int, dict | str]:
        status, data, headers = self.request("POST", path, token, json.dumps(form).encode(),
                                             {"Content-Type": "application/json",
                                              "X-CSRF": csrf if csrf is not None else self.csrf(token)})
        is_json = "json" in headers.get("Content-Type", "")
        return status, json.loads(data) if is_json else data.decode()

    def stop(self) -> None:
        self.server.stop()


@pytest.fixture
def served(game):
    s = Served(game)
    yield s
    s.stop()


def test_without_a_valid_token_no_path_gives_game_data(served, game):
    game_data = (b"Aldo", b"Birgit", b"North", b"Wolves", b"web", b"sides")
    for token in (None, "", "x" * 32, "a" * 500, game.tokens["viewer"][:-1] + "A"):
        for method, path in PATHS:
            body = b'{"form": 1, "badge": 101}' if method == "POST" else None
            status, data, _ = served.request(method, path, token, body)
            assert status == 401, (token, path, status)
            assert not any(word in data for word in game_data), (path, data)
    status, data, _ = served.request("GET", "/state", game.tokens["viewer"])
    assert status == 200 and b"North" in data           # (the same request with the token: the data is there)


def test_a_revoked_or_expired_invite_gets_403(served, game):
    with GameStore.open(game.path, create=False) as store:
        revoke_invite(store, "Safety One")
        store.engine.dispose()
    import sqlalchemy as sa

    from controlroom.store.invites import INVITES
    with GameStore.open(game.path, create=False) as store, store.engine.begin() as conn:
        conn.execute(sa.update(INVITES).where(INVITES.c.name == "Viewer One").values(expires=int(time.time() * 1000)))
    served.server.access.refresh()
    for role in ("safety", "viewer"):
        for method, path in PATHS:
            status, data, _ = served.request(method, path, game.tokens[role], b"{}" if method == "POST" else None)
            assert status == 403 and b"North" not in data, (role, path, status)


def test_a_revocation_cuts_an_open_stream_within_2_s(served, game):
    conn = http.client.HTTPConnection("127.0.0.1", served.server.port, timeout=10)
    conn.request("GET", "/stream", headers={"Cookie": f"cr_token={game.tokens['viewer']}"})
    response = conn.getresponse()
    assert response.status == 200
    assert b"event: view" in response.readline() + response.readline() + response.readline()
    ended = threading.Event()

    def read_to_the_end():
        while response.readline():
            pass
        ended.set()

    reader = threading.Thread(target=read_to_the_end)
    reader.start()
    with GameStore.open(game.path, create=False) as store:
        revoke_invite(store, "Viewer One")
    revoked = time.monotonic()
    cut = ended.wait(2.0)
    took = time.monotonic() - revoked
    conn.close()
    reader.join(5)
    assert cut, "the stream of a revoked invite was still open after 2 s"
    assert took < 2.0


def test_a_10_mb_post_is_refused_and_the_station_goes_on(served, game):
    token = game.tokens["marshal"]
    csrf = served.csrf(token)
    big = b'{"form": 1, "action": "casualty", "kind": "down", "badge": 101, "pad": "' + b"x" * 10_000_000 + b'"}'
    try:
        status, _data, _ = served.request("POST", "/report", token, big,
                                          {"Content-Type": "application/json", "X-CSRF": csrf})
    except (ConnectionResetError, BrokenPipeError):
        status = 413            # (refused before the whole body was sent: the connection closed under it)
    assert status == 413
    assert not served.sent
    status, answer = served.post("/report", token, {"form": 2, "action": "casualty", "kind": "down", "badge": 101})
    assert status == 200 and answer["stored"]


def test_forms_need_the_pages_csrf_value_and_the_right_role(served, game):
    form = {"form": 3, "action": "casualty", "kind": "down", "badge": 101}
    assert served.post("/report", game.tokens["marshal"], form, csrf="")[0] == 403
    assert served.post("/report", game.tokens["marshal"], form, csrf="0" * 32)[0] == 403
    assert served.post("/report", game.tokens["viewer"], form)[0] == 403          # a viewer does nothing
    assert served.post("/checkin", game.tokens["marshal"], {"form": 4, "badge": 101})[0] == 403
    assert not served.sent
    status, answer = served.post("/checkin", game.tokens["valhalla"], {"form": 5, "badge": 102})
    assert status == 200 and answer["text"] == "stored: 102 in Valhalla"
    (cmd,) = served.sent
    assert (cmd.type, cmd.fields, cmd.form, cmd.source) == ("valhalla_checkin", {"badge": 102}, 5, "web:Valhalla One")


def test_bad_forms_get_a_clear_status_never_a_traceback(served, game):
    token = game.tokens["marshal"]
    csrf = served.csrf(token)
    for body in (b"not json", b"[1, 2]", b'{"form": 1}', b'{"form": "x", "action": "casualty"}',
                 b'{"form": 1, "action": "casualty", "kind": "flying", "badge": 1}',
                 b'{"form": 1, "action": "lift", "stopp": "12-ab"}', b"\xff\xfe"):
        status, data, _ = served.request("POST", "/report", token, body,
                                         {"Content-Type": "application/json", "X-CSRF": csrf})
        assert status in (400, 403), (body, status, data)
        assert b"Traceback" not in data and len(data) < 300


def test_an_error_inside_is_a_500_in_words_and_the_server_goes_on(served, game, monkeypatch, caplog):
    def broken(role):
        raise RuntimeError("a bug")

    monkeypatch.setattr(served.server.hub, "encoded", broken)
    with caplog.at_level(logging.ERROR, logger="controlroom.web"):
        status, data, _ = served.request("GET", "/state", game.tokens["viewer"])
    assert status == 500 and b"Traceback" not in data and b"goes on running" in data
    monkeypatch.undo()
    assert served.request("GET", "/state", game.tokens["viewer"])[0] == 200


def test_forms_are_rate_limited_per_invite(served, game):
    token = game.tokens["valhalla"]
    csrf = served.csrf(token)
    statuses = [served.post("/checkin", token, {"form": 100 + i, "badge": 102}, csrf)[0] for i in range(25)]
    assert statuses[:20] == [200] * 20 and set(statuses[20:]) == {429}
    assert served.post("/report", game.tokens["marshal"], {"form": 1, "action": "valhalla", "badge": 102})[0] == 200


def test_a_thousand_wrong_tokens_are_refused_and_no_token_is_logged(served, game, caplog):
    with caplog.at_level(logging.DEBUG):
        for i in range(1000):
            status, _data, _ = served.request("GET", "/state", f"wrong-{i:04d}-" + "x" * 20)
            assert status == 401
        assert served.request("GET", "/state", game.tokens["viewer"])[0] == 200
        served.post("/report", game.tokens["marshal"], {"form": 9, "action": "casualty", "kind": "down",
                                                        "badge": 101})
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert not any(token in logged for token in game.tokens.values())
    assert "wrong-0001" not in logged
    assert served.server.counts["refused"] >= 1000


def test_the_join_page_reveals_nothing_and_keeps_the_token_out_of_urls(served, game):
    status, data, headers = served.request("GET", "/join")
    assert status == 200 and b"North" not in data and b"Aldo" not in data
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    status, data, headers = served.request("POST", "/session", None,
                                           json.dumps({"token": game.tokens["viewer"]}).encode(),
                                           {"Content-Type": "application/json"})
    assert status == 200
    cookie = headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert served.request("POST", "/session", None, b'{"token": "nope"}')[0] == 401
