"""`controlroom report`: the PDF read back with pdftotext and the CSV with the csv module agree
with each other and with `controlroom replay --json`."""

import csv
import json
import re
from collections import defaultdict

import pytest

from controlroom.cli import main
from controlroom.game.events import make_event
from controlroom.game.roster import Member
from controlroom.store.game import GameStore
from tests.support.pdf_inspect import pdftotext
from tests.support.report_helpers import store_script

NUMBERS = 7         # figures per row of the side and group summaries


def section(text: str, start: str, end: str) -> str:
    return text[text.index(start):text.index(end, text.index(start))]


def figure_rows(text: str) -> dict[str, list[int]]:
    """Rows of a summary table: the name(s) before the figures, and the figures."""
    rows = {}
    for line in text.splitlines():
        m = re.match(r"^\s*(\S.*?)((?:\s+\d+){%d})\s*$" % NUMBERS, line)
        if m:
            rows[" ".join(m.group(1).split())] = [int(n) for n in m.group(2).split()]
    return rows


def read_csv(path) -> list[dict]:
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf"), "the CSV starts with the UTF-8 byte-order mark"
    with open(path, encoding="utf-8-sig", newline="") as f:
        return list(csv.DictReader(f))


@pytest.fixture
def exported(tmp_path, capsys):
    db = tmp_path / "lahing.crgame"
    store_script(db)
    out = tmp_path / "out"
    assert main(["report", "--db", str(db), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert main(["replay", "--db", str(db), "--json"]) == 0
    replay = json.loads(capsys.readouterr().out)
    return db, out, printed, replay


def test_every_figure_in_the_pdf_equals_the_csv_sums_and_the_replay(exported):
    _db, out, printed, replay = exported
    assert "Lõuna lahing (the whole game" in printed and "5 deaths" in printed
    players = read_csv(out / "Lõuna-lahing-players.csv")
    pages = pdftotext(out / "Lõuna-lahing.pdf")
    text = "\n".join(pages)

    csv_sides = defaultdict(lambda: [0] * NUMBERS)
    csv_groups = defaultdict(lambda: [0] * NUMBERS)
    for p in players:
        figures = [1] + [int(p[k]) for k in ("deaths", "knockouts", "fell", "healed", "touches_used", "valhalla")]
        for key, table in ((p["side"], csv_sides), (f"{p['side']} {p['group']}", csv_groups)):
            table[key] = [a + b for a, b in zip(table[key], figures)]
    pdf_sides = figure_rows(section(text, "Summary per side", "Deaths over game time"))
    total = pdf_sides.pop("All sides")
    assert pdf_sides == dict(csv_sides)
    assert total == [sum(col) for col in zip(*csv_sides.values())]
    for side, figures in pdf_sides.items():
        assert figures[1] == replay["sides"][side]["deaths"]
    assert total[6] == len(replay["valhalla"])
    pdf_groups = figure_rows(section(text, "Summary per group", "Safety report"))
    assert pdf_groups == dict(csv_groups)

    end = section(text, "At the end of the game", "Summary per group")
    for side, counts in replay["sides"].items():
        line = next(x for x in end.splitlines() if x.strip().startswith(side))
        assert [int(n) for n in line.split()[-5:]] == [counts[k] for k in (
            "active", "unconscious", "knocked_out", "dead", "in_valhalla")]

    key = section(text, "Key figures", "Summary per side")
    assert re.search(r"Deaths\s+5\b", key) and re.search(r"STOPP calls ruled trivial\s+1\b", key)
    assert re.search(r"Rule warnings\s+%d\b" % len(replay["warnings"]), key)


def test_the_casualty_and_stopp_csvs_hold_every_event_with_who_reported_it(exported):
    db, out, _printed, replay = exported
    rows = read_csv(out / "Lõuna-lahing-casualties.csv")
    with GameStore.open(db, create=False) as store:
        about_characters = [e for _s, e in store.events() if "badge" in e.data and e.type not in ("looted",)]
    assert len(rows) == len(about_characters)
    deaths = [r for r in rows if r["event"] in ("died", "permanent_kill") and r["counted"] == "yes"]
    assert len(deaths) == sum(s["deaths"] for s in replay["sides"].values())
    strike = next(r for r in rows if r["event"] == "strike" and r["badge"] == "14")
    assert strike["counted"] == "no" and "is dead" in strike["rule_warning"]
    assert strike["reported_by"] == "Tõnu Tamm (marshal handset 8)" and strike["name"] == "Jüri"
    assert strike["wall_time"].startswith("2026-05-") and strike["game_time"] == "00:06:00"
    timer = next(r for r in rows if r["source"] == "timer")
    assert timer["reported_by"] == "rule timer"
    assert {r["scenario"] for r in rows} == {"Silla kaitse", "Lipu vallutus"}
    stopps = read_csv(out / "Lõuna-lahing-stopps.csv")
    assert [(s["stopp"], s["duration"], s["ruled_trivial"], s["caller"]) for s in stopps] == [
        ("S1", "00:02:30", "no", "Saara"), ("S2", "00:01:00", "yes", "Carl")]
    assert [s["id"] for s in replay["stopps"]] == ["S1", "S2"]


def test_the_pdf_lists_valhalla_stopps_siege_loot_and_warnings(exported):
    _db, out, _printed, replay = exported
    text = "\n".join(pdftotext(out / "Lõuna-lahing.pdf"))
    roster = section(text, "Valhalla roster", "Unreturned loot")
    for v in replay["valhalla"]:
        line = next(x for x in roster.splitlines() if x.strip().startswith(v["name"]))
        assert v["side"] in line and re.search(r"\b%d\s+%s\b" % (v["badge"], re.escape(v["side"])), line)
    safety = section(text, "Safety report", "Siege engine losses")
    assert "2 STOPP calls, 1 of them ruled trivial" in safety
    assert re.search(r"S1\s+00:07:00\s+58\.38100,.*injury\s+00:02:30\s+no\s+3\s+Tõnu Tamm", safety)
    assert re.search(r"S2\s+01:02:00\s+the whole.*unpleasant\s+00:01:00\s+yes\s+8\s+Maret Kask", safety)
    assert re.search(r"Jäär\s+Põhi\s+destroyed", text)
    loot = section(text, "Unreturned loot", "Appendix: rule warnings")
    assert re.search(r"Aldo \(1\)\s+Põhi\s+Birgit \(2\)\s+Põhi\s+given\s+mõõk, kilp", loot)
    assert re.search(r"Saara \(11\)\s+Lõuna\s+Aldo \(1\)\s+Põhi\s+NOT GIVEN\s+mõõk", loot)
    appendix = text[text.index("Appendix: rule warnings"):]
    for w in replay["warnings"]:
        assert w["message"] in " ".join(appendix.split())


def test_every_page_has_the_game_the_date_and_its_number(exported):
    _db, out, _printed, _replay = exported
    pages = pdftotext(out / "Lõuna-lahing.pdf")
    assert len(pages) >= 2             # (the listings follow the document on its last page)
    for i, page in enumerate(pages, 1):
        assert "Lõuna lahing · the whole game · 2026-05-" in page
        assert f"Page {i} of {len(pages)}" in page


def test_a_scenario_report_and_the_format_choice(tmp_path, capsys, game_db):
    db = game_db                        # a game file, then a PostgreSQL database when CI gives a server
    store_script(db)
    out = tmp_path / "out"
    assert main(["report", "--db", str(db), "--out", str(out), "--scenario", "Lipu vallutus",
                 "--format", "csv"]) == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "Lõuna-lahing-Lipu-vallutus-casualties.csv", "Lõuna-lahing-Lipu-vallutus-players.csv",
        "Lõuna-lahing-Lipu-vallutus-stopps.csv"]
    players = read_csv(out / "Lõuna-lahing-Lipu-vallutus-players.csv")
    assert sum(int(p["deaths"]) for p in players) == 2
    assert main(["report", "--db", str(db), "--out", str(out), "--scenario", "Lipu vallutus",
                 "--format", "pdf"]) == 0
    text = "\n".join(pdftotext(out / "Lõuna-lahing-Lipu-vallutus.pdf"))
    assert "Scenario Lipu vallutus" in text
    assert re.search(r"Deaths\s+2\b", section(text, "Key figures", "Summary per side"))


@pytest.mark.parametrize("args, message, code", [
    (["--format", "docx"], "--format takes pdf, csv and xlsx", 2),
    (["--delimiter", ";;"], "--delimiter takes one character (or 'tab'), not ';;'", 2),
    (["--scenario", "Nope"], "no scenario 'Nope' (its scenarios: 'Silla kaitse', 'Lipu vallutus')", 1),
])
def test_wrong_choices_are_clear_errors(tmp_path, capsys, args, message, code):
    db = tmp_path / "lahing.crgame"
    store_script(db)
    assert main(["report", "--db", str(db), "--out", str(tmp_path / "out"), *args]) == code
    assert message in capsys.readouterr().err
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_a_missing_game_or_an_unwritable_folder_is_a_clear_error(tmp_path, capsys):
    assert main(["report", "--db", str(tmp_path / "none.crgame"), "--out", str(tmp_path)]) == 1
    assert "does not exist" in capsys.readouterr().err
    db = tmp_path / "lahing.crgame"
    store_script(db)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    assert main(["report", "--db", str(db), "--out", str(blocker / "out"), "--format", "csv"]) == 1
    assert "the report could not be written" in capsys.readouterr().err


def test_long_listings_run_over_many_pages_with_nothing_left_out(tmp_path, capsys):
    """A Valhalla roster of 400 and 1,500 rule warnings: drawn as listings, page after page."""
    members = [Member(b, f"Mängija {b}", ("Põhi", "Lõuna")[b % 2], f"Rühm {b % 8}", "warrior")
               for b in range(1, 401)]
    events = [make_event(0, "scenario_started", name="Suur lahing")]
    events += [make_event(1000 + b, "permanent_kill", "marshal:7", badge=b) for b in range(1, 401)]
    events += [make_event(600_000 + b, "valhalla_checkin", "marshal:9", badge=b) for b in range(1, 401)]
    events += [make_event(700_000 + i, "strike", "marshal:7", badge=1 + i % 400) for i in range(1500)]
    db = tmp_path / "suur.crgame"
    with GameStore.open(db) as store:
        store.save_roster(members)
        store.set_meta("name", "Suur lahing")
        store.log.append(events)
    out = tmp_path / "out"
    assert main(["report", "--db", str(db), "--out", str(out), "--format", "pdf"]) == 0
    pages = pdftotext(out / "Suur-lahing.pdf")
    text = "\n".join(pages)
    roster = section(text, "Valhalla roster", "Unreturned loot")
    assert len(re.findall(r"Mängija \d+\s+\d+\s+(?:Põhi|Lõuna)\s+Rühm \d\s+1\s+1\s", roster)) == 400
    appendix = text[text.index("Appendix: rule warnings"):]
    assert " ".join(appendix.split()).count("is dead: strike does not apply") == 1500     # (a warning may wrap)
    appendix_pages = [p for p in pages if "is dead: strike does not" in p]
    assert len(appendix_pages) >= 10
    for page in appendix_pages:            # the column headings on every page of the listing
        assert re.search(r"Log #\s+Game time\s+Event\s+Badge\s+Rule\s+Warning", page)
    assert all(f"Page {i} of {len(pages)}" in p for i, p in enumerate(pages, 1))


def test_the_csv_delimiter_follows_the_language_and_can_be_chosen(tmp_path, capsys, monkeypatch):
    """Estonian spreadsheets read semicolons, English ones commas; --delimiter overrides both; the cells are the
    same."""
    db = tmp_path / "lahing.crgame"
    store_script(db)
    monkeypatch.delenv("CONTROLROOM_LANG", raising=False)
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    for lang, flag, delimiter in (("et_EE.UTF-8", [], ";"), ("en_GB.UTF-8", [], ","),
                                  ("et_EE.UTF-8", ["--delimiter", ","], ","),
                                  ("C.UTF-8", ["--delimiter", "tab"], "\t")):
        monkeypatch.setenv("LANG", lang)
        reference = tmp_path / f"reference-{lang}"       # the same language's texts (rule warnings), comma separated
        if not reference.exists():
            assert main(["report", "--db", str(db), "--out", str(reference), "--format", "csv",
                         "--delimiter", ","]) == 0
        out = tmp_path / f"out-{lang}-{len(flag)}"
        assert main(["report", "--db", str(db), "--out", str(out), "--format", "csv", *flag]) == 0
        for path in sorted(out.glob("*.csv")):
            with open(path, encoding="utf-8-sig", newline="") as f:
                assert f.readline().count(delimiter) >= 5, (lang, flag, path.name)
                f.seek(0)
                rows = list(csv.DictReader(f, delimiter=delimiter))
            assert rows == read_csv(reference / path.name), (lang, flag, path.name)


def test_the_xlsx_workbook_reads_back_with_openpyxl_equal_to_the_csv(tmp_path, capsys):
    from openpyxl import load_workbook

    db = tmp_path / "lahing.crgame"
    store_script(db)
    out = tmp_path / "out"
    assert main(["report", "--db", str(db), "--out", str(out), "--format", "csv,xlsx", "--delimiter", ","]) == 0
    assert "Lõuna-lahing.xlsx" in capsys.readouterr().out
    book = load_workbook(out / "Lõuna-lahing.xlsx", read_only=True)
    assert book.sheetnames == ["casualties", "players", "stopps"]
    for name in book.sheetnames:
        rows = list(book[name].iter_rows(values_only=True))
        expected = read_csv(out / f"Lõuna-lahing-{name}.csv")
        assert list(rows[0]) == list(expected[0].keys()) if expected else True
        assert len(rows) - 1 == len(expected), name
        for got, want in zip(rows[1:], expected):
            for column, value in zip(rows[0], got):
                text = "" if value is None else value
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    assert float(want[column]) == pytest.approx(float(value)), (name, column)
                else:
                    assert str(text) == want[column], (name, column)
    players = {r[0]: r for r in list(book["players"].iter_rows(values_only=True))[1:]}
    assert all(isinstance(badge, int) for badge in players), "badges are numbers in the workbook"
