"""The firmware as a board gets it: comments and docstrings gone, every line where it was, the code the same."""

import ast

from controlroom.engine.provisioning import firmware_files
from controlroom.radio.slim import slim

SOURCE = b'''"""A module's docstring,
on two lines."""
import os  # a comment
URL = "http://x/#not-a-comment"


class Only:
    """Only a docstring."""


def f(a):
    """Say what."""
    # a whole-line comment
    return a + 1  # why


def g(): """shares its line"""


TEXT = """
# inside a string: kept
"""
'''


def test_comments_and_docstrings_go_and_every_line_stays_where_it_was():
    out = slim(SOURCE).decode()
    lines = out.split("\n")
    assert len(lines) == SOURCE.decode().count("\n") + 1
    assert "docstring" not in out and "a comment" not in out and "why" not in out and "Say what" not in out
    assert lines[2] == "import os" and lines[3] == 'URL = "http://x/#not-a-comment"'
    assert lines[7] == "    pass"                                   # a docstring that was the body
    assert lines[13] == "    return a + 1" and lines[11] == lines[12] == ""
    assert 'def g(): """shares its line"""' in out                 # left as it is
    assert "# inside a string: kept" in out
    namespace: dict = {}
    exec(compile(out, "slim", "exec"), namespace)
    assert namespace["f"](1) == 2 and namespace["TEXT"] == '\n# inside a string: kept\n'


def test_what_does_not_parse_is_sent_as_it_is():
    for odd in (b"def broken(:\n", b"\xff\xfe not utf-8", b""):
        assert slim(odd) == odd


def test_every_firmware_file_is_slimmed_to_the_same_code():
    whole, slimmed = firmware_files(slimmed=False), firmware_files()
    assert whole.keys() == slimmed.keys()
    for name, data in whole.items():
        assert slimmed[name].count(b"\n") == data.count(b"\n"), name
        if b"#" in data or b'"""' in data:
            assert len(slimmed[name]) < len(data), f"{name} was not slimmed"
        ast.parse(slimmed[name])
    assert sum(map(len, slimmed.values())) < 0.8 * sum(map(len, whole.values()))
