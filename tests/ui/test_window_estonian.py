"""The window in Estonian (issue 20): every text translated, placeholders kept, the translator loaded, no text cut.

The Qt Linguist source is resources/i18n/window_et.ts; Qt's lupdate reads
controlroom/ui.  A text added to the window without an Estonian translation
fails the first test (run lupdate as installer/translations.py says, translate
the new entries, and run it again).
"""

import ast
import json
import os
import re
import shutil
import string
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QSettings, Qt, QTranslator
from PySide6.QtWidgets import QApplication, QDockWidget, QMessageBox, QPushButton

from controlroom import i18n
from controlroom.ui import language
from tests.support.desk_game import new_game
from tests.support.small_png import save_small

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
TS = ROOT / "resources" / "i18n" / "window_et.ts"
SHOTS = ROOT / "docs" / "screenshots"
LUPDATE = Path(sys.executable).parent / "pyside6-lupdate"

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


def messages(path: Path) -> dict[tuple[str, str], list[str] | None]:
    """{(context, source): its translations (one, or a plural's forms), or None while unfinished}."""
    out = {}
    for context in ET.parse(path).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            node = message.find("translation")
            finished = node is not None and node.get("type") not in ("unfinished", "vanished", "obsolete")
            forms = [f.text or "" for f in node.iter("numerusform")] if message.get("numerus") == "yes" \
                else [node.text or ""] if node is not None else []
            out[(name, message.findtext("source"))] = forms if finished and forms and all(forms) else None
    return out


@pytest.mark.skipif(not LUPDATE.exists(), reason="pyside6-lupdate is installed with PySide6")
def test_every_window_text_has_a_finished_estonian_translation(tmp_path):
    fresh = tmp_path / "window_et.ts"
    done = subprocess.run([str(LUPDATE), "-extensions", "py", str(ROOT / "controlroom" / "ui"), "-ts", str(fresh),
                           "-locations", "none"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    found = messages(fresh)
    assert len(found) > 500, f"lupdate found only {len(found)} texts"
    known = messages(TS)
    missing = [key for key in found if known.get(key) is None]
    assert missing == [], "no Estonian in resources/i18n/window_et.ts for:\n" + "\n".join(
        f"  [{c}] {s!r}" for c, s in missing)


def test_no_window_text_is_hidden_from_lupdate():
    """lupdate reads tr("literal") and translate("Context", "literal") only: not inside f-strings, not on
    another object's tr (its context would be that object's class at run time), not a helper's."""
    hidden = []
    for path in sorted((ROOT / "controlroom" / "ui").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                hidden += [f"{path.name}:{node.lineno} tr inside an f-string" for call in ast.walk(node)
                           if isinstance(call, ast.Call) and getattr(call.func, "attr", "") in ("tr", "translate")]
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            literal = isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
            if isinstance(func, ast.Attribute) and func.attr == "tr" and literal:
                if not (isinstance(func.value, ast.Name) and func.value.id == "self"):
                    hidden.append(f"{path.name}:{node.lineno} {ast.unparse(func)}(...)")
            elif isinstance(func, ast.Name) and func.id in ("tr", "_tr") and literal:
                hidden.append(f"{path.name}:{node.lineno} module-level {func.id}(...)")
    assert hidden == [], hidden


def fields(text: str) -> tuple:
    """The placeholders a text fills: str.format fields (with their format), Qt's %1 and %n, and accelerators."""
    formatted = sorted((name, spec) for _lit, name, spec, _conv in string.Formatter().parse(text)
                       if name is not None)
    return tuple(formatted), tuple(sorted(re.findall(r"%(?:\d+|n)", text))), text.replace("&&", "").count("&")


def test_every_translation_fills_the_same_placeholders_as_its_source():
    wrong = [(c, s, t) for (c, s), forms in messages(TS).items() if forms for t in forms if fields(s) != fields(t)]
    assert wrong == [], wrong


def test_fields_see_a_lost_placeholder():
    assert fields("{name} (badge {badge})") != fields("{name} (märk)")
    assert fields("{lat:.4f}") != fields("{lat}")
    assert fields("+%n more") != fields("+ veel")
    assert fields("&Game") != fields("Mäng")


@pytest.fixture
def estonian(monkeypatch):
    """This process's application speaks Estonian while the test runs (the .qm compiled if need be)."""
    monkeypatch.setenv("CONTROLROOM_LANG", "et")
    i18n.choose(None)
    app = QApplication.instance()
    translator = language.install_translator(app, "et")
    assert translator is not None and not isinstance(translator, language.TsTranslator), "window_et.qm"
    yield app
    app.removeTranslator(translator)
    app.setProperty("controlroom_translator", None)


def test_the_window_speaks_estonian(qtbot, tmp_path, estonian):
    from controlroom.core.thread import CoreThread
    from controlroom.game.clock import VirtualClock
    from controlroom.ui.app import build_window

    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    core = CoreThread(new_game(tmp_path / "et.crgame"), VirtualClock(120_000), publish_interval_ms=20)
    window = build_window(core, None, "et")
    qtbot.addWidget(window)
    window.show()
    with qtbot.waitSignal(core.loaded, timeout=10_000):
        core.start()
    try:
        assert [a.text() for a in window.menuBar().actions()] == ["&Mäng", "&Redigeeri", "&Vaade", "&Abi"]
        titles = {d.objectName(): d.windowTitle() for d in window.findChildren(QDockWidget)}
        assert titles == {"dock_alarms": "Häired", "dock_deadlines": "Suremine ja ärkamine",
                          "dock_timeline": "Sündmused", "dock_controls": "Juhtimine", "dock_valhalla": "Valhalla",
                          "dock_siege": "Piiramine", "dock_radio": "Raadio"}
        controls = window.panels.panels["controls"]
        assert "STOPP kõigile" in [b.text() for b in controls.findChildren(QPushButton)]
        view = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Vaade")
        texts = [a.text() for a in view.actions()]
        assert "&Keel" in texts and "La&ud" in texts and "&Öörežiim" in texts, texts
        # Words of the panels, through QT_TRANSLATE_NOOP and the "panels" context.
        deadlines = window.panels.panels["deadlines"]
        model = deadlines.view.model()
        headers = [model.headerData(c, Qt.Orientation.Horizontal)
                   for c in range(model.columnCount())]
        assert headers == ["Aega", "Mis", "Kes", "Grupp", "Pool"], headers
        assert "Pooled" in window.map.legend.text()
        assert QCoreApplication.translate("AlarmBanner", "+%n more", "", 3) == "+3 veel"       # a plural form
        # Texts of the window's mixins (their own Qt contexts, WindowEntries and WindowMaps): PySide6's tr
        # looks through the window's classes in turn.
        window.entries.undo_last_entry()
        assert window.status.text() == "Pole midagi tagasi võtta: ükski sinu kanne ei oota."
        window.maps._map_kept(type("Kept", (), {"name": "field.png", "problem": ""})())
        assert window.status.text() == "Kaart field.png on mänguga kaasas."
        # View, Language: the choice is remembered, and applies at the next start.
        window.language_actions["en"].trigger()
        assert QSettings().value("language") == "en" and language.saved_language() == "en"
        box = window._language_box
        assert isinstance(box, QMessageBox) and "English" in box.text() and "Järgmisest käivitusest" in box.text()
        box.close()
    finally:
        assert core.shutdown()
        QSettings().remove("language")


def test_a_missing_or_stale_qm_is_compiled_into_the_cache(tmp_path, qapp):
    if language.lrelease() is None:
        pytest.skip("Qt's lrelease is installed with PySide6")
    ts = tmp_path / "i18n" / "window_et.ts"
    ts.parent.mkdir()
    shutil.copy(TS, ts)
    cache = tmp_path / "cache"
    qm = language.qm_path("et", cache=cache, ts=ts)
    assert qm.parent == cache and qm.name.startswith("window_et-") and qm.suffix == ".qm" and qm.is_file()
    translator = QTranslator()
    assert translator.load(str(qm))
    assert translator.translate("MainWindow", "&Game") == "&Mäng"
    assert translator.translate("AlarmBanner", "+%n more", None, 3) == "+%n veel"
    first = qm.stat().st_mtime_ns
    assert language.qm_path("et", cache=cache, ts=ts) == qm and qm.stat().st_mtime_ns == first   # fresh: kept
    # The .ts changed (another checkout's, or a newer version's, sharing the cache): its own file, compiled.
    ts.write_text(ts.read_text(encoding="utf-8").replace(">&amp;Mäng<", ">&amp;Mängu<"), encoding="utf-8")
    changed = language.qm_path("et", cache=cache, ts=ts)
    assert changed != qm and changed.is_file() and qm.is_file()
    translator = QTranslator()
    assert translator.load(str(changed)) and translator.translate("MainWindow", "&Game") == "&Mängu"
    shipped = ts.with_suffix(".qm")
    shutil.copy(qm, shipped)                             # one beside the .ts, up to date: that one
    assert language.qm_path("et", cache=cache, ts=ts) == shipped


def test_without_a_qm_the_ts_is_read_directly(qapp):
    translator = language.TsTranslator(i18n.read_ts(TS.read_text(encoding="utf-8")))
    qapp.installTranslator(translator)
    try:
        assert QCoreApplication.translate("MainWindow", "&View") == "&Vaade"
        assert QCoreApplication.translate("panels", "unconscious") == "teadvuseta"
        assert QCoreApplication.translate("MainWindow", "not a text of the window") == "not a text of the window"
        # Plural forms: the form for the count, not the blank of the forms' parent node.
        assert QCoreApplication.translate("AlarmBanner", "+%n more", None, 5) == "+5 veel"
        assert QCoreApplication.translate("AlarmBanner", "+%n more", None, 1) == "+1 veel"
    finally:
        qapp.removeTranslator(translator)


@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed (the quick-start test command "
                                                         "installs it)")
def test_the_estonian_window_fits_a_laptop_screen(tmp_path):
    """The demo in Estonian in a real X window of 1366 x 768: no tab title, button or column cut by longer words.
    The run saves docs/screenshots/window-et.png when CONTROLROOM_SAVE_SCREENSHOTS=1."""
    read, write = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1366x768x24", "-nolisten", "tcp"],
                            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    try:
        with os.fdopen(read) as f:
            number = f.readline().strip()
        assert number, "Xvfb did not start"
        env = dict(os.environ, DISPLAY=f":{number}", QT_QPA_PLATFORM="xcb", CONTROLROOM_LANG="et",
                   XDG_DATA_HOME=str(tmp_path / "data"), XDG_CONFIG_HOME=str(tmp_path / "config"),
                   XDG_STATE_HOME=str(tmp_path / "state"), XDG_CACHE_HOME=str(tmp_path / "cache"))
        out, shot = tmp_path / "layout.json", tmp_path / "window.png"
        r = subprocess.run([sys.executable, str(HERE.parent / "support" / "window_probe.py"), str(out), str(shot), "8"],
                           capture_output=True, text=True, timeout=180, env=env)
        assert r.returncode == 0, r.stderr
    finally:
        xvfb.terminate()
        xvfb.wait(10)
    if os.environ.get("CONTROLROOM_SAVE_SCREENSHOTS") == "1":       # the docs' screenshot, when asked
        SHOTS.mkdir(parents=True, exist_ok=True)
        save_small(shot, SHOTS / "window-et.png")
    m = json.loads(out.read_text())
    assert m["menus"] == ["&Mäng", "&Redigeeri", "&Vaade", "&Abi"]
    assert m["dock_titles"]["dock_timeline"] == "Sündmused"
    for tab in m["tabs"]:
        assert tab["width"] >= tab["needs"], tab
    for button in m["controls_buttons"]:
        assert button["width"] >= button["needs"], button
    assert any(b["text"] == "STOPP kõigile" and b["shown"] for b in m["controls_buttons"])
    for key, column in m["dying"]["columns"].items():
        if key in ("countdown", "what", "who"):
            assert not column["hidden"] and column["width"] >= column["needs"], (key, column)


def test_a_cut_cached_qm_is_not_used_and_is_made_again(tmp_path, qapp, monkeypatch):
    """A .qm left cut in the cache (a window killed while compiling, a full disk): the window falls back to
    the .ts read directly, and the file is removed so that the next start compiles it again."""
    if language.lrelease() is None:
        pytest.skip("Qt's lrelease is installed with PySide6")
    monkeypatch.setattr(language, "cache_dir", lambda: tmp_path)
    ts = Path(str(i18n.ts_path(language.DOMAIN, "et")))
    if ts.with_suffix(".qm").is_file() and ts.with_suffix(".qm").stat().st_mtime >= ts.stat().st_mtime:
        monkeypatch.setattr(language, "_fresh", lambda qm, ts: False)      # (a checkout with a compiled one)
    qm = language.qm_path("et")
    assert qm is not None and qm.parent == tmp_path / "i18n"
    qm.write_bytes(qm.read_bytes()[:40])                    # cut
    translator = language.install_translator(qapp, "et")
    try:
        assert isinstance(translator, language.TsTranslator)
        assert QCoreApplication.translate("MainWindow", "&View") == "&Vaade"
        assert not qm.exists(), "the cut file is removed"
        assert language.qm_path("et") == qm and qm.stat().st_size > 40          # made again, whole
        assert not list(qm.parent.glob("*.part")), "no piece of a compilation is left"
    finally:
        qapp.removeTranslator(translator)


def test_qts_own_buttons_speak_estonian(qapp):
    """Qt has no Estonian of its own (no qtbase_et.qm): the window's translations give its standard buttons
    and its file dialog's words."""
    from PySide6.QtWidgets import QDialogButtonBox

    translator = language.TsTranslator(i18n.read_ts(TS.read_text(encoding="utf-8")))
    qapp.installTranslator(translator)
    try:
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
                               | QDialogButtonBox.StandardButton.Close)
        texts = {b.text() for b in box.buttons()}
        assert texts == {"OK", "Loobu", "Sulge"}, texts
        box.deleteLater()
        # Qt's own file dialog (no desktop's dialog on this platform): its labels and buttons.
        from PySide6.QtWidgets import QFileDialog, QLabel

        dialog = QFileDialog(None, "x", str(ROOT), "CSV (*.csv)")
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
        labels = {label.text() for label in dialog.findChildren(QLabel)}
        assert {"&Kaust:", "Faili &nimi:", "Faili&tüüp:"} <= labels, labels
        assert "&Look in:" not in labels
        buttons = {b.text() for b in dialog.findChildren(QDialogButtonBox)[0].buttons()}
        assert buttons == {"&Ava", "Loobu"}, buttons
        dialog.deleteLater()
    finally:
        qapp.removeTranslator(translator)
