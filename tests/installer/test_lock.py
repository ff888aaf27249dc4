"""installer/constraints.txt: the exact versions the bundle is built from, and the check installer/build.py makes."""

from __future__ import annotations

import sys

import pytest
from installer_helpers import INSTALLER, load

lock = load("lock")


def test_the_lock_pins_every_requirement_of_the_bundle_for_linux():
    pins = lock.pins_for("linux")
    assert pins, "no versions locked for Linux"
    for requirement in lock.top_level():
        from packaging.requirements import Requirement

        req = Requirement(requirement)
        name = lock.canonical(req.name)
        assert name in pins, f"{name} is not locked"
        assert req.specifier.contains(pins[name], prereleases=True), f"{name}=={pins[name]} breaks {requirement}"
    assert pins["pyinstaller"] == "6.22.3"
    assert pins["pyside6-essentials"].split(".")[:2] < ["6", "12"]     # below the release that corrupts True


def test_a_line_in_another_shape_is_named(tmp_path):
    bad = tmp_path / "constraints.txt"
    bad.write_text('# comment\nnumpy==2.0 ; sys_platform == "linux"\nnumpy>=2\n', encoding="utf-8")
    with pytest.raises(SystemExit, match="line 3: not 'name==version"):
        lock.read_lock(bad)


def test_this_environment_against_the_lock(tmp_path):
    """The runtime libraries installed here: all pinned at these versions passes; one missing or moved is named."""
    have = lock.installed_closure(lock.runtime())
    assert {"numpy", "sqlalchemy", "pyside6-essentials", "psycopg-binary"} <= set(have)
    good = tmp_path / "good.txt"
    good.write_text("".join(f'{n}=={v} ; sys_platform == "{sys.platform}"\n' for n, v in have.items()), encoding="utf-8")
    assert lock.check(good, lock.runtime())["ok"]
    moved = tmp_path / "moved.txt"
    moved.write_text("".join(f'{n}=={"0.0.1" if n == "numpy" else v} ; sys_platform == "{sys.platform}"\n'
                             for n, v in have.items() if n != "pyserial"), encoding="utf-8")
    found = lock.check(moved, lock.runtime())
    assert not found["ok"]
    assert found["unpinned"] == ["pyserial"]
    assert found["differs"] == [f"numpy {have['numpy']} (locked 0.0.1)"]
    other = tmp_path / "other.txt"
    other.write_text('numpy==2.0 ; sys_platform == "plan9"\n', encoding="utf-8")
    assert not lock.check(other, lock.runtime())["pinned"]


def test_the_build_refuses_a_platform_without_locked_versions(tmp_path, monkeypatch):
    build = load("build")
    other = tmp_path / "constraints.txt"
    other.write_text('numpy==2.0 ; sys_platform == "plan9"\n', encoding="utf-8")
    monkeypatch.setattr(build, "LOCK", other)
    with pytest.raises(SystemExit, match=f"has no versions for {sys.platform}: run `python installer/lock.py write`"):
        build.ensure_locked(sys.executable, tmp_path)

