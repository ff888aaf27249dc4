"""Window tests: garbage from one test (closed windows, menus) is collected in the GUI thread before the next.

A collection started by a worker thread (the core's, a replay worker's) that
destroys widgets can deadlock with the GUI thread (see controlroom/ui/collector.py).
"""

import gc

import pytest


@pytest.fixture(autouse=True)
def _collect_in_the_gui_thread():
    yield
    gc.collect()
