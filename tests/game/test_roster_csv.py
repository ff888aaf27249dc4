"""Roster CSV import and export: exact problem messages, all-or-nothing, events kept, the CLI."""

from importlib import resources
from pathlib import Path
from unittest import mock

import pytest

from controlroom.game.events import make_event
from controlroom.game.roster import Member
from controlroom.game.roster_csv import RosterImportError, read_roster_csv, write_roster_csv
from controlroom.rules.profile import default_profile
from controlroom.store.game import GameStore

EXAMPLE = Path(str(resources.files("controlroom.resources").joinpath("examples", "roster.csv")))
HEADER = "badge,name,side,group,class,paid,helmet,armour\n"
PROFILE = default_profile()


def problems(text) -> list[str]:
    with pytest.raises(RosterImportError) as info:
        read_roster_csv(text, PROFILE)
    assert str(info.value) == "\n".join(info.value.problems)
    return info.value.problems


def cli(argv: list[str]) -> int:
    """``controlroom.cli.main``, with ``roster`` registered for the call if the lead has not yet."""
    import controlroom.cli

    commands = controlroom.cli.COMMANDS
    with mock.patch.object(controlroom.cli, "COMMANDS", commands if "roster" in commands else (*commands, "roster")):
        return controlroom.cli.main(argv)


@pytest.fixture
def db(game_db):
    return game_db


def stored(db) -> list[Member]:
    with GameStore.open(db) as store:
        return store.roster()


# -- reading -------------------------------------------------------------------

def test_example_roster_reads_with_accents_and_healers_within_the_limit():
    members = read_roster_csv(EXAMPLE, PROFILE)
    assert len(members) == 30
    assert len({m.group for m in members}) == 5 and len({m.side for m in members}) == 2
    by_badge = {m.badge: m for m in members}
    assert by_badge[101].name == "Õie Tamm" and by_badge[101].cls == "healer"
    assert by_badge[102] == Member(102, "Jürgen Kask", "North", "Wolves", "warrior", True, "metal", ("chain", "plate"))
    assert by_badge[214].ap == 2 and by_badge[214].inadequate and by_badge[203].hp == 3
    assert not by_badge[108].paid


@pytest.mark.parametrize("row, message", [
    ("4,Aldo,North,Wolves,mage,yes,,", "line 2: unknown class 'mage' (this ruleset knows: healer, warrior)"),
    ("5,,North,Wolves,warrior,yes,,", "line 2: missing name"),
    ("abc,Aldo,North,Wolves,warrior,yes,,", "line 2: badge 'abc' is not a whole number above 0"),
    ("0,Aldo,North,Wolves,warrior,yes,,", "line 2: badge '0' is not a whole number above 0"),
    (",Aldo,North,Wolves,warrior,yes,,", "line 2: missing badge"),
    ("4,Aldo,North,Wolves,warrior,yes,iron,", "line 2: unknown helmet 'iron' (known: leather, metal)"),
    ("4,Aldo,North,Wolves,warrior,yes,,chain+mithril",
     "line 2: unknown armour piece 'mithril' "
     "(known: brigandine, chain, chain_on_gambeson, hardened_leather, leather, plate)"),
    ("4,Aldo,North,Wolves,warrior,maybe,,",
     "line 2: paid 'maybe' is not yes or no (accepted: yes, no, true, false, 1, 0, jah, ei)"),
    ("4,Aldo,North,Wolves,warrior,,,", "line 2: missing paid (write yes or no)"),
    ("4,Aldo,,Wolves,warrior,yes,,", "line 2: missing side"),
    ("4,Aldo,North,Wolves,warrior,yes,,,extra", "line 2: 9 cells but the header names 8 columns"),
])
def test_bad_row_exact_message(row, message):
    assert problems(HEADER + row + "\n") == [message]


def test_bad_overrides_exact_messages():
    text = "badge,name,side,group,class,paid,helmet,armour,hp,ap,inadequate\n4,A,N,W,warrior,yes,,,0,-1,perhaps\n"
    assert problems(text) == [
        "line 2: hp '0' is not a whole number above 0",
        "line 2: ap '-1' is not a whole number (0 or more)",
        "line 2: inadequate 'perhaps' is not yes or no (accepted: yes, no, true, false, 1, 0, jah, ei)",
    ]


def test_every_problem_is_reported_with_its_physical_line():
    text = (
        HEADER
        + "3,Aldo,North,Wolves,warrior,yes,,\n"
        + "\n"                                           # line 3: empty, skipped but counted
        + "4,Mari,North,Wolves,mage,yes,,\n"
        + "5,,North,Wolves,warrior,yes,,\n"
        + "abc,Jaan,North,Wolves,warrior,yes,,\n"
        + ",,,,,,,\n"                                    # line 7: empty cells, skipped
        + "3,Peeter,North,Wolves,warrior,yes,,\n"
        + "9,Eve,South,Wolves,warrior,yes,,\n"
    )
    assert problems(text) == [
        "line 4: unknown class 'mage' (this ruleset knows: healer, warrior)",
        "line 5: missing name",
        "line 6: badge 'abc' is not a whole number above 0",
        "line 8: badge 3 is already on line 2",
        "line 9: group 'Wolves' is on side 'North' on line 2, not 'South'",
    ]


def test_duplicate_badge_message_from_the_brief():
    rows = [f"{b},P{b},North,Wolves,warrior,yes,," for b in (1, 12, 2, 3, 4)] + ["12,Again,North,Wolves,warrior,yes,,"]
    assert problems(HEADER + "\n".join(rows) + "\n") == ["line 7: badge 12 is already on line 3"]


def test_missing_columns_are_all_named_on_line_1():
    assert problems("badge,name,group,class,paid,helmet\n1,A,W,warrior,yes,\n") == [
        "line 1: missing column 'side'", "line 1: missing column 'armour'",
    ]
    assert problems("badge,name,name,side,group,class,paid,helmet,armour\n") == ["line 1: column 'name' appears twice"]


def test_too_many_healers_names_the_group_and_the_healers_lines():
    rows = ["1,A,North,Wolves,healer,yes,,", "2,B,North,Wolves,warrior,yes,,", "3,C,North,Wolves,warrior,yes,,",
            "4,D,North,Wolves,healer,yes,,", "5,E,North,Wolves,warrior,yes,,", "6,F,North,Wolves,warrior,yes,,",
            "7,G,North,Wolves,warrior,no,,", "8,H,South,Bears,healer,yes,,"]
    assert problems(HEADER + "\n".join(rows) + "\n") == [
        "group 'Bears' has 1 healer but 1 paid member allows at most 0 (one healer per five paid members): "
        "healer on line 9",
        "group 'Wolves' has 2 healers but 6 paid members allow at most 1 (one healer per five paid members): "
        "healers on lines 2, 5",
    ]


def test_late_registrations_count_the_players_the_game_keeps_in_the_healer_quota():
    """roster import --keep-missing: a late healer joins a group whose paid members are in the game already."""
    late = HEADER + "41,Late Healer,South,Bears,healer,yes,,\n"
    kept = [Member(badge=b, name=f"B{b}", side="South", group="Bears", cls="warrior", paid=True) for b in range(1, 6)]
    assert [m.badge for m in read_roster_csv(late, default_profile(), kept=kept)] == [41]
    with pytest.raises(RosterImportError):                       # alone, the file's healer has no paid members
        read_roster_csv(late, default_profile())
    # A kept player the file names again counts once, as the file says (here: no longer paid).
    again = late + "1,B1,South,Bears,warrior,no,,\n"
    with pytest.raises(RosterImportError, match="4 paid members allow at most 0"):
        read_roster_csv(again, default_profile(), kept=kept[:4])


def test_bom_semicolons_case_spaces_aliases_and_extra_columns(tmp_path):
    text = (" Badge ; NAME ;Side;Group;Class;Paid;Helmet;Armor;e-mail\n"
            "1;Õie Tamm;Põhja;Hundid;Warrior;jah;;;oie@example.ee\n\n"
            "2;Jürgen Kask;Põhja;Hundid;;JAH;Metal;Chain + plate;\n"
            "3;Ülle Saar;Lõuna;Karud;warrior;ei;leather;;\n"
            ";;;;;;;;\n")
    path = tmp_path / "desk.csv"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    members = read_roster_csv(path, PROFILE)
    assert members == [
        Member(1, "Õie Tamm", "Põhja", "Hundid", "warrior", True),
        Member(2, "Jürgen Kask", "Põhja", "Hundid", "warrior", True, "metal", ("chain", "plate")),
        Member(3, "Ülle Saar", "Lõuna", "Karud", "warrior", False, "leather"),
    ]
    assert read_roster_csv(path.read_bytes(), PROFILE) == members == read_roster_csv(str(path), PROFILE)


@pytest.mark.parametrize("word, paid", [("yes", True), ("TRUE", True), ("1", True), ("Jah", True),
                                        ("no", False), ("false", False), ("0", False), ("EI", False)])
def test_paid_words(word, paid):
    assert read_roster_csv(HEADER + f"1,A,N,W,warrior,{word},,\n", PROFILE)[0].paid is paid


def test_unreadable_files(tmp_path):
    assert problems(tmp_path / "nope.csv") == [f"cannot read {tmp_path / 'nope.csv'}: no such file"]
    latin = tmp_path / "latin1.csv"
    latin.write_bytes((HEADER + "1,Õie,N,W,warrior,yes,,\n").encode("cp1252"))
    assert problems(latin) == [
        f"line 2: {latin} is not UTF-8 text; save it from the spreadsheet as 'CSV UTF-8' "
        "(comma or semicolon separated) and import it again"
    ]
    empty = tmp_path / "empty.csv"
    empty.write_bytes(b"\xef\xbb\xbf\n\n")
    assert problems(empty) == [
        "the file is empty; its first line must name the columns: badge, name, side, group, class, paid, helmet, armour"
    ]
    assert problems(HEADER + "\n") == ["the file has a header row but no players"]


def test_unbalanced_quote_is_reported():
    assert problems(HEADER + '1,"Aldo,North,Wolves,warrior,yes,,\n2,Mari,North,Wolves,warrior,yes,,\n') == [
        "line 2: name runs over several lines (is a closing quote missing?)",
        "line 2: missing side", "line 2: missing group", "line 2: missing paid (write yes or no)",
    ]
    assert problems(HEADER + "1,Al\x00do,North,Wolves,warrior,yes,,\n") == [
        "line 2: name 'Al\\x00do' contains a control character"
    ]


def test_tab_separated_and_quoted_cells():
    text = 'badge\tname\tside\tgroup\tclass\tpaid\thelmet\tarmour\n7\t"Kask, Jürgen"\tN\tW\twarrior\tyes\t\t\n'
    assert read_roster_csv(text, PROFILE) == [Member(7, "Kask, Jürgen", "N", "W")]


# -- writing and the game store -----------------------------------------------------

def test_export_is_utf8_bom_comma_sorted_and_round_trips(tmp_path):
    members = read_roster_csv(EXAMPLE, PROFILE)
    members.append(Member(50, 'Mari "Karu", noor', "North", "Ravens", "warrior", True))
    out = tmp_path / "out.csv"
    write_roster_csv(reversed(members), out)
    data = out.read_bytes()
    assert data.startswith(b"\xef\xbb\xbfbadge,name,side,group,class,paid,helmet,armour,hp,ap,inadequate\r\n")
    assert "Õie Tamm".encode() in data
    again = read_roster_csv(out, PROFILE)
    assert again == sorted(members, key=lambda m: m.badge)


def test_cli_import_export_round_trip(tmp_path, db, capsys):
    assert cli(["roster", "import", str(EXAMPLE), "--db", str(db)]) == 0
    assert capsys.readouterr().out.strip() == (
        "Roster imported: 30 players (30 added, 0 updated, 0 removed, 0 unchanged) in 5 groups on 2 sides"
    )
    first = stored(db)
    out = tmp_path / "export.csv"
    assert cli(["roster", "export", "--db", str(db), str(out)]) == 0
    assert capsys.readouterr().out.strip() == f"Roster exported: 30 players in 5 groups to {out}"
    other = tmp_path / "other.crgame"
    assert cli(["roster", "import", str(out), "--db", str(other)]) == 0
    capsys.readouterr()
    assert stored(other) == first
    assert cli(["roster", "import", str(out), "--db", str(db)]) == 0
    assert "(0 added, 0 updated, 0 removed, 30 unchanged)" in capsys.readouterr().out


def test_failed_import_changes_nothing_and_lists_every_problem(tmp_path, db, capsys):
    assert cli(["roster", "import", str(EXAMPLE), "--db", str(db)]) == 0
    before = stored(db)
    lines = EXAMPLE.read_text("utf-8").splitlines()
    lines[1] = lines[1].replace("Õie Tamm", "Õie Uustamm")     # a good change that must not be stored
    lines[3] = lines[3].replace("warrior", "mage")
    lines[4] = lines[4].replace("metal", "bronze")
    bad = tmp_path / "bad.csv"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert cli(["roster", "import", str(bad), "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert err == (
        f"controlroom: {bad}: 2 problems, nothing was imported:\n"
        "  line 4: unknown class 'mage' (this ruleset knows: healer, warrior)\n"
        "  line 5: unknown helmet 'bronze' (known: leather, metal)\n"
    )
    assert stored(db) == before


def test_reimport_updates_in_place_and_keeps_events(tmp_path, db, capsys):
    assert cli(["roster", "import", str(EXAMPLE), "--db", str(db)]) == 0
    capsys.readouterr()
    with GameStore.open(db) as store:
        store.log.append([make_event(1000, "strike", "marshal:7", badge=102),
                          make_event(2000, "healer_touch", "marshal:7", badge=102, healer=101)])
    text = EXAMPLE.read_text("utf-8")
    text = text.replace("102,Jürgen Kask,North,Wolves,warrior,yes,metal,chain+plate",
                        "102,Jürgen Kask,North,Wolves,warrior,yes,leather,chain")
    text = text.replace("225,Ülo Nõmm", "225,Ülo Nõmmik")
    text += "226,Õnne Kuusik,South,Lynx,warrior,yes,,,,,\n"
    updated = tmp_path / "updated.csv"
    updated.write_text(text, encoding="utf-8")
    assert cli(["roster", "import", str(updated), "--db", str(db)]) == 0
    assert capsys.readouterr().out.strip() == (
        "Roster imported: 31 players (1 added, 2 updated, 0 removed, 28 unchanged) in 5 groups on 2 sides"
    )
    with GameStore.open(db) as store:
        members = {m.badge: m for m in store.roster()}
        assert members[102].helmet == "leather" and members[102].armour == ("chain",)
        assert members[225].name == "Ülo Nõmmik" and members[226].name == "Õnne Kuusik"
        # The events stay; each import that changed the roster says so in the log (roster_added, its new badges).
        events = [e for _, e in store.log.events()]
        assert [e.type for e in events] == ["roster_added", "strike", "healer_touch", "roster_added"]
        assert len(events[0].data["added"]) == 30 and list(events[-1].data["added"]) == [226]
        assert events[-1].t == 2000 and events[-1].source == "gm"        # no clock yet: the game's last time
        state, last = store.load_state()
        assert last == 4 and len(state.roster) == 31


def test_removing_a_badge_with_events_is_refused(tmp_path, db, capsys):
    assert cli(["roster", "import", str(EXAMPLE), "--db", str(db)]) == 0
    with GameStore.open(db) as store:
        store.log.append([make_event(1000, "down", "marshal:7", badge=103)])
    before = stored(db)
    lines = [ln for ln in EXAMPLE.read_text("utf-8").splitlines() if not ln.startswith(("103,", "104,"))]
    lines[1] = lines[1].replace("healer", "warrior")
    smaller = tmp_path / "smaller.csv"
    smaller.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert cli(["roster", "import", str(smaller), "--db", str(db)]) == 1
    assert capsys.readouterr().err == (
        "controlroom: badge 103 is missing from the new roster but appears in the game's events; "
        "keep them in the file (the roster was not changed)\n"
    )
    assert stored(db) == before
    assert cli(["roster", "import", str(smaller), "--db", str(db), "--keep-missing"]) == 0
    assert capsys.readouterr().out.strip() == (
        "Roster imported: 28 players (0 added, 1 updated, 0 removed, 27 unchanged) in 5 groups on 2 sides; "
        "2 stored players not in the file kept"
    )
    kept = {m.badge: m for m in stored(db)}
    assert len(kept) == 30 and kept[103] == before[2] and kept[101].cls == "warrior"


def test_removing_a_badge_without_events(tmp_path, db, capsys):
    assert cli(["roster", "import", str(EXAMPLE), "--db", str(db)]) == 0
    lines = [ln for ln in EXAMPLE.read_text("utf-8").splitlines() if not ln.startswith("225,")]
    smaller = tmp_path / "smaller.csv"
    smaller.write_text("\n".join(lines) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert cli(["roster", "import", str(smaller), "--db", str(db)]) == 0
    assert "(0 added, 0 updated, 1 removed, 29 unchanged)" in capsys.readouterr().out
    assert 225 not in {m.badge for m in stored(db)}


def test_cli_user_errors(tmp_path, db, capsys):
    missing = tmp_path / "nope.csv"
    assert cli(["roster", "import", str(missing), "--db", str(db)]) == 1
    assert capsys.readouterr().err == (
        f"controlroom: {missing}: 1 problem, nothing was imported:\n  cannot read {missing}: no such file\n"
    )
    nogame = tmp_path / "nogame.crgame"
    assert cli(["roster", "export", "--db", str(nogame), str(tmp_path / "x.csv")]) == 1
    assert capsys.readouterr().err == f"controlroom: the game file {nogame} does not exist\n"
    assert not nogame.exists() and not (tmp_path / "x.csv").exists()
    assert cli(["roster", "import", str(EXAMPLE), "--db", str(db)]) == 0
    capsys.readouterr()
    folder = tmp_path / "no" / "such" / "folder" / "x.csv"
    assert cli(["roster", "export", "--db", str(db), str(folder)]) == 1
    assert capsys.readouterr().err.startswith(f"controlroom: cannot write {folder}: ")


ESTONIAN_DESK = (
    "\ufeffNr;Nimi;Pool;Grupp;Klass;Makstud;Kiiver;Turvis;E-post\r\n"
    "1;Jüri Õunapuu;Põhi;Hundid;Sõdalane;jah;nahk;ahel+plaat;jyri@example.ee\r\n"
    "2;Mari Šeller;Põhi;Hundid;Ravitseja;JAH;;nahk;\r\n"
    "3;Tõnu Kask;Lõuna;Karud;sõdalane;ei;metall;kõvendatud nahk;\r\n"
    "4;Ülle Mets;Lõuna;Karud;Võlur;jah;puit;plaat+paber;\r\n"
    "5;;Lõuna;Karud;Sõdalane;võib-olla;;;\r\n"
)


def test_an_estonian_desk_export_imports_with_its_problems_reported_by_line(tmp_path):
    """What the Estonian registration desk writes (BOM, semicolons, Estonian headers and values) is read; every
    problem is named with its line, and nothing is read while one stands."""
    path = tmp_path / "registreerimine.csv"
    path.write_bytes(ESTONIAN_DESK.encode("utf-8"))
    with pytest.raises(RosterImportError) as caught:
        read_roster_csv(path, default_profile())
    problems = caught.value.problems
    assert any(p.startswith("line 5:") and "Võlur" in p for p in problems), problems
    assert any(p.startswith("line 5:") and "puit" in p for p in problems), problems
    assert any(p.startswith("line 5:") and "paber" in p for p in problems), problems
    assert any(p.startswith("line 6:") and "name" in p for p in problems), problems
    assert any(p.startswith("line 6:") and "võib-olla" in p for p in problems), problems
    assert not any(p.startswith(("line 1:", "line 2:", "line 3:", "line 4:")) for p in problems), problems
    # The same file with its two bad rows mended reads whole, in English terms.
    good = ESTONIAN_DESK.split("\r\n")[:4] + [f"{b};Hunt {b};Põhi;Hundid;;jah;;;" for b in range(10, 14)]
    path.write_bytes(("\r\n".join(good) + "\r\n").encode("utf-8"))      # (five paid Wolves allow a healer)
    members = read_roster_csv(path, default_profile())
    jyri, mari, tonu = members[:3]
    assert (jyri.name, jyri.side, jyri.group, jyri.cls, jyri.paid) == ("Jüri Õunapuu", "Põhi", "Hundid", "warrior",
                                                                       True)
    assert (jyri.helmet, jyri.armour) == ("leather", ("chain", "plate"))
    assert (mari.cls, mari.paid, mari.helmet, mari.armour) == ("healer", True, None, ("leather",))
    assert (tonu.cls, tonu.paid, tonu.helmet, tonu.armour) == ("warrior", False, "metal", ("hardened_leather",))


# A desk's own spreadsheet: headers and names no alias knows, mapped by hand as a spreadsheet import does.
OWN_DESK = (
    "\ufeffKaart;Mängija;Leer;Salk nr;Roll;Tasu;Peakate;Rüü;Märkus\r\n"
    "11;Jüri;Põhi;Hundid;Sõdur;jah;nahkmüts;rõngassärk+plaat;\r\n"
    "12;Mari;Põhi;Hundid;sõdur;jah;;rõngassärk;\r\n"
    "13;Tõnu;Lõuna;Karud;Sõdur;ei;raudmüts;;\r\n"
)


def test_a_desk_file_with_its_own_headers_and_names_is_read_through_a_hand_made_mapping():
    from controlroom.game.roster_csv import RosterMapping, preview_roster_csv

    with pytest.raises(RosterImportError) as info:
        read_roster_csv(OWN_DESK, PROFILE)
    assert info.value.problems[0] == "line 1: missing column 'badge'"
    preview = preview_roster_csv(OWN_DESK, PROFILE)
    assert preview.headers[:3] == ["Kaart", "Mängija", "Leer"] and preview.columns[:3] == [None, None, None]
    assert preview.missing == ["badge", "name", "side", "group", "class", "paid", "helmet"]     # (Rüü: armour)
    assert preview.columns[7] == "armour" and preview.unknown == {"armour": ["rõngassärk"]}
    mapping = RosterMapping(columns={"kaart": "badge", "mängija": "name", "leer": "side", "salk nr": "group",
                                     "roll": "class", "tasu": "paid", "peakate": "helmet", "rüü": "armour",
                                     "märkus": ""})
    preview = preview_roster_csv(OWN_DESK, PROFILE, mapping)
    assert preview.missing == [] and preview.columns[-1] is None
    assert preview.unknown == {"class": ["sõdur"], "helmet": ["nahkmüts", "raudmüts"], "armour": ["rõngassärk"]}
    assert "warrior" in preview.choices["class"] and "chain" in preview.choices["armour"]
    # The names still unknown: every one a problem by line, nothing read.
    with pytest.raises(RosterImportError) as info:
        read_roster_csv(OWN_DESK, PROFILE, mapping)
    assert info.value.problems[:3] == [
        "line 2: unknown class 'Sõdur' (this ruleset knows: healer, warrior)",
        "line 2: unknown helmet 'nahkmüts' (known: leather, metal)",
        "line 2: unknown armour piece 'rõngassärk' (known: brigandine, chain, chain_on_gambeson, hardened_leather, "
        "leather, plate)"]
    assert [p.split(":")[0] for p in info.value.problems] == ["line 2"] * 3 + ["line 3"] * 2 + ["line 4"] * 2
    mapping.values = {"class": {"sõdur": "warrior"}, "helmet": {"nahkmüts": "leather", "raudmüts": "metal"},
                      "armour": {"rõngassärk": "chain"}}
    assert preview_roster_csv(OWN_DESK, PROFILE, mapping).unknown == {}
    members = read_roster_csv(OWN_DESK, PROFILE, mapping)
    assert [(m.badge, m.name, m.side, m.group, m.cls, m.paid, m.helmet, m.armour) for m in members] == [
        (11, "Jüri", "Põhi", "Hundid", "warrior", True, "leather", ("chain", "plate")),
        (12, "Mari", "Põhi", "Hundid", "warrior", True, None, ("chain",)),
        (13, "Tõnu", "Lõuna", "Karud", "warrior", False, "metal", ()),
    ]
    # Remembered as JSON and read back; a damaged memory is no mapping, not an error.
    again = RosterMapping.from_json(mapping.to_json())
    assert again == mapping
    assert RosterMapping.from_json({"columns": {"x": "no such column"}, "values": {"class": 3}}) == RosterMapping()
    assert RosterMapping.from_json("garbage") == RosterMapping()


def test_the_problems_speak_estonian_with_the_desks_own_column_names():
    """In Estonian every problem is in Estonian, its column named by one of the desk's own headers (which the
    reader takes), and the problems are still in line order."""
    from controlroom import i18n

    text = ("\ufeffNimi;Pool;Grupp;Klass;Makstud;Kiiver;Turvis\r\n"
            "Jüri;Põhi;Hundid;Sõdalane;jah;;\r\n")
    broken = ("\ufeffNr;Nimi;Pool;Grupp;Klass;Makstud;Kiiver;Turvis\r\n"
              "1;Jüri;Põhi;Hundid;Võlur;jah;;\r\n"
              "kolm;Mari;Põhi;Hundid;;võib-olla;;\r\n" + "".join(
                  f"{n};Mängija {n};Põhi;Hundid;;jah;;\r\n" for n in range(4, 12)) +
              "12;;Põhi;Hundid;;jah;;\r\n")
    i18n.choose("et")
    try:
        with pytest.raises(RosterImportError) as info:
            read_roster_csv(text, PROFILE)
        assert info.value.problems == ["rida 1: veerg 'märk' puudub"]
        with pytest.raises(RosterImportError) as info:
            read_roster_csv(broken, PROFILE)
        assert info.value.problems == [
            "rida 2: tundmatu klass 'Võlur' (see reeglistik tunneb: healer, warrior)",
            "rida 3: märk 'kolm' ei ole täisarv üle 0",
            "rida 3: makstud 'võib-olla' ei ole jah ega ei (sobivad: yes, no, true, false, 1, 0, jah, ei)",
            "rida 12: nimi puudub",
        ]
    finally:
        i18n.choose(None)
    # The same file in English: the same problems, in the words of docs/roster-csv.md.
    with pytest.raises(RosterImportError) as info:
        read_roster_csv(broken, PROFILE)
    assert info.value.problems[1:] == ["line 3: badge 'kolm' is not a whole number above 0",
                                       "line 3: paid 'võib-olla' is not yes or no (accepted: yes, no, true, false, "
                                       "1, 0, jah, ei)", "line 12: missing name"]


def test_the_command_speaks_estonian(tmp_path, db, capsys):
    """`controlroom --lang et roster import`: the problems, their count and the summary in Estonian."""
    from controlroom import i18n

    good = tmp_path / "laud.csv"
    good.write_bytes(("\ufeffNr;Nimi;Pool;Grupp;Klass;Makstud;Kiiver;Turvis\r\n"
                      "1;Jüri;Põhi;Hundid;Sõdalane;jah;nahk;ahel\r\n").encode("utf-8"))
    bad = tmp_path / "katki.csv"
    bad.write_bytes(("\ufeffNr;Nimi;Pool;Grupp;Klass;Makstud;Kiiver;Turvis\r\n"
                     "1;Jüri;Põhi;Hundid;Võlur;jah;nahk;ahel\r\n").encode("utf-8"))
    try:
        assert cli(["--lang", "et", "roster", "import", str(bad), "--db", str(db)]) == 1
        assert capsys.readouterr().err == (
            f"controlroom: {bad}: 1 probleem, midagi ei imporditud:\n"
            "  rida 2: tundmatu klass 'Võlur' (see reeglistik tunneb: healer, warrior)\n")
        assert cli(["--lang", "et", "roster", "import", str(good), "--db", str(db)]) == 0
        assert capsys.readouterr().out.strip() == (
            "Nimekiri imporditud: 1 mängija (1 lisatud, 0 muudetud, 0 eemaldatud, 0 muutmata) 1 grupis 1 poolel")
    finally:
        i18n.choose(None)


def test_adding_to_a_game_under_way_takes_only_new_players():
    from controlroom.game.roster_addition import plan_addition
    from controlroom.game.roster_csv import read_roster_entries

    game = [Member(1, "Aldo", "North", "Wolves"), Member(2, "Birgit", "North", "Wolves", paid=False),
            Member(3, "Carl", "South", "Ravens")]
    text = HEADER + ("1,Aldo,North,Wolves,warrior,yes,,\n"           # the same: already in the game
                     "4,Dora,North,Wolves,warrior,yes,,\n"           # new
                     "5,Eero,North,Bears,warrior,no,,\n")            # new, in a new group
    plan = plan_addition(read_roster_entries(text, PROFILE), game, PROFILE)
    assert (plan.problems, plan.unchanged, [m.badge for m in plan.new]) == ([], [1], [4, 5])
    # Anything else of a player the game has is a problem of its line; nothing is added then.
    text = HEADER + ("2,Birgit,North,Wolves,warrior,yes,leather,\n"
                     "6,Fred,North,Ravens,warrior,yes,,\n"
                     "7,Gunn,North,Wolves,warrior,yes,,\n")
    plan = plan_addition(read_roster_entries(text, PROFILE), game, PROFILE)
    assert plan.new == [] and plan.problems == [
        "line 2: badge 2 is already in the game as 'Birgit' (Wolves), and this line differs in: paid, helmet; "
        "a game under way only takes new players",
        "line 3: group 'Ravens' is on side 'South' in the game, not 'North'"]
