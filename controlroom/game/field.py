"""What the map shows besides characters: positions, headcounts, siege engines, short messages."""

from __future__ import annotations

from controlroom.game.events import Event


class FieldReports:
    """GameState's part that keeps the latest field reports (folded like every other event)."""

    t: int

    def _init_field(self) -> None:
        self.positions: dict[str, tuple] = {}      # source -> (t, lat, lon, battery, fix)
        self.heard: dict[str, tuple] = {}          # source -> (t, battery): last heard
        self.headcounts: dict[str, tuple] = {}     # group -> (t, up, down, dead)
        self.siege: dict[str, tuple] = {}          # engine -> (t, status, lat, lon)
        self.messages: list[tuple] = []            # (t, source, code, text)

    def _e_position(self, ev: Event) -> None:
        d = ev.data
        if d.get("lat") is not None and d.get("lon") is not None:
            self.positions[ev.source] = (self.t, d["lat"], d["lon"], d.get("battery"), d["fix"])
        self.heard[ev.source] = (self.t, d.get("battery"))

    def _e_heartbeat(self, ev: Event) -> None:
        self.heard[ev.source] = (self.t, ev.data.get("battery"))

    def _e_headcount(self, ev: Event) -> None:
        d = ev.data
        self.headcounts[d["group"]] = (self.t, d["up"], d["down"], d["dead"])

    def _e_siege_status(self, ev: Event) -> None:
        d = ev.data
        self.siege[d["engine"]] = (self.t, d["status"], d.get("lat"), d.get("lon"))

    def _e_message(self, ev: Event) -> None:
        self.messages.append((self.t, ev.source, ev.data["code"], ev.data["text"]))

