"""Storage: SQLModel tables, the append-only event log, migrations, roster import (no Qt)."""
