"""The Estonian registration desk's own file, as it writes it: helmets as jah/ei, its quota problem, its xlsx.

tests/game/data/desk-roster.csv is the desk's export (UTF-8 with a BOM,
semicolons, CRLF, Estonian headers and words, a phone and an e-mail column,
a line of empty cells at the end).  Its helmet column says only whether a
player has one (``jah``/``ei``), and its group Hundid has 4 paid members and
2 healers.  The same rows as an .xlsx workbook are made here with openpyxl.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest

from controlroom.game.roster_columns import RosterMapping
from controlroom.game.roster_csv import RosterImportError, preview_roster_csv, read_roster_csv
from controlroom.rules.profile import default_profile
from controlroom.store.game import GameStore

DESK = Path(__file__).parent / "data" / "desk-roster.csv"
PROFILE = default_profile()
HELMET_QUESTION = "helmet 'jah' on 5 lines: which kind? (known: leather, metal)"
QUOTA = ("group 'Hundid' has 2 healers but 4 paid members allow at most 0 (one healer per five paid members): "
         "healers on lines 3, 4")


def problems(source, mapping=None) -> list[str]:
    with pytest.raises(RosterImportError) as caught:
        read_roster_csv(source, PROFILE, *([mapping] if mapping else []))
    return caught.value.problems


def mended(text: str) -> str:
    """The desk's file after it put its quota right: Tõnu fights as a warrior, and Kalev has paid."""
    text = text.replace("103;Tõnu Kask;Põhi;Hundid;Ravitseja;", "103;Tõnu Kask;Põhi;Hundid;Sõdalane;")
    return text.replace("105;Kalev Ots;Põhi;Hundid;Sõdalane;ei;", "105;Kalev Ots;Põhi;Hundid;Sõdalane;jah;")


def as_xlsx(text: str, path: Path) -> Path:
    """The rows of a desk CSV as the desk's spreadsheet saves them as .xlsx: badges as numbers, the rest text."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Registreerimine"
    for line in text.removeprefix("\ufeff").splitlines():
        sheet.append([int(c) if c.isdigit() else (c or None) for c in line.split(";")])
    book.save(path)
    return path


def mapping_file(tmp_path: Path, data: dict) -> Path:
    path = tmp_path / "kaardistus.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


METAL = {"values": {"helmet": {"jah": "metal"}}}


def test_without_a_mapping_one_helmet_question_and_the_quota_in_one_pass():
    assert problems(DESK) == [HELMET_QUESTION, QUOTA]
    with pytest.raises(RosterImportError) as caught:
        read_roster_csv(DESK, PROFILE)
    (question,) = caught.value.questions
    assert (question.word, question.lines) == ("jah", [2, 4, 6, 8, 11])


def test_the_quota_is_reported_beside_the_problems_of_its_own_lines():
    """A healer's line with a problem of its own (a name missing, an unknown armour) still counts for the quota."""
    text = DESK.read_text("utf-8-sig").replace("Tõnu Kask", "")
    text = text.replace("Ravitseja;jah;ei;nahk", "Ravitseja;jah;ei;puit", 1)      # Mari, line 3
    assert problems(text) == [
        "line 3: unknown armour piece 'puit' (known: brigandine, chain, chain_on_gambeson, hardened_leather, "
        "leather, plate)",
        "line 4: missing name",
        HELMET_QUESTION, QUOTA]


def test_with_a_mapping_the_helmets_are_of_the_kind_said_and_ei_is_none():
    mapping = RosterMapping.from_json(json.loads(json.dumps(METAL)))
    assert problems(DESK, mapping) == [QUOTA]           # the question answered; the quota stands
    members = {m.badge: m for m in read_roster_csv(mended(DESK.read_text("utf-8-sig")), PROFILE, mapping)}
    assert len(members) == 11
    assert [b for b, m in members.items() if m.helmet == "metal"] == [101, 103, 105, 107, 110]
    assert all(m.helmet is None for b, m in members.items() if b not in (101, 103, 105, 107, 110))
    assert (members[101].armour, members[104].armour) == (("chain", "plate"), ("hardened_leather",))
    assert members[102].cls == "healer" and members[107].cls == "warrior" and not members[111].paid


def test_the_preview_asks_for_jah_and_not_for_ei():
    preview = preview_roster_csv(DESK, PROFILE)
    assert preview.unknown == {"helmet": ["jah"]} and preview.choices["helmet"] == ["leather", "metal"]
    assert preview.players == 11 and preview.headers[-2:] == ["Telefon", "E-post"]
    assert preview_roster_csv(DESK, PROFILE, RosterMapping.from_json(METAL)).unknown == {}


@pytest.mark.parametrize("word", ["ei", "EI", "no", "false", "0", "", " Ei "])
def test_words_for_no_helmet(word):
    text = f"nr;nimi;pool;grupp;klass;makstud;kiiver;turvis\n1;A;N;W;;jah;{word};\n"
    assert read_roster_csv(text, PROFILE)[0].helmet is None


def test_yes_words_are_one_question_each_and_a_single_line_says_so():
    text = "nr;nimi;pool;grupp;klass;makstud;kiiver;turvis\n1;A;N;W;;jah;Jah;\n2;B;N;W;;jah;yes;\n3;C;N;W;;jah;jah;\n"
    assert problems(text) == ["helmet 'jah' on 2 lines: which kind? (known: leather, metal)",
                              "helmet 'yes' on 1 line: which kind? (known: leather, metal)"]


def test_the_xlsx_gives_the_same_result(tmp_path):
    xlsx = as_xlsx(DESK.read_text("utf-8-sig"), tmp_path / "registreerimine.xlsx")
    assert problems(xlsx) == problems(DESK) == [HELMET_QUESTION, QUOTA]
    assert problems(xlsx.read_bytes()) == [HELMET_QUESTION, QUOTA]
    assert preview_roster_csv(xlsx, PROFILE).unknown == {"helmet": ["jah"]}
    good = mended(DESK.read_text("utf-8-sig"))
    mapping = RosterMapping.from_json(METAL)
    assert read_roster_csv(as_xlsx(good, tmp_path / "parandatud.xlsx"), PROFILE, mapping) == \
        read_roster_csv(good, PROFILE, mapping)


def test_files_that_are_no_roster_say_what_to_do(tmp_path):
    old = tmp_path / "vana.xls"
    old.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(100))
    assert problems(old) == [f"cannot read {old}: it is an old Excel workbook (.xls); save it as .xlsx or "
                             "'CSV UTF-8' and import it again"]
    broken = tmp_path / "katki.xlsx"
    broken.write_bytes(b"PK\x03\x04" + bytes(50))
    (problem,) = problems(broken)
    assert problem.startswith(f"cannot read {broken}: it is neither a CSV file nor an Excel workbook")
    empty = tmp_path / "tühi.xlsx"
    openpyxl.Workbook().save(empty)
    assert problems(empty)[0].startswith("the file is empty")


def test_a_mapping_file_is_read_as_written_by_hand():
    data = {"columns": {"Kaardi NR": "badge", "Märkus": ""}, "values": {"helmet": {"JAH": "metal"}}}
    assert RosterMapping.left_out(data) == []
    assert RosterMapping.from_json(data) == RosterMapping({"kaardi nr": "badge", "märkus": ""},
                                                          {"helmet": {"jah": "metal"}})
    assert RosterMapping.left_out({"colums": {}, "columns": {"x": "kaart"}, "values": {"kiiver": {}}}) == [
        "unknown key 'colums' (known: columns, values)",
        "columns: 'x' is mapped to 'kaart', which is not a column (columns: badge, name, side, group, class, "
        "paid, helmet, armour, hp, ap, inadequate; \"\" leaves it out)",
        "values: 'kiiver' is not a column whose words are mapped (those are: class, helmet, armour, paid, "
        "inadequate)"]


# -- the command, as a user runs it ------------------------------------------------

def controlroom(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "LANGUAGE": ""}
    return subprocess.run([sys.executable, "-m", "controlroom", *args], capture_output=True, text=True,
                          timeout=120, cwd=cwd, env=env)


def test_the_command_asks_once_and_imports_with_a_mapping_file(tmp_path, game_db):
    bad = controlroom("roster", "import", str(DESK), "--db", game_db, cwd=tmp_path)
    assert bad.returncode == 1, bad.stderr
    assert bad.stderr == (
        f"controlroom: {DESK}: 2 problems, nothing was imported:\n  {HELMET_QUESTION}\n  {QUOTA}\n"
        'Say which kind with --mapping FILE.json, a file like {"values": {"helmet": {"jah": "…"}}} '
        "(the ruleset's helmets are named above).\n")
    mapping = mapping_file(tmp_path, METAL)
    still = controlroom("roster", "import", str(DESK), "--db", game_db, "--mapping", str(mapping), cwd=tmp_path)
    assert (still.returncode, still.stderr) == (1, f"controlroom: {DESK}: 1 problem, nothing was imported:\n"
                                                   f"  {QUOTA}\n")
    good = tmp_path / "parandatud.xlsx"
    as_xlsx(mended(DESK.read_text("utf-8-sig")), good)
    done = controlroom("roster", "import", str(good), "--db", game_db, "--mapping", str(mapping), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Roster imported: 11 players (11 added, 0 updated, 0 removed, 0 unchanged) "
                                  "in 2 groups on 2 sides")
    with GameStore.open(game_db, create=False) as store:
        helmets = {m.badge: m.helmet for m in store.roster()}
    assert helmets[101] == "metal" and helmets[102] is None and len(helmets) == 11


def test_a_mapping_file_that_means_nothing_is_refused_before_the_game_is_touched(tmp_path):
    game = tmp_path / "mäng.crgame"
    broken = tmp_path / "katki.json"
    broken.write_text('{"values": {"helmet": {"jah": "metal"}', encoding="utf-8")
    result = controlroom("roster", "import", str(DESK), "--db", str(game), "--mapping", str(broken), cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith(f"controlroom: the mapping {broken} is not JSON: ")
    wrong = mapping_file(tmp_path, {"values": {"kiiver": {"jah": "metal"}}})
    result = controlroom("roster", "import", str(DESK), "--db", str(game), "--mapping", str(wrong), cwd=tmp_path)
    assert (result.returncode, result.stderr) == (1, (
        f"controlroom: the mapping {wrong} means nothing here (docs/roster-csv.md):\n"
        "  values: 'kiiver' is not a column whose words are mapped (those are: class, helmet, armour, paid, "
        "inadequate)\n"))
    missing = tmp_path / "pole.json"
    result = controlroom("roster", "import", str(DESK), "--db", str(game), "--mapping", str(missing), cwd=tmp_path)
    assert result.stderr == f"controlroom: cannot read the mapping {missing}: no such file\n"
    assert not game.exists()


def test_the_question_in_estonian():
    from controlroom import i18n

    i18n.choose("et")
    try:
        assert problems(DESK)[0] == "kiiver 'jah' 5 real: mis liiki? (tuntud: leather, metal)"
    finally:
        i18n.choose(None)
