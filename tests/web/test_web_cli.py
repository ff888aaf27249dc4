"""``controlroom web invite|list|revoke`` as a user runs it, and invites honoured by every station of a shared game."""

from __future__ import annotations

import http.client
import json
import stat
import subprocess
import sys

from test_web_security import Served

from controlroom.game.roster import Member
from controlroom.store.game import GameStore
from controlroom.web.invites import hash_token, make_invite


def cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "controlroom", *args], capture_output=True, text=True, timeout=60,
                          cwd=cwd)


def test_invite_list_revoke(tmp_path):
    db = tmp_path / "cli.crgame"
    with GameStore.open(db) as store:
        store.save_roster([Member(101, "Aldo", "North", "Wolves")])
    done = cli("web", "invite", "--db", str(db), "--role", "safety", "--name", "Mari Maasikas", "--expires", "23:59",
               "--address", "0.0.0.0:8090", "--json", "--out", str(tmp_path / "qr"))
    assert done.returncode == 0, done.stderr
    card = json.loads(done.stdout)
    assert set(card) >= {"url", "token", "role", "name", "qr"} and card["role"] == "safety"
    assert card["url"] == f"http://127.0.0.1:8090/join#{card['token']}" and len(card["token"]) >= 22
    qr = tmp_path / "qr" / "invite-1-Mari-Maasikas.png"
    assert card["qr"] == str(qr) and qr.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert stat.S_IMODE(qr.stat().st_mode) == 0o600                # it carries the token
    raw = db.read_bytes() + (tmp_path / "cli.crgame-wal").read_bytes() if (tmp_path / "cli.crgame-wal").exists() \
        else db.read_bytes()
    assert card["token"].encode() not in raw and hash_token(card["token"]).encode() in raw
    again = cli("web", "invite", "--db", str(db), "--role", "viewer", "--name", "Mari Maasikas")
    assert again.returncode == 1 and again.stderr.startswith("controlroom: ") and "invited already" in again.stderr
    listed = cli("web", "list", "--db", str(db))
    assert listed.returncode == 0 and "Mari Maasikas" in listed.stdout and "safety" in listed.stdout
    assert card["token"] not in listed.stdout
    assert cli("web", "revoke", "Mari Maasikas", "--db", str(db)).returncode == 0
    rows = json.loads(cli("web", "list", "--db", str(db), "--json").stdout)
    assert rows[0]["revoked"] and not rows[0]["valid"]
    gone = cli("web", "revoke", "Mari Maasikas", "--db", str(db))
    assert gone.returncode == 1 and "no invite in force" in gone.stderr
    bad = cli("web", "invite", "--db", str(db), "--role", "viewer", "--name", "X", "--expires", "25:00")
    assert bad.returncode == 2 and "HH:MM" in bad.stderr


def test_web_options_without_web_are_a_usage_error(tmp_path):
    done = cli("headless", "--db", str(tmp_path / "g.crgame"), "--web-self-signed")
    assert done.returncode == 2 and "need --web" in done.stderr


def test_an_https_invite_shows_the_certificates_fingerprint(tmp_path, monkeypatch):
    db = tmp_path / "tls.crgame"
    GameStore.open(db).close()
    env_home = tmp_path / "data"
    done = subprocess.run([sys.executable, "-m", "controlroom", "web", "invite", "--db", str(db), "--role", "viewer",
                           "--name", "Jaan", "--https", "--json", "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=60,
                          env={**__import__("os").environ, "XDG_DATA_HOME": str(env_home)})
    assert done.returncode == 0, done.stderr
    card = json.loads(done.stdout)
    assert card["url"].startswith("https://") and len(card["fingerprint"].split(":")) == 32
    key = env_home / "controlroom" / "web" / "station-key.pem"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600


def test_every_station_of_a_shared_game_honours_an_invite_and_its_revocation(pg_url, game):
    from controlroom.store.invites import revoke_invite

    with GameStore.open(pg_url) as store:
        store.save_roster([Member(101, "Aldo", "North", "Wolves")])
        token = make_invite(store, "Shared", "viewer").token
    game.tokens["shared"] = token
    stations = [Served(game, pg_url), Served(game, pg_url)]
    try:
        for s in stations:
            assert s.request("GET", "/state", token)[0] == 200
        streams = []
        for s in stations:
            conn = http.client.HTTPConnection("127.0.0.1", s.server.port, timeout=5)
            conn.request("GET", "/stream", headers={"Cookie": f"cr_token={token}"})
            streams.append((conn, conn.getresponse()))
        with GameStore.open(pg_url) as store:
            revoke_invite(store, "Shared")
        for conn, response in streams:
            body = b""
            while chunk := response.readline():         # ends once the station has cut it (the read times out at 5 s)
                body += chunk
            conn.close()
            assert b"event: revoked" in body
        for s in stations:
            assert s.request("GET", "/state", token)[0] == 403
    finally:
        for s in stations:
            s.stop()
