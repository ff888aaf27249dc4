"""A scenario script's problems, all of them, by line: `controlroom replay` and `--check` never stop at the first,
never crash on a huge number or on bytes that are not UTF-8, and stop quietly when their reader does."""

import json
import subprocess
import sys

from controlroom.cli import main

ANN = '{"roster": {"badge": 7, "name": "Ann", "side": "A", "group": "G"}}\n'


def _script(tmp_path, text, name="bad.jsonl"):
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


def _problems(err):
    return [line for line in err.splitlines() if ", line " in line]


def test_every_bad_line_is_named_not_only_the_first(tmp_path, capsys):
    path = _script(tmp_path, ANN
                   + '{"t": "00:01:00", "type": "hug", "badge": 7}\n'
                   + '{"t": "00:02:00", "type": "down"}\n'
                   + '{"t": "00:03:00", "type": "down", "badge": 7}\n'          # a good line between
                   + '{"t": 1e308, "type": "down", "badge": 7}\n'
                   + '{"t": "00:05:00", "type": "strike", "badge": 7, "count": 0}\n'
                   + '{"t": "00:06:00"\n')
    for check in ([], ["--check"]):
        assert main(["replay", str(path), *check]) == 1
        err = capsys.readouterr().err
        problems = _problems(err)
        assert [p.split(", line ")[1].split(":")[0] for p in problems] == ["2", "3", "5", "6", "7"], err
        assert "line 2: unknown event type 'hug'" in problems[0]
        assert "line 3: down: missing field 'badge'" in problems[1]
        assert "line 5: bad time 1e+308: more than 10000 hours into the game" in problems[2]
        assert "line 6: 'count' must be a whole number of at least 1" in problems[3]
        assert "line 7: not valid JSON" in problems[4]
        assert err.rstrip().endswith("5 lines to mend; nothing was replayed")
        assert "Traceback" not in err


def test_huge_and_odd_numbers_are_problems_not_crashes(tmp_path, capsys):
    path = _script(tmp_path, ANN
                   + '{"t": "1e308", "type": "down", "badge": 7}\n'
                   + '{"t": NaN, "type": "down", "badge": 7}\n'
                   + '{"t": Infinity, "type": "down", "badge": 7}\n'
                   + '{"t": "99999999999999999999:00:00", "type": "down", "badge": 7}\n'
                   + '{"t": 1, "type": "stopp_called", "stopp": "S", "lat": NaN}\n'
                   + '{"t": 2, "type": "permanent_kill", "badge": 7, "counted": 1e999}\n'
                   + "[" * 100_000 + "\n")
    assert main(["replay", str(path), "--check"]) == 1
    problems = _problems(capsys.readouterr().err)
    assert len(problems) == 7
    assert "line 6: 'lat' must be a number, not nan" in problems[4]
    assert "line 7: 'counted' must be a number, not inf" in problems[5]
    assert "line 8: not valid JSON" in problems[6]


def test_bytes_that_are_not_utf8_are_named_by_line_and_the_rest_is_still_read(tmp_path, capsys):
    raw = (ANN + '{"t": "00:01:00", "type": "note", "text": "Tõnu"}\n').encode("utf-8")
    raw += '{"t": "00:02:00", "type": "note", "text": "Jüri"}\n'.encode("latin-1")
    raw += b'{"t": "00:03:00", "type": "hug", "badge": 7}\n'
    path = _script(tmp_path, raw)
    assert main(["replay", str(path)]) == 1
    problems = _problems(capsys.readouterr().err)
    assert len(problems) == 2
    assert "line 3: not UTF-8 text (byte 0xFC at column 45): save the file as UTF-8" in problems[0]
    assert "line 4: unknown event type 'hug'" in problems[1]


def test_check_names_an_expectation_it_cannot_read(tmp_path, capsys):
    path = _script(tmp_path, ANN + '{"t": "00:01:00", "type": "down", "badge": 7}\n'
                   + "# expect badge 7 state=dead\n"
                   + "# expect badge 7: state=dead\n"
                   + "# Expected: a comment about something else\n")
    assert main(["replay", str(path)]) == 0                # without --check the comments are only comments
    capsys.readouterr()
    assert main(["replay", str(path), "--check"]) == 1
    problems = _problems(capsys.readouterr().err)
    assert len(problems) == 1 and "line 3: cannot read this expectation" in problems[0]


def test_unknown_fields_of_the_game_line_and_mixed_lines_are_refused(tmp_path, capsys):
    path = _script(tmp_path, '{"game": {"nmae": "Ford"}}\n' + ANN
                   + '{"roster": {"badge": 8, "name": "Bo", "side": "A", "group": "G"}, "t": 5}\n')
    assert main(["replay", str(path)]) == 1
    problems = _problems(capsys.readouterr().err)
    assert "line 1: game: unknown field 'nmae' (fields of game: name, rules)" in problems[0]
    assert "line 3: a roster line holds only \"roster\", not also 't'" in problems[1]


def test_json_into_a_pipe_closed_early_ends_without_a_traceback(tmp_path):
    lines = [json.dumps({"roster": {"badge": b, "name": f"Player {b}", "side": "A", "group": "G"}})
             for b in range(1, 3001)]
    lines += [json.dumps({"t": 60 + b, "type": "down", "badge": b}) for b in range(1, 3001)]
    path = _script(tmp_path, "\n".join(lines) + "\n", "big.jsonl")
    replay = subprocess.Popen([sys.executable, "-m", "controlroom", "replay", str(path), "--json"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = replay.stdout.read(100)                        # what `| head -c 100` reads, then it goes away
    replay.stdout.close()
    with replay.stderr:
        err = replay.stderr.read().decode()
    code = replay.wait(timeout=120)
    assert first.startswith(b'{"game"')
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
    assert err == "" and code == 141
