"""The report lists the corrections: each report a game master took back, what it was and why (issue 15)."""

from controlroom.game.events import make_event
from controlroom.game.roster import Member
from controlroom.report.gather import load_report
from controlroom.report.pdf import listings
from controlroom.store.game import GameStore


def test_corrections_are_listed_and_left_out_of_the_figures(tmp_path):
    path = tmp_path / "fix.crgame"
    with GameStore.open(path) as store:
        store.save_roster([Member(1, "Aldo", "North", "Wolves"), Member(3, "Carl", "North", "Bears")])
        store.log.append([make_event(0, "scenario_started", "gm", name="Ford"),
                          make_event(60_000, "died", "gm", badge=1)])
        wrong = max(seq for seq, _e in store.log.events())
        store.log.append([make_event(70_000, "retracted", "gm", seq=wrong, reason="the marshal gave the wrong badge"),
                          make_event(71_000, "died", "gm", badge=3)])
        report = load_report(store)
    assert len(report.corrections) == 1
    c = report.corrections[0]
    assert (c.retracted, c.t, c.reason) == (wrong, 70_000, "the marshal gave the wrong badge")
    assert c.what.startswith("00:01:00 died: Aldo (1)")
    deaths = {p.name: p.deaths for p in report.players}
    assert deaths == {"Aldo": 0, "Carl": 1}
    listing = next(x for x in listings(report) if x.title == "Corrections")
    assert listing.rows == [(c.seq, "00:01:10", c.what, "the marshal gave the wrong badge", c.by)]
