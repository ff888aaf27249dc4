"""LoRa time on air (Semtech SX1276 formula), the airtime planner and its CLI."""

from __future__ import annotations

import argparse
import json
import math

import pytest

from controlroom.cli import CliError
from controlroom.commands import airtime as cmd
from controlroom.radio.airtime import BANDWIDTHS_KHZ, max_frames_per_second, time_on_air
from controlroom.sim.plan import ALOHA_MAX_THROUGHPUT, plan

# Hand computations, explicit header, CRC on, CR 4/5, 8-symbol preamble, 125 kHz:
# n_payload = 8 + max(ceil((8*PL - 4*SF + 28 + 16) / (4*(SF - 2*DE))) * 5, 0)
#
# SF7,  24 B: Tsym 1.024 ms, preamble 12.25*1.024 = 12.544 ms,
#             (192-28+44)/28 = 7.43 -> 8 -> 48 sym = 49.152 ms       -> 61.696 ms
# SF9,  24 B: Tsym 4.096 ms, preamble 50.176 ms,
#             (192-36+44)/36 = 5.56 -> 6 -> 38 sym = 155.648 ms      -> 205.824 ms
# SF10, 24 B: Tsym 8.192 ms, preamble 100.352 ms,
#             (192-40+44)/40 = 4.9  -> 5 -> 33 sym = 270.336 ms      -> 370.688 ms
# SF10, 51 B: (408-40+44)/40 = 10.3 -> 11 -> 63 sym = 516.096 ms     -> 616.448 ms
# SF11, 24 B: Tsym 16.384 ms -> LDRO on, preamble 200.704 ms,
#             (192-44+44)/36 = 5.33 -> 6 -> 38 sym = 622.592 ms      -> 823.296 ms
# SF12, 51 B: Tsym 32.768 ms -> LDRO on, preamble 401.408 ms,
#             (408-48+44)/40 = 10.1 -> 11 -> 63 sym = 2064.384 ms    -> 2465.792 ms
KNOWN = [
    # payload, sf, bw, payload symbols, total ms, ldro
    (24, 7, 125, 48, 61.696, False),
    (24, 9, 125, 38, 205.824, False),
    (24, 10, 125, 33, 370.688, False),
    (51, 10, 125, 63, 616.448, False),
    (24, 11, 125, 38, 823.296, True),
    (51, 12, 125, 63, 2465.792, True),
]


@pytest.mark.parametrize(("payload", "sf", "bw", "symbols", "total_ms", "ldro"), KNOWN)
def test_known_values(payload, sf, bw, symbols, total_ms, ldro):
    r = time_on_air(payload, sf, bw)
    assert r.payload_symbols == symbols
    assert r.total_ms == pytest.approx(total_ms, abs=1e-6)
    assert r.low_data_rate is ldro
    assert r.symbol_ms == pytest.approx(2**sf / bw)
    assert r.preamble_ms == pytest.approx(12.25 * 2**sf / bw)
    assert r.preamble_ms + r.payload_ms == pytest.approx(r.total_ms)
    assert r.total_s == pytest.approx(total_ms / 1000)


def test_options_change_the_symbol_count():
    # SF7, 24 B, CR 4/8: 8 blocks * 8 = 64 + 8 = 72 symbols.
    assert time_on_air(24, 7, 125, cr=4).payload_symbols == 72
    # No CRC: (192-28+28)/28 = 6.86 -> 7 -> 43 symbols.
    assert time_on_air(24, 7, 125, crc=False).payload_symbols == 43
    # Implicit header: (192-28+44-20)/28 = 6.71 -> 7 -> 43 symbols.
    assert time_on_air(24, 7, 125, explicit_header=False).payload_symbols == 43
    # Preamble 12: (12 + 4.25) * 1.024 ms.
    assert time_on_air(24, 7, 125, preamble=12).preamble_ms == pytest.approx(16.64)
    # Empty payload at SF12 without CRC, implicit: numerator negative -> 8 symbols only.
    assert time_on_air(0, 12, 125, crc=False, explicit_header=False).payload_symbols == 8
    # SF6 works with an implicit header: (192-24+44-20)/24 = 8 -> 48 symbols.
    assert time_on_air(24, 6, 125, explicit_header=False).payload_symbols == 48


def test_ldro_switches_on_at_16_ms_symbols():
    assert time_on_air(24, 10, 125).low_data_rate is False     # 8.192 ms
    assert time_on_air(24, 11, 125).low_data_rate is True      # 16.384 ms
    assert time_on_air(24, 12, 250).low_data_rate is True      # 16.384 ms
    assert time_on_air(24, 11, 250).low_data_rate is False     # 8.192 ms
    assert time_on_air(24, 7, 7.8).low_data_rate is True       # 128 / 7.8125 = 16.384 ms
    # Forcing it: SF11 without LDRO, (192-44+44)/44 = 4.36 -> 5 -> 33 symbols.
    forced = time_on_air(24, 11, 125, low_data_rate=False)
    assert forced.low_data_rate is False
    assert forced.payload_symbols == 33
    assert forced.total_ms == pytest.approx(200.704 + 33 * 16.384)
    assert time_on_air(24, 7, 125, low_data_rate=True).low_data_rate is True


def test_narrow_bandwidths_use_exact_values():
    assert time_on_air(24, 7, 7.8).bw_khz == pytest.approx(7.8125)
    assert time_on_air(24, 7, 41.7).bw_khz == pytest.approx(500 / 12)
    assert time_on_air(24, 7, 41.67).bw_khz == pytest.approx(500 / 12)
    for bw in BANDWIDTHS_KHZ:
        assert time_on_air(10, 8, bw).total_ms > 0


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"sf": 13}, ["spreading factor", "13", "6..12"]),
        ({"sf": 5}, ["spreading factor", "5", "6..12"]),
        ({"sf": 6}, ["spreading factor 6", "implicit header"]),
        ({"bw_khz": 100}, ["bandwidth", "100", "125", "7.8", "500"]),
        ({"cr": 5}, ["coding rate", "5", "1..4"]),
        ({"cr": 0}, ["coding rate", "0", "1..4"]),
        ({"payload_bytes": 256}, ["payload", "256", "0..255"]),
        ({"payload_bytes": -1}, ["payload", "-1", "0..255"]),
        ({"preamble": 2}, ["preamble", "2", "6..65535"]),
        ({"sf": 7.5}, ["spreading factor", "7.5"]),
    ],
)
def test_validation_errors_name_the_value_and_range(kwargs, words):
    call = {"payload_bytes": 24, "sf": 7, "bw_khz": 125} | kwargs
    with pytest.raises(ValueError) as info:
        time_on_air(**call)
    for word in words:
        assert word in str(info.value)


def test_max_frames_per_second():
    assert max_frames_per_second(24, 7, 125) == pytest.approx(1000 / 61.696)
    assert max_frames_per_second(51, 12, 125) == pytest.approx(1000 / 2465.792)
    assert max_frames_per_second(24, 11, 125, low_data_rate=False) == pytest.approx(
        1000 / 741.376)


def test_overloaded_plan_breaks_duty_cycle_and_aloha():
    # SF12, 24 B: 401.408 + 33 * 32.768 = 1482.752 ms.
    p = plan(100, 10, 24, 12, 125)
    assert p.region == "EU868" and p.sub_band == "g1" and p.duty_cycle_limit == 0.01
    assert p.duty_cycle == pytest.approx(0.1482752)
    assert p.airtime_per_hour_s == pytest.approx(360 * 1.482752)
    assert p.min_interval_s == pytest.approx(148.2752)
    assert p.channel_load == pytest.approx(14.82752)
    assert p.delivery_probability == pytest.approx(math.exp(-2 * 14.82752))
    assert p.delivered_frames_per_s < 1e-6
    assert not p.ok
    text = " | ".join(p.warnings)
    assert "duty cycle" in text and "1 %" in text
    assert "Erlang" in text and "0.5 Erlang peak" in text
    assert "survive collisions" in text
    assert p.to_dict()["ok"] is False


def test_small_game_at_sf7_is_fine():
    p = plan(20, 60, 24, 7, 125)
    assert p.ok and p.warnings == ()
    assert p.duty_cycle == pytest.approx(0.061696 / 60)
    g = 20 * 0.061696 / 60
    assert p.channel_load == pytest.approx(g)
    assert p.delivery_probability == pytest.approx(math.exp(-2 * g))
    assert p.delivery_probability > 0.95
    assert p.offered_frames_per_s == pytest.approx(1 / 3)
    assert p.delivered_frames_per_s == pytest.approx(math.exp(-2 * g) / 3)
    # Delivery exactly 90 % at the suggested interval.
    at_min = plan(20, p.min_interval_for_delivery_s, 24, 7, 125)
    assert at_min.delivery_probability == pytest.approx(0.9)


def test_channels_lower_the_load_but_not_the_duty_cycle():
    one = plan(60, 20, 24, 9, 125)
    three = plan(60, 20, 24, 9, 125, channels=3)
    assert three.channel_load == pytest.approx(one.channel_load / 3)
    assert three.duty_cycle == one.duty_cycle
    assert three.delivery_probability > one.delivery_probability


def test_load_warning_above_aloha_maximum_throughput():
    # G just over 0.184 warns about the load (and about delivery: exp(-0.37) = 69 %).
    air_s = 0.061696
    interval = 100 * air_s / (ALOHA_MAX_THROUGHPUT * 1.05)
    p = plan(100, interval, 24, 7, 125)
    assert any("pure-ALOHA" in w for w in p.warnings)
    assert not any("0.5 Erlang peak" in w for w in p.warnings)
    assert any("survive collisions" in w for w in p.warnings)


def test_sub_bands():
    # SF9, 24 B (205.824 ms) every 60 s: 0.34 % on air.
    assert plan(1, 60, 24, 9, 125, sub_band="g1").ok
    g2 = plan(1, 60, 24, 9, 125, sub_band="g2")
    assert g2.duty_cycle_limit == 0.001 and not g2.ok
    assert g2.min_interval_s == pytest.approx(205.824)
    assert "0.1 %" in g2.warnings[0]
    assert plan(1, 5, 24, 9, 125, sub_band="G3").duty_cycle_limit == 0.10
    wide = plan(1, 60, 24, 7, 500, sub_band="g3")
    assert any("does not fit" in w for w in wide.warnings)
    with pytest.raises(ValueError, match="g4"):
        plan(1, 60, 24, 7, 125, sub_band="g4")


def test_us915_dwell_time():
    ok = plan(1, 60, 24, 10, 125, region="US915")                 # 370.688 ms
    assert ok.ok and ok.duty_cycle_limit is None and ok.min_interval_s is None
    assert ok.dwell_limit_ms == 400
    bad = plan(1, 60, 51, 12, 125, region="us915")                # 2465.792 ms
    assert bad.region == "US915"
    assert len(bad.warnings) == 1 and "dwell time" in bad.warnings[0]
    assert "2465.8 ms" in bad.warnings[0]
    # No duty cycle in US915, even when one device talks a lot.
    assert not any("duty cycle" in w for w in plan(1, 1, 24, 7, 125, region="US915").warnings)
    with pytest.raises(ValueError, match="EU868 only"):
        plan(1, 60, 24, 7, 125, region="US915", sub_band="g1")


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"devices": 0}, "device count 0"),
        ({"interval_s": 0}, "interval 0"),
        ({"interval_s": -5.0}, "interval -5.0"),
        ({"channels": 0}, "channel count 0"),
        ({"region": "AS923"}, "AS923.*EU868, US915"),
        ({"sf": 13}, "spreading factor 13"),
    ],
)
def test_plan_validation(kwargs, match):
    call = {"devices": 10, "interval_s": 60, "payload_bytes": 24, "sf": 7, "bw_khz": 125}
    with pytest.raises(ValueError, match=match):
        plan(**(call | kwargs))


# --- CLI -------------------------------------------------------------------------------

def _run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    cmd.add_arguments(parser)
    return cmd.run(parser.parse_args(argv))


def test_cli_module_interface():
    assert cmd.NAME == "airtime"
    assert isinstance(cmd.HELP, str) and cmd.HELP


def test_cli_text(capsys):
    assert _run(["--sf", "9"]) == 0
    out = capsys.readouterr().out
    assert "SF9 / 125 kHz / CR 4/5" in out
    assert "205.824 ms" in out
    assert "38" in out and "Plan" not in out


def test_cli_json(capsys):
    assert _run(["--sf", "12", "--payload", "51", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is True
    assert data["airtime"]["total_ms"] == pytest.approx(2465.792)
    assert data["airtime"]["low_data_rate"] is True
    assert data["max_frames_per_second"] == pytest.approx(1000 / 2465.792)
    assert "plan" not in data


def test_cli_plan_text_fine(capsys):
    assert _run(["--sf", "7", "--plan", "--devices", "20", "--interval", "60"]) == 0
    out = capsys.readouterr().out
    assert "Plan: 20 devices every 60 s, EU868 g1, 1 channel" in out
    assert "OK" in out and "Warnings" not in out


def test_cli_plan_with_warnings_is_advice(capsys):
    argv = ["--sf", "12", "--plan", "--devices", "100", "--interval", "10"]
    assert _run(argv) == 0
    out = capsys.readouterr().out
    assert "Warnings:" in out and "duty cycle" in out
    assert _run(argv + ["--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is False
    assert data["plan"]["ok"] is False
    assert data["plan"]["warnings"]
    assert data["plan"]["channel_load"] == pytest.approx(14.82752)


def test_cli_plan_us915_json(capsys):
    argv = ["--sf", "12", "--payload", "51", "--devices", "1", "--interval", "600",
            "--region", "us915", "--json"]
    assert _run(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is False
    assert data["plan"]["region"] == "US915"
    assert "dwell" in data["plan"]["warnings"][0]


@pytest.mark.parametrize("extra", [["--plan"], ["--plan", "--devices", "5"],
                                   ["--interval", "30"]])
def test_cli_plan_needs_devices_and_interval(capsys, extra):
    assert _run(["--sf", "7", *extra]) == 2
    captured = capsys.readouterr()
    assert "--devices" in captured.err and "--interval" in captured.err
    assert captured.out == ""


def test_cli_bad_values_are_cli_errors():
    with pytest.raises(CliError, match="spreading factor 13"):
        _run(["--sf", "13"])
    with pytest.raises(CliError, match="bandwidth 100"):
        _run(["--sf", "7", "--bw", "100"])
    with pytest.raises(CliError, match="EU868 only"):
        _run(["--sf", "7", "--plan", "--devices", "2", "--interval", "60",
              "--region", "US915", "--sub-band", "g1"])


def test_cli_argparse_rejects_bad_choices(capsys):
    with pytest.raises(SystemExit):
        _run(["--sf", "7", "--cr", "5"])
    with pytest.raises(CliError, match="give --sf N"):
        _run(["--cr", "1"])                    # --sf is required (unless --meshtastic gives a preset)
    capsys.readouterr()


def test_meshtastic_presets_are_the_firmware_settings():
    from controlroom.radio.airtime import MESHTASTIC_PRESETS, meshtastic_preset

    p = meshtastic_preset("LongFast")
    assert (p.name, p.sf, p.bw_khz, p.cr) == ("LONG_FAST", 11, 250.0, 1)
    assert meshtastic_preset("long-slow") == MESHTASTIC_PRESETS["LONG_SLOW"]
    assert (MESHTASTIC_PRESETS["LONG_SLOW"].sf, MESHTASTIC_PRESETS["LONG_SLOW"].cr) == (12, 4)
    assert MESHTASTIC_PRESETS["SHORT_TURBO"].bw_khz == 500.0
    with pytest.raises(ValueError, match="unknown Meshtastic modem preset 'FAST'.*LONG_FAST"):
        meshtastic_preset("FAST")


def test_cli_meshtastic_preset(capsys):
    assert _run(["--meshtastic", "LONG_FAST"]) == 0
    out = capsys.readouterr().out
    assert "Meshtastic preset LONG_FAST" in out and "SF11 / 250 kHz / CR 4/5, 16-symbol preamble" in out
    assert "payload              25 bytes" in out
    # The same by hand: SF11, 250 kHz, 4/5, 16 symbols, 25 bytes.
    by_hand = time_on_air(25, 11, 250.0, cr=1, preamble=16)
    assert f"{by_hand.total_ms:.3f} ms" in out
    assert _run(["--meshtastic", "LONG_FAST", "--payload", "56", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["meshtastic_preset"] == "LONG_FAST" and data["airtime"]["payload_bytes"] == 56
    assert _run(["--meshtastic", "MEDIUM_FAST", "--plan", "--devices", "30", "--interval", "120"]) == 0
    assert "EU868 g3" in capsys.readouterr().out           # Meshtastic's EU_868 slot: 869.4-869.65 MHz, 10 %
    with pytest.raises(CliError, match="give --sf N"):
        _run([])
    with pytest.raises(CliError, match="unknown Meshtastic modem preset"):
        _run(["--meshtastic", "FASTEST"])
