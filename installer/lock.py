#!/usr/bin/env python3
"""The exact versions the installer bundle is built from: installer/constraints.txt, written and checked.

    python installer/lock.py write     # resolve the bundle's requirements now, for this platform
    python installer/lock.py write --for win32    # ... for Windows (or darwin), resolved from here
    python installer/lock.py check     # does this Python have exactly the locked versions? (JSON; exit 1 if not)
    python installer/lock.py top       # the bundle's top-level requirements, one a line

Run it with the Python that builds the bundle (``.venv``'s).  ``write`` asks
pip to resolve ``pyproject.toml``'s dependencies and the pinned PyInstaller,
as for a fresh install on this platform, and writes every distribution of the
result as ``name==version ; sys_platform == "..."``; lines of other platforms
are kept, so that each platform that builds a bundle adds its own.
``write --for win32`` (or ``darwin``) resolves another platform's lines
from this machine: pip picks that platform's wheels (``--platform``), and
since pip evaluates environment markers for the machine it runs on, the
requirements that only that platform needs (``colorama; sys_platform ==
"win32"``, PyInstaller's ``pefile``...) are found here, by evaluating every
resolved distribution's ``Requires-Dist`` for the target, and resolved again
until nothing is missing.
``installer/build.py`` installs with these constraints and refuses to build
when a distribution of the bundle is not pinned or has another version.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
LOCK = HERE / "constraints.txt"
HEADER = """\
# The exact versions the installer bundle is built from (installer/build.py installs with these
# constraints and refuses to build when the bundle would hold anything else).
# Written by `python installer/lock.py write` on each platform that builds a bundle: it resolves
# pyproject.toml's dependencies and PyInstaller afresh and keeps the other platforms' lines.
# Commit this file with the change that moved a version.
"""
_LINE = re.compile(r'^(?P<name>[A-Za-z0-9._-]+)==(?P<version>[^\s;]+)'
                   r'\s*;\s*sys_platform\s*==\s*"(?P<platform>[^"]+)"\s*$')


def canonical(name: str) -> str:
    """A distribution's name as pip compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


BUNDLED_EXTRAS = ("meshtastic",)       # optional extras the bundle holds (stock Meshtastic nodes)


def top_level() -> list[str]:
    """What the bundle is made of: the project's dependencies, the extras it bundles and its ``bundle`` extra
    (the pinned PyInstaller)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [*runtime(), *project["optional-dependencies"]["bundle"]]


def runtime() -> list[str]:
    """What the program needs at run time (what the bundle holds besides controlroom): the project's
    dependencies and the extras the bundle holds."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [*project["dependencies"], *(r for extra in BUNDLED_EXTRAS for r in project["optional-dependencies"][extra])]


def read_lock(path: Path = LOCK) -> list[tuple[str, str, str]]:
    """(name, version, platform) of every pin; a line in another shape is an error naming it."""
    pins = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        m = _LINE.match(text)
        if not m:
            raise SystemExit(f"{path}, line {number}: not 'name==version ; sys_platform == \"...\"': {text}")
        pins.append((m["name"], m["version"], m["platform"]))
    return pins


def pins_for(platform: str = sys.platform, path: Path = LOCK) -> dict[str, str]:
    return {canonical(n): v for n, v, p in read_lock(path) if p == platform}


# Other platforms a bundle is built on: pip's wheel platform tag and the marker environment there.
TARGETS = {
    "win32": ("win_amd64", {"sys_platform": "win32", "platform_system": "Windows", "os_name": "nt",
                            "platform_machine": "AMD64"}),
    "darwin": ("macosx_11_0_arm64", {"sys_platform": "darwin", "platform_system": "Darwin", "os_name": "posix",
                                     "platform_machine": "arm64"}),
}


def _pip_report(requirements: list[str], tmp: Path, target: str | None, no_deps: bool = False) -> list[dict]:
    reqs, report = tmp / "top.txt", tmp / "report.json"
    reqs.write_text("\n".join(requirements) + "\n", encoding="utf-8")
    cmd = [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--quiet",
           "--disable-pip-version-check", "--report", str(report), "-r", str(reqs)]
    if no_deps:
        cmd.append("--no-deps")
    if target is not None:
        version = f"{sys.version_info.major}.{sys.version_info.minor}"
        cmd += ["--platform", TARGETS[target][0], "--python-version", version, "--only-binary=:all:",
                "--target", str(tmp / "target")]
    subprocess.run(cmd, check=True)
    return json.loads(report.read_text(encoding="utf-8"))["install"]


def missing_for(items: list[dict], environment: dict[str, str]) -> list[str]:
    """Requirements of the resolved distributions that hold in ``environment`` but were not resolved."""
    from packaging.requirements import Requirement

    have = {canonical(item["metadata"]["name"]) for item in items}
    missing = []
    for item in items:
        extras = [""] + list(item.get("requested_extras") or ())
        for text in item["metadata"].get("requires_dist") or ():
            req = Requirement(text)
            if canonical(req.name) in have:
                continue
            if req.marker is not None and not any(req.marker.evaluate({**environment, "extra": e}) for e in extras):
                continue
            req.marker = None
            missing.append(str(req))
    return sorted(set(missing))


def resolve(target: str | None = None) -> dict[str, str]:
    """pip's resolution of the top-level requirements for a fresh install on this platform, or on ``target``
    ("win32", "darwin"): {name: version}."""
    from packaging.markers import default_environment

    requirements = top_level()
    with tempfile.TemporaryDirectory() as tmp:
        # For another platform the dependencies are followed here, layer by layer (``--no-deps``), with the
        # markers evaluated for the target: pip would evaluate them for this machine, and pull in what only
        # this one needs (bleak's ``dbus-fast; platform_system == "Linux"``, which has no Windows wheels).
        for _ in range(20):
            items = _pip_report(requirements, Path(tmp), target, no_deps=target is not None)
            if target is None:
                break
            environment = {**default_environment(), **TARGETS[target][1]}
            missing = missing_for(items, environment)
            if not missing:
                break
            requirements += missing
        else:
            raise SystemExit(f"[lock] resolving for {target} did not settle: still missing {missing}")
    return {item["metadata"]["name"]: item["metadata"]["version"] for item in items}


def write(path: Path = LOCK, target: str | None = None) -> dict[str, str]:
    platform = target or sys.platform
    resolved = resolve(target)
    kept = [pin for pin in (read_lock(path) if path.exists() else []) if pin[2] != platform]
    mine = [(name, version, platform) for name, version in resolved.items()]
    lines = [f'{n}=={v} ; sys_platform == "{p}"'
             for n, v, p in sorted(kept + mine, key=lambda x: (x[2], canonical(x[0])))]
    path.write_text(HEADER + "\n".join(lines) + "\n", encoding="utf-8")
    return resolved


def installed_closure(requirements: list[str]) -> dict[str, str]:
    """Every installed distribution the requirements pull in, with markers and extras followed: {name: version}."""
    from importlib import metadata

    from packaging.requirements import Requirement

    found: dict[str, str] = {}
    todo = [(Requirement(r), frozenset()) for r in requirements]
    seen: set[tuple[str, frozenset]] = set()
    while todo:
        req, _ = todo.pop()
        key = (canonical(req.name), frozenset(req.extras))
        if key in seen:
            continue
        seen.add(key)
        try:
            dist = metadata.distribution(req.name)
        except metadata.PackageNotFoundError:
            found[canonical(req.name)] = "(missing)"
            continue
        found[canonical(req.name)] = dist.version
        for text in dist.requires or ():
            sub = Requirement(text)
            if sub.marker is None:
                todo.append((sub, frozenset()))
                continue
            wanted = [{"extra": e} for e in req.extras] or [{"extra": ""}]
            if any(sub.marker.evaluate(env) for env in wanted):
                todo.append((sub, frozenset()))
    return found


def check(path: Path = LOCK, requirements: list[str] | None = None) -> dict:
    """What this Python would put into a bundle, against the lock: ``ok``, and what is unpinned or differs."""
    pins = pins_for(sys.platform, path)
    have = installed_closure(top_level() if requirements is None else requirements)
    unpinned = sorted(n for n in have if n not in pins)
    differs = sorted(f"{n} {have[n]} (locked {pins[n]})" for n in have if n in pins and pins[n] != have[n])
    return {"platform": sys.platform, "ok": bool(pins) and not unpinned and not differs, "pinned": bool(pins),
            "unpinned": unpinned, "differs": differs, "versions": dict(sorted(have.items()))}


def main(argv: list[str]) -> int:
    if argv == ["write"] or (len(argv) == 3 and argv[:2] == ["write", "--for"] and argv[2] in TARGETS):
        target = argv[2] if len(argv) == 3 else None
        resolved = write(target=target)
        print(f"[lock] {LOCK}: {len(resolved)} distributions for {target or sys.platform}")
        return 0
    if argv == ["check"]:
        result = check()
        print(json.dumps(result, indent=2))
        return 0 if result["ok"] else 1
    if argv == ["top"]:
        print("\n".join(top_level()))
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
