"""The fake board's machine module: only reset(), which ends what runs and restarts the board."""


class BoardReset(BaseException):
    """Raised by reset(): the fake board restarts (tests/support/fake_board.py)."""


def reset():
    raise BoardReset("machine.reset()")
