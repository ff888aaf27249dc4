"""ruff finds nothing in the repository, and the check really catches a finding.

The rules are pyproject.toml's [tool.ruff]; ruff is in the test extra.  The second
test lints a small module under the same configuration, adds an unused import, and
checks that ruff refuses it, naming it: a check that cannot fail would prove nothing.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


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
