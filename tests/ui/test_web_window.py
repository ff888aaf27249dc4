"""The window's side of the web view: Game, Invite staff shows the QR code; the station's core answers a phone."""

from __future__ import annotations

import http.client
import json
import threading

import pytest

from controlroom.core.web_feed import serve_web
from controlroom.core.wiring import Station
from controlroom.game.clock import VirtualClock
from controlroom.game.roster import Member
from controlroom.store.game import GameStore
from controlroom.store.invites import invites
from controlroom.ui.dialogs.invite import InviteDialog
from controlroom.web.invites import make_invite
from controlroom.web.station import WebOptions

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "window-web.crgame"
    with GameStore.open(path) as store:
        store.save_roster([Member(101, "Aldo", "North", "Wolves"), Member(102, "Birgit", "South", "Ravens")])
    return path


def test_invite_staff_shows_the_link_and_its_qr_code(qtbot, game):
    dialog = InviteDialog(str(game), "0.0.0.0:8090")
    qtbot.addWidget(dialog)
    assert not dialog.invite()                               # a name is needed
    assert "name" in dialog.error.text()
    dialog.name.setText("Jaan Tamm")
    dialog.role.setCurrentIndex(dialog.role.findData("valhalla"))
    assert dialog.invite()
    assert dialog.url.text().startswith("http://127.0.0.1:8090/join#")
    assert not dialog.qr.pixmap().isNull() and dialog.qr.pixmap().width() > 100
    with GameStore.open(game, create=False) as store:
        (row,) = invites(store)
    assert (row.name, row.role) == ("Jaan Tamm", "valhalla")
    assert dialog.card.token not in dialog.url.text().split("#")[0]
    dialog.name.setText("Jaan Tamm")
    assert not dialog.invite() and "invited already" in dialog.error.text()


def test_the_windows_station_answers_a_phone_after_storing_its_report(qtbot, game):
    with GameStore.open(game) as store:
        token = make_invite(store, "Mari", "marshal").token
    station = Station(str(game), [], VirtualClock(0), publish_interval_ms=20)
    server, feed = serve_web(station, WebOptions("127.0.0.1:0"))
    answers: list = []

    def phone():
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=15)
        head = {"Cookie": f"cr_token={token}"}
        conn.request("GET", "/state", headers=head)
        csrf = json.loads(conn.getresponse().read())["csrf"]
        for _ in range(2):                                   # the same form twice: stored once
            conn.request("POST", "/report", body=json.dumps({"form": 4242, "action": "casualty", "kind": "died",
                                                             "badge": 102}),
                         headers={**head, "X-CSRF": csrf, "Content-Type": "application/json"})
            answers.append(json.loads(conn.getresponse().read()))
        conn.close()

    try:
        with qtbot.waitSignal(station.core.loaded, timeout=10_000):
            station.start()
        qtbot.waitUntil(lambda: bool(server.hub.view.characters), timeout=5000)        # the window's delta, fed in
        asker = threading.Thread(target=phone)
        asker.start()
        qtbot.waitUntil(lambda: len(answers) == 2, timeout=15_000)
        asker.join()
    finally:
        server.stop()
        assert station.shutdown()
    assert answers[0]["stored"] and answers[0]["text"] == "stored: 102 died" and not answers[0]["again"]
    assert answers[1]["stored"] and answers[1]["again"]
    with GameStore.open(game, create=False) as store:
        assert [(e.type, e.data) for _, e in store.log.events()] == [("died", {"badge": 102, "cause": "reported"})]
    assert feed.hub is server.hub
