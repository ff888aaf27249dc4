"""``keys new --tak-uid/--tak-callsign`` (schema 8) and ``controlroom tak``: phones registered, TAK settings."""

import sqlalchemy as sa

from controlroom.cli import main
from controlroom.game.roster import Member
from controlroom.game.tak_settings import SETTINGS_KEY, settings_from_json
from controlroom.store.devices import devices
from controlroom.store.engine import make_engine
from controlroom.store.game import GameStore
from controlroom.store.migrations import LATEST, migrate, schema_version


def _game(tmp_path):
    db = str(tmp_path / "t.crgame")
    with GameStore.open(db) as store:
        store.save_roster([Member(1, "A", "North", "Wolves"), Member(2, "B", "South", "Ravens")])
    return db


def test_a_marshals_phone_is_registered_by_its_uid_or_its_callsign(tmp_path, capsys):
    db = _game(tmp_path)
    assert main(["keys", "new", "5", "--role", "marshal", "--db", db, "--label", "West",
                 "--tak-uid", "ANDROID-deadbeef"]) == 0
    assert "TAK uid ANDROID-deadbeef" in capsys.readouterr().out
    assert main(["keys", "new", "6", "--role", "marshal", "--db", db, "--tak-callsign", " JENNY "]) == 0
    assert main(["keys", "new", "5", "--role", "marshal", "--db", db, "--label", "West 2"]) == 0    # kept
    with GameStore.open(db) as store:
        found = devices(store)
    assert (found[5].tak_uid, found[5].label, found[6].tak_callsign) == ("ANDROID-deadbeef", "West 2", "JENNY")
    capsys.readouterr()
    assert main(["keys", "list", "--db", db]) == 0
    listing = capsys.readouterr().out
    assert "tak uid ANDROID-deadbeef" in listing and "tak callsign JENNY" in listing


def test_a_phone_registered_twice_or_as_a_tracker_is_refused_in_words(tmp_path, capsys):
    db = _game(tmp_path)
    assert main(["keys", "new", "5", "--role", "marshal", "--db", db, "--tak-uid", "ANDROID-1"]) == 0
    assert main(["keys", "new", "6", "--role", "marshal", "--db", db, "--tak-uid", "ANDROID-1"]) == 1
    assert "TAK uid 'ANDROID-1' is device 5 already" in capsys.readouterr().err
    assert main(["keys", "new", "7", "--role", "tracker", "--db", db, "--tak-callsign", "X"]) == 1
    assert "registered as a marshal's" in capsys.readouterr().err
    assert main(["keys", "new", "8", "--role", "marshal", "--db", db, "--tak-uid", "a\tb"]) == 1
    assert "printable characters" in capsys.readouterr().err


def test_a_game_of_schema_6_gets_the_phones_columns(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'old.crgame'}")
    migrate(engine, target=6)
    with engine.begin() as conn:
        conn.execute(sa.text("INSERT INTO devices (id, role, label, key_hex) VALUES (5, 'marshal', 'M', :k)"),
                     {"k": "00" * 16})
    assert migrate(engine) == (6, LATEST)
    with engine.connect() as conn:
        assert schema_version(conn) == LATEST
        assert conn.execute(sa.text("SELECT tak_uid, tak_callsign FROM devices")).all() == [(None, None)]
    engine.dispose()


def test_the_tak_command_keeps_each_sides_affiliation_colour_and_the_server(tmp_path, capsys):
    db = _game(tmp_path)
    assert main(["tak", "--db", db, "--affiliation", "North=friend", "--affiliation", "South=h",
                 "--colour", "South=dark-green", "--server", "tcp://10.0.0.5:8087", "--every", "2"]) == 0
    out = capsys.readouterr().out
    assert "North: friend (f), team colour Blue" in out and "South: hostile (h), team colour Dark Green" in out
    with GameStore.open(db) as store:
        settings = settings_from_json(store.meta(SETTINGS_KEY))
    assert settings.affiliations == {"North": "f", "South": "h"} and settings.server == "tcp://10.0.0.5:8087"
    assert settings.every_s == 2.0
    assert main(["tak", "--db", db, "--no-server"]) == 0
    assert "TAK server for the data package: none" in capsys.readouterr().out


def test_the_tak_command_refuses_what_it_cannot_use(tmp_path, capsys):
    db = _game(tmp_path)
    for args, words, code in ((["--affiliation", "East=f"], "no side 'East' in the game's roster", 1),
                              (["--affiliation", "North=ally"], "is not an affiliation", 2),
                              (["--colour", "North=Pink"], "is not a TAK team colour", 2),
                              (["--colour", "North"], "--colour takes SIDE=COLOUR", 2),
                              (["--server", "http://x:1"], "tcp://HOST:PORT", 2),
                              (["--server", "udp://x:1"], "is tcp:// or tls://", 2),
                              (["--every", "0.1"], "--every must be at least", 2)):
        assert main(["tak", "--db", db, *args]) == code, args
        assert words in capsys.readouterr().err, args


def test_the_window_and_headless_refuse_a_tak_url_they_cannot_use_before_anything_starts(tmp_path, capsys):
    db = _game(tmp_path)
    assert main(["--db", db, "--tak", "http://10.0.0.5:8087"]) == 2
    assert "tcp://HOST:PORT, tls://HOST:PORT or udp://HOST:PORT" in capsys.readouterr().err
    assert main(["headless", "--db", db, "--tak", "tls://10.0.0.5:8089", "--quit-after", "1"]) == 2
    assert "needs the station's certificate and key" in capsys.readouterr().err
    assert main(["headless", "--db", db, "--port", "cot-udp://nowhere", "--quit-after", "1"]) == 2
    assert "cot-udp://ADDRESS:PORT" in capsys.readouterr().err
