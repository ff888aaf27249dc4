"""The replay window (issue 19): a stored game scrubbed through, read-only, with what it shows checked."""

import hashlib
import json
import os
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from controlroom.cli import main
from controlroom.game.clock import format_time
from controlroom.store.replay import open_replay
from controlroom.ui.replay.window import ReplayWindow
from tests.support.replay_battle import store_battle
from tests.support.thread_seen import gui_thread, watch_thread

# The offscreen platform's note about docked windows (as in test_desk_switch.py).
pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


@pytest.fixture(scope="module")
def battle(tmp_path_factory):
    return store_battle(tmp_path_factory.mktemp("replayui") / "battle.crgame", players=300, n_events=4000)


def sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@pytest.fixture
def window(qtbot, battle, tmp_path):
    w = ReplayWindow(partial(open_replay, battle, every=400, maps_folder=tmp_path), "battle")
    qtbot.addWidget(w)
    w.resize(1200, 800)
    w.show()
    with qtbot.waitSignal(w.moment_shown, timeout=60_000):
        pass
    yield w
    w.close()


def seek_and_wait(qtbot, w, t: int) -> None:
    with qtbot.waitSignal(w.moment_shown, timeout=30_000, check_params_cb=lambda shown: shown == t):
        w.seek(t)


def test_the_moments_shown_are_the_replay_commands(window, qtbot, battle, capsys):
    w = window
    lo, hi = w.range
    for t in (lo + (hi - lo) * k // 7 // 1000 * 1000 for k in (6, 1, 4, 2)):
        seek_and_wait(qtbot, w, t)
        assert main(["replay", "--db", str(battle), "--until", format_time(t), "--json"]) == 0
        summary = json.loads(capsys.readouterr().out)
        assert w.moment.t == t and w.time_label.text() == format_time(t)
        assert w.moment.delta.sides == summary["sides"]
        # The panels: the sides' line, the dying list, Valhalla and the timeline at that moment.
        for side, counts in summary["sides"].items():
            assert w.sides.labels[side].text() == w.sides.side_text(side, counts)
        deadlines = w.panels["deadlines"].model.rows
        assert len([r for r in deadlines if r.badge is not None]) == len(
            [d for d in summary["deadlines"] if "badge" in d])
        dead = {int(b) for b, c in summary["characters"].items() if c["state"] == "dead"}
        assert {f.badge for f in w.panels["valhalla"].data.fallen() if f.dead} == dead
        rows = w.panels["timeline"].model.rows
        assert rows and rows[-1].event.t <= t and all(r.event.t <= t for r in rows)


def test_step_to_deaths_stopps_and_kinds_and_the_scenario_selector(window, qtbot):
    w = window
    deaths = w.facts.moments["death"]
    assert len(deaths) > 10
    seek_and_wait(qtbot, w, deaths[5])
    w.kind.setCurrentIndex(w.kind.findData("death"))
    with qtbot.waitSignal(w.moment_shown, timeout=30_000):
        w.step_next()
    assert w.t == next(d for d in deaths if d > deaths[5])
    with qtbot.waitSignal(w.moment_shown, timeout=30_000):
        w.step_previous()
    assert w.t == deaths[5]
    w.kind.setCurrentIndex(w.kind.findData("stopp"))
    seek_and_wait(qtbot, w, w.range[0])
    with qtbot.waitSignal(w.moment_shown, timeout=30_000):
        w.step_next()
    stopp_t = w.facts.moments["stopp"][0]
    assert w.t == stopp_t
    assert any(s.called == stopp_t and s.lifted is None for s in w.moment.delta.stopps)
    w.kind.setCurrentIndex(w.kind.findData("healer_touch"))
    with qtbot.waitSignal(w.moment_shown, timeout=30_000):
        w.step_next()
    assert w.t in w.facts.moments["healer_touch"] and w.t > stopp_t
    # The scenario selector: the second scenario's span, and the slider over it.
    second = next(i for i in range(w.scenario.count()) if w.scenario.itemText(i).startswith("second"))
    with qtbot.waitSignal(w.moment_shown, timeout=30_000):
        w.scenario.setCurrentIndex(second)
        w._scenario_chosen(second)
    scene = next(s for s in w.facts.scenes if s.name == "second")
    assert w.range == (scene.start, scene.end) and w.t == scene.start
    assert w.moment.delta.scenario == "second"
    assert w.slider.maximum() == (scene.end - scene.start + 999) // 1000


def test_play_at_120x_moves_on_and_pause_stops(window, qtbot):
    w = window
    seek_and_wait(qtbot, w, w.range[0] + 60_000)
    w.set_speed(120)
    start = w.t
    w.set_playing(True)
    qtbot.waitUntil(lambda: w.t >= start + 120_000, timeout=10_000)     # two game minutes in about a second
    w.set_playing(False)
    stopped = w.t
    qtbot.wait(400)
    assert w.t == stopped and w.play_button.text() == w.tr("Play")
    qtbot.waitUntil(lambda: w.moment is not None and w.moment.t == stopped, timeout=10_000)


def test_the_map_shows_trails_casualties_stopps_and_the_siege_engine(window, qtbot):
    w = window
    stopp_t = w.facts.moments["stopp"][0]
    seek_and_wait(qtbot, w, stopp_t + 1000)
    m = w.map
    assert m.layer_item("groups").data.size > 0
    assert m.layer_item("trails").data.size > 0
    assert m.layer_item("casualties").data.size > 0
    assert m.layer_item("stopp").data.size >= 1
    assert m.layer_item("siege").data.size == 1
    # Back before the STOPP: no STOPP on the map, and the trails are those of that moment.
    seek_and_wait(qtbot, w, stopp_t - 60_000)
    assert m.layer_item("stopp").data.size == 0


def test_the_window_writes_nothing_to_the_game(qtbot, battle, tmp_path):
    before = sha256(battle)
    wal = Path(f"{battle}-wal")
    w = ReplayWindow(partial(open_replay, battle, every=300, maps_folder=tmp_path), "battle")
    qtbot.addWidget(w)
    w.show()
    with qtbot.waitSignal(w.moment_shown, timeout=60_000):
        pass
    for k in range(1, 6):
        seek_and_wait(qtbot, w, w.range[0] + (w.range[1] - w.range[0]) * k // 6)
    w.close()
    assert sha256(battle) == before
    assert not wal.exists() or wal.stat().st_size == 0


def test_the_seeking_leaves_the_window_free(window, qtbot):
    """The fold runs in the worker's thread; the window's own part of a moment is measured here."""
    w = window
    w.apply_ms.clear()
    lo, hi = w.range
    for k in range(8):
        seek_and_wait(qtbot, w, lo + (hi - lo) * ((k * 5) % 8) // 8)
    apply_ms = sorted(w.apply_ms)
    print(f"window's time per moment (300 characters): median {apply_ms[len(apply_ms) // 2]:.1f} ms, "
          f"max {apply_ms[-1]:.1f} ms; seek in the worker {w.moment.seek_ms:.1f} ms")
    assert w.worker.worker.thread() is w.worker.thread and w.worker.thread is not w.thread()


def test_replay_from_the_command_line_with_a_live_game_running(battle, tmp_path):
    """A station runs the game (headless) while `controlroom --db GAME --replay` reads it: the replay
    writes nothing, and the station goes on."""
    live = tmp_path / "live.crgame"
    live.write_bytes(Path(battle).read_bytes())
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_STATE_HOME=str(tmp_path / "state"))
    station = subprocess.Popen([sys.executable, "-m", "controlroom", "headless", "--db", str(live), "--speed", "0.001",
                                "--quit-after", "60"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=env)
    try:
        assert "open at" in station.stdout.readline()
        time.sleep(2.5)            # its first write-ahead-log checkpoints are done
        before = sha256(live)
        shot = tmp_path / "replay.png"
        r = subprocess.run([sys.executable, "-m", "controlroom", "--db", str(live), "--replay", "--quit-after", "8",
                            "--screenshot", str(shot)], capture_output=True, text=True, timeout=120, env=env)
        assert r.returncode == 0, r.stderr
        assert not QImage(str(shot)).isNull()
        assert sha256(live) == before
        assert station.poll() is None, "the live station stopped while the replay read its game"
    finally:
        station.terminate()
        _out, err = station.communicate(timeout=30)
    assert station.returncode == 0, err


def test_the_map_at_one_moment_as_png(window, qtbot, tmp_path):
    from controlroom.ui.replay.export import save_png

    w = window
    seek_and_wait(qtbot, w, (w.range[0] + w.range[1]) // 2)
    path = tmp_path / "moment.png"
    save_png(w.map, path)
    image = QImage(str(path))
    ratio = w.map.devicePixelRatioF()
    assert (image.width(), image.height()) == (round(w.map.width() * ratio), round(w.map.height() * ratio))
    # Not a blank picture: the groups' side colours are on it.
    colours = {image.pixelColor(x, y).name() for y in range(0, image.height(), 3) for x in range(0, image.width(), 3)}
    assert {"#1f77b4", "#d62728"} & colours
    with pytest.raises(OSError):
        save_png(w.map, tmp_path / "no such folder" / "moment.png")


@pytest.mark.parametrize("suffix, size", [("mp4", (640, 360)), ("gif", (320, 240))])
def test_the_battle_as_video_has_its_size_and_frames(window, qtbot, tmp_path, suffix, size):
    from controlroom.ui.replay.export import VideoExport, frame_times

    w = window
    start = w.facts.moments["stopp"][0] - 120_000
    times = frame_times(start, start + 240_000, speed=60, fps=5)       # four game minutes at 60x: 4 s, 20 frames
    assert len(times) == 21 and times[1] - times[0] == 12_000
    path = tmp_path / f"battle.{suffix}"
    export = VideoExport(w.worker, path, times, 5, size, w.facts.devices, like=w.map)
    with qtbot.waitSignal(export.finished, timeout=120_000) as done:
        export.start()
    assert done.args == [str(path)] and path.stat().st_size > 1000
    if suffix == "mp4":
        import re

        import imageio_ffmpeg

        exe = imageio_ffmpeg.get_ffmpeg_exe()
        probe = subprocess.run([exe, "-hide_banner", "-i", str(path)], capture_output=True, text=True, timeout=60)
        assert re.search(rf"Video: h264.*\b{size[0]}x{size[1]}\b.*\b5 fps\b", probe.stderr), probe.stderr
        raw = subprocess.run([exe, "-v", "error", "-i", str(path), "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
                             capture_output=True, timeout=60, check=True).stdout
        frame_bytes = size[0] * size[1] * 3
        assert len(raw) == len(times) * frame_bytes
        # The frames differ: the battle moves (and the time in the corner goes on).
        assert raw[:frame_bytes] != raw[-frame_bytes:]
    else:
        from PIL import Image

        with Image.open(path) as gif:
            assert gif.size == size and gif.n_frames == len(times)
            assert gif.info["duration"] == 200


def test_a_video_of_another_kind_is_refused_in_words(window, tmp_path):
    from controlroom.ui.replay.export import VideoExport

    with pytest.raises(ValueError, match=r"a video is \.mp4 or \.gif, not \.avi"):
        VideoExport(window.worker, tmp_path / "battle.avi", [0], 5, (640, 360), {})


def test_the_video_dialog_makes_the_video_asked_for(window, qtbot, tmp_path, monkeypatch):
    from PIL import Image

    from controlroom.ui.replay.export import VIDEO_SIZES, VideoDialog, VideoExport

    drawn_in = watch_thread(monkeypatch, VideoExport, "_frame", object)     # the worker's moments: drawn in the GUI

    w = window
    dialog = VideoDialog(w)
    qtbot.addWidget(dialog)
    path = tmp_path / "from the dialog.gif"
    dialog.path.setText(str(path))
    start = w.facts.moments["stopp"][0]
    dialog.start.setText(format_time(start - start % 1000))
    dialog.end.setText(format_time(start - start % 1000 + 60_000))
    dialog.speed.setValue(30)
    dialog.fps.setValue(2)
    dialog.size.setCurrentIndex(VIDEO_SIZES.index((640, 360)))
    assert dialog.info.text() == "5 frames, 2 s of video"
    with qtbot.waitSignal(dialog.accepted, timeout=60_000):
        dialog.begin()
    with Image.open(path) as gif:
        assert gif.size == (640, 360) and gif.n_frames == 5
    assert str(path) in w.status.text()
    assert len(drawn_in) >= 5 and set(drawn_in) == {gui_thread()}


def test_replay_needs_the_game(capsys):
    assert main(["--replay"]) == 1
    assert "--replay needs the game: --db GAME" in capsys.readouterr().err


def test_playback_shows_moments_when_the_worker_is_slower_than_the_ticks(window, qtbot, monkeypatch):
    """A game so big that a moment takes longer than a tick still plays: the answers are shown as they come."""
    import controlroom.ui.replay.worker as worker_module

    w = window
    seek_and_wait(qtbot, w, w.range[0] + 60_000)
    slow = worker_module.moment_of

    def slow_moment(seeker, t, *args):
        time.sleep(0.35)                # three ticks and more
        return slow(seeker, t, *args)

    monkeypatch.setattr(worker_module, "moment_of", slow_moment)
    shown = []
    w.moment_shown.connect(shown.append)
    w.set_speed(60)
    w.set_playing(True)
    qtbot.waitUntil(lambda: len(shown) >= 3, timeout=10_000)
    w.set_playing(False)
    assert shown == sorted(shown) and len(set(shown)) == len(shown)
    qtbot.waitUntil(lambda: w.moment.t == w.t, timeout=10_000)
