"""Marshal cards: every marshal in the PDF's text, QR codes that decode to the device ids, no key anywhere."""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from controlroom.game.device_list import read_device_list
from controlroom.game.roster_csv import read_roster_csv
from controlroom.game.textreport import parse
from controlroom.report.cards import GRAMMAR, qr_text
from controlroom.rules.profile import default_profile
from controlroom.store.device_setup import import_devices
from controlroom.store.devices import devices
from controlroom.store.game import GameStore

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"
MARSHALS = {21: "Mari Maasikas", 22: "Jaan Tamm", 23: "Liis Kask", 24: "Peeter Saar", 40: "Anna Org"}


def _tool(name: str, package: str) -> str:
    found = shutil.which(name)
    if found is None:
        if os.environ.get("CI"):
            pytest.fail(f"{name} is missing: the quick start installs {package}")
        pytest.skip(f"{name} (Debian's {package}) is not installed")
    return found


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("cards") / "Hundid 2026.crgame")
    with GameStore.open(db) as store:
        store.save_roster(read_roster_csv(EXAMPLES / "roster.csv", default_profile()))
        entries = read_device_list(EXAMPLES / "devices.csv")
        import_devices(store, [e._replace(group="Wolves") if e.id == 22 else e for e in entries])
        keys = [d.key for d in devices(store).values()]
    return db, keys


def _cards(db, out, *options):
    return subprocess.run([sys.executable, "-m", "controlroom", "devices", "cards", "--db", db, "--out", str(out),
                           *options], capture_output=True, text=True, timeout=120)


def _text(pdf: Path) -> str:
    return subprocess.run([_tool("pdftotext", "poppler-utils"), "-layout", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout


def test_every_marshal_has_a_card_whose_qr_code_names_the_device(game, tmp_path):
    db, keys = game
    pdf = tmp_path / "cards.pdf"
    done = _cards(db, pdf, "--language", "en")
    assert done.returncode == 0, done.stderr
    assert "5 marshal card(s) on 2 page(s)" in done.stdout
    text = _text(pdf)
    assert text.count("\f") == 2
    for device, name in MARSHALS.items():
        assert name in text and f"Handset {device}" in text
    assert "badge 901" in text and "Group: Wolves" in text and "Handset keys" in text
    assert "badge B B # (killer #)" in text and "STOPP STOPP" in text
    flat = " ".join(text.split())                 # the rule's lines wrap on the card
    assert "is silent and drops on one knee" in flat and "the caller is unconscious (0 HP)" in flat
    # The QR codes, read off the pages as a phone's camera would: the device id and the game's name, nothing more.
    subprocess.run([_tool("pdftoppm", "poppler-utils"), "-r", "150", "-png", str(pdf), str(tmp_path / "page")],
                   check=True)
    pages = sorted(tmp_path.glob("page*.png"))
    read = subprocess.run([_tool("zbarimg", "zbar-tools"), "-q", "--raw", *map(str, pages)], capture_output=True,
                          text=True)
    decoded = [json.loads(line) for line in read.stdout.splitlines() if line.strip()]
    assert sorted(d["device"] for d in decoded) == sorted(MARSHALS)
    assert all(d == {"game": "Hundid 2026", "device": d["device"]} for d in decoded)
    # No key, in hex or base64, anywhere in the file: its bytes and every stream in it, unpacked.
    data = pdf.read_bytes()
    blobs = [data] + [zlib.decompress(s) for s in re.findall(rb"stream\r?\n(.*?)endstream", data, re.S)
                      if _inflates(s)]
    for key in keys:
        for form in (key.hex(), key.hex().upper(), base64.b64encode(key).decode(),
                     base64.urlsafe_b64encode(key).decode().rstrip("=")):
            # As ASCII; as UTF-16 (the document's title), raw or written in hex; as text drawn on a page.
            utf16 = form.encode("utf-16-be")
            for needle in (form.encode(), utf16, utf16.hex().encode(), utf16.hex().upper().encode()):
                assert not any(needle in b for b in blobs), form
            assert form not in text and form not in flat
        assert not any(key in b for b in blobs)
    assert len(blobs) > 3


def _inflates(stream: bytes) -> bool:
    try:
        zlib.decompress(stream)
        return True
    except zlib.error:
        return False


def test_cards_in_estonian(game, tmp_path):
    db, _keys = game
    pdf = tmp_path / "kaardid.pdf"
    done = _cards(db, pdf, "--language", "et")
    assert done.returncode == 0, done.stderr
    text = _text(pdf)
    assert "Marssali kaart" in text and "Mari Maasikas" in text and "märk 901" in text
    assert "Käsiseadme klahvid" in text and "Marshal card" not in text


def test_a_game_without_marshals_has_no_cards(tmp_path):
    db = str(tmp_path / "empty.crgame")
    with GameStore.open(db):
        pass
    done = _cards(db, tmp_path / "none.pdf")
    assert done.returncode == 1 and "no marshal handsets in this game" in done.stderr
    assert not (tmp_path / "none.pdf").exists()


def test_the_grammar_on_the_card_is_the_one_the_station_reads():
    expected = {"D 123": "down", "K 123": "died", "B 123 45": "bound", "V 123": "valhalla", "STOPP injury": "stopp",
                "LIFT": "lift", "H 12 3 1": "headcount", "?": "help"}
    assert {typed: parse(typed).action for typed, _what in GRAMMAR} == expected
    assert parse("B 123 45").by == 45 and parse("STOPP injury").reason == "injury"
    assert qr_text("Hundid", 21) == '{"game":"Hundid","device":21}'
