"""The Estonian report is wholly Estonian (issue 37): the ruleset's Estonian name, devices in Estonian words, and
a STOPP's place that breaks only between its phrases.

The game's radios are the simulator's (``sim.roster.plan_devices``): marshals
carrying handsets, trackers on siege engines, as ``controlroom demo`` has
them; its map is the demo field with its named features.
"""

import re
import subprocess
from pathlib import Path

import pytest

from controlroom import i18n
from controlroom.cli import main
from controlroom.game.events import make_event
from controlroom.game.roster import Member
from controlroom.sim.roster import plan_devices
from controlroom.store.devices import register_device
from controlroom.store.game import GameStore
from tests.support.pdf_inspect import pdftotext

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo"
FORD = (58.3795958, 26.7221486)
MEMBERS = [Member(1, "Aino Kask", "Põhi", "Hundid"), Member(2, "Jaan Tamm", "Põhi", "Hundid"),
           Member(3, "Mari Mets", "Põhi", "Karud"), Member(11, "Gerd Saar", "Lõuna", "Ilvesed"),
           Member(12, "Tiit Kuusk", "Lõuna", "Ilvesed", "healer")]
# English words the Estonian report had ("Seed ruleset ... (English translation)", "Marshal 2 (marssali käsiseade
# 1002)", "Tracker on Trebuchet 1 (jälgija 3001)"): whole words, case as written.
ENGLISH = ("ruleset", "Seed", "English", "translation", "Marshal", "Tracker", "handset", "tracker")


def store_game(path: Path) -> None:
    from controlroom.geo.places import places_beside, read_places
    from controlroom.geo.source import open_map
    from controlroom.store.maps import save_map, save_places

    devices = plan_devices(MEMBERS, seed=3, engines=2)
    nw = (FORD[0] + 0.00127, FORD[1] - 0.00243)                    # about 200 m north-west of the ford
    with GameStore.open(path) as store:
        store.save_roster(MEMBERS)
        store.set_meta("name", "Laupäeva lahing")
        for d in devices:
            register_device(store, d.id, d.role, d.label, group=d.group, siege_engine=d.siege_engine,
                            marshal=d.marshal, key=d.key)
        field = open_map(DEMO / "field.png")
        save_map(store, field.path, field.kind, field.crs.to_wkt(), field.world.as_lines(), field.width,
                 field.height)
        save_places(store, read_places(places_beside(field.path)))
        store.log.append([
            make_event(60_000, "strike", "marshal:1001", badge=2),
            make_event(120_000, "stopp_called", "marshal:1002", stopp="1002-204", caller=3, reason="unpleasant",
                       lat=nw[0], lon=nw[1]),
            make_event(432_000, "stopp_lifted", "gm", stopp="1002-204"),
            make_event(600_000, "siege_status", "tracker:3001", engine="Trebuchet 1", status="captured",
                       lat=FORD[0] - 0.002, lon=FORD[1] - 0.003),
            make_event(900_000, "died", "marshal:1001", badge=11),
        ])
    return devices


@pytest.fixture(scope="module")
def estonian_pdf(tmp_path_factory):
    folder = tmp_path_factory.mktemp("et")
    mp = pytest.MonkeyPatch()
    mp.setenv("XDG_DATA_HOME", str(folder / "data"))
    try:
        devices = store_game(folder / "lahing.crgame")
        assert main(["--lang", "et", "report", "--db", str(folder / "lahing.crgame"), "--out", str(folder / "out"),
                     "--format", "pdf"]) == 0
    finally:
        i18n.choose(None)
        mp.undo()
    return next((folder / "out").glob("*.pdf")), devices


def raw_text(pdf) -> str:
    """The PDF's text in the order it was drawn (a table cell's lines one after the other)."""
    pdftotext(pdf)                                                  # (skips without poppler)
    return subprocess.run(["pdftotext", "-raw", str(pdf), "-"], capture_output=True, text=True, check=True).stdout


def test_the_estonian_report_has_no_english_words(estonian_pdf):
    pdf, devices = estonian_pdf
    text = " ".join(raw_text(pdf).split())
    words = set(re.findall(r"\w+", text))
    assert [w for w in ENGLISH if w in words] == []
    assert not re.search(r"\bon (Trebuchet|Ballista)\b", text)          # "Tracker on Trebuchet 1"
    assert "reeglid: Lähtereeglistik 31.08.11 (ingliskeelne tõlge)" in text
    marshal = next(d for d in devices if d.id == 1002).marshal
    assert f"{marshal} (marssali käsiseade 1002)" in text and not marshal.startswith("Marshal")
    assert "jälgija 3001 (Trebuchet 1)" in text


def test_a_stopps_place_breaks_only_between_its_phrases(estonian_pdf):
    """The place "Ford, 200 m loodes; ruut D3" may take two lines of its cell, but "Ford, 200 m loodes;" and
    "ruut D3" each stand whole on one (the cell's lines, in the order drawn: pdftotext -raw); it broke as
    "Ford, 200" / "m loodes;" / "ruut D3"."""
    pdf, _devices = estonian_pdf
    raw = raw_text(pdf)
    lines = [" ".join(line.split()) for line in raw.splitlines()]
    stopp_lines = [line for line in lines if "loodes" in line]
    assert stopp_lines, raw
    for line in stopp_lines:
        assert re.search(r"\bFord, \d+ m loodes;", line), line       # never "200" / "m loodes;"
    square = [line for line in lines if re.search(r"\bruut\b", line)]
    assert square and all(re.search(r"\bruut [A-Z]\d+\b", line) for line in square), square


def test_the_ruleset_is_named_in_each_language():
    from controlroom.rules.profile import ProfileError, default_profile, profile_from_dict

    profile = default_profile()
    assert profile.name_in("en") == "Seed ruleset 31.08.11 (English translation)"
    assert profile.name_in("et") == "Lähtereeglistik 31.08.11 (ingliskeelne tõlge)"
    assert profile.name_in("de") == profile.name
    import tomllib

    data = tomllib.loads((DEMO.parent / "rules" / "default.toml").read_text("utf-8"))
    data["names"] = {"et": ""}
    with pytest.raises(ProfileError, match=r"\[names\]: 'et' must be a text"):
        profile_from_dict(data, "x.toml")
