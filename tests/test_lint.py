"""ruff finds nothing in the repository, mypy nothing in the layers it checks, and each check really catches a finding.

The rules are pyproject.toml's [tool.ruff] and [tool.mypy]; ruff and mypy are in the
test extra.  The second test of each runs it over a small module under the same
configuration with a finding put in, and checks that it is refused, named: a check
that cannot fail would prove nothing.  mypy's layers are the packages of
[tool.mypy]: every layer below the core (CHECKED), each shown to be reached.
No file of code is over 500 lines (issue 36) but the codec the firmware copies.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The packages whose types mypy checks in the test command: the layers below the core.
CHECKED = ("controlroom.rules", "controlroom.geo", "controlroom.game", "controlroom.radio", "controlroom.store",
           "controlroom.engine")

# Issue 36: a room a newcomer can read through; the codec is one file because the firmware copies it whole.
MAX_LINES = 500
LONG_ALLOWED = {"controlroom/radio/codec.py"}
CODE = {".py", ".js", ".mjs", ".css", ".html", ".sh", ".toml"}
NOT_OURS = {".git", "node_modules", "__pycache__", "build", "dist"}


def long_files(root: Path) -> dict[str, int]:
    """The files of code under ``root`` (not virtual environments, npm's or git's) over MAX_LINES: path: lines."""
    found = {}
    for path in sorted(root.rglob("*")):
        parts = path.relative_to(root).parts
        if path.suffix not in CODE or not path.is_file() or any(p in NOT_OURS or p.startswith(".venv") for p in parts):
            continue
        lines = len(path.read_text(encoding="utf-8", errors="replace").splitlines())
        if lines > MAX_LINES and "/".join(parts) not in LONG_ALLOWED:
            found["/".join(parts)] = lines
    return found


def test_no_file_of_code_is_over_500_lines():
    assert long_files(ROOT) == {}, "split these (issue 36: no file over %d lines)" % MAX_LINES


def test_a_file_of_501_lines_is_found(tmp_path):
    (tmp_path / "controlroom" / "radio").mkdir(parents=True)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_words.py").write_text("x = 1\n" * 500, encoding="utf-8")
    (tmp_path / "controlroom" / "radio" / "codec.py").write_text("x = 1\n" * 900, encoding="utf-8")
    (tmp_path / "notes.md").write_text("words\n" * 900, encoding="utf-8")
    assert long_files(tmp_path) == {}
    (tmp_path / "tests" / "test_words.py").write_text("x = 1\n" * 501, encoding="utf-8")
    (tmp_path / "app.js").write_text("x;\n" * 600, encoding="utf-8")
    assert long_files(tmp_path) == {"app.js": 600, "tests/test_words.py": 501}


def ruff_check(where: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--no-fix",
                           "--output-format", "concise", "."],
                          cwd=where, capture_output=True, text=True, timeout=300)


def test_ruff_finds_nothing():
    done = ruff_check(ROOT)
    assert done.returncode == 0, "ruff check . found:\n" + done.stdout + done.stderr


def test_ruff_catches_an_unused_import(tmp_path):
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    module = tmp_path / "controlroom" / "words.py"
    module.parent.mkdir()
    clean = '"""Words."""\n\nimport json\n\n\ndef said(words):\n    return json.dumps(words)\n'
    module.write_text(clean, encoding="utf-8")
    assert ruff_check(tmp_path).returncode == 0, ruff_check(tmp_path).stdout
    module.write_text(clean.replace("import json\n", "import json\nimport os\n"), encoding="utf-8")
    done = ruff_check(tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "controlroom/words.py:4:8: F401" in done.stdout, done.stdout


def mypy_check(where: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "--no-error-summary", *args],
                          cwd=where, capture_output=True, text=True, timeout=600)


def test_mypy_finds_nothing_in_the_layers_it_checks():
    done = mypy_check(ROOT)
    assert done.returncode == 0, "mypy found:\n" + done.stdout + done.stderr


def test_mypy_checks_every_layer_below_the_core():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert sorted(config["packages"]) == sorted(CHECKED)
    assert not {"ignore_errors", "disallow_untyped_defs"} & set(config), config
    assert "overrides" not in config, "no package is let off: " + repr(config.get("overrides"))


def test_mypy_reaches_each_checked_package(tmp_path):
    # A tree of the checked packages, under the same configuration: run as in the test command (no
    # arguments: the configuration's packages), a wrong type in any one of them is refused, named.
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "controlroom").mkdir()
    (tmp_path / "controlroom" / "__init__.py").write_text('"""The package."""\n', encoding="utf-8")
    clean = '"""Words."""\n\n\ndef said(count: int) -> str:\n    return str(count)\n'
    for name in CHECKED:
        package = tmp_path.joinpath(*name.split("."))
        package.mkdir()
        (package / "__init__.py").write_text('"""A layer."""\n', encoding="utf-8")
        (package / "words.py").write_text(clean, encoding="utf-8")
    assert mypy_check(tmp_path).returncode == 0, mypy_check(tmp_path).stdout
    for name in CHECKED:
        (tmp_path.joinpath(*name.split(".")) / "words.py").write_text(
            clean + "\n\nWORDS: str = said(4) + 1\n", encoding="utf-8")
    done = mypy_check(tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    for name in CHECKED:
        assert f"{name.replace('.', '/')}/words.py:8: error" in done.stdout, done.stdout


def test_mypy_catches_a_wrong_type(tmp_path):
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    module = tmp_path / "words.py"
    clean = '"""Words."""\n\n\ndef said(count: int) -> str:\n    return str(count)\n'
    module.write_text(clean, encoding="utf-8")
    assert mypy_check(tmp_path, "words.py").returncode == 0, mypy_check(tmp_path, "words.py").stdout
    module.write_text(clean + "\n\nWORDS: str = said(4) + 1\n", encoding="utf-8")
    done = mypy_check(tmp_path, "words.py")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "words.py:8: error" in done.stdout, done.stdout
