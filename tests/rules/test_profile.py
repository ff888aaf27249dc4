"""Ruleset profiles load from TOML, and bad ones are refused with the key named."""

import pytest

from controlroom.rules.profile import ProfileError, load_profile

def _default_text():
    from importlib import resources

    return resources.files("controlroom.resources").joinpath("rules", "default.toml").read_text()


def test_bundled_profile_marks_the_tables_missing_from_the_translation():
    text = _default_text()
    assert text.count("table missing from the translation: confirm with the organiser") >= 2


def test_profile_file_can_change_a_number(tmp_path):
    path = tmp_path / "long_death.toml"
    path.write_text(_default_text().replace("unconscious_until_death = 600", "unconscious_until_death = 900"))
    assert load_profile(path).dying_ms == 900_000


def test_bad_value_is_named(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(_default_text().replace("knockout_unconscious = 300", 'knockout_unconscious = "five"'))
    with pytest.raises(ProfileError, match="knockout_unconscious"):
        load_profile(path)


def test_not_toml_is_refused(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text("[classes\n")
    with pytest.raises(ProfileError, match="not valid TOML"):
        load_profile(path)


def test_missing_profile_is_refused(tmp_path):
    with pytest.raises(ProfileError, match="cannot read"):
        load_profile(tmp_path / "nope.toml")
    with pytest.raises(ProfileError, match="no bundled ruleset"):
        load_profile("nonesuch")
