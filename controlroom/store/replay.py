"""A stored game opened for a replay: read once, read-only, into a Seeker (game/seek.py).

Nothing is written to the game: the file is opened read-only (a database
server with a read-only transaction's worth of SELECTs), so a replay may run
beside the live game, on the same file or database.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from controlroom.game.seek import DEFAULT_EVERY, Seeker
from controlroom.game.state import GameState
from controlroom.paths import data_dir
from controlroom.rules.profile import RulesProfile
from controlroom.store.devices import devices
from controlroom.store.game import GameStore
from controlroom.store.maps import StoredMap, current_map, map_file


@dataclass(slots=True)
class ReplayGame:
    """What a replay needs of a stored game: its seeker, devices and map."""

    seeker: Seeker
    name: str
    where: str
    devices: dict[str, dict] = field(default_factory=dict)    # source -> {"role", "label", "group", "engine"}
    map: StoredMap | None = None
    map_path: Path | None = None
    map_problem: str = ""


def open_replay(db: str | Path, every: int = DEFAULT_EVERY, profile: RulesProfile | None = None,
                maps_folder: Path | None = None) -> ReplayGame:
    """Read a stored game for a replay (StoreError says what is wrong, in words).

    The map kept with the game is written to ``maps_folder`` (this laptop's
    data folder by default), never into the game.
    """
    from controlroom.store.errors import StoreError

    with GameStore.open(db, create=False, read_only=True) as store:
        base = GameState(store.roster(), profile or store.profile())
        seeker = Seeker(base, store.log.rows(), store.retracted(), every=every, name=store.name)
        known = {d.source: {"role": d.role, "label": d.label, "group": d.group, "engine": d.siege_engine}
                 for d in devices(store).values()}
        game = ReplayGame(seeker, store.name, store.where, known)
        try:
            game.map = current_map(store)
            if game.map is not None:
                game.map_path = map_file(store, game.map, maps_folder or data_dir() / "maps")
        except (StoreError, OSError) as exc:
            game.map_problem = str(exc)
    return game
