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
    with pytest.raises(ProfileError, match="not a valid TOML file"):
        load_profile(path)


def test_missing_profile_is_refused(tmp_path):
    with pytest.raises(ProfileError, match="cannot read"):
        load_profile(tmp_path / "nope.toml")
    with pytest.raises(ProfileError, match="there is no ruleset named"):
        load_profile("nonesuch")


def _load_changed(tmp_path, old: str, new: str, name: str = "changed.toml"):
    text = _default_text()
    assert old in text, old
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return load_profile(path)


def test_misspelt_key_is_refused_with_its_table_and_the_nearest_name(tmp_path):
    with pytest.raises(ProfileError) as err:
        _load_changed(tmp_path, "hit_points = 2 ", "hit_piont = 2 ")
    assert "unknown key 'hit_piont' in [classes.warrior] (did you mean 'hit_points'?)" in str(err.value)
    with pytest.raises(ProfileError) as err:
        _load_changed(tmp_path, "overdue_alert = 900", "overdue_alrt = 900")
    assert "unknown key 'overdue_alrt' in [stopp] (did you mean 'overdue_alert'?)" in str(err.value)


def test_misspelt_table_is_refused_with_the_nearest_name(tmp_path):
    with pytest.raises(ProfileError) as err:
        _load_changed(tmp_path, "[healing]", "[healng]")
    assert "unknown table [healng] (did you mean [healing]?)" in str(err.value)
    with pytest.raises(ProfileError,
                       match=r"unknown table \[inspection\.arow\] \(did you mean \[inspection\.arrow\]\?\)"):
        _load_changed(tmp_path, "[inspection.arrow]", "[inspection.arow]")


def test_every_unknown_key_is_named_at_once(tmp_path):
    text = _default_text().replace("strike_damage = 1", "strike_damge = 1\nstrike_damage = 1")
    text = text.replace("regen_cared = 600", "regen_cared = 600\nregen_carred = 500")
    text = text.replace("name = ", "shoe_size = 44\nname = ", 1)
    path = tmp_path / "many.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ProfileError) as err:
        load_profile(path)
    lines = str(err.value).splitlines()
    assert len(lines) == 3
    assert all(line.startswith(f"{path}: unknown key") for line in lines)
    assert "'strike_damge' in [combat] (did you mean 'strike_damage'?)" in lines[1] + lines[0] + lines[2]
    assert any("'shoe_size' at the top of the ruleset" in line for line in lines)


def test_a_value_where_a_table_belongs_is_refused(tmp_path):
    text = _default_text().replace("[groups]\nmembers_per_healer = 5", "")
    path = tmp_path / "flat.toml"
    path.write_text(text.replace("name = ", "groups = 5\nname = ", 1), encoding="utf-8")
    with pytest.raises(ProfileError, match=r"\[groups\] must be a table, not the value 5"):
        load_profile(path)


@pytest.mark.parametrize(("old", "new", "words"), [
    ("members_per_healer = 5", "members_per_healer = 0", "'members_per_healer' must be at least 1"),
    ("hit_points = 1 ", "hit_points = 0 ", "'hit_points' must be at least 1"),
    ("strike_damage = 1", "strike_damage = 0", "'strike_damage' must be at least 1"),
    ("regen_bound = 1200", "regen_bound = 0", "'regen_bound' must be above 0"),
    ("unconscious_until_death = 600", "unconscious_until_death = inf", "'unconscious_until_death' must be a number"),
    ("overdue_alert = 900", "overdue_alert = nan", "'overdue_alert' must be a number"),
    ("inadequate_max = 3", "inadequate_max = 6", "'inadequate_max' (6) cannot be above 'max_total' (5)"),
    ("metal = 2 ", "metal = 7 ", "'metal' gives 7 armour points, but no character can have over max_total = 5"),
    ("knockout_blocked_by_helmet = true", 'knockout_blocked_by_helmet = "yes"',
     "'knockout_blocked_by_helmet' must be true or false"),
    ('body_rounding = "up"', 'body_rounding = "sideways"', "'body_rounding' must be one of up, down, nearest"),
    ("permanent_kill_count_seconds = 10", "permanent_kill_count_seconds = -1",
     "'permanent_kill_count_seconds' must be at least 0"),
    ("body_leather_min_mm = 2", "body_leather_min_mm = -2", "'body_leather_min_mm' must be at least 0"),
    ('plate = "metal"', 'plate = "cardboard"', "'plate' must be made of leather, metal, chain"),
    ('plate = "metal"\n', "", "say what 'plate' is made of"),
    ('brigandine = "metal"', 'brigantine = "metal"', "unknown armour piece 'brigantine' (did you mean 'brigandine'?)"),
    ("stopper_required_for_hollow = true", "stopper_required_for_hollow = 1",
     "'stopper_required_for_hollow' must be true or false"),
    ("max_pull_kg = 18", "max_pull_kg = -18", "'max_pull_kg' must be a number >= 0"),
    ('name = "Seed', 'name = 5\n#', "'name' must be a text"),
])
def test_impossible_values_are_refused(tmp_path, old, new, words):
    with pytest.raises(ProfileError) as err:
        _load_changed(tmp_path, old, new)
    assert words in str(err.value)


def test_permanent_kill_count_and_body_rounding_are_read(tmp_path):
    profile = _load_changed(tmp_path, "permanent_kill_count_seconds = 10", "permanent_kill_count_seconds = 15")
    assert profile.permanent_kill_count_ms == 15_000
    from controlroom.rules.armour import armour_points

    seed = load_profile("default")
    assert armour_points(seed, None, ["leather", "chain"]).body == 2          # mean 1.5, rounded up
    down = _load_changed(tmp_path, 'body_rounding = "up"', 'body_rounding = "down"')
    assert armour_points(down, None, ["leather", "chain"]).body == 1


def test_a_ruleset_without_the_material_tables_takes_the_seeds(tmp_path):
    text = _default_text()
    start = text.index("[armour.materials]")
    end = text.index("[stopp]")
    path = tmp_path / "older.toml"
    path.write_text(text[:start] + text[end:], encoding="utf-8")
    profile = load_profile(path)
    assert profile.materials.helmet_leather_min_mm == 5
    assert profile.body_made_of["chain"] == "chain" and profile.helmet_made_of["metal"] == "metal"


def test_bundled_profile_loads_and_keeps_every_key():
    profile = load_profile("default")
    assert profile.members_per_healer == 5
    assert profile.materials.chain_wire_over_mm == 1
