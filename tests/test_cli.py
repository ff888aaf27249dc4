"""The command line: help and version without Qt, usage errors, replay of scripts."""

import json
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from controlroom.cli import main

EXAMPLE = Path(str(resources.files("controlroom.resources").joinpath("examples", "battle.jsonl")))

# Runs Python with Qt made unimportable, then the given code.
BLOCK_QT = """
import sys
class _NoQt:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('PySide6', 'shiboken6', 'pyqtgraph', 'PyQt5', 'PyQt6'):
            raise ImportError(f'{name} is blocked in this test')
sys.meta_path.insert(0, _NoQt())
"""


def run_blocked(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", BLOCK_QT + code], capture_output=True, text=True, timeout=60)


def test_help_and_version_work_without_qt():
    r = run_blocked("from controlroom.cli import main; main(['--help'])")
    assert "replay" in r.stdout and r.returncode == 0, r.stderr
    r = run_blocked("from controlroom.cli import main; main(['--version'])")
    assert r.stdout.startswith("controlroom ") and r.returncode == 0, r.stderr


def test_rules_and_game_import_with_pyside6_unavailable():
    code = """
import importlib, pkgutil
import controlroom.rules, controlroom.game
for pkg in (controlroom.rules, controlroom.game):
    for mod in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):
        importlib.import_module(mod.name)
assert not any(m.startswith(('PySide6', 'shiboken6')) for m in sys.modules)
print('ok')
"""
    r = run_blocked(code)
    assert r.stdout.strip() == "ok", r.stderr


def test_unknown_subcommand_prints_usage_and_exits_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["frobnicate"])
    assert exc.value.code == 2
    assert "usage: controlroom" in capsys.readouterr().err


def test_bad_argument_prints_usage_and_exits_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["replay", str(EXAMPLE), "--bogus"])
    assert exc.value.code == 2
    assert "usage:" in capsys.readouterr().err


def test_console_script_entry_point_runs():
    exe = Path(sys.executable).with_name("controlroom")
    if not exe.exists():
        pytest.skip("controlroom is not installed as a console script in this environment")
    r = subprocess.run([str(exe), "--version"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "controlroom" in r.stdout


def test_replay_example_prints_what_its_comments_predict(capsys):
    assert main(["replay", str(EXAMPLE), "--json", "--check"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["characters"]["102"]["died"] == [{"t": "00:11:00", "cause": "bled_out"}]
    assert out["characters"]["204"]["died"] == [{"t": "00:34:00", "cause": "bled_out"}]
    assert out["characters"]["205"]["died"] == [{"t": "01:00:00", "cause": "bled_out"}]
    assert sorted(w["code"] for w in out["warnings"]) == [
        "binder_not_conscious", "knockout_refused", "not_dead", "target_dead", "touches_exhausted",
    ]
    assert {w["line"] for w in out["warnings"]} and all("line" in w for w in out["warnings"])


def test_replay_until_stops_the_clock(capsys):
    assert main(["replay", str(EXAMPLE), "--json", "--until", "00:10:59"]) == 0
    out = json.loads(capsys.readouterr().out)
    birgit = out["characters"]["102"]
    assert birgit["state"] == "unconscious"
    assert birgit["deadlines"] == [{"kind": "dies", "in": "00:00:01", "at": "00:11:00", "badge": 102}]
    assert out["time"] == "00:10:59"


def test_replay_of_a_script_that_only_says_down(tmp_path, capsys):
    script = tmp_path / "down.jsonl"
    script.write_text(
        '{"roster": {"badge": 7, "name": "Ann", "side": "A", "group": "G"}}\n'
        '{"t": "00:01:00", "type": "down", "badge": 7}\n'
    )
    assert main(["replay", str(script), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["characters"]["7"]["state"] == "dead"
    assert out["characters"]["7"]["died"][0]["t"] == "00:11:00"
    assert out["sides"]["A"]["dead"] == 1


def test_replay_text_output_lists_sides_and_warnings(capsys):
    assert main(["replay", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "North: 3 active" in out and "Rule warnings:" in out


def test_check_reports_a_wrong_prediction(tmp_path, capsys):
    script = tmp_path / "wrong.jsonl"
    script.write_text(
        '{"roster": {"badge": 7, "name": "Ann", "side": "A", "group": "G"}}\n'
        '{"t": "00:01:00", "type": "down", "badge": 7}\n'
        '# expect badge 7: state=active\n'
    )
    assert main(["replay", str(script), "--check"]) == 1
    assert "line 3: badge 7 state is dead, the script expects active" in capsys.readouterr().err


@pytest.mark.parametrize(
    "line, message",
    [
        ('{"t": "00:01:00", "type": "hug", "badge": 7}', "line 2: unknown event type 'hug'"),
        ('{"t": "00:01:00", "type": "down"}', "line 2: down: missing field 'badge'"),
        ('{"t": "1 minute", "type": "down", "badge": 7}', "line 2: bad time '1 minute'"),
        ('{"t": "00:61:00", "type": "down", "badge": 7}', "line 2: bad time '00:61:00'"),
        ('{"type": "down", "badge": 7}', "line 2: missing 't'"),
        ('{"t": "00:01:00", "type": "down", "badge": 7, "colour": "red"}', "line 2: down: unknown field 'colour'"),
        ('{"t": "00:01:00", "type": "strike", "badge": 7, "count": 0}',
         "line 2: 'count' must be a whole number of at least 1"),
        ('{"t": 00:01:00}', "line 2: not valid JSON"),
        ('[1, 2]', "line 2: each line must be a JSON object"),
        ('{"roster": {"badge": 7, "name": "Bo", "side": "A", "group": "G"}}', "line 2: duplicate badge 7"),
        ('{"roster": {"badge": 8, "name": "Bo", "side": "A", "group": "G", "class": "mage"}}',
         "line 2: badge 8: unknown class 'mage'"),
        ('{"roster": {"badge": 8, "side": "A", "group": "G"}}', "line 2: badge 8: missing name"),
    ],
)
def test_bad_script_lines_are_named_and_exit_1(tmp_path, capsys, line, message):
    script = tmp_path / "bad.jsonl"
    script.write_text('{"roster": {"badge": 7, "name": "Ann", "side": "A", "group": "G"}}\n' + line + "\n")
    assert main(["replay", str(script)]) == 1
    err = capsys.readouterr().err
    assert message in err, err
    assert err.startswith("controlroom: ") and err.count("\n") == 2
    assert err.endswith("bad.jsonl: 1 line to mend; nothing was replayed\n")


def test_missing_script_file_is_a_clear_error(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "none.jsonl")]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_bad_until_is_a_clear_error(capsys):
    assert main(["replay", str(EXAMPLE), "--until", "soon"]) == 1
    assert "bad time 'soon'" in capsys.readouterr().err
