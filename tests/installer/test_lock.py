"""installer/constraints.txt: the exact versions the bundle is built from, and the check installer/build.py makes."""

from __future__ import annotations

import sys

import pytest

from tests.support.installer_helpers import load

lock = load("lock")


@pytest.mark.parametrize("platform", ["linux", "win32"])
def test_the_lock_pins_every_requirement_of_the_bundle(platform):
    pins = lock.pins_for(platform)
    assert pins, f"no versions locked for {platform}"
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
    good.write_text("".join(f'{n}=={v} ; sys_platform == "{sys.platform}"\n' for n, v in have.items()),
                    encoding="utf-8")
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



def test_windows_only_requirements_are_found_by_their_markers():
    """pip evaluates markers for the machine it runs on: what only Windows needs is found from Requires-Dist."""
    items = [
        {"metadata": {"name": "pyinstaller", "version": "6.22.3",
                      "requires_dist": ['pefile>=2022.5.30; sys_platform == "win32"', "altgraph",
                                        'macholib>=1.8; sys_platform == "darwin"',
                                        'pywin32-ctypes>=0.2.1; sys_platform == "win32"',
                                        'argcomplete; extra == "completion"']}},
        {"metadata": {"name": "altgraph", "version": "0.17.5"}},
        {"metadata": {"name": "click", "version": "8"}, "requested_extras": ["color"],
         "requires_dist": [], "x": 1},
    ]
    items[2]["metadata"]["requires_dist"] = ['colorama; platform_system == "Windows" and extra == "color"']
    from packaging.markers import default_environment

    windows = {**default_environment(), **lock.TARGETS["win32"][1]}
    assert lock.missing_for(items, windows) == ["colorama", "pefile>=2022.5.30", "pywin32-ctypes>=0.2.1"]
    darwin = {**default_environment(), **lock.TARGETS["darwin"][1]}
    assert lock.missing_for(items, darwin) == ["macholib>=1.8"]


def test_the_windows_lines_hold_what_only_windows_needs():
    pins = lock.pins_for("win32")
    assert {"pefile", "pywin32-ctypes"} <= set(pins), "PyInstaller on Windows needs pefile and pywin32-ctypes"
    assert "pefile" not in lock.pins_for("linux")
