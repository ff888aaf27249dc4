"""Subcommands of the ``controlroom`` command line, one module each.

Each module defines ``NAME``, ``HELP``, ``add_arguments(parser)`` and
``run(args) -> int``.  Modules are imported only when their command runs or
when ``--help`` lists them, and none of them imports Qt at module level.
"""

COMMANDS = (
    "replay",
    "airtime",
    "roster",
    "headless",
    "keys",
    "devices",
    "sim",
    "demo",
    "report",
    "map",
    "export",
    "web",
    "tak",
    "coverage",
)
