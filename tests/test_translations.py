"""Estonian outside the window: every text translated, and ``LANG=et_EE.UTF-8 controlroom --help`` speaks it."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

from controlroom import i18n

ROOT = Path(__file__).resolve().parent.parent


def _tool():
    spec = importlib.util.spec_from_file_location("translations", ROOT / "installer" / "translations.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_command_line_text_has_an_estonian_translation():
    """A new or changed help text fails here until resources/i18n/controlroom_et.ts translates it
    (`python installer/translations.py update` adds it, unfinished, for a translator)."""
    missing = _tool().missing("et")
    assert missing == [], "no Estonian for:\n" + "\n".join(f"  [{c}] {t!r}" for c, t in missing)


def _words(text: str) -> str:
    return " ".join(text.split())


def test_controlroom_help_is_in_estonian_under_an_estonian_locale():
    env = {"PATH": "/usr/bin:/bin", "LANG": "et_EE.UTF-8", "PYTHONIOENCODING": "utf-8", "COLUMNS": "200"}
    done = subprocess.run([sys.executable, "-m", "controlroom", "--help"], capture_output=True, text=True,
                          env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    out = _words(done.stdout)
    assert out.startswith("kasutus: controlroom")
    assert "Juhtimiskeskus LARP-lahingumängudele" in out and "valikud:" in out
    assert "näita seda abiteksti ja lõpeta" in out
    catalogue = i18n.read_ts((ROOT / "resources" / "i18n" / "controlroom_et.ts").read_text(encoding="utf-8"))
    english = [_words(source) for (context, source), text in catalogue.items()
               if context == "cli" and text != source and len(source) > 25]
    left = [source for source in english if source in out]
    assert left == [], f"English left in the Estonian help: {left}"
    # And a command's error, in argparse's words.
    done = subprocess.run([sys.executable, "-m", "controlroom", "report"], capture_output=True, text=True,
                          env=env, timeout=60)
    assert done.returncode == 2
    assert "viga: need argumendid on kohustuslikud: --db, --out" in done.stderr


def test_lang_en_keeps_english_under_an_estonian_locale():
    env = {"PATH": "/usr/bin:/bin", "LANG": "et_EE.UTF-8", "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run([sys.executable, "-m", "controlroom", "--lang", "en", "--help"], capture_output=True,
                          text=True, env=env, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("usage: controlroom")


def test_linguist_files_are_read_and_written_alike(tmp_path):
    path = tmp_path / "x_et.ts"
    i18n.write_ts(path, "et", {"cli": ["one", "two & <three>"], "argparse": ["usage: "]},
                  {("cli", "one"): "üks", ("argparse", "usage: "): "kasutus: "})
    text = path.read_text(encoding="utf-8")
    assert '<TS version="2.1" language="et_EE">' in text and 'type="unfinished"' in text
    assert i18n.read_ts(text) == {("cli", "one"): "üks", ("argparse", "usage: "): "kasutus: "}


def test_plural_forms_are_read_as_forms_and_written_back(tmp_path):
    path = tmp_path / "p_et.ts"
    i18n.write_ts(path, "et", {"alarms": ["%n alarms"]}, {("alarms", "%n alarms"): ("%n häire", "%n häiret")})
    text = path.read_text(encoding="utf-8")
    assert '<message numerus="yes">' in text and "<numerusform>%n häiret</numerusform>" in text
    forms = i18n.read_ts(text)[("alarms", "%n alarms")]
    assert forms == ("%n häire", "%n häiret")
    assert i18n.plural_form(forms, 1) == "%n häire" and i18n.plural_form(forms, 5) == "%n häiret"
    assert i18n.plural_form(forms, 0) == "%n häiret"


def _fields(text: str) -> tuple:
    """The placeholders a text fills: str.format fields, and %-style ones (argparse's)."""
    import re
    import string

    names = sorted(f for _lit, f, _spec, _conv in string.Formatter().parse(text.replace("%%", "")) if f is not None) \
        if "%(" not in text and "%s" not in text and "%r" not in text else []
    return tuple(names), tuple(sorted(re.findall(r"%\([a-z_]+\)[sr]|%[sr]", text)))


def test_every_translation_fills_the_same_placeholders_as_its_source():
    catalogue = i18n.read_ts((ROOT / "resources" / "i18n" / "controlroom_et.ts").read_text(encoding="utf-8"))
    wrong = [(c, s, t) for (c, s), t in catalogue.items() if _fields(s) != _fields(t)]
    assert wrong == [], wrong


def test_rule_warnings_and_material_verdicts_speak_estonian():
    from controlroom.game.events import make_event
    from controlroom.game.roster import Member
    from controlroom.game.state import GameState

    i18n.choose("et")
    try:
        state = GameState([Member(1, "Aldo", "Põhi", "Hundid"), Member(2, "Birgit", "Põhi", "Hundid")])
        state.apply(make_event(0, "permanent_kill", "marshal:1", badge=1))
        state.apply(make_event(1000, "strike", "marshal:1", badge=1))
        state.apply(make_event(2000, "bound", "marshal:1", badge=2))
        state.apply(make_event(3000, "stopp_lifted", "marshal:1", stopp="x"))
        state.apply(make_event(4000, "armour_set", "gm", badge=2, helmet="metal", armour=["leather"],
                               measures={"helmet_mm": 0.5, "leather_mm": 1.0}))
    finally:
        i18n.choose(None)
    said = [w.message for w in state.warnings]
    assert "Aldo (märk 1) on surnud: „löök” ei kehti" in said, said
    assert "Birgit (märk 2) on kõigi elupunktidega: pole haavu, mida siduda" in said, said
    assert "STOPP 'x' ei kehti" in said, said
    material = [m for m in said if "ebapiisav materjal" in m]
    assert material, said
    assert "kiiver (metall): paksus 0.5 mm jääb alla 2. lisa nõude vähemalt 1 mm (metall)" in material[0], said
