"""The game's map and gateway ports, kept in the game (SQLite and PostgreSQL) and brought back as they were."""

from __future__ import annotations

import pytest

from controlroom.store.errors import StoreError
from controlroom.store.game import GameStore
from controlroom.store.maps import current_map, map_file, save_map, save_ports, stored_ports

WORLD = (0.5, 0.0, 0.0, -0.5, 659000.25, 6474999.75)


def test_map_and_ports_round_trip(game_db, tmp_path):
    image = tmp_path / "field.png"
    image.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40)
    with GameStore.open(game_db) as store:
        assert current_map(store) is None and stored_ports(store) == []
        kept = save_map(store, image, "image", "EPSG-WKT", WORLD, 400, 300)
        again = save_map(store, image, "image", "EPSG-WKT", WORLD, 400, 300)      # the same map: kept once
        assert again.id == kept.id
        save_ports(store, ["/dev/ttyUSB0", "socket://10.0.0.5:4000"])
    image.unlink()                                  # the organiser's file may go: the game has its copy
    with GameStore.open(game_db, create=False) as store:
        found = current_map(store)
        assert (found.name, found.kind, found.crs, found.world, found.width, found.height) == (
            "field.png", "image", "EPSG-WKT", WORLD, 400, 300)
        path = map_file(store, found, tmp_path / "cache")
        assert path.name == "field.png" and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert path.stat().st_size == found.size == 8 + 256 * 40
        assert map_file(store, found, tmp_path / "cache") == path        # written once, then reused
        assert stored_ports(store) == ["/dev/ttyUSB0", "socket://10.0.0.5:4000"]
        moved = tmp_path / "field2.png"
        moved.write_bytes(b"other")
        newer = save_map(store, moved, "image", "EPSG-WKT", WORLD, 1, 1)
        assert newer.id > found.id and current_map(store).name == "field2.png"     # the old one is kept too


def test_unreadable_map_file_is_a_clear_error(tmp_path):
    with GameStore.open(tmp_path / "g.crgame") as store:
        with pytest.raises(StoreError, match="cannot be read"):
            save_map(store, tmp_path / "missing.png", "image", "WKT", WORLD, 1, 1)
