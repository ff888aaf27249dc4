"""The game day's faults that are not the stations': a new database, and a small disk that fills up."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path


def new_database(admin_url: str, name: str) -> str:
    """A new database on the server of ``admin_url`` (postgresql+psycopg://.../postgres); its URL."""
    import psycopg
    from sqlalchemy.engine import make_url

    url = make_url(admin_url)
    dsn = url.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(dsn, autocommit=True, connect_timeout=5) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    return url.set(database=name).render_as_string(hide_password=False)


class SmallDisk:
    """A folder on a disk of its own, 1 MiB (a tmpfs, when run as root; else a plain folder, and ``fill`` only
    takes what a file of the same size can), that ``fill`` fills to the last byte and ``free`` empties."""

    SIZE = "1m"

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.mkdir(parents=True, exist_ok=True)
        self.mounted = False
        if os.geteuid() == 0 and shutil.which("mount"):
            done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={self.SIZE}", "tmpfs", str(self.path)],
                                  capture_output=True, text=True)
            self.mounted = done.returncode == 0
        self.filler = self.path / "filler"

    def fill(self) -> bool:
        """Fill the disk: True when writing failed for want of room (ENOSPC), as a full disk does."""
        try:
            with open(self.filler, "wb") as f:
                while True:
                    f.write(b"\0" * 65536)
                    f.flush()
                    os.fsync(f.fileno())
        except OSError as exc:
            return exc.errno == 28
        return False

    def free(self) -> None:
        self.filler.unlink(missing_ok=True)

    def close(self) -> None:
        self.free()
        if self.mounted:
            subprocess.run(["umount", "-l", str(self.path)], capture_output=True)
            self.mounted = False
