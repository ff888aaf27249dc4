"""``controlroom demo``: the whole control room on the built-in simulator, a battle within seconds."""

from __future__ import annotations

import argparse
import json
import os
import threading
from importlib import resources
from pathlib import Path
from types import SimpleNamespace

NAME = "demo"
HELP = "Show the control room on a simulated battle (two simulated gateways, some losses, one forger)."
ORIGIN = (58.38, 26.72)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="GAME",
                        help="the demo game file (default: a fresh one in the user's data folder)")
    parser.add_argument("--speed", type=float, default=10.0, help="game seconds per real second (default 10)")
    parser.add_argument("--duration", type=float, default=120.0, help="game minutes of battle (default 120)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--quit-after", type=float, metavar="SECONDS", help="close by itself after this many seconds")
    parser.add_argument("--screenshot", metavar="FILE.png", help="save a picture of the window just before quitting")
    parser.add_argument("--night", action="store_true", help="start in night mode (dark colours for a dark tent)")
    parser.add_argument("--tcp", action="store_true",
                        help="simulated gateways on local TCP ports (the default on Windows)")


def _demo_file(name: str) -> Path | None:
    res = resources.files("controlroom.resources").joinpath("demo", name)
    return Path(str(res)) if res.is_file() else None


def run(args: argparse.Namespace) -> int:
    from controlroom.commands.sim import prepare
    from controlroom.engine.commands import StartScenario
    from controlroom.sim.ports import close_all, open_ptys, open_sockets
    from controlroom.sim.simulator import Simulator
    from controlroom.store.engine import data_dir
    from controlroom.ui.app import run_window

    if args.db:
        db = args.db if "://" in args.db else Path(args.db)      # a database URL is kept as given
    else:
        db = data_dir() / "demo" / "demo.crgame"
        db.parent.mkdir(parents=True, exist_ok=True)
        for suffix in ("", "-wal", "-shm"):
            Path(str(db) + suffix).unlink(missing_ok=True)
    roster = _demo_file("roster.csv")
    options = SimpleNamespace(db=str(db), roster=str(roster) if roster else None, sides=None if roster else 3,
                              groups=None if roster else 12, players=None if roster else 300, duration=args.duration)
    battle, _notes = prepare(options, args.seed, ORIGIN)
    # Pseudo-terminals where the system has them; local TCP ports elsewhere (Windows).
    ports = open_ptys(2) if os.name == "posix" and not args.tcp else open_sockets(2)
    sim = Simulator(battle, ports, speed=args.speed, loss=0.05, corrupt_rate=0.01, forge_rate=0.003,
                    replay_rate=0.005, seed=args.seed, drain=2.0)
    sim_thread = threading.Thread(target=sim.run, name="demo-simulator")
    sim_thread.start()
    valhalla = None
    field = _demo_file("field.json")
    if field is not None:
        place = json.loads(field.read_text(encoding="utf-8")).get("places", {}).get("valhalla")
        if place:
            from controlroom.sim.battle import to_latlon_e7

            lat, lon = to_latlon_e7(ORIGIN, *place)         # the simulator's own placing of the field's metres
            valhalla = (lat / 1e7, lon / 1e7)
    try:
        return run_window(
            str(db), [p.name for p in ports], title="demo battle", map_image=_demo_file("field.png"),
            valhalla=valhalla, speed=args.speed, quit_after=args.quit_after,
            screenshot=args.screenshot, night=args.night, remember_ports=False,
            before_start=lambda core, _w: core.send(StartScenario("Demo battle", True, 900.0)),
        )
    finally:
        sim.stop()
        sim_thread.join(10)
        close_all(ports)
