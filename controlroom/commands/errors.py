"""Errors a command reports to its user: one line on standard error and an exit status."""


class CliError(Exception):
    """A problem the user can fix (a missing file, a game that cannot be read); exit status 1."""

    exit_code = 1


class UsageError(CliError):
    """The command was given something it can never use (an unknown kind of gateway port); exit status 2."""

    exit_code = 2
