"""``python -m controlroom`` runs the command line."""

from controlroom.cli import main

raise SystemExit(main())
