"""Night mode readable (contrast >= 4.5:1), the map dimmed by an adjustable overlay, clocks ticking each second."""

import itertools

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QAbstractButton, QApplication, QLabel, QLineEdit

from controlroom.core.thread import CoreThread
from controlroom.game.clock import VirtualClock
from controlroom.ui.app import build_window
from controlroom.ui.panels.clocks import ClockBar
from controlroom.ui.theme import DAY_TO_NIGHT, MIN_CONTRAST, NIGHT_PALETTE, TEXT_PAIRS, contrast, night_palette
from tests.support.desk_game import new_game

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


@pytest.fixture
def window(qtbot, tmp_path):
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    core = CoreThread(new_game(tmp_path / "night.crgame"), VirtualClock(120_000), publish_interval_ms=20)
    w = build_window(core, None, "night")
    qtbot.addWidget(w)
    w.show()
    with qtbot.waitSignal(core.loaded, timeout=10_000):
        core.start()
    yield w
    w.night_action.setChecked(False)
    assert core.shutdown()


def test_contrast_of_known_colours():
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)      # the classic just-too-light grey


def test_every_text_colour_of_the_night_palette_reads_at_4_5_to_1():
    p = night_palette()
    for text, background in TEXT_PAIRS:
        ratio = contrast(p.color(text), p.color(background))
        assert ratio >= MIN_CONTRAST, (text, background, ratio)
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText):
        disabled = p.color(QPalette.ColorGroup.Disabled, role)
        assert contrast(disabled, NIGHT_PALETTE[QPalette.ColorRole.Window]) >= MIN_CONTRAST
    # Each message colour's night twin reads on the night window and on the night fields.
    for night in set(DAY_TO_NIGHT.values()):
        for background in (QPalette.ColorRole.Window, QPalette.ColorRole.Base, QPalette.ColorRole.Button):
            assert contrast(night, NIGHT_PALETTE[background]) >= MIN_CONTRAST, (night, background)


def _texts(window):
    app = QApplication.instance()
    for widget in app.allWidgets():
        if isinstance(widget, (QLabel, QAbstractButton, QLineEdit)) and widget.window() is window:
            yield widget


def test_night_mode_makes_every_text_of_the_window_and_desks_readable(window, qtbot):
    controls = window.panels.panels["controls"]
    controls._say(controls.entry_message, "wrong badge", error=True)        # a red message set by day ...
    window.night_action.setChecked(True)
    controls._say(controls.scenario_message, "started")                      # ... and a green one at night
    window.desk_switch.show_desk("valhalla")                                # the desks are part of the window
    window.desk_switch.show_desk("map")
    qtbot.wait(50)                                                          # palette changes are delivered
    background = QColor(NIGHT_PALETTE[QPalette.ColorRole.Window])
    checked = 0
    for widget in _texts(window):
        widget.ensurePolished()
        if not widget.isEnabled():
            continue
        palette = widget.palette()
        fg = palette.color(widget.foregroundRole())
        # Text on the window's colour, or on the field's (line edits, buttons), as the widget draws it.
        bg = palette.color(widget.backgroundRole()) if isinstance(widget, (QLineEdit, QAbstractButton)) \
            else background
        if widget.objectName() == "alarm_text":
            continue                                # alarm rows draw on their own colour: tested with the alarms
        assert contrast(fg, bg) >= MIN_CONTRAST, (type(widget).__name__, widget.text(), fg.name(), bg.name())
        if isinstance(widget, QLineEdit) and widget.placeholderText():
            assert contrast(palette.color(QPalette.ColorRole.PlaceholderText), bg) >= MIN_CONTRAST, widget
        checked += 1
    assert checked > 30
    # The Valhalla desk's badge field: its placeholder could not be seen at night (issue 15).
    field = window.desk_switch.desks["valhalla"].badge_field
    assert field.placeholderText() and contrast(field.palette().color(QPalette.ColorRole.PlaceholderText),
                                                field.palette().color(QPalette.ColorRole.Base)) >= MIN_CONTRAST
    assert "#ff8a80" in controls.entry_message.styleSheet() and "#81c784" in controls.scenario_message.styleSheet()
    window.night_action.setChecked(False)
    assert "#c9302c" in controls.entry_message.styleSheet()                 # by day again


def test_night_dims_the_map_by_an_adjustable_overlay(window):
    overlay = window.map.overlay
    assert not overlay.isVisible()
    window.night_action.setChecked(True)
    assert overlay.isVisible() and -100 < overlay.zValue() < window.map.layer_item("groups").zValue()
    assert overlay.brush().color().alpha() == round(255 * 0.5)
    window.dim_actions[0.7].trigger()
    assert overlay.brush().color().alpha() == round(255 * 0.7)
    window.close()                                          # the level is kept for the next start
    assert QSettings().value("window/dim", type=float) == pytest.approx(0.7)
    window.night_action.setChecked(False)
    assert not overlay.isVisible()


def test_clocks_tick_every_second_without_events(qtbot):
    ticks = itertools.count(0, 1000)

    def game():  # a game clock one second further on each reading
        return next(ticks)

    clocks = ClockBar(game)
    qtbot.addWidget(clocks)
    assert clocks.timer.isActive() and clocks.timer.interval() <= 1000
    first = clocks.text()
    qtbot.waitUntil(lambda: clocks.text() != first, timeout=2500)          # no delta came in between
    assert clocks.text().startswith("Game 00:00:0") and "Wall " in clocks.text()


def test_the_scenario_running_time_follows_the_game_clock(window, qtbot):
    clocks = window.clocks
    assert clocks.started == 0                                          # "Ford" started at 00:00:00
    qtbot.waitUntil(lambda: "Ford: running 00:02:" in clocks.text(), timeout=3000)
    assert clocks in window.statusBar().findChildren(ClockBar)


def test_a_long_scenario_name_is_cut_not_the_clocks(qtbot):
    """A scenario's name of 46 letters in large text asked the status bar for 944 pixels: the window could
    not be made narrower than a laptop's screen.  The name is cut to the room there is, the clocks never."""
    clocks = ClockBar(lambda: 3_600_000)
    qtbot.addWidget(clocks)
    clocks.show()
    font = clocks.font()
    font.setPointSizeF(14)                          # the window's large text
    clocks.setFont(font)
    name = "The siege of Castle Northwatch, second assault"
    clocks.scenario, clocks.started = name, 0
    clocks.refresh()
    whole = clocks.text()
    assert whole.startswith("Game 01:00:00") and f"{name}: running 01:00:00" in whole
    assert clocks.toolTip() == whole
    fm = clocks.fontMetrics()
    assert clocks.sizeHint().width() >= fm.horizontalAdvance(whole)
    short = name[:ClockBar.NAME_LETTERS].rstrip() + "\u2026"
    assert clocks.minimumSizeHint().width() <= fm.horizontalAdvance(whole.replace(name, short)) + 8
    least = clocks.minimumSizeHint().width()
    for width in (least, (least + clocks.sizeHint().width()) // 2):
        clocks.resize(width, clocks.sizeHint().height())
        shown = clocks.shown()
        assert fm.horizontalAdvance(shown) <= clocks.contentsRect().width(), (width, shown)
        assert shown.startswith("Game 01:00:00   Wall ") and shown.endswith("\u2026: running 01:00:00"), shown
        assert short[:-1] in shown and clocks.text() == whole
    clocks.resize(clocks.sizeHint())
    assert clocks.shown() == whole
    clocks.scenario = "Demo battle"                 # a short name is never cut
    clocks.refresh()
    assert clocks.minimumSizeHint().width() >= fm.horizontalAdvance(clocks.text())


def test_night_swaps_text_colours_only_never_a_background():
    from controlroom.ui.panels.alarms import CLASS_COLOURS, row_style
    from controlroom.ui.theme import night_style

    safety = row_style(*CLASS_COLOURS["safety"])            # red background #c9302c, white text
    assert night_style(safety, True) == safety
    assert night_style("color: #c9302c; font-weight: bold;", True) == "color: #ff8a80; font-weight: bold;"
    assert night_style("color: #ff8a80;", False) == "color: #c9302c;"
    assert night_style("background-color: #c9302c;", True) == "background-color: #c9302c;"


@pytest.mark.parametrize("night", [True, False], ids=["night", "day"])
def test_the_legend_symbols_and_sides_read_at_3_to_1(window, qtbot, night):
    """Every symbol of the legend, and every side's colour, against what it is drawn on (graphics: WCAG's
    3:1): the legend's opaque background, or the dark chip a light symbol gets by day (the marshals' yellow
    on white is 1.4:1); its text at 4.5:1."""
    import re

    from controlroom.ui.map.layers import SIDE_COLOURS
    from controlroom.ui.map.legend import CHIP, DAY_BACKGROUND, NIGHT_BACKGROUND, NIGHT_TEXT, SYMBOLS
    from controlroom.ui.theme import MIN_GRAPHIC_CONTRAST

    window.night_action.setChecked(night)
    legend = window.map.legend
    legend.set_sides({f"Side {i}": c for i, c in enumerate(SIDE_COLOURS)})
    background, text = (NIGHT_BACKGROUND, NIGHT_TEXT) if night else (DAY_BACKGROUND, "#000000")
    assert f"background: {background};" in legend.styleSheet() and QColor(background).alpha() == 255
    assert contrast(text, background) >= MIN_CONTRAST
    marks = re.findall(r'<span style="(?:background-color:(#[0-9a-fA-F]{6}); )?color:(#[0-9a-fA-F]{6})">',
                       legend.text())
    drawn = {c.lower() for _chip, c in marks}
    assert {c for _s, c, _w in SYMBOLS} | set(SIDE_COLOURS) == drawn            # what is checked is what is drawn
    for chip, colour in marks:
        assert chip in ("", CHIP)
        assert contrast(colour, chip or background) >= MIN_GRAPHIC_CONTRAST, (colour, chip or background)
    if not night:
        marshal = next(c for _s, c, w in SYMBOLS if w == "marshal")
        assert (CHIP, marshal) in marks, "the yellow marshal is on its chip by day"
    # The dead: the legend's mark is the map's.
    from controlroom.ui.map.view import _LAYER_STYLE
    dead = next(c for _s, c, w in SYMBOLS if w == "dead")
    assert _LAYER_STYLE["casualties"][2] == dead
