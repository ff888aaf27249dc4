"""``controlroom airtime``: LoRa time on air and a duty-cycle / collision plan."""

from __future__ import annotations

import argparse
import json
import sys

from controlroom.commands.errors import CliError
from controlroom.i18n import translate
from controlroom.radio import airtime as _airtime
from controlroom.sim import plan as _plan

NAME = "airtime"
HELP = ("LoRa time on air of one handset frame; with --plan, check duty cycle, "
        "dwell time and collisions for a whole game.")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    radio = parser.add_argument_group("radio settings")
    radio.add_argument("--sf", type=int, metavar="N",
                       help="spreading factor, 7..12 (6 needs --implicit-header); or give --meshtastic")
    radio.add_argument("--bw", type=float, metavar="KHZ",
                       help="bandwidth in kHz (default 125)")
    radio.add_argument("--cr", type=int, choices=(1, 2, 3, 4),
                       help="coding rate 1..4 meaning 4/5..4/8 (default 1)")
    radio.add_argument("--preamble", type=int, metavar="N",
                       help="preamble symbols (default 8)")
    radio.add_argument("--payload", type=int, metavar="BYTES",
                       help="frame payload in bytes, 0..255 (default 24)")
    radio.add_argument("--meshtastic", metavar="PRESET",
                       help="a stock Meshtastic modem preset (" + ", ".join(_airtime.MESHTASTIC_PRESETS)
                            + "): its SF, bandwidth, coding rate and 16-symbol preamble; payload "
                            f"{_airtime.MESHTASTIC_PAYLOADS['text']} bytes (a text report) unless given; "
                            "plans in EU868 use sub-band g3 unless given")
    radio.add_argument("--implicit-header", action="store_true",
                       help="no LoRa header (time on air only; plans assume explicit)")
    radio.add_argument("--no-crc", action="store_true",
                       help="payload CRC off (time on air only; plans assume CRC on)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    game = parser.add_argument_group("plan")
    game.add_argument("--plan", action="store_true",
                      help="check a whole game (needs --devices and --interval)")
    game.add_argument("--devices", type=int, metavar="N", help="handsets sending")
    game.add_argument("--interval", type=float, metavar="SECONDS",
                      help="seconds between frames of one handset")
    game.add_argument("--region", type=str.upper, default="EU868", choices=_plan.REGIONS,
                      help="regulatory region (default EU868)")
    game.add_argument("--sub-band", type=str.lower, choices=tuple(_plan.EU868_SUB_BANDS),
                      help="EU868 sub-band: g1 868.0-868.6 MHz 1 %%, g2 868.7-869.2 MHz "
                           "0.1 %%, g3 869.4-869.65 MHz 10 %% (default g1)")
    game.add_argument("--channels", type=int, default=1, metavar="N",
                      help="channels the handsets spread over (default 1)")


def _airtime_lines(air: _airtime.AirtimeResult, preset: str | None = None) -> list[str]:
    header = "explicit header" if air.explicit_header else "implicit header"
    crc = "CRC on" if air.crc else "CRC off"
    return ([f"Meshtastic preset {_airtime.meshtastic_preset(preset).name}"] if preset else []) + [
        f"LoRa SF{air.sf} / {air.bw_khz:g} kHz / CR {air.coding_rate}, "
        f"{air.preamble}-symbol preamble, {header}, {crc}",
        f"  payload              {air.payload_bytes} bytes",
        f"  symbol time          {air.symbol_ms:.3f} ms",
        f"  preamble             {air.preamble_ms:.3f} ms",
        f"  payload symbols      {air.payload_symbols} ({air.payload_ms:.3f} ms)",
        f"  low data rate opt.   {'on' if air.low_data_rate else 'off'}",
        f"  time on air          {air.total_ms:.3f} ms",
        f"  max frames/s         {1000.0 / air.total_ms:.2f} (one channel, back to back)",
    ]


def _plan_lines(p: _plan.Plan) -> list[str]:
    where = p.region if p.sub_band is None else f"{p.region} {p.sub_band}"
    channels = "1 channel" if p.channels == 1 else f"{p.channels} channels"
    lines = [
        "",
        f"Plan: {p.devices} devices every {p.interval_s:g} s, {where}, {channels}",
        f"  airtime per device   {p.airtime_per_hour_s:.1f} s per hour",
    ]
    if p.duty_cycle_limit is not None:
        lines.append(f"  duty cycle / device  {p.duty_cycle * 100:.3f} % "
                     f"(limit {p.duty_cycle_limit * 100:g} %, "
                     f"interval >= {p.min_interval_s:.1f} s)")
    if p.dwell_limit_ms is not None:
        lines.append(f"  dwell time           {p.airtime.total_ms:.1f} ms "
                     f"(limit {p.dwell_limit_ms:.0f} ms per transmission)")
    lines += [
        f"  channel load G       {p.channel_load:.4f} Erlang",
        f"  delivery (ALOHA)     {p.delivery_probability * 100:.1f} % "
        f"(>= 90 % needs interval >= {p.min_interval_for_delivery_s:.1f} s)",
        f"  frames/s delivered   {p.delivered_frames_per_s:.3f} "
        f"of {p.offered_frames_per_s:.3f} offered",
    ]
    if p.ok:
        lines.append("  OK: the plan fits")
    else:
        lines.append("Warnings:")
        lines += [f"  - {w}" for w in p.warnings]
    return lines


def _settings(args: argparse.Namespace) -> None:
    """Fill in the radio settings: from --meshtastic's preset, else the LoRa defaults (explicit options win)."""
    defaults = {"bw": 125.0, "cr": 1, "preamble": 8, "payload": 24}
    if args.meshtastic:
        try:
            p = _airtime.meshtastic_preset(args.meshtastic)
        except ValueError as exc:
            raise CliError(str(exc)) from None
        defaults = {"sf": p.sf, "bw": p.bw_khz, "cr": p.cr, "preamble": _airtime.MESHTASTIC_PREAMBLE,
                    "payload": _airtime.MESHTASTIC_PAYLOADS["text"]}
        if args.sub_band is None and args.region == "EU868":
            args.sub_band = _airtime.MESHTASTIC_EU868_SUB_BAND
    for name, value in defaults.items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    if args.sf is None:
        raise CliError(translate("errors", "give --sf N (a LoRa spreading factor) or --meshtastic PRESET"))


def run(args: argparse.Namespace) -> int:
    _settings(args)
    want_plan = args.plan or args.devices is not None or args.interval is not None
    if want_plan and (args.devices is None or args.interval is None):
        print("controlroom airtime: a plan needs both --devices N and --interval SECONDS",
              file=sys.stderr)
        return 2
    try:
        air = _airtime.time_on_air(
            args.payload, args.sf, args.bw, cr=args.cr, preamble=args.preamble,
            explicit_header=not args.implicit_header, crc=not args.no_crc,
        )
        result = None
        if want_plan:
            if args.implicit_header or args.no_crc:
                raise ValueError("--plan assumes an explicit header and CRC on; "
                                 "drop --implicit-header / --no-crc")
            result = _plan.plan(
                args.devices, args.interval, args.payload, args.sf, args.bw,
                cr=args.cr, preamble=args.preamble, region=args.region,
                sub_band=args.sub_band, channels=args.channels,
            )
    except ValueError as exc:
        raise CliError(str(exc)) from None

    if args.json:
        data: dict = {"airtime": air.to_dict(),
                      **({"meshtastic_preset": _airtime.meshtastic_preset(args.meshtastic).name}
                         if args.meshtastic else {}),
                      "max_frames_per_second": 1000.0 / air.total_ms}
        if result is not None:
            data["plan"] = result.to_dict()
        data["ok"] = result.ok if result is not None else True
        print(json.dumps(data, indent=2))
        return 0
    lines = _airtime_lines(air, args.meshtastic)
    if result is not None:
        lines += _plan_lines(result)
    print("\n".join(lines))
    return 0
