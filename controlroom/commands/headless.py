"""``controlroom headless``: a station without a window that runs the rule timers and stores the game."""

from __future__ import annotations

import argparse
import json
import signal
import sys

NAME = "headless"
STAT_KEYS = ("frames_total", "accepted", "duplicates", "rejected_corrupt", "rejected_auth", "rejected_replay",
             "rejected_unknown_device", "rejected_role")
TIMER_WORDS = {"alone": "this station", "owner": "this station (owner)",
               "standby": "another station (standby)", "offline": "server unreachable"}
HELP = "Run a game without a window: rule timers, storage (and radio gateways, with --port)."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="GAME", help="the game: a file or a database URL (default: the user's game file)")
    parser.add_argument("--port", action="append", default=[], metavar="URL",
                        help="a LoRa gateway's serial port (/dev/ttyUSB0, COM5, socket://host:port, usb:VID:PID); repeat for several")
    parser.add_argument("--speed", type=float, default=None,
                        help="game seconds per real second (a fast simulation); default: real time, kept across restarts")
    parser.add_argument("--quit-after", type=float, metavar="SECONDS", help="stop cleanly after this many real seconds")
    parser.add_argument("--stats-json", metavar="FILE", help="write the station's counters here when it stops")
    parser.add_argument("--queue", metavar="FILE",
                        help="a shared game's local queue, for reports while the server cannot be reached "
                             "(default: in the user's data folder)")
    parser.add_argument("--quiet", action="store_true", help="print only alarms and who runs the timers")


def run(args: argparse.Namespace) -> int:
    from PySide6.QtCore import QCoreApplication, QTimer

    from controlroom.cli import CliError
    from controlroom.core.radio_link import RadioBridge
    from controlroom.core.thread import CoreThread
    from controlroom.game.clock import format_time
    from controlroom.logs import setup_logging
    from controlroom.store.engine import database_url

    if args.speed is not None and args.speed <= 0:
        raise CliError("--speed must be above 0")
    app = QCoreApplication.instance() or QCoreApplication(sys.argv[:1])
    setup_logging("headless")
    core = CoreThread(database_url(args.db), None, speed=args.speed, queue_path=args.queue)
    status = {"code": 0}

    def say(text: str) -> None:
        print(text, flush=True)

    def on_loaded(delta) -> None:
        w = core.worker
        if not args.quiet:
            sides = ", ".join(f"{s}: {c['active']} active, {c['dead']} dead" for s, c in delta.sides.items())
            say(f"game {w.store.name} open at {format_time(delta.t)} ({len(delta.characters)} characters; {sides})")

    def on_alarm(alarm) -> None:
        say(f"ALARM {format_time(alarm.t)} {alarm.kind}: {alarm.message}")
        if alarm.id == "storage:open":
            status["code"] = 1

    def on_died(view) -> None:
        if not args.quiet:
            say(f"dead: {view.name} (badge {view.badge}, {view.side}/{view.group}), death {view.deaths}")

    core.loaded.connect(on_loaded)
    core.alarm_raised.connect(on_alarm)
    core.character_died.connect(on_died)
    core.input_rejected.connect(lambda text: say(f"rejected: {text}"))
    core.timers_changed.connect(lambda state: say(f"timers: {TIMER_WORDS.get(state, state)}"))
    core.stopped.connect(app.quit)
    radio = RadioBridge(core, args.port) if args.port else None
    if radio is not None:

        def on_link(link: str, state: str, detail: str) -> None:
            if not args.quiet or state == "lost":
                say(f"gateway {link}: {state}" + (f" ({detail})" if detail else ""))

        core.link_changed.connect(on_link)
        core.loaded.connect(lambda _d: radio.start())

    def request_stop(*_):
        core.stop_requested.emit()

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, request_stop)
    # Let Python see the signal handlers while Qt's loop runs.
    tick = QTimer()
    tick.timeout.connect(lambda: None)
    tick.start(200)
    if args.quit_after is not None:
        QTimer.singleShot(int(args.quit_after * 1000), request_stop)
    core.start()
    app.exec()
    if radio is not None:
        radio.stop()
    core.thread.wait(30_000)
    if args.stats_json:
        ingest = core.worker.ingest.stats() if core.worker.ingest else {}
        total = ingest.pop("total", {})
        stats = {**{k: total.get(k, 0) for k in STAT_KEYS}, "per_gateway": ingest,
                 "links": radio.stats() if radio else {}, "health": core.worker.health()}
        with open(args.stats_json, "w", encoding="utf-8") as f:
            json.dump(stats, f, indent=2)
    return status["code"]
