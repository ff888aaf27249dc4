#!/usr/bin/env python3
"""Run a built bundle the way a game master's laptop would, and time its start-up.

    python installer/bundle_check.py dist/controlroom      # prints the figures as JSON

The program runs from a temporary folder with a clean environment: no
PYTHONPATH, no VIRTUAL_ENV, a PATH without any virtual environment, HOME in
the temporary folder, Qt off screen.  tests/installer/test_bundle.py uses the
same functions.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WINDOWS = os.name == "nt"


def program(bundle: Path) -> Path:
    return bundle / ("controlroom.exe" if WINDOWS else "controlroom")


def clean_env(home: Path) -> dict[str, str]:
    """An environment without Python: only the system's programs, a fresh HOME, Qt off screen."""
    home.mkdir(parents=True, exist_ok=True)
    runtime = home / "run"
    runtime.mkdir(mode=0o700, exist_ok=True)
    path = os.pathsep.join(p for p in ("/usr/local/bin", "/usr/bin", "/bin") if Path(p).is_dir())
    env = {"HOME": str(home), "PATH": path, "LANG": "C.UTF-8", "QT_QPA_PLATFORM": "offscreen",
           "XDG_RUNTIME_DIR": str(runtime), "XDG_DATA_HOME": str(home / "data"),
           "XDG_CONFIG_HOME": str(home / "config"), "TMPDIR": str(home)}
    if WINDOWS:
        env.update(PATH=os.environ.get("SystemRoot", r"C:\Windows") + r"\System32",
                   SystemRoot=os.environ.get("SystemRoot", r"C:\Windows"), LOCALAPPDATA=str(home / "data"))
    return env


def run(bundle: Path, args: list[str], home: Path, timeout: float = 120,
        extra_env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """The bundled controlroom with ARGS, in HOME (also the working folder), clean environment (plus EXTRA_ENV)."""
    return subprocess.run([str(program(bundle)), *args], cwd=home, env={**clean_env(home), **(extra_env or {})},
                          capture_output=True, text=True, timeout=timeout)


def version_seconds(bundle: Path, home: Path, runs: int = 5) -> tuple[str, float]:
    """``controlroom --version``: its output and the median wall time of RUNS starts."""
    times, out = [], ""
    for _ in range(runs):
        t0 = time.perf_counter()
        done = run(bundle, ["--version"], home)
        times.append(time.perf_counter() - t0)
        if done.returncode != 0:
            raise RuntimeError(f"--version failed ({done.returncode}): {done.stderr}")
        out = done.stdout.strip()
    return out, statistics.median(times)


def window_seconds(bundle: Path, home: Path, runs: int = 3) -> float:
    """Seconds from starting ``controlroom demo`` until its window is shown (median of RUNS).

    ``--quit-after 0`` grabs the window on the first turn of Qt's event loop,
    right after the window is shown; the time is taken when that picture lands.
    """
    times = []
    for i in range(runs):
        shot = home / f"startup-{i}.png"
        shot.unlink(missing_ok=True)
        t0 = time.perf_counter()
        proc = subprocess.Popen([str(program(bundle)), "demo", "--quit-after", "0", "--screenshot", str(shot)],
                                cwd=home, env=clean_env(home), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while not (shot.exists() and shot.stat().st_size > 0):
            if proc.poll() is not None and not shot.exists():
                raise RuntimeError(f"demo exited ({proc.returncode}) without a screenshot")
            if time.perf_counter() - t0 > 120:
                proc.kill()
                raise RuntimeError("demo showed no window within 120 s")
            time.sleep(0.01)
        times.append(time.perf_counter() - t0)
        proc.wait(60)
    return statistics.median(times)


def screenshot_problems(path: Path) -> list[str]:
    """What is wrong with a screenshot of the window (empty list: a real picture of the control room)."""
    from PySide6.QtGui import QImage

    if not path.is_file() or path.stat().st_size == 0:
        return [f"{path} is missing or empty"]
    image = QImage(str(path))
    if image.isNull():
        return [f"{path} is not an image Qt can read"]
    problems = []
    if image.width() < 800 or image.height() < 500:
        problems.append(f"{image.width()}x{image.height()} is smaller than the window (800x500 at least)")
    colours = set()
    step_x, step_y = max(1, image.width() // 80), max(1, image.height() // 60)
    for y in range(0, image.height(), step_y):
        for x in range(0, image.width(), step_x):
            colours.add(image.pixel(x, y))
    if len(colours) < 50:
        problems.append(f"only {len(colours)} colours in a 80x60 sample: not a drawn control room")
    return problems


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__)
        return 2
    bundle = Path(argv[0]).resolve()
    with tempfile.TemporaryDirectory(prefix="controlroom-check-") as tmp:
        home = Path(tmp)
        text, version_s = version_seconds(bundle, home)
        window_s = window_seconds(bundle, home)
        print(json.dumps({"version": text, "version_seconds": round(version_s, 2),
                          "window_seconds": round(window_s, 2)}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
