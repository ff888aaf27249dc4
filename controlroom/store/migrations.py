"""Schema versions of a game file, and the migrations between them (alembic operations, batch mode).

Each migration is frozen in time: it spells out its own columns instead of
reading the current models, so a file written by any earlier version upgrades
step by step.  The version lives in ``game_meta`` under ``schema_version``.
SQLite cannot alter constraints in place; alembic's batch mode (the
``render_as_batch`` of an alembic environment) copies the table instead.
"""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa
from alembic.migration import MigrationContext
from alembic.operations import Operations
from sqlalchemy.engine import Connection, Engine

from controlroom.store import pg
from controlroom.store.errors import SchemaTooNew


def _v1_initial(op: Operations) -> None:
    op.create_table(
        "game_meta",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )
    op.create_table(
        "sides",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(100), nullable=False, unique=True),
        sa.Column("colour", sa.String(16)),
    )
    op.create_table(
        "groups",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(100), nullable=False, unique=True),
        sa.Column("side_id", sa.Integer, sa.ForeignKey("sides.id"), nullable=False, index=True),
    )
    op.create_table(
        "characters",
        sa.Column("badge", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("group_id", sa.Integer, sa.ForeignKey("groups.id"), nullable=False, index=True),
        sa.Column("class", sa.String(32), nullable=False),
        sa.Column("paid", sa.Boolean, nullable=False),
        sa.Column("helmet", sa.String(32)),
        sa.Column("armour", sa.String(200), nullable=False),
        sa.Column("hp", sa.Integer),
        sa.Column("ap", sa.Integer),
        sa.Column("inadequate", sa.Boolean, nullable=False),
    )
    op.create_table(
        "marshals",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(200), nullable=False, unique=True),
        sa.Column("callsign", sa.String(32)),
    )
    op.create_table(
        "siege_engines",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(100), nullable=False, unique=True),
        sa.Column("side_id", sa.Integer, sa.ForeignKey("sides.id")),
    )
    op.create_table(
        "events",
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("t", sa.BigInteger, nullable=False),
        sa.Column("wall", sa.BigInteger, nullable=False),
        sa.Column("source", sa.String(64), nullable=False),
        sa.Column("type", sa.String(32), nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
    )


def _v2_radio_frames(op: Operations) -> None:
    """Radio devices with their keys, and radio metadata on events with a unique frame key."""
    op.create_table(
        "devices",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("label", sa.String(100), nullable=False),
        sa.Column("marshal_id", sa.Integer, sa.ForeignKey("marshals.id")),
        sa.Column("group_id", sa.Integer, sa.ForeignKey("groups.id")),
        sa.Column("siege_engine_id", sa.Integer, sa.ForeignKey("siege_engines.id")),
        sa.Column("key_hex", sa.String(128), nullable=False),
    )
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("device", sa.Integer))
        batch.add_column(sa.Column("counter", sa.BigInteger))
        batch.add_column(sa.Column("rssi", sa.Float))
        batch.add_column(sa.Column("snr", sa.Float))
        batch.add_column(sa.Column("gateways", sa.String(200)))
        batch.create_unique_constraint("uq_events_radio_frame", ["device", "counter"])


def _v3_maps(op: Operations) -> None:
    """The game's map kept with it: the file's bytes and its georeference (coordinate system and placement)."""
    op.create_table(
        "maps",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(255), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("crs", sa.Text, nullable=False),
        sa.Column("world", sa.String(400)),
        sa.Column("width", sa.Integer, nullable=False),
        sa.Column("height", sa.Integer, nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("data", sa.LargeBinary, nullable=False),
        sa.Column("added", sa.BigInteger, nullable=False),
    )


def _v4_fold_position(op: Operations) -> None:
    """Late reports fold where they happened: a fold position beside the append order."""
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("pos", sa.Float))
    op.create_index("ix_events_pos", "events", ["pos"])


def _v5_meshtastic(op: Operations) -> None:
    """Stock Meshtastic nodes as devices (their node id), and how each radio report came (path and trust)."""
    with op.batch_alter_table("devices") as batch:
        batch.add_column(sa.Column("meshtastic", sa.String(16)))
        batch.create_unique_constraint("uq_devices_meshtastic", ["meshtastic"])
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("via", sa.String(32)))


def _v6_timer_keys(op: Operations) -> None:
    """A fired deadline's identity, and the seq a correction takes back: each deadline stored once per game."""
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("timer_key", sa.String(96)))
        batch.add_column(sa.Column("retracts", sa.Integer))
    op.create_index("ix_events_timer_key", "events", ["timer_key"])
    op.create_index("ix_events_retracts", "events", ["retracts"])
    import json

    conn = op.get_bind()
    rows = conn.execute(sa.text("SELECT seq, t, type, payload FROM events "
                                "WHERE source = 'timer' OR type = 'retracted'")).all()
    for seq, t, type_, payload in rows:
        data = json.loads(payload)
        if type_ == "retracted":
            if isinstance(data.get("seq"), int):
                conn.execute(sa.text("UPDATE events SET retracts = :r WHERE seq = :s"), {"r": data["seq"], "s": seq})
        else:
            key = f"{type_}|{data.get('badge', '')}|{data.get('stopp', '')}|{t}"
            conn.execute(sa.text("UPDATE events SET timer_key = :k WHERE seq = :s"), {"k": key, "s": seq})


def _v7_invites(op: Operations) -> None:
    """Staff invited to the web view: each token's hash (never the token), role, name, badge, expiry, revocation."""
    op.create_table(
        "invites",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("token_sha256", sa.String(64), nullable=False, unique=True),
        sa.Column("badge", sa.Integer),
        sa.Column("created", sa.BigInteger, nullable=False),
        sa.Column("expires", sa.BigInteger),
        sa.Column("revoked", sa.BigInteger),
    )


def _v8_tak_phones(op: Operations) -> None:
    """TAK phones as devices: the uid of their Cursor-on-Target, or their callsign (docs/tak.md)."""
    with op.batch_alter_table("devices") as batch:
        batch.add_column(sa.Column("tak_uid", sa.String(100)))
        batch.add_column(sa.Column("tak_callsign", sa.String(64)))
        batch.create_unique_constraint("uq_devices_tak_uid", ["tak_uid"])
        batch.create_unique_constraint("uq_devices_tak_callsign", ["tak_callsign"])


def _v9_device_setup(op: Operations) -> None:
    """Game-day setup of the devices: each one's board, the marshals' badges, and each provisioning's outcome."""
    with op.batch_alter_table("devices") as batch:
        batch.add_column(sa.Column("board", sa.String(32)))
    with op.batch_alter_table("marshals") as batch:
        batch.add_column(sa.Column("badge", sa.Integer))
    op.create_table(
        "provisioning",
        sa.Column("device", sa.Integer, sa.ForeignKey("devices.id"), primary_key=True, autoincrement=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("firmware", sa.String(32)),
        sa.Column("fingerprint", sa.String(32)),
        sa.Column("detail", sa.Text, nullable=False),
        sa.Column("port", sa.String(200), nullable=False),
        sa.Column("at", sa.BigInteger, nullable=False),
    )


def _v10_signals(op: Operations) -> None:
    """Each gateway's signal of a radio frame (rssi and snr per gateway), what the coverage layer is made of."""
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("signals", sa.Text))


MIGRATIONS: tuple[tuple[int, str, Callable[[Operations], None]], ...] = (
    (1, "initial schema", _v1_initial),
    (2, "radio frames", _v2_radio_frames),
    (3, "map kept with the game", _v3_maps),
    (4, "fold position", _v4_fold_position),
    (5, "meshtastic nodes and report paths", _v5_meshtastic),
    (6, "a deadline stored once per game", _v6_timer_keys),
    (7, "staff invited to the web view", _v7_invites),
    (8, "TAK phones as devices", _v8_tak_phones),
    (9, "device setup: boards, marshals' badges, provisioning", _v9_device_setup),
    (10, "each gateway's signal of a radio frame", _v10_signals),
)
LATEST = MIGRATIONS[-1][0]


def schema_version(conn: Connection) -> int:
    """The file's schema version; 0 for an empty database."""
    if not sa.inspect(conn).has_table("game_meta"):
        return 0
    row = conn.execute(sa.text("SELECT value FROM game_meta WHERE key = 'schema_version'")).first()
    return int(row[0]) if row else 0


def _set_version(conn: Connection, version: int) -> None:
    updated = conn.execute(
        sa.text("UPDATE game_meta SET value = :v WHERE key = 'schema_version'"), {"v": str(version)}
    ).rowcount
    if not updated:
        conn.execute(sa.text("INSERT INTO game_meta (key, value) VALUES ('schema_version', :v)"), {"v": str(version)})


def migrate(engine: Engine, target: int = LATEST, where: str = "the game file") -> tuple[int, int]:
    """Upgrade the schema to ``target`` in one transaction; returns (before, after).

    A file from a newer version is refused with SchemaTooNew before anything
    is written.
    """
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            # Stations opening a new shared game at once: one creates the tables, the others wait and see them.
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:c, :o)"), {"c": pg.LOCK_CLASS, "o": pg.MIGRATE_LOCK})
        before = schema_version(conn)
        if before > LATEST:
            raise SchemaTooNew(
                f"{where} was written by a newer controlroom (schema {before}; this version knows up to "
                f"{LATEST}). Open it with that version or a newer one; the file was not changed."
            )
        ops = Operations(MigrationContext.configure(conn, opts={"render_as_batch": True}))
        for version, _name, step in MIGRATIONS:
            if before < version <= target:
                step(ops)
                _set_version(conn, version)
        return before, max(before, min(target, LATEST))
