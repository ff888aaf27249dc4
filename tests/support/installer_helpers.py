"""Shared by the installer tests: installer/*.py loaded by file path, and the Debian tools they need."""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTALLER = ROOT / "installer"


def load(name: str):
    """installer/NAME.py as a module (installer/ is not a package)."""
    key = f"controlroom_installer_{name}"
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, INSTALLER / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return sys.modules[key]


def require_tool(program: str, package: str) -> str:
    """The path of a program the test needs; skip without it, but fail under CI (CI=true), which installs it."""
    found = shutil.which(program)
    if found:
        return found
    message = f"{program} is missing (Debian package {package}; installer/quickstart.py test installs it as root)"
    if os.environ.get("CI", "").lower() not in ("", "0", "false"):
        pytest.fail(message)
    pytest.skip(message)
