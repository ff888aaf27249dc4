"""The game day's stations: ``controlroom headless`` processes on one PostgreSQL game, killed and started again.

Each station reads its two gateways' ports; what it prints is read by a
thread of its own, with the moment each line came (real seconds since the
battle began), so that who ran the rule timers when can be told afterwards.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

TIMER_WORDS = {"this station": "alone", "this station (owner)": "owner", "another station (standby)": "standby",
               "server unreachable": "offline"}


@dataclass
class Station:
    """One headless station: its ports, its local queue, its process and what it said."""

    name: str
    db: str
    ports: list[str]
    speed: float
    queue: Path
    workdir: Path
    t0: float
    proc: subprocess.Popen | None = None
    lines: list[tuple[float, str]] = field(default_factory=list)
    timers: list[tuple[float, str, str]] = field(default_factory=list)      # (real s, station, state)
    starts: int = 0
    kills: int = 0
    _reader: threading.Thread | None = None

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    @property
    def state(self) -> str | None:
        return self.timers[-1][2] if self.timers else None

    def start(self) -> None:
        self.starts += 1
        stats = self.workdir / f"{self.name}-stats-{self.starts}.json"
        argv = [sys.executable, "-m", "controlroom", "headless", "--db", self.db, "--speed", f"{self.speed:g}",
                "--queue", str(self.queue), "--stats-json", str(stats)]
        for port in self.ports:
            argv += ["--port", port]
        log = open(self.workdir / f"{self.name}-{self.starts}.err", "w", encoding="utf-8")
        # Its log file in the day's folder (a station of its own: XDG_STATE_HOME, logs.log_dir).
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "XDG_STATE_HOME": str(self.workdir / self.name)}
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=log, text=True, env=env)
        log.close()
        self._reader = threading.Thread(target=self._read, args=(self.proc,), name=f"gameday {self.name}",
                                        daemon=True)
        self._reader.start()

    def _read(self, proc: subprocess.Popen) -> None:
        out = open(self.workdir / f"{self.name}-{self.starts}.out", "w", encoding="utf-8")
        for line in proc.stdout:
            at = time.monotonic() - self.t0
            line = line.rstrip("\n")
            self.lines.append((at, line))
            out.write(f"{at:8.2f} {line}\n")
            out.flush()
            if line.startswith("timers: "):
                self.timers.append((at, self.name, TIMER_WORDS.get(line[8:], line[8:])))
        self.timers.append((time.monotonic() - self.t0, self.name, "gone"))
        proc.stdout.close()
        out.close()

    def kill(self) -> None:
        """SIGKILL: gone at once, as a laptop whose battery dies."""
        if self.running:
            self.kills += 1
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(30)
        if self._reader is not None:
            self._reader.join(5)

    def stop(self, timeout: float = 60) -> int | None:
        """SIGTERM: stored what it has, and ended (its exit code)."""
        if self.running:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self._reader is not None:
            self._reader.join(5)
        return self.proc.returncode if self.proc is not None else None

    def said(self, words: str) -> list[str]:
        return [line for _at, line in self.lines if words in line]


def owner(stations: list[Station]) -> Station | None:
    """The station that says it runs the timers now (None: none does)."""
    return next((s for s in stations if s.running and s.state in ("owner", "alone")), None)
