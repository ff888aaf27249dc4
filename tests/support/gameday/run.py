"""A game day: the simulator's battle through gateways into stations on one PostgreSQL game, under faults.

``play(plan, admin_url, pg_ctl, workdir)`` registers the roster (but for the
late registrations) and the devices in a new database, plays the battle on
pluggable pseudo-terminals (``sim.ports.PluggablePty``), runs the stations
(``stations.Station``), and on a schedule drawn from the plan's seed: kills
the station that runs the timers and starts it again, unplugs a gateway,
stops the server, fills a station's disk, imports the late registrations.
Then it reads the stored game and returns the figures and the checks
(``checks``).  The test command plays a short day (tests/gameday), the
benchmark a whole one (``python -m benchmarks.gameday``).
"""

from __future__ import annotations

import csv
import json
import random
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from controlroom.sim.battle import generate
from controlroom.sim.ports import PluggablePty
from controlroom.sim.roster import generate_roster, plan_devices
from controlroom.sim.simulator import Simulator
from tests.support.gameday import checks, faults
from tests.support.gameday.stations import Station, owner


@dataclass
class Plan:
    """What a game day plays, and the faults it brings (times in game minutes)."""

    players: int = 8000
    groups: int = 400
    sides: int = 3
    late: int = 200                     # registered during the game (a roster import)
    groups_per_marshal: int = 4         # 400 groups: 100 field marshals
    gateways: int = 6
    stations: int = 3                   # each reads gateways_per_station of them
    minutes: float = 180
    speed: float = 10
    seed: int = 2026
    fights: int = 0                     # at once at most (0: a tenth of the groups)
    loss: float = 0.02
    kill_every: float = 20              # the timer owner killed ...
    restart_after_s: float = 30         # ... and started again this many real seconds later
    unplug_every: float = 30            # a gateway unplugged ...
    unplug_for: float = 2               # ... for so long
    server_stop: bool = True            # the server stopped once ...
    server_stop_s: float = 60           # ... for this many real seconds
    disk_full: bool = True              # one station's local queue on a small disk, filled during the outage
    roster_import: bool = True
    drain_s: float = 30

    def minute_s(self) -> float:
        return 60.0 / self.speed


def schedule(plan: Plan) -> list[tuple[float, str, dict]]:
    """The faults, from the plan's seed: (real seconds into the battle, what, details), in time order."""
    rng = random.Random(f"faults:{plan.seed}")
    m = plan.minute_s()
    out: list[tuple[float, str, dict]] = []
    stopped = (0.0, 0.0)                # the server's outage: the other faults come before or after it
    if plan.server_stop:
        at = plan.minutes * rng.uniform(0.3, 0.45) * m
        stopped = (at - 5, at + plan.server_stop_s + 15)
        out += [(at, "server_stop", {}), (at + plan.server_stop_s, "server_start", {})]
        if plan.disk_full:
            out += [(at - 1, "disk_fill", {}), (at + plan.server_stop_s + 5, "disk_free", {})]

    def clear(at: float) -> float:
        return stopped[1] if stopped[0] <= at <= stopped[1] else at

    t = plan.kill_every
    while t < plan.minutes - 2:
        out.append((clear((t + rng.uniform(-1, 1)) * m), "kill_owner", {}))
        t += plan.kill_every
    t = plan.unplug_every * 0.5
    while plan.unplug_every and t < plan.minutes - plan.unplug_for - 1:
        g = rng.randrange(plan.gateways)
        at = (t + rng.uniform(-2, 2)) * m
        out += [(at, "unplug", {"gateway": g}), (at + plan.unplug_for * m, "plug", {"gateway": g})]
        t += plan.unplug_every
    if plan.roster_import and plan.late:
        out.append((clear(plan.minutes * rng.uniform(0.55, 0.7) * m), "roster_import", {}))
    return sorted(out, key=lambda item: item[0])


def prepare(db: str, plan: Plan, workdir: Path):
    """The roster (but the late registrations) and the devices in the game; the battle all of them fight."""
    from controlroom.commands.sim import register_devices
    from controlroom.rules.profile import default_profile
    from controlroom.store.game import GameStore

    members = generate_roster(plan.sides, plan.groups, plan.players + plan.late, plan.seed, default_profile())
    step = max(1, len(members) // max(1, plan.late))
    late = {m.badge for m in members[step - 1::step][:plan.late]}
    with GameStore.open(db) as store:
        store.save_roster([m for m in members if m.badge not in late])
        devices = register_devices(store, plan_devices(members, plan.seed, groups_per_marshal=plan.groups_per_marshal))
    late_file = workdir / "late.csv"
    with open(late_file, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["badge", "name", "side", "group", "class", "paid", "helmet", "armour"])
        for m in members:
            if m.badge in late:
                w.writerow([m.badge, m.name, m.side, m.group, m.cls, "yes", m.helmet or "", "+".join(m.armour)])
    fights = plan.fights or max(1, plan.groups // 10)
    battle = generate(members, devices, plan.minutes, plan.seed, fights=fights)
    return battle, late_file


def play(plan: Plan, admin_url: str, pg_ctl: Callable[[str], None], workdir: Path,
         say: Callable[[str], None] = print) -> dict:
    """Play the game day; the figures and the checks (see the module's docstring)."""
    workdir.mkdir(parents=True, exist_ok=True)
    db = faults.new_database(admin_url, f"gameday_{uuid.uuid4().hex[:8]}")
    say(f"game day: {plan.players} players ({plan.late} late), {plan.groups} groups, {plan.stations} stations, "
        f"{plan.gateways} gateways, {plan.minutes:g} game minutes at speed {plan.speed:g}")
    battle, late_file = prepare(db, plan, workdir)
    ports = [PluggablePty(workdir / f"gw{k + 1}") for k in range(plan.gateways)]
    per = plan.gateways // plan.stations
    # Each gateway has a partner on its mast wired to another station: every frame reaches two stations.
    n = per * plan.stations
    mirror = {g: g + n // 2 for g in range(n // 2)} if plan.stations > 1 else {}
    sim = Simulator(battle, ports, speed=plan.speed, loss=plan.loss, seed=plan.seed, drain=plan.drain_s,
                    progress=lambda text: say(f"sim: {text}"), progress_every_ms=10 * 60_000, mirror=mirror)
    t0 = time.monotonic()
    disk = faults.SmallDisk(workdir / "small-disk") if plan.disk_full else None
    stations = []
    for i in range(plan.stations):
        queue_dir = disk.path if (disk is not None and i == plan.stations - 1) else workdir
        stations.append(Station(f"station{i + 1}", db, [p.name for p in ports[i * per:(i + 1) * per]], plan.speed,
                                Path(queue_dir) / f"station{i + 1}.queue", workdir, t0))
    for s in stations:
        s.start()
    runner = threading.Thread(target=sim.run, name="gameday simulator", daemon=True)
    runner.start()
    done: list[tuple[float, str, dict]] = []
    outages: list[tuple[float, float]] = []         # the server's outage: real seconds since t0 ...
    walls: list[tuple[float, float]] = []           # ... and in unix seconds
    try:
        if not sim.started.wait(120):
            raise RuntimeError("the stations did not identify every gateway within 2 minutes: "
                               + " / ".join(s.lines[-1][1] if s.lines else "(silent)" for s in stations))
        battle_t0 = sim.t0 - t0
        for s in stations:
            s.t0 = t0
        plan_faults = schedule(plan)
        restarts: list[tuple[float, Station]] = []
        while not sim.finished.is_set():
            now = time.monotonic() - sim.t0
            while plan_faults and plan_faults[0][0] <= now:
                at, what, detail = plan_faults.pop(0)
                done.append((battle_t0 + at, what, _fault(what, detail, stations, sim, pg_ctl, disk, db, late_file,
                                                           restarts, plan, say)))
                if what == "server_start":
                    outages.append((battle_t0 + at - plan.server_stop_s, battle_t0 + at + 10))
                    walls.append((time.time() - plan.server_stop_s - 1, time.time() + 10))
            for item in [r for r in restarts if r[0] <= now]:
                restarts.remove(item)
                item[1].start()
                say(f"{now:7.1f} s: {item[1].name} started again")
            time.sleep(0.2)
        time.sleep(5)                   # (a station killed near the end stays down: it would be stopped starting)
    finally:
        stop_wall = time.time()
        codes = {s.name: s.stop() for s in stations}
        sim.stop()
        runner.join(30)
        for p in ports:
            p.close()
        if disk is not None:
            disk.close()
    end = time.monotonic() - t0
    return _verdict(plan, db, sim, stations, codes, (outages, walls), done, end, stop_wall, sim.t0 - t0)


def _fault(what, detail, stations, sim, pg_ctl, disk, db, late_file, restarts, plan, say) -> dict:
    now = time.monotonic() - sim.t0
    if what == "kill_owner":
        victim = owner(stations)
        if victim is None:
            say(f"{now:7.1f} s: no station runs the timers now: none killed")
            return {"killed": None}
        victim.kill()
        restarts.append((now + plan.restart_after_s, victim))
        say(f"{now:7.1f} s: {victim.name}, the timer owner, killed (SIGKILL)")
        return {"killed": victim.name}
    if what in ("unplug", "plug"):
        (sim.unplug if what == "unplug" else sim.plug)(detail["gateway"])
        say(f"{now:7.1f} s: gateway {detail['gateway'] + 1} {what}ged")
        return detail
    if what in ("server_stop", "server_start"):
        pg_ctl("stop" if what == "server_stop" else "start")
        say(f"{now:7.1f} s: the server {'stopped' if what == 'server_stop' else 'started again'}")
        return {}
    if what in ("disk_fill", "disk_free"):
        (disk.fill if what == "disk_fill" else disk.free)()
        say(f"{now:7.1f} s: {stations[-1].name}'s disk {'full' if what == 'disk_fill' else 'free again'}")
        return {}
    if what == "roster_import":
        done = subprocess.run([sys.executable, "-m", "controlroom", "roster", "import", str(late_file), "--db", db,
                               "--keep-missing"], capture_output=True, text=True, timeout=300)
        say(f"{now:7.1f} s: late registrations imported (exit {done.returncode}): "
            f"{(done.stdout or done.stderr).strip()[:200]}")
        return {"exit": done.returncode, "said": (done.stdout + done.stderr).strip()[:500]}
    raise ValueError(what)


def _verdict(plan, db, sim, stations, codes, windows, done, end, stop_wall, battle_t0) -> dict:
    from controlroom.report.gather import load_report
    from controlroom.store.game import GameStore

    outages, walls = windows
    truth = sim.truth()
    seen = sim.acks_seen()
    delays = [(battle_t0 + at, ms) for at, ms in seen["ack_delays"]]
    with GameStore.open(db, create=False) as store:
        game = checks.read_game(store)
        epoch = int(store.meta(f"clock_epoch_unix_ms@{plan.speed:g}") or store.meta("clock_epoch_unix_ms") or 0)
        report = load_report(store)
    # The game's time when the stations were stopped (every deadline due before it, less a few real
    # seconds' grace, must be stored), and at least the last event's.
    end_t = max(int((stop_wall * 1000 - epoch) * plan.speed), max((ev.t for *_r, ev in game.rows), default=0))
    grace = int(5_000 * plan.speed)
    out = {"plan": asdict(plan), "faults": [(round(a, 1), w, d) for a, w, d in done], "exit_codes": codes,
           "battle_complete": truth["complete"], "frames_sent": truth["on_air"]["new"],
           "gave_up": truth["gave_up"], "unacked_at_end": truth["unacked"]}
    out.update(checks.frames_check(seen["acked"], game))
    out.update(checks.deadlines_check(game, end_t - grace))
    out.update(checks.lateness(game, epoch, plan.speed, walls))
    states = checks.states_check(game, end_t)
    out.update({k: v for k, v in states.items() if k != "reference"})
    report_counts = checks.report_counts(report)
    out.update(checks.report_check(report_counts, states["reference"]))
    kills = [(at, at + plan.restart_after_s + 60) for at, what, d in done if what == "kill_owner" and d.get("killed")]
    out.update(checks.acks_check(delays, outages, kills))
    transitions = sorted(t for s in stations for t in s.timers)
    out.update(checks.owners_check(transitions, end, outages, start=battle_t0))
    out["kills"] = sum(s.kills for s in stations)
    out["wall_s"] = round(end, 1)
    return json.loads(json.dumps(out, default=str))
