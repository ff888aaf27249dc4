"""A killed writer loses nothing it reported as stored: SIGKILL at random moments, 20 times."""

import os
import random
import signal
import subprocess
import sys
import time

import pytest

from controlroom.store.game import GameStore

WRITER = r"""
import sys
from controlroom.game.events import make_event
from controlroom.game.devices import RadioMeta
from controlroom.store.game import GameStore

store = GameStore.open(sys.argv[1])
n = int(sys.argv[2])
device = int(sys.argv[3])
print("ready", flush=True)
while True:
    batch = [(make_event(n + i, "note", "marshal:%d" % device, text=str(n + i)), RadioMeta(device, n + i))
             for i in range(25)]
    store.log.append(batch)
    n += 25
    # Only now, after the commit returned, is the batch reported as stored.
    sys.stdout.write("stored %d\n" % n)
    sys.stdout.flush()
"""


@pytest.mark.skipif(sys.platform.startswith("win"), reason="SIGKILL is POSIX")
def test_killed_writer_keeps_every_event_it_reported_stored(tmp_path):
    path = tmp_path / "crash.crgame"
    GameStore.open(path).close()
    rng = random.Random(2026)
    reported = 0          # events the writers said were stored
    for round_ in range(20):
        child = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path), str(reported), str(round_ + 1)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        assert child.stdout.readline().strip() == "ready", child.stderr.read()
        os.set_blocking(child.stdout.fileno(), False)
        time.sleep(rng.uniform(0.01, 0.25))
        child.send_signal(signal.SIGKILL)
        child.wait()
        tail = child.stdout.read() or ""
        child.stdout.close()
        child.stderr.close()
        # Only whole lines count: the last one may have been cut by the kill.
        said = [int(line.split()[1]) for line in tail.split("\n")[:-1] if line.startswith("stored ")]
        with GameStore.open(path, create=False) as store:
            assert store.integrity_ok()
            texts = [int(e.data["text"]) for _, e in store.log.events()]
        # In order, without gaps, and at least everything that was reported.
        assert texts == list(range(len(texts)))
        if said:
            assert len(texts) >= max(said), (round_, max(said), len(texts))
        reported = len(texts)
    assert reported > 0
