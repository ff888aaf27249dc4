"""Window tests: garbage from one test (closed windows, menus) is collected in the GUI thread before the next.

A collection started by a worker thread (the core's, a replay worker's) that
destroys widgets can deadlock with the GUI thread (see controlroom/ui/collector.py).
While pyqtgraph's label items are destroyed, Qt may still ask them for their
size hint, which raises in their half-gone Python part: that noise of the
destruction itself is not the test's, so it is not reported here.
"""

import gc
import sys

import pytest


@pytest.fixture(autouse=True)
def _collect_in_the_gui_thread():
    yield
    hook = sys.excepthook
    sys.excepthook = lambda *_exc: None
    try:
        gc.collect()
    finally:
        sys.excepthook = hook
