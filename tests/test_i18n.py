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
