"""``controlroom headless``: a station without a window that runs the rule timers and stores the game."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading

from controlroom.i18n import translate

NAME = "headless"
STOP_LIMIT_S = 4.5          # SIGTERM ends the station within 5 s, whatever it is doing
STAT_KEYS = ("frames_total", "accepted", "duplicates", "rejected_corrupt", "rejected_auth", "rejected_replay",
             "rejected_unknown_device", "rejected_role", "downlink_heard")
TIMER_WORDS = {"alone": "this station", "owner": "this station (owner)",
               "standby": "another station (standby)", "offline": "server unreachable"}
HELP = "Run a game without a window: rule timers, storage (and radio gateways, with --port; TAK, with --tak)."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="GAME",
                        help="the game: a file or a database URL (default: the user's game file)")
    parser.add_argument("--port", action="append", default=[], metavar="URL",
                        help="a LoRa gateway's serial port (/dev/ttyUSB0, COM5, socket://host:port, usb:VID:PID), "
                             "or a stock Meshtastic node (meshtastic:/dev/ttyACM0, meshtastic-tcp:HOST); "
                             "repeat for several")
    add_tak_arguments(parser)
    parser.add_argument("--speed", type=float, default=None,
                        help="game seconds per real second (a fast simulation); "
                             "default: real time, kept across restarts")
    parser.add_argument("--quit-after", type=float, metavar="SECONDS", help="stop cleanly after this many real seconds")
    parser.add_argument("--stats-json", metavar="FILE", help="write the station's counters here when it stops")
    parser.add_argument("--queue", metavar="FILE",
                        help="a shared game's local queue, for reports while the server cannot be reached "
                             "(default: in the user's data folder)")
    parser.add_argument("--quiet", action="store_true", help="print only alarms and who runs the timers")
    from controlroom.commands.web import add_web_options

    add_web_options(parser)


def run(args: argparse.Namespace) -> int:
    from PySide6.QtCore import QCoreApplication, QTimer

    from controlroom.commands.errors import CliError, UsageError
    from controlroom.commands.web import web_options
    from controlroom.core.wiring import Station
    from controlroom.game.clock import format_time
    from controlroom.logs import setup_logging

    if args.speed is not None and args.speed <= 0:
        raise CliError(translate("errors", "--speed must be above 0"))
    web = web_options(args)
    app = QCoreApplication.instance() or QCoreApplication(sys.argv[:1])
    setup_logging("headless")
    try:
        station = Station(args.db or default_db(), list(args.port), speed=args.speed, queue_path=args.queue,
                          remember_ports=False, tak=list(args.tak), tak_tls=(args.tak_cert, args.tak_key, args.tak_ca))
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    core = station.core
    status = {"code": 0, "name": ""}

    def say(text: str) -> None:
        print(text, flush=True)

    def warn(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    def on_opened(info) -> None:
        status["name"] = info.name
        if info.exposed:        # (always said, on stderr: a key anyone on this computer can read is worth a line)
            warn(translate("headless", "warning: other users of this computer can read {files}, which hold every "
                                      "radio device's key; make them yours alone with: chmod 600 {files}").format(
                files=" ".join(info.exposed)))

    def on_loaded(delta) -> None:
        if not args.quiet:
            sides = ", ".join(f"{s}: {c['active']} active, {c['dead']} dead" for s, c in delta.sides.items())
            say(f"game {status['name']} open at {format_time(delta.t)} ({len(delta.characters)} characters; {sides})")

    alarms_shown: set[str] = set()

    def on_alarm(alarm) -> None:
        # An alarm raised again under its id (merged security alarms) is the same row, updated.
        again = alarm.id in alarms_shown
        alarms_shown.add(alarm.id)
        say(f"ALARM{' (update)' if again else ''} {format_time(alarm.t)} {alarm.kind}: {alarm.message}")
        if alarm.id == "storage:open":
            status["code"] = 1

    def on_died(views) -> None:
        if not args.quiet:
            for view in views:
                say(f"dead: {view.name} (badge {view.badge}, {view.side}/{view.group}), death {view.deaths}")

    core.opened.connect(on_opened)
    core.loaded.connect(on_loaded)
    core.alarm_raised.connect(on_alarm)
    core.characters_died.connect(on_died)
    core.input_rejected.connect(lambda text: say(f"rejected: {text}"))
    core.timers_changed.connect(lambda state: say(f"timers: {TIMER_WORDS.get(state, state)}"))
    core.stopped.connect(app.quit)
    links = LinkWords(say, args.quiet)
    core.link_changed.connect(links.changed)

    def request_stop(*_):
        if status.get("stopping"):
            _exit_now("stopped at once (a second signal)", 1)
        status["stopping"] = True
        core.request_stop()
        # Whatever state the station is in, it ends within STOP_LIMIT_S: nothing acknowledged is
        # lost by ending here, since a frame is acknowledged only once it is stored.
        threading.Timer(STOP_LIMIT_S, _exit_now, ("the station did not stop in time; ended", 1)).start()

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, request_stop)
    # Let Python see the signal handlers while Qt's loop runs.
    tick = QTimer()
    tick.timeout.connect(lambda: None)
    tick.start(200)
    if args.quit_after is not None:
        QTimer.singleShot(int(args.quit_after * 1000), request_stop)
    server = None
    if web is not None:
        from controlroom.core.web_feed import serve_web

        try:
            server, _feed = serve_web(station, web)
        except OSError as exc:          # web.server.WebError: in words
            raise CliError(str(exc)) from None
        say(f"web view: {server.scheme}://{server.host}:{server.port}/")
    station.start()
    app.exec()
    if server is not None:
        server.stop(1.0)
    station.shutdown(int(STOP_LIMIT_S * 1000))
    if args.stats_json:
        radio = dict(core.stats.get("radio", {}))
        total = radio.pop("total", {})
        stats = {**{k: total.get(k, 0) for k in STAT_KEYS}, "per_gateway": radio,
                 "links": station.stats(), "health": core.stats.get("health", {})}
        for extra in ("meshtastic", "tak"):
            if extra in core.stats:
                stats[extra] = core.stats[extra]
        with open(args.stats_json, "w", encoding="utf-8") as f:
            json.dump(stats, f, indent=2)
    sys.stdout.flush()
    if status.get("stopping") or args.quit_after is not None:
        os._exit(status["code"])     # the stop timer may still be pending: end now, cleanly stored
    return status["code"]


def add_tak_arguments(parser) -> None:
    """``--tak URL`` (repeatable) and its TLS files: the battle sent to TAK servers and clients (docs/tak.md)."""
    parser.add_argument("--tak", action="append", default=[], metavar="URL",
                        help="send the battle to a TAK server or client as Cursor-on-Target: tcp://HOST:PORT, "
                             "tls://HOST:PORT (with --tak-cert and --tak-key), udp://HOST:PORT; add ?proto=1 for "
                             "TAK protocol 1 (protobuf); repeat for several (docs/tak.md)")
    parser.add_argument("--tak-cert", metavar="FILE.pem", help="the station's client certificate for tls:// (PEM)")
    parser.add_argument("--tak-key", metavar="FILE.pem", help="the key of --tak-cert (PEM)")
    parser.add_argument("--tak-ca", metavar="FILE.pem",
                        help="the certificate authority the tls:// server's certificate is checked against (PEM)")


def default_db() -> str:
    from controlroom.store.engine import default_game_path

    path = default_game_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    return str(path)


def _exit_now(why: str, code: int) -> None:
    print(f"controlroom: {why}", file=sys.stderr, flush=True)
    sys.stdout.flush()
    os._exit(code)


class LinkWords:
    """Prints a gateway's link state once per change (a gateway that stays away is not repeated)."""

    def __init__(self, say, quiet: bool) -> None:
        self.say = say
        self.quiet = quiet
        self.last: dict[str, str] = {}

    def changed(self, link: str, state: str, detail: str) -> None:
        # A gateway that stays away is one "lost" line, however often it is looked for (or opens and fails).
        looking = state in ("retrying", "connecting", "identifying")
        shown = "lost" if looking and self.last.get(link) == "lost" else state
        if self.last.get(link) == shown:
            return
        self.last[link] = shown
        if not self.quiet or state == "lost":
            kind = "TAK" if link.split("://", 1)[0] in ("tcp", "tls", "udp", "cot-udp") else "gateway"
            self.say(f"{kind} {link}: {state}" + (f" ({detail})" if detail else ""))
