"""The layers of pyproject.toml's [tool.importlinter] hold, and the contract really catches a break.

rules, then game and geo, then radio and store, then report and sim, then core, then ui,
then commands, then the command line; no Qt below core.  The second test copies
the package, makes one store module import PySide6 and one game module import
core, and checks that lint-imports refuses both, naming them: a contract that
cannot fail would prove nothing.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT = Path(sys.executable).parent / "lint-imports"


def lint(cwd: Path) -> subprocess.CompletedProcess:
    # lint-imports finds the root package on sys.path: the copy's folder first.
    env = {"PYTHONPATH": str(cwd), "PATH": str(LINT.parent), "LANG": "C.UTF-8",
           "GRIMP_CACHE_DIR": str(cwd / ".grimp_cache")}
    done = subprocess.run([str(LINT), "--no-cache", str(cwd / "pyproject.toml")], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)
    done.stdout = " ".join(done.stdout.split())     # its report wraps long names to the terminal's width
    return done


def test_the_layers_hold():
    done = lint(ROOT)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "KEPT" in done.stdout and "BROKEN" not in done.stdout


def test_no_module_imports_itself_in_a_circle():
    """No import circles between modules (what the layers contract does not see inside one layer)."""
    graph = grimp.build_graph("controlroom", exclude_type_checking_imports=True)
    circles = []
    for module in sorted(graph.modules):
        for imported in graph.find_modules_directly_imported_by(module):
            if module < imported and graph.chain_exists(imported=module, importer=imported):
                circles.append(f"{module} <-> {imported}: "
                               + " -> ".join(graph.find_shortest_chain(importer=imported, imported=module)))
    assert circles == []


@pytest.fixture
def copy(tmp_path) -> Path:
    shutil.copytree(ROOT / "controlroom", tmp_path / "controlroom",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def test_the_contract_fails_when_a_module_below_core_imports_qt(copy):
    eventlog = copy / "controlroom" / "store" / "eventlog.py"
    eventlog.write_text(eventlog.read_text(encoding="utf-8") + "\nfrom PySide6.QtCore import QObject  # noqa\n",
                        encoding="utf-8")
    done = lint(copy)
    assert done.returncode == 1, done.stdout
    assert "no Qt in rules, game, geo, radio, sim, store, engine or web BROKEN" in done.stdout
    assert "controlroom.store.eventlog -> PySide6" in done.stdout


def test_the_contract_fails_when_game_imports_the_core(copy):
    state = copy / "controlroom" / "game" / "state.py"
    state.write_text(state.read_text(encoding="utf-8") + "\nimport controlroom.core.worker  # noqa\n",
                     encoding="utf-8")
    done = lint(copy)
    assert done.returncode == 1, done.stdout
    assert "controlroom.game.state -> controlroom.core.worker" in done.stdout
    contract = ("rules, then game and geo, then radio and store, then report and sim, engine, web, core, ui, commands, "
                "cli")
    assert f"{contract} BROKEN" in done.stdout


def test_the_contract_fails_when_the_window_imports_the_store(copy):
    dialog = copy / "controlroom" / "ui" / "dialogs" / "roster_import.py"
    dialog.write_text(dialog.read_text(encoding="utf-8") + "\nimport controlroom.store.game  # noqa\n",
                      encoding="utf-8")
    done = lint(copy)
    assert done.returncode == 1, done.stdout
    assert "the window does not import the store BROKEN" in done.stdout
    assert "controlroom.ui.dialogs.roster_import -> controlroom.store.game" in done.stdout


def test_every_module_imports():
    """Every module of the package imports (a module moved without its importers fails here, not in the field)."""
    import importlib
    import pkgutil

    import controlroom

    broken = []
    for info in pkgutil.walk_packages(controlroom.__path__, "controlroom."):
        if info.name.endswith("__main__"):
            continue
        try:
            importlib.import_module(info.name)
        except Exception as exc:  # every failure is listed
            broken.append(f"{info.name}: {type(exc).__name__}: {exc}")
    assert broken == []


@pytest.mark.parametrize("module, line, contract", [
    ("ui/panels/radio.py", "import controlroom.radio.codec  # noqa", "the window does not import the radio"),
    ("sim/battle.py", "import controlroom.store.game  # noqa", "the simulator does not import the store"),
    ("report/model.py", "from PySide6.QtCore import QObject  # noqa", "Qt only in the report's PDF modules"),
])
def test_the_newer_contracts_fail_when_broken(copy, module, line, contract):
    path = copy / "controlroom" / module
    path.write_text(path.read_text(encoding="utf-8") + f"\n{line}\n", encoding="utf-8")
    done = lint(copy)
    assert done.returncode == 1, done.stdout
    assert f"{contract} BROKEN" in done.stdout
