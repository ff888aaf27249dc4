"""SQLModel tables of a game file: roster, marshals and devices, siege engines, the event log."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    Table,
    Text,
    UniqueConstraint,
)
from sqlmodel import Field, SQLModel


class GameMeta(SQLModel, table=True):
    """Key-value facts of the game: name, schema version, rules profile, creation time."""

    __tablename__ = "game_meta"
    key: str = Field(primary_key=True, max_length=64)
    value: str = Field(sa_column=Column(Text, nullable=False))


class Side(SQLModel, table=True):
    __tablename__ = "sides"
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=100, unique=True)
    colour: str | None = Field(default=None, max_length=16)


class Group(SQLModel, table=True):
    __tablename__ = "groups"
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=100, unique=True)
    side_id: int = Field(foreign_key="sides.id", index=True)


class CharacterRow(SQLModel, table=True):
    """One registered player: badge, name, group, class, paid, helmet and armour pieces."""

    __tablename__ = "characters"
    badge: int = Field(sa_column=Column(Integer, primary_key=True, autoincrement=False))
    name: str = Field(max_length=200)
    group_id: int = Field(foreign_key="groups.id", index=True)
    char_class: str = Field(sa_column=Column("class", String(32), nullable=False))
    paid: bool = True
    helmet: str | None = Field(default=None, max_length=32)
    armour: str = Field(default="", max_length=200)      # pieces joined with "+"
    hp: int | None = None
    ap: int | None = None
    inadequate: bool = False


class Marshal(SQLModel, table=True):
    __tablename__ = "marshals"
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=200, unique=True)
    callsign: str | None = Field(default=None, max_length=32)
    badge: int | None = None               # the marshal's own badge number, for the marshal cards


class SiegeEngineRow(SQLModel, table=True):
    __tablename__ = "siege_engines"
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=100, unique=True)
    side_id: int | None = Field(default=None, foreign_key="sides.id")


class Device(SQLModel, table=True):
    """A radio device: marshal handset, tracker or gateway, with its own key (never shown)."""

    __tablename__ = "devices"
    id: int = Field(sa_column=Column(Integer, primary_key=True, autoincrement=False))
    role: str = Field(max_length=16)
    label: str = Field(default="", max_length=100)
    marshal_id: int | None = Field(default=None, foreign_key="marshals.id")
    group_id: int | None = Field(default=None, foreign_key="groups.id")
    siege_engine_id: int | None = Field(default=None, foreign_key="siege_engines.id")
    key_hex: str = Field(max_length=128)
    # A stock Meshtastic node this device is ("!a1b2c3d4"), reporting through the Meshtastic path.
    meshtastic: str | None = Field(default=None, sa_column=Column(String(16), nullable=True, unique=True))
    # A TAK phone this device is (docs/tak.md): by the uid of its Cursor-on-Target, or by its callsign.
    tak_uid: str | None = Field(default=None, sa_column=Column(String(100), nullable=True, unique=True))
    tak_callsign: str | None = Field(default=None, sa_column=Column(String(64), nullable=True, unique=True))
    # The board the device runs on (hardware/firmware/boards.py), for provisioning it; None: a Meshtastic node.
    board: str | None = Field(default=None, max_length=32)


class ProvisioningRow(SQLModel, table=True):
    """What became of a device's last provisioning: the board's own confirmation, or why it failed.

    ``fingerprint`` is the key fingerprint the board read back from its device file (never the key);
    ``state`` is "provisioned" or "failed" (``detail`` then says why).
    """

    __tablename__ = "provisioning"
    device: int = Field(sa_column=Column(Integer, ForeignKey("devices.id"), primary_key=True, autoincrement=False))
    state: str = Field(max_length=16)
    firmware: str | None = Field(default=None, max_length=32)
    fingerprint: str | None = Field(default=None, max_length=32)
    detail: str = Field(default="", sa_column=Column(Text, nullable=False))
    port: str = Field(default="", max_length=200)
    at: int = Field(sa_column=Column(BigInteger, nullable=False))       # wall clock, unix ms


class EventRow(SQLModel, table=True):
    """The append-only event log.  ``seq`` is the one total order of the game."""

    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("device", "counter", name="uq_events_radio_frame"),)
    seq: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True, autoincrement=True))
    t: int = Field(sa_column=Column(BigInteger, nullable=False))
    wall: int = Field(sa_column=Column(BigInteger, nullable=False))
    source: str = Field(max_length=64)
    type: str = Field(max_length=32)
    payload: str = Field(sa_column=Column(Text, nullable=False))
    device: int | None = Field(default=None, sa_column=Column(Integer, nullable=True))
    counter: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    rssi: float | None = Field(default=None, sa_column=Column(Float, nullable=True))
    snr: float | None = Field(default=None, sa_column=Column(Float, nullable=True))
    gateways: str | None = Field(default=None, max_length=200)
    # How a radio report came when not as our own authenticated frame (game.devices.VIA_*): None for those.
    via: str | None = Field(default=None, max_length=32)
    # Each gateway's signal of the frame, "gateway:rssi:snr,..." (RadioMeta.signals): the coverage layer's input.
    signals: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    # Where the event folds when it happened before events stored earlier (a late report, a
    # correction): a position between two seqs.  None: it folds at its own seq.
    pos: float | None = Field(default=None, sa_column=Column(Float, nullable=True, index=True))
    # A fired deadline's identity (store.timer_keys): stored once per game, whichever station fires it.
    timer_key: str | None = Field(default=None, sa_column=Column(String(96), nullable=True, index=True))
    # The seq a ``retracted`` event takes back (a deadline taken back may fire again with its identity).
    retracts: int | None = Field(default=None, sa_column=Column(Integer, nullable=True, index=True))


class MapRow(SQLModel, table=True):
    """A map of the field kept with the game: the file itself and its georeference.

    ``crs`` is the coordinate system as WKT; ``world`` the six world-file
    numbers (A, D, B, E, C, F) placing the pixels in it, as JSON.  The latest
    row is the game's map; earlier ones stay, so that replacing a map loses nothing.
    """

    __tablename__ = "maps"
    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True, autoincrement=True))
    name: str = Field(max_length=255)
    kind: str = Field(max_length=16)        # "image", "geotiff" or "mbtiles"
    crs: str = Field(sa_column=Column(Text, nullable=False))
    world: str | None = Field(default=None, max_length=400)
    width: int
    height: int
    sha256: str = Field(max_length=64)
    data: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    added: int = Field(sa_column=Column(BigInteger, nullable=False))


class InviteRow(SQLModel, table=True):
    """A member of staff invited to the web view (``controlroom.web``): the token's SHA-256, never the token."""

    __tablename__ = "invites"
    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True, autoincrement=True))
    name: str = Field(max_length=64)
    role: str = Field(max_length=16)                 # viewer, safety, valhalla, marshal
    token_sha256: str = Field(sa_column=Column(String(64), nullable=False, unique=True))
    badge: int | None = None                         # the invitee's own badge, if a player
    created: int = Field(sa_column=Column(BigInteger, nullable=False))      # unix ms
    expires: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    revoked: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))


def table_of(model: type[SQLModel]) -> Table:
    """The Core table of a table model: SQLModel sets ``__table__`` when it makes the class."""
    return model.__table__  # type: ignore[attr-defined]  # sqlmodel's types do not declare __table__
