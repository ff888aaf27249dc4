"""The web view's test helpers: a game with invites, a headless station with a gateway on a pty, a viewport."""

from __future__ import annotations

import os
import re
import select
import shutil
import subprocess
import sys
import time
import tty
from pathlib import Path

from controlroom.game.roster import Member
from controlroom.store.devices import register_device
from controlroom.store.game import GameStore
from controlroom.web.invites import make_invite

ROSTER = [Member(101, "Aldo", "North", "Wolves"), Member(102, "Birgit", "South", "Ravens"),
          Member(103, "Carl", "North", "Wolves", "healer"), Member(104, "Dora", "South", "Ravens")]
MARSHAL_DEVICE = 7


class Game:
    """A game file with a marshal handset registered and one invite per role (their tokens kept here)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.tokens: dict[str, str] = {}
        with GameStore.open(path) as store:
            store.save_roster(ROSTER)
            self.key = register_device(store, MARSHAL_DEVICE, "marshal", "M7").key
            for role in ("viewer", "safety", "valhalla", "marshal"):
                card = make_invite(store, f"{role.title()} One", role, badge=101 if role == "marshal" else None)
                self.tokens[role] = card.token

    def invite(self, name: str, role: str = "viewer") -> str:
        with GameStore.open(self.path) as store:
            card = make_invite(store, name, role)
        self.tokens[name] = card.token
        return card.token

    def events(self) -> list:
        with GameStore.open(self.path, create=False) as store:
            return list(store.log.rows())





def read_line(fd: int, deadline: float) -> str:
    buf = b""
    while time.monotonic() < deadline:
        r, _, _ = select.select([fd], [], [], 0.1)
        if r:
            chunk = os.read(fd, 1)
            if chunk == b"\n":
                return buf.decode()
            buf += chunk
    raise AssertionError(f"no line from the station (got {buf!r})")


class Station:
    """``controlroom headless --web 127.0.0.1:0`` on a game, with a LoRa gateway simulated on a pty."""

    def __init__(self, game: Game, *extra: str, gateway: bool = True, quit_after: float = 120) -> None:
        self.game = game
        self.master = self.slave = None
        args = [sys.executable, "-m", "controlroom", "headless", "--db", str(game.path), "--web", "127.0.0.1:0",
                "--quit-after", str(quit_after), *extra]
        if gateway:
            self.master, self.slave = os.openpty()
            tty.setraw(self.slave)
            args += ["--port", os.ttyname(self.slave)]
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
        deadline = time.monotonic() + 30
        self.url = None
        while self.url is None and time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise AssertionError(f"the station ended: {self.proc.stderr.read()}")
            m = re.match(r"web view: (http\S+)/", line)
            if m:
                self.url = m.group(1)
        assert self.url, "the station did not say where its web view is"
        if gateway:
            line = read_line(self.master, deadline)
            while not line.startswith("ID?"):
                line = read_line(self.master, deadline)
            from controlroom.radio import codec

            os.write(self.master, (codec.format_id_line(3, "test-1") + "\n").encode())

    def join_url(self, role_or_name: str) -> str:
        return f"{self.url}/join#{self.game.tokens[role_or_name]}"

    def radio(self, badge: int, kind: str, counter: int) -> None:
        """A casualty frame heard by the gateway, as a handset sends it."""
        from controlroom.radio import codec

        frame = codec.encode_casualty(self.game.key, MARSHAL_DEVICE, counter, badge, kind)
        os.write(self.master, (codec.format_rx_line(3, -95, 6.5, frame) + "\n").encode())

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for fd in (self.master, self.slave):
            if fd is not None:
                os.close(fd)
        self.master = self.slave = None
        self.proc.stdout.close()
        self.proc.stderr.close()





# -- one real browser for every web test ---------------------------------------------------------------
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage")


def browser_missing() -> str | None:
    for tool in ("chromium", "chromedriver"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (Debian: apt-get install chromium chromium-driver)"
    try:
        import selenium  # noqa: F401 - only whether it is there
    except ImportError:
        return "selenium is not installed (the test extra)"
    return None





def phone(driver, width: int = 390, height: int = 844) -> None:
    """The page's viewport at a phone's size (device metrics, so that the page sees exactly that width)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})


def wait_for(condition, timeout: float = 10.0, what: str = "the page"):
    """Poll ``condition()`` until it is true (its value), at most ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = condition()
        except Exception as exc:  # the page is still changing under the query
            last = exc
        if last and not isinstance(last, Exception):
            return last
        time.sleep(0.05)
    raise AssertionError(f"{what}: not within {timeout} s (last: {last!r})")
