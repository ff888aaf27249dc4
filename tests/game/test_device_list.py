"""A game's device list read from CSV or .xlsx: English and Estonian headers, every problem with its line."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from openpyxl import Workbook

from controlroom.game.device_list import DeviceEntry, DeviceListError, read_device_list
from controlroom.game.devices import BOARDS, ROLES

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "resources" / "examples"


def _write(tmp_path, text, name="devices.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _problems(path):
    with pytest.raises(DeviceListError) as caught:
        read_device_list(path)
    return caught.value.problems


def test_the_english_sample_reads_every_device():
    entries = read_device_list(EXAMPLES / "devices.csv")
    assert len(entries) == 12
    first = {e.id: e for e in entries}
    assert first[1] == DeviceEntry(2, 1, "gateway", "Gateway hill", board="heltec-v3")
    assert first[21].marshal == "Mari Maasikas" and first[21].badge == 901 and first[21].board == "tbeam-v1.1-sx1276"
    assert first[301].group == "Wolves" and first[301].role == "tracker"
    assert first[40].meshtastic == "!a1b2c3d4" and first[40].board is None


def test_the_estonian_sample_is_the_same_list():
    english = read_device_list(EXAMPLES / "devices.csv")
    estonian = read_device_list(EXAMPLES / "devices_et.csv")
    assert [e._replace(line=0) for e in estonian] == [e._replace(line=0) for e in english]


def test_an_xlsx_workbook_reads_like_its_csv(tmp_path):
    book = Workbook()
    sheet = book.active
    sheet.append(["Seadme nr", "Roll", "Silt", "Rühm", "Plaat", "Marssal", "Märk"])
    sheet.append([12, "marssal", "Põhja marssal", None, "tbeam-v1.1-sx1262", "Mari Maasikas", 901.0])
    sheet.append([None, None, None, None, None, None, None])
    sheet.append([301, "jälgija", "Huntide juht", "Hundid", None, None, None])
    sheet.append([7, "lüüs", "Mäe lüüs", None, "heltec-v3", None, None])
    path = tmp_path / "seadmed.xlsx"
    book.save(path)
    entries = read_device_list(path)
    assert [(e.line, e.id, e.role, e.board) for e in entries] == [
        (2, 12, "marshal", "tbeam-v1.1-sx1262"), (4, 301, "tracker", "tbeam-v1.1-sx1276"),
        (5, 7, "gateway", "heltec-v3")]
    assert entries[0].badge == 901 and entries[1].group == "Hundid"


def test_every_problem_is_named_with_its_line(tmp_path):
    path = _write(tmp_path, "\n".join([
        "id;role;label;group;engine;board;marshal;badge;meshtastic",
        "12;marshal;M12;;;;Mari;901;",
        "12;tracker;again;;;;;;",                              # 3: the id again
        "0;marshal;zero;;;;;;",                                # 4: out of range
        "13;wizard;;;;;;;",                                    # 5: unknown role
        "14;marshal;;;;heltec-v3;;;",                          # 6: a Heltec has no keypad
        "15;tracker;;;;arduino;;;",                            # 7: unknown board
        "16;gateway;;Wolves;;;;;",                             # 8: a gateway in a group
        "17;tracker;;Wolves;Ram;;;;",                          # 9: group and engine
        "18;tracker;;;;;Mari;;",                               # 10: a marshal on a tracker
        "19;marshal;;;;;;5;",                                  # 11: a badge without a name
        "20;marshal;;;;;;;!zz",                                # 12: a bad node id
        "21;marshal;;;;tbeam-v1.1-sx1276;;;!a1b2c3d4",         # 13: a board for a Meshtastic node
        "22;tracker;;;;;;;!a1b2c3d4",                          # 14: the node again
        "23;marshal;;;;;;;!a1b2c3d4",                          # 15: and again
        ";marshal;;;;;;;",                                     # 16: no id
        "24;;;;;;;;",                                          # 17: no role
        "25;marshal;x;;;;;;;extra",                            # 18: more cells than columns
    ]))
    problems = _problems(path)
    lines = [int(p.split(":")[0].split()[1]) for p in problems]
    assert lines == sorted(lines)
    text = "\n".join(problems)
    for line, words in [(3, "device 12 is already on line 2"), (4, "id '0' is not a whole number from 1 to 65534"),
                        (5, "unknown role 'wizard'"), (6, "a heltec-v3 cannot be a marshal"),
                        (7, "unknown board 'arduino'"), (8, "a gateway belongs to no group"),
                        (9, "a device is with a group or on a siege engine, not both"),
                        (10, "only a marshal's handset"),
                        (11, "a badge without the marshal's name"), (12, "a Meshtastic node id is"),
                        (13, "a Meshtastic node runs its own firmware: leave its board empty"),
                        (14, "Meshtastic node !a1b2c3d4 is already on line 13"),
                        (15, "Meshtastic node !a1b2c3d4 is already on line 13"),
                        (16, "missing id"), (17, "missing role"), (18, "10 cells but the header names 9")]:
        assert f"line {line}: {words}" in text, (line, words, text)
    assert len(problems) == 16


@pytest.mark.parametrize("text, words", [
    ("", "the file is empty"),
    ("label,board\nx,heltec-v3\n", "line 1: missing column 'id'"),
    ("id,role,id\n1,marshal,2\n", "line 1: column 'id' appears twice"),
    ("id,role\n", "the file has a header row but no devices"),
    ("id,role,label\n1,marshal,\"open\n2,tracker,x\n", "line 2: label runs over several lines"),
])
def test_a_file_that_is_no_list(tmp_path, text, words):
    assert words in "\n".join(_problems(_write(tmp_path, text)))


def test_files_that_cannot_be_read(tmp_path):
    assert "no such file" in _problems(tmp_path / "missing.csv")[0]
    (tmp_path / "latin.csv").write_bytes("id,role,label\n1,marshal,M\xe4e\n".encode("latin-1"))
    assert "is not UTF-8 text" in _problems(tmp_path / "latin.csv")[0]
    (tmp_path / "fake.xlsx").write_bytes(b"\x00\xff not a workbook \xfe")
    assert "neither a CSV file nor an Excel workbook" in _problems(tmp_path / "fake.xlsx")[0]
    # A CSV file the desk renamed by hand is read as what it is.
    (tmp_path / "renamed.xlsx").write_text("id,role\n1,marshal\n", encoding="utf-8")
    assert [e.id for e in read_device_list(tmp_path / "renamed.xlsx")] == [1]


def _firmware_boards():
    spec = importlib.util.spec_from_file_location("firmware_boards", REPO / "hardware" / "firmware" / "boards.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_boards_and_their_roles_are_the_firmwares():
    boards = _firmware_boards()
    assert set(BOARDS) == set(boards.BOARDS)
    for name, (chip, roles) in BOARDS.items():
        assert boards.BOARDS[name]["mcu"] == chip
        for role in ROLES:
            fits = True
            try:
                boards.check_role(name, role)
            except ValueError:
                fits = False
            assert fits == (role in roles), (name, role)
