"""The report's radio coverage page: the cells and gateways of the log, read back from the PDF; none without radio."""

from controlroom.cli import main
from controlroom.game.devices import RadioMeta
from controlroom.game.events import make_event
from controlroom.game.roster import Member
from controlroom.store.devices import register_device
from controlroom.store.game import GameStore
from tests.support.pdf_inspect import pdftotext


def radio_game(path, with_radio=True):
    with GameStore.open(path) as store:
        store.save_roster([Member(1, "Aldo", "North", "Wolves"), Member(2, "Gerd", "South", "Ravens")])
        items = [make_event(1000, "down", "gm", badge=1)]
        if with_radio:
            register_device(store, 31, "marshal", "")
            for i in range(8):      # north in steps of about 33 m; gateway 2 hears the first four only
                signals = "1:-90:4,2:-112:-11.5" if i < 4 else "1:-92:3"
                items.append((make_event(2000 + 1000 * i, "position", "marshal:31", device=31, lat=58.38 + 3e-4 * i,
                                         lon=26.72), RadioMeta(31, 100 + i + (i >= 6) * 2, -90.0, 4.0,
                                                               tuple(p[0] for p in signals.split(",")), None,
                                                               signals)))
            # A report from the last cell (wants an acknowledgement: a position is never retried) and its retries
            items.append((make_event(9400, "down", "marshal:31", badge=2), RadioMeta(31, 110, -92.0, 3.0, ("1",), None,
                                                                                   "1:-92:3")))
            items.append(make_event(9500, "radio_retried", "marshal:31", device=31, counter=110, tries=2))
        store.log.append(items)
    return str(path)


def test_the_pdf_has_a_coverage_page_of_the_logs_cells_and_gateways(tmp_path, qapp):
    game = radio_game(tmp_path / "radio.crgame")
    assert main(["report", "--db", game, "--out", str(tmp_path / "out"), "--format", "pdf"]) == 0
    (pdf,) = (tmp_path / "out").glob("*.pdf")
    pages = pdftotext(pdf)
    page = next(p for p in pages if "Radio coverage observed" in p)
    assert pages[-1] is page                                     # the last page, one of its own
    assert "from 9 frames sent from 8 cells" in " ".join(page.split())
    assert "needed retries (1) or went missing (2)" in " ".join(page.split())
    rows = {line.split()[0]: line.split()[1:] for line in page.splitlines() if line.strip()[:1] in ("1", "2")
            and len(line.split()) >= 4}
    assert rows["1"][:2] == ["8", "9"] and rows["2"][:2] == ["4", "4"]


def test_a_game_without_radio_has_no_coverage_page(tmp_path, qapp):
    game = radio_game(tmp_path / "quiet.crgame", with_radio=False)
    assert main(["report", "--db", game, "--out", str(tmp_path / "out"), "--format", "pdf"]) == 0
    (pdf,) = (tmp_path / "out").glob("*.pdf")
    assert not any("Radio coverage" in p for p in pdftotext(pdf))

