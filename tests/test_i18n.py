"""The language spoken and what follows from it: the system's locale, CONTROLROOM_LANG, --lang; the CSV delimiter."""

import subprocess
import sys

import pytest

from controlroom import i18n
from controlroom.cli import main


@pytest.mark.parametrize("environ, expected", [
    ({"LANG": "et_EE.UTF-8"}, "et"),
    ({"LANG": "en_GB.UTF-8", "LC_MESSAGES": "et_EE.UTF-8"}, "et"),
    ({"LANG": "et_EE.UTF-8", "LC_ALL": "C"}, "en"),          # LC_ALL wins, and C means no language: English
    ({"LANG": "de_DE.UTF-8"}, "en"),                        # a language the product does not speak
    ({"LANG": "et_EE.UTF-8", "CONTROLROOM_LANG": "en"}, "en"),
    ({"CONTROLROOM_LANG": "et"}, "et"),
    ({}, "en"),
])
def test_the_language_follows_the_environment(environ, expected):
    i18n.choose(None)
    assert i18n.language(environ) == expected


def test_a_choice_wins_over_the_environment_and_an_unknown_one_is_refused():
    assert i18n.choose("et") == "et"
    assert i18n.language({"LANG": "en_US.UTF-8", "CONTROLROOM_LANG": "en"}) == "et"
    with pytest.raises(ValueError, match=r"unknown language 'fr': this program speaks en \(English\), et"):
        i18n.choose("fr")
    i18n.choose(None)


def test_the_csv_delimiter_is_what_the_language_s_spreadsheets_read():
    assert i18n.csv_delimiter("et") == ";"
    assert i18n.csv_delimiter("de") == ";"
    assert i18n.csv_delimiter("en") == ","


def test_lang_on_the_command_line(capsys):
    assert main(["--lang", "xx", "replay", "--help"]) == 2
    assert "unknown language 'xx'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--lang=et", "--version"])
    assert i18n.language() == "et"


def test_lang_chooses_the_report_s_delimiter(tmp_path):
    """A whole process: ``--lang et`` before the command gives semicolon-separated CSV files."""
    from controlroom.game.events import make_event
    from controlroom.game.roster import Member
    from controlroom.store.game import GameStore

    db = tmp_path / "g.crgame"
    with GameStore.open(db) as store:
        store.save_roster([Member(1, "Aldo", "Põhi", "Hundid")])
        store.log.append([make_event(0, "down", "marshal:1", badge=1)])
    done = subprocess.run([sys.executable, "-m", "controlroom", "--lang", "et", "report", "--db", str(db),
                           "--out", str(tmp_path / "out"), "--format", "csv"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    header = (tmp_path / "out" / "g-players.csv").read_text(encoding="utf-8-sig").splitlines()[0]
    assert header.startswith("badge;name;side;group;class")


@pytest.fixture
def estonian():
    i18n.choose("et")
    yield
    i18n.choose(None)


def test_alarms_are_in_the_language_spoken(estonian):
    """The radio security alarms (merged floods and single frames) and the radio's rejections in Estonian."""
    from controlroom.game.alarms import SecurityFlood
    from controlroom.radio.ingest import Ingest  # noqa: F401 - (the rejection texts are built there)

    flood = SecurityFlood(update_ms=0)
    detail = i18n.translate("radio", "frame {counter} of device {device} was heard long ago (replayed?)").format(
        counter=3, device=7)
    first = flood.note("rejected_replay", 7, detail, 0)
    assert first.message == "seadme 7 kaader 3 oli kuuldud ammu (kordusesitus?)"
    second = flood.note("rejected_replay", 8, "x", 10)
    assert second.message == "viimase minuti jooksul 2 kordusesitatud kaadrit 2 seadmelt; viimane: x"
    i18n.choose("en")
    assert SecurityFlood(update_ms=0).note("rejected_auth", 1, "y", 0).message == "y"


def test_the_worker_s_alarm_texts_are_translated():
    """Every alarm text the core and the engine build is a translate() call with an Estonian translation (checked by the
    translations test); here: the source has no English alarm text left outside translate()."""
    import ast
    from pathlib import Path

    package = Path(i18n.__file__).parent
    sources = sorted([*(package / "core").glob("*.py"), *(package / "engine").glob("*.py")])   # the core and engine
    made = 0
    for source in sources:
        tree = ast.parse(source.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Alarm":
                made += 1
                message = node.args[2]
                plain = isinstance(message, (ast.Constant, ast.JoinedStr))
                assert not plain, f"{source.name}, line {node.lineno}: an alarm text not through translate()"
    assert made >= 9            # (the alarms the core makes were found: the test looks where they are)


@pytest.mark.parametrize("argv, words", [
    (["sim", "--pty", "--speed", "0"], "--speed peab olema üle 0"),
    (["map", "locate", "field.png", "north", "26.7"], "laiuskraad peab olema kraadide arv vahemikus -90 kuni 90"),
    (["replay"], "anna stsenaariumi skript või --db MÄNG"),
])
def test_command_line_errors_are_in_estonian(capsys, argv, words):
    try:
        code = main(["--lang", "et", *argv])
    finally:
        i18n.choose(None)
    assert code in (1, 2)
    assert words in capsys.readouterr().err


def test_storage_errors_are_in_the_language_spoken(estonian, tmp_path):
    """What the store says of a full disk or a damaged file, and how it names the game, in Estonian."""
    import sqlite3

    from controlroom.store.engine import describe
    from controlroom.store.errors import explain

    where = describe(f"sqlite:///{tmp_path / 'lahing.crgame'}")
    assert where == f"mängufail {tmp_path / 'lahing.crgame'}"
    full = explain(sqlite3.OperationalError("database or disk is full"), where)
    assert full.startswith(f"ketas, millel on {where}, on täis") and "kaduma" in full
    assert explain(sqlite3.DatabaseError("file is not a database"), where) == \
        f"{where} ei ole controlroomi mängufail (või on see kahjustatud)."
    assert describe("postgresql+psycopg://gm:secret@10.0.0.2/lahing").startswith("mänguandmebaas ")


def test_every_event_type_has_its_words_in_estonian(estonian):
    """The report's corrections and the alarms name events in words: none is left in English."""
    from controlroom.game.events import SCHEMA
    from controlroom.game.words import event_word

    english = [t for t in SCHEMA if event_word(t) == t.replace("_", " ")]
    assert english == [], english
    assert event_word("stopp_called") == "STOPP hüütud"


def test_a_desks_armour_or_class_mistake_is_said_in_estonian(estonian):
    from controlroom.rules.armour import armour_points
    from controlroom.rules.profile import ProfileError, default_profile, load_profile

    profile = default_profile()
    with pytest.raises(ProfileError, match="tundmatu turvise osa 'paber'"):
        armour_points(profile, pieces=["paber"])
    with pytest.raises(ProfileError, match="tundmatu klass 'võlur'"):
        profile.character_class("võlur")
    with pytest.raises(ProfileError, match="controlroomiga ei ole kaasas reeglistikku nimega 'puudub'"):
        load_profile("puudub")


def test_a_text_kept_with_its_arguments_is_said_in_any_language():
    """``wording`` keeps a text and its arguments: said in the language spoken (``str``), or in another
    (``render``), its Text arguments in the same language; ``joined`` only joins them."""
    who = i18n.wording("warnings", "{name} (badge {badge})", name="Jüri", badge=102)
    text = i18n.wording("warnings", "{who} is not dead: only the dead report to Valhalla", who=who)
    assert text.render("en") == "Jüri (badge 102) is not dead: only the dead report to Valhalla"
    assert text.render("et") == "Jüri (märk 102) ei ole surnud: Valhallasse ilmuvad ainult surnud"
    assert str(text) == text.render("en")
    i18n.choose("et")
    try:
        assert str(text) == text.render("et") and text.render("en").startswith("Jüri (badge 102) is not dead")
        assert str(i18n.joined("{who}: {rule}", who=who, rule="x")) == "Jüri (märk 102): x"
    finally:
        i18n.choose(None)
    assert i18n.wording("warnings", "no such text {x}", x=1).render("et") == "no such text 1"   # untranslated


def test_a_text_packed_is_one_flat_tuple_the_collector_stops_tracking():
    """``Text.packed``: a fold keeps one for each rule warning, so it must cost the collector nothing (a tuple
    of plain values is untracked at the first collection; a Text, or a tuple holding tuples, is not)."""
    import gc

    who = i18n.wording("warnings", "{name} (badge {badge})", name="Jüri", badge=102)
    text = i18n.wording("warnings", "{role} {who} is {condition}: {rule}", role=i18n.wording("roles", "binder"),
                        who=who, condition="x", rule=i18n.joined("{a}; {b}", a=who, b=3.5))
    packed = text.packed()
    assert type(packed) is tuple and all(type(x) in (str, int, float, bool, type(None)) for x in packed)
    gc.collect()
    assert not gc.is_tracked(packed)
    assert i18n.Text.unpack(packed) == text
    assert i18n.Text.unpack(packed).render("et") == text.render("et")
    assert [i18n.Text.render_packed(packed, code) for code in ("en", "et")] == [text.render("en"), text.render("et")]
    assert i18n.Text.unpack(i18n.wording("warnings", "plain").packed()) == i18n.wording("warnings", "plain")
    with pytest.raises(ValueError, match="not a packed Text"):
        i18n.Text.unpack((*packed, "more"))
