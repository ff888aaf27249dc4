"""A profiling aid: run any benchmark script with a watchdog on its GUI thread, and print what the thread was
doing whenever it was late.

    .venv/bin/python -m benchmarks.gui_watch [--late-ms 45] [--others] benchmarks.bench_timeline [its arguments]

A 5 ms timer in the GUI thread (made with the script's QApplication) notes
each time it fires; a thread of its own looks every 2 ms, and while the note
is more than ``--late-ms`` old it samples the GUI thread's Python stack
(``sys._current_frames``).  At exit it prints each block (how long, and its
three most sampled stacks, innermost first) to stderr.  A stack that ends in
the benchmark's own call into Qt means C++ work (a paint, a layout) or a wait
for the GIL; one inside the collector (``collector.py``), a garbage
collection.  With ``--others`` each sample also names where every other
thread was (its innermost frames): the thread that held the GIL while the
GUI thread waited for it is among them.  It replaces ``faulthandler.dump_traceback_later``, which crashed
the process when armed and disarmed this often.  The watchdog costs the GUI
thread a little: figures taken with it are not the benchmark's own.
"""

from __future__ import annotations

import atexit
import collections
import os
import runpy
import sys
import threading
import time
import traceback

HEARTBEAT_MS = 5
LOOK_S = 0.002
DEPTH = 14


def _walk(frame, depth: int) -> tuple[str, ...]:
    return tuple(f"{os.path.basename(f.f_code.co_filename)}:{line}:{f.f_code.co_name}"
                 for f, line in traceback.walk_stack(frame))[:depth]


class Watchdog:
    def __init__(self, late_ms: float, others: bool = False) -> None:
        self.limit = late_ms / 1000
        self.others = others
        self.main = threading.main_thread().ident
        self.beat = time.perf_counter()
        self.blocks: list[dict] = []
        threading.Thread(target=self._watch, daemon=True, name="gui-watch").start()

    def tick(self) -> None:
        self.beat = time.perf_counter()

    def _stack(self) -> tuple[str, ...]:
        frames = sys._current_frames()
        frame = frames.get(self.main)
        if frame is None:
            return ()
        stack = _walk(frame, DEPTH)
        if self.others:
            names = {t.ident: t.name for t in threading.enumerate()}
            me = threading.get_ident()
            stack += tuple(f"[{names.get(ident, ident)}: " + " <- ".join(_walk(f, 4)) + "]"
                           for ident, f in frames.items() if ident not in (self.main, me))
        return stack

    def _watch(self) -> None:
        block = None
        while True:
            time.sleep(LOOK_S)
            if time.perf_counter() - self.beat > self.limit:
                if block is None:
                    block = {"start": self.beat, "stacks": collections.Counter()}
                block["stacks"][self._stack()] += 1
            elif block is not None:
                block["ms"] = (self.beat - block["start"]) * 1000
                self.blocks.append(block)
                block = None

    def report(self) -> None:
        for block in self.blocks:
            print(f"=== the GUI thread blocked ~{block.get('ms', 0):.0f} ms", file=sys.stderr)
            for stack, n in block["stacks"].most_common(3):
                print(f"  x{n}: " + " <- ".join(stack), file=sys.stderr)


def main() -> None:
    args = sys.argv[1:]
    late_ms, others = 45.0, False
    while args[:1] in (["--late-ms"], ["--others"]):
        if args[0] == "--others":
            others, args = True, args[1:]
        else:
            late_ms, args = float(args[1]), args[2:]
    if not args:
        sys.exit(__doc__)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    dog = Watchdog(late_ms, others)
    atexit.register(dog.report)
    made = QApplication.__init__

    def init(app, *a, **k):             # the heartbeat starts with the script's own QApplication
        made(app, *a, **k)
        timer = QTimer(app)
        timer.setInterval(HEARTBEAT_MS)
        timer.timeout.connect(dog.tick)
        timer.start()

    QApplication.__init__ = init
    module = args[0]
    sys.argv = args
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
