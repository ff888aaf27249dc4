"""The bundled program's entry point: the ``controlroom`` command line, as ``python -m controlroom`` runs it."""

import sys

from controlroom.cli import main

if __name__ == "__main__":
    sys.exit(main())
