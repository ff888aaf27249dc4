"""A stored game for the report tests: a scenario script played as the core would, with devices."""

from __future__ import annotations

from pathlib import Path

from controlroom.game.replay import replay_script
from controlroom.game.script import load_script
from controlroom.store.devices import register_device
from controlroom.store.game import GameStore

SCRIPT = Path(__file__).resolve().parent / "two_scenarios.jsonl"


def store_script(path: Path, script_path: Path = SCRIPT, wall0: int = 1_780_000_000_000):
    """Play a script through the rules and store every event (the timers' too) in batches, as a core
    would; register the marshals' handsets and the siege engine's tracker.  Returns the replay result."""
    script = load_script(script_path)
    result = replay_script(script)
    with GameStore.open(path) as store:
        store.save_roster(script.members)
        store.set_meta("name", script.name)
        register_device(store, 7, "marshal", "North handset", marshal="Maret Kask")
        register_device(store, 8, "marshal", "South handset", marshal="Tõnu Tamm")
        register_device(store, 9, "marshal", "Valhalla desk")
        register_device(store, 40, "tracker", "Ram tracker", group="Karud", siege_engine="Jäär")
        log = result.log
        for i in range(0, len(log), 5):
            store.log.append(log[i:i + 5], wall_ms=wall0 + log[i].t)
    return result
