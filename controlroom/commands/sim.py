"""``controlroom sim``: pretend to be the LoRa gateways of a battle, so that a station can be tried without hardware."""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sys
from dataclasses import replace

from controlroom.i18n import translate

NAME = "sim"
HELP = "Simulate a battle's LoRa gateways on pseudo-terminals or serial ports, to try a station without hardware."
EPILOG = """\
The first line printed is the serial ports, separated by spaces (with --pty, the
pseudo-terminals to give the station: controlroom headless --db GAME --port P1
--port P2 ...).  The battle starts once a station has identified every gateway
(ID?), runs --duration game minutes at --speed, and the simulator exits 0 a few
seconds after it (--drain), or at Ctrl+C / SIGTERM, after writing --truth.

With --db the roster and the radio devices with their keys are registered in
that game first (an existing roster and existing devices are kept), so a
station opened on the same game knows them.  WITHOUT --db THE STATION DOES NOT
KNOW THE DEVICES' KEYS and rejects every frame as coming from an unknown device.
Give the station the same --speed: the truth file's counts assume the station's
120 game-second copy window (copies within it are duplicates; the attacker's
replays come 180 or more game seconds after the first copy)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = EPILOG
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--pty", action="store_true", help="create one pseudo-terminal per gateway (Linux, macOS)")
    where.add_argument("--port", action="append", metavar="URL",
                       help="an existing serial port or pyserial URL, once per gateway (e.g. socket://host:4000)")
    parser.add_argument("--db", metavar="GAME", help="register roster and devices (with keys) in this game first")
    parser.add_argument("--roster", metavar="CSV", help="the roster (when the game has none yet); default: generated")
    parser.add_argument("--sides", type=int, help="generated roster: sides (default 2)")
    parser.add_argument("--groups", type=int, help="generated roster: groups in all, spread over the sides (default 6)")
    parser.add_argument("--players", type=int, help="generated roster: players in all (default 60)")
    parser.add_argument("--seed", type=int, help="the same seed plays the same battle (default: a random one, printed)")
    parser.add_argument("--speed", type=float, default=1.0, help="game seconds per real second (default 1: real time)")
    parser.add_argument("--duration", type=float, default=60.0, metavar="MINUTES", help="game minutes (default 60)")
    parser.add_argument("--gateways", type=int, help="gateways with --pty (default 2); with --port, one per port")
    parser.add_argument("--loss", type=float, default=0.05, metavar="F", help="fraction of frames lost on air (0.05)")
    parser.add_argument("--corrupt-rate", type=float, default=0.01, metavar="F",
                        help="fraction of serial lines damaged on the way to the station (0.01)")
    parser.add_argument("--forge-rate", type=float, default=0.0, metavar="F",
                        help="forged frames (wrong tag) added, per frame sent (0)")
    parser.add_argument("--replay-rate", type=float, default=0.0, metavar="F",
                        help="old frames replayed by an attacker, per frame sent (0)")
    parser.add_argument("--origin", metavar="LAT,LON", default="58.38,26.72", help="centre of the field (degrees)")
    parser.add_argument("--drain", type=float, default=3.0, metavar="SECONDS",
                        help="real seconds to wait for the last acks after the battle (3)")
    parser.add_argument("--truth", metavar="FILE.json", help="write what was sent to the station here at the end")
    parser.add_argument("--quiet", action="store_true", help="print only the first line (the ports)")
    # -- the coverage plan's propagation (issue 42; sim/radio_air.py, docs/coverage.md) --
    air = parser.add_argument_group(
        "propagation", "With --gateway or --dem the gateways hear each frame by the coverage plan's model (Longley-"
                       "Rice over the DEM, or free space) instead of at random: frames from a radio shadow are lost, "
                       "acknowledgements may not reach the handset, and it retries.")
    air.add_argument("--gateway", action="append", metavar="LAT,LON,HEIGHT_M",
                     help="where each gateway stands, once per port (default: on a circle of 350 m, 2 m high)")
    air.add_argument("--dem", metavar="DEM.tif", help="the ground's heights (GeoTIFF, any coordinate system)")
    air.add_argument("--sf", type=int, default=9, choices=range(7, 13), metavar="SF",
                     help="the spreading factor, 7 to 12 (default 9)")
    air.add_argument("--tx-dbm", type=float, default=14.0, metavar="DBM", help="transmit power, dBm (default 14)")
    air.add_argument("--clutter-db", type=float, default=10.0, metavar="DB",
                     help="loss the terrain model does not know, dB (default 10)")
    air.add_argument("--fading-db", type=float, default=4.0, metavar="DB",
                     help="slow fading drawn for each frame and gateway, standard deviation in dB (default 4)")
    # -- stock Meshtastic (issue 21; radio/meshtastic_sim.py) --
    parser.add_argument("--meshtastic", action="store_true",
                        help="phones and trackers report through one fake stock Meshtastic node on a pty instead "
                             "(with --pty; the first line is its port, meshtastic:/dev/pts/N; "
                             "needs the meshtastic extra)")


def _check(args: argparse.Namespace) -> tuple[float, float]:
    from controlroom.commands.errors import CliError

    generated = [n for n in ("sides", "groups", "players") if getattr(args, n) is not None]
    if args.roster and generated:
        raise CliError(translate("errors", "give --roster or --{option} (a generated roster), not both").format(
            option=generated[0]))
    for name in ("speed", "duration"):
        if getattr(args, name) <= 0:
            raise CliError(translate("errors", "--{option} must be above 0").format(option=name))
    for name in ("loss", "corrupt_rate", "forge_rate", "replay_rate"):
        if not 0 <= getattr(args, name) <= 1:
            raise CliError(translate("errors", "--{option} is a fraction from 0 to 1").format(
                option=name.replace("_", "-")))
    if args.port and args.gateways is not None and args.gateways != len(args.port):
        raise CliError(translate("errors", "--gateways {gateways} but {ports} --port: give one --port per gateway")
                       .format(gateways=args.gateways, ports=len(args.port)))
    if args.pty and not 1 <= (args.gateways or 2) <= 255:
        raise CliError(translate("errors", "--gateways must be 1 to 255"))
    try:
        lat, lon = (float(v) for v in args.origin.split(","))
    except ValueError:
        raise CliError(translate("errors", "--origin must be LAT,LON in degrees, not {value!r}").format(
            value=args.origin)) from None
    if not (-85 <= lat <= 85 and -180 <= lon <= 180):
        raise CliError(translate("errors", "--origin {value} is not on the map").format(value=args.origin))
    return lat, lon


def air_model(args, gateways: int, origin):
    """The propagation the gateways hear by (sim/radio_air.py), or None for the random air."""
    if not args.gateway and not args.dem:
        return None
    from controlroom.commands.errors import CliError
    from controlroom.geo.dem import DemError, read_dem
    from controlroom.geo.propagation import RadioModel, parse_gateway
    from controlroom.sim.radio_air import AirModel, ring_gateways
    from controlroom.sim.simulator import GATEWAY_RADIUS

    try:
        if args.gateway:
            if len(args.gateway) != gateways:
                raise CliError(translate("errors", "{n} --gateway for {ports} gateways: give one --gateway per "
                                                   "gateway").format(n=len(args.gateway), ports=gateways))
            placed = [parse_gateway(text, f"gateway {i}") for i, text in enumerate(args.gateway, start=1)]
        else:
            placed = ring_gateways(gateways, GATEWAY_RADIUS, origin)
        if not 0 <= args.fading_db <= 20:
            raise ValueError(f"--fading-db is 0 to 20 dB, not {args.fading_db:g}")
        dem = read_dem(args.dem) if args.dem else None
        model = RadioModel(sf=args.sf, tx_dbm=args.tx_dbm, clutter_db=args.clutter_db, dem=dem)
        return AirModel.make(model, placed, origin, args.fading_db)
    except (DemError, ValueError) as exc:
        raise CliError(str(exc)) from None


def _roster(args, profile, seed):
    from controlroom.game.roster_csv import read_roster_csv
    from controlroom.sim.battle import generate_roster

    if args.roster:
        return read_roster_csv(args.roster, profile)
    return generate_roster(args.sides or 2, args.groups or 6, args.players or 60, seed, profile)


def register_devices(store, planned):
    """The planned devices as the game knows them: an existing device of the same role and duty (marshal,
    group or siege engine) is reused with its id and key; the others are registered, with fresh keys."""
    from controlroom.store.devices import devices, register_device

    existing = devices(store)
    taken, out = set(existing), []
    for p in planned:
        match = next((d for d in existing.values() if d.role == p.role and d.id in taken and
                      (d.marshal, d.group, d.siege_engine) == (p.marshal, p.group, p.siege_engine)), None)
        if match is not None:
            taken.discard(match.id)             # each existing device stands for one planned device
            out.append(replace(p, id=match.id, key=match.key, label=match.label))
            continue
        device_id = p.id
        while device_id in existing or device_id in {d.id for d in out}:
            device_id += 1
        info = register_device(store, device_id, p.role, p.label, group=p.group, siege_engine=p.siege_engine,
                               marshal=p.marshal)
        out.append(replace(p, id=device_id, key=info.key))
    return out


def prepare(args, seed: int, origin):
    """(battle, notes): the roster and devices (registered in --db), and the battle they fight."""
    from controlroom.rules.profile import default_profile
    from controlroom.sim.battle import generate, plan_devices

    notes, floor = [], {}
    if args.db is None:
        profile = default_profile()
        members = _roster(args, profile, seed)
        devices = plan_devices(members, seed)
        notes.append("no --db: the station does not know these devices' keys and will reject every frame")
    else:
        from controlroom.store.game import GameStore

        with GameStore.open(args.db) as store:
            profile = store.profile()
            members = store.roster()
            if members:
                ignored = " (--roster and --sides/--groups/--players are ignored)" if args.roster or any(
                    getattr(args, n) is not None for n in ("sides", "groups", "players")) else ""
                notes.append(f"using the roster of {store.name}: {len(members)} players{ignored}")
            else:
                members = _roster(args, profile, seed)
                store.save_roster(members)
                notes.append(f"roster of {len(members)} players saved in {store.name}")
            devices = register_devices(store, plan_devices(members, seed))
            counters = getattr(store.log, "radio_counters", None)
            floor = counters()[0] if counters else {}
            notes.append(f"{len(devices)} devices registered in {store.name} (keys kept in the game)")
    battle = generate(members, devices, args.duration, seed, origin, profile, floor)
    return battle, notes


def run(args: argparse.Namespace) -> int:
    from controlroom.commands.errors import CliError
    from controlroom.game.roster_csv import RosterImportError
    from controlroom.rules.profile import ProfileError
    from controlroom.sim.ports import close_all, open_ports, open_ptys
    from controlroom.sim.simulator import Simulator
    from controlroom.store.errors import StoreError

    origin = _check(args)
    if args.meshtastic and not args.pty:
        raise CliError(translate("errors", "--meshtastic plays a fake node on a pseudo-terminal: give --pty"))
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 1 << 31)
    try:
        battle, notes = prepare(args, seed, origin)
    except RosterImportError as exc:
        raise CliError(f"{args.roster}:\n  " + "\n  ".join(exc.problems)) from None
    except (StoreError, ProfileError, ValueError, OSError) as exc:
        raise CliError(str(exc)) from None
    if args.meshtastic:
        return _run_meshtastic(args, battle, notes, seed)
    air = air_model(args, len(args.port) if args.port else (args.gateways or 2), origin)
    try:
        ports = open_ptys(args.gateways or 2) if args.pty else open_ports(args.port)
    except Exception as exc:  # pyserial raises several kinds
        raise CliError(translate("errors", "cannot open the ports: {problem}").format(problem=exc)) from None
    say = (lambda text: None) if args.quiet else (lambda text: print(text, flush=True))
    sim = Simulator(battle, ports, speed=args.speed, loss=args.loss, corrupt_rate=args.corrupt_rate,
                    forge_rate=args.forge_rate, replay_rate=args.replay_rate, seed=seed, drain=args.drain,
                    progress=say, air=air)
    # Before the first line: whoever reads it may stop the battle at once (and gets the truth written).
    old = {sig: signal.signal(sig, lambda *_: sim.stop()) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        print(" ".join(p.name for p in ports), flush=True)
        sides = ", ".join(battle.sides())
        groups = len({m.group for m in battle.members})
        say(f"seed {seed}: {len(battle.members)} players in {groups} groups ({sides}), {len(battle.devices)} "
            f"devices, {len(battle.transmissions)} frames over {args.duration:g} game minutes")
        for note in notes:
            say(note)
        if air is not None:
            say(f"the air: {air.describe()}")
        truth = sim.run()
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
        close_all(ports)
    if not truth["complete"]:
        say("stopped before the end of the battle")
    if args.truth:
        try:
            _write_json(args.truth, truth)
        except OSError as exc:
            raise CliError(translate("errors", "cannot write {path}: {problem}").format(
                path=args.truth, problem=exc.strerror or exc)) from None
        say(f"truth written to {args.truth}")
    return 0


def _run_meshtastic(args, battle, notes, seed) -> int:
    """The battle through a fake stock Meshtastic node (docs/meshtastic.md)."""
    from controlroom.commands.errors import CliError
    from controlroom.radio.meshtastic_sim import MeshtasticBattle, node_of

    if args.db is not None:             # every simulated handset and tracker is a phone or node: !c0de00NN
        from controlroom.store.devices import register_device
        from controlroom.store.errors import StoreError
        from controlroom.store.game import GameStore

        try:
            with GameStore.open(args.db) as store:
                for d in battle.devices:
                    if d.role in ("marshal", "tracker"):
                        register_device(store, d.id, d.role, d.label, group=d.group, siege_engine=d.siege_engine,
                                        marshal=d.marshal, key=d.key or None, meshtastic=node_of(d.id))
        except StoreError as exc:
            raise CliError(str(exc)) from None
    try:
        sim = MeshtasticBattle(battle, speed=args.speed, loss=args.loss, seed=seed, drain=args.drain,
                               progress=(lambda text: None) if args.quiet else (lambda text: print(text, flush=True)))
    except ImportError as exc:
        raise CliError(str(exc)) from None
    old = {sig: signal.signal(sig, lambda *_: sim.stop()) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        print(sim.url, flush=True)          # (after the handlers: whoever reads it may stop the battle at once)
        if not args.quiet:
            for note in notes:
                print(note, flush=True)
        truth = sim.run()
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
        sim.close()
    if args.truth:
        try:
            _write_json(args.truth, truth)
        except OSError as exc:
            raise CliError(translate("errors", "cannot write {path}: {problem}").format(
                path=args.truth, problem=exc.strerror or exc)) from None
    return 0


def _write_json(path: str, data: dict) -> None:
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2)
        f.write("\n")
    os.replace(tmp, path)


if __name__ == "__main__":          # python -m controlroom.commands.sim ... (before "sim" is registered)
    from controlroom.commands.errors import CliError

    _parser = argparse.ArgumentParser(prog="controlroom sim", description=HELP)
    add_arguments(_parser)
    try:
        sys.exit(run(_parser.parse_args()))
    except CliError as _exc:
        print(f"controlroom: {_exc}", file=sys.stderr)
        sys.exit(1)
