"""The marshals' text grammar (Meshtastic phones): parsing, checking against the roster, answers."""

import pytest

from controlroom.game.textreport import (
    HELP,
    Command,
    TextError,
    clip,
    looks_like_command,
    match_group,
    parse,
    to_report,
)

BADGES = {123: "Aino", 45: "Jaan", 7: "Mari"}
GROUPS = ("Hundid", "Põhja Karud", "Kotkad")


def report(text, **kw):
    opts = dict(badges=BADGES, groups=GROUPS, device=12, device_group="Hundid", tag="ab01",
                now_ms=14 * 3_600_000 + 2 * 60_000 + 31_000)
    opts.update(kw)
    return to_report(parse(text), **opts)


@pytest.mark.parametrize("text, action", [
    ("D 123", "down"), ("d 123", "down"), ("down 123", "down"), ("MAAS 123", "down"), ("Maas #123", "down"),
    ("K 123", "died"), ("dead 123", "died"), ("surnud 123", "died"), ("SURN 123", "died"),
    ("B 123", "bound"), ("seotud 123", "bound"), ("V 123", "valhalla"), ("valhalla 123", "valhalla"),
    ("D123", "down"), ("  d   123  ", "down"), ("d#123", "down"),
])
def test_casualty_words_in_english_and_estonian_any_case(text, action):
    cmd = parse(text)
    assert cmd.action == action and cmd.badge == 123


def test_replies_name_the_badge_the_report_and_the_game_time():
    assert report("D 123") == ("down", {"badge": 123}, "OK: 123 down 14:02")
    assert report("k 123").type == "died"
    assert report("k 123").reply == "OK: 123 dead 14:02"
    assert report("V 7") == ("valhalla_checkin", {"badge": 7}, "OK: 7 in Valhalla 14:02")
    assert report("B 123 45") == ("bound", {"badge": 123, "by": 45}, "OK: 123 bound by 45 14:02")
    assert report("b 123 poolt 45").fields == {"badge": 123, "by": 45}
    assert report("B 123 by 45").fields == {"badge": 123, "by": 45}


@pytest.mark.parametrize("text, answer", [
    ("D 999", "? badge 999 unknown"),
    ("B 123 999", "? badge 999 unknown"),
    ("D", "? a badge number is missing: D 123"),
    ("D abc", "? badge must be a number, not 'abc'"),
    ("D 0", "? badge must be a number above 0, not '0'"),
    ("D 123 45", "? one badge per message; '45' is too much"),
    ("B 123 x", "? the binder's badge must be a number, not 'x'"),
    ("X 123", f"? unknown command 'X'. {HELP}"),
    ("hello there", f"? unknown command 'hello'. {HELP}"),
    ("", f"? empty message. {HELP}"),
    ("   ", f"? empty message. {HELP}"),
    ("H", "? a headcount is a number: H 12 (up), H 12 3 1 (up, down, dead)"),
    ("H 12 Ilvesed", "? group 'Ilvesed' unknown"),
    ("STOPP oht Ilvesed", "? group 'Ilvesed' unknown"),
    ("LIFT", "? no STOPP of yours is on: LIFT <id>"),
    ("LIFT 3-zz", "? no STOPP 3-zz is on"),
    ("LIFT a b", "? LIFT takes one STOPP id at most, e.g. LIFT 12-ab01"),
])
def test_bad_messages_get_a_clear_answer_and_no_event(text, answer):
    with pytest.raises(TextError) as err:
        report(text)
    assert str(err.value) == answer


def test_stopp_with_reason_and_group_in_either_language():
    r = report("STOPP")
    assert r.type == "stopp_called" and r.fields == {"stopp": "12-ab01", "reason": "danger"}
    assert r.reply.startswith("OK: STOPP 12-ab01 (danger) 14:02")
    assert report("stopp vigastus").fields["reason"] == "injury"
    assert report("Stop unpleasant").fields["reason"] == "unpleasant"
    assert report("STOPP EBAMEELDIV").fields["reason"] == "unpleasant"
    r = report("stopp oht põhja karud")
    assert r.fields == {"stopp": "12-ab01", "reason": "danger", "groups": ["Põhja Karud"]}
    assert "for Põhja Karud" in r.reply
    assert report("STOPP pohja karud").fields["groups"] == ["Põhja Karud"]     # without õ, as phones may type
    assert report("STOPP Kotkad").fields == {"stopp": "12-ab01", "reason": "danger", "groups": ["Kotkad"]}


def test_lift_the_last_own_stopp_or_a_named_one():
    r = report("LIFT", active_stopps=["GM1", "12-aa", "12-bb"], mine=["12-aa", "12-bb"])
    assert r == ("stopp_lifted", {"stopp": "12-bb"}, "OK: STOPP 12-bb lifted 14:02")
    assert report("lõpp", active_stopps=["12-aa"], mine=["12-aa"]).fields == {"stopp": "12-aa"}
    assert report("LOPP", active_stopps=["12-aa"], mine=["12-aa"]).fields == {"stopp": "12-aa"}
    assert report("jätka gm1", active_stopps=["GM1"]).fields == {"stopp": "GM1"}
    assert report("LIFT", active_stopps=["GM1", "12-aa"], mine=["12-aa", "12-cc"]).fields == {"stopp": "12-aa"}


def test_headcount_for_the_device_group_or_a_named_one():
    assert report("H 12") == ("headcount", {"group": "Hundid", "up": 12, "down": 0, "dead": 0},
                              "OK: Hundid 12 up 0 down 0 dead 14:02")
    assert report("h 12 3 1").fields == {"group": "Hundid", "up": 12, "down": 3, "dead": 1}
    assert report("PEALUGU 8 2 kotkad").fields == {"group": "Kotkad", "up": 8, "down": 2, "dead": 0}
    with pytest.raises(TextError, match=r"^\? whose headcount\? H 12 GROUP$"):
        report("H 12", device_group=None)


def test_help_makes_no_event():
    for text in ("?", "help", "ABI"):
        assert report(text) == (None, {}, str(HELP))


def test_group_names_match_ignoring_case_and_diacritics_but_not_ambiguously():
    assert match_group("PÕHJA KARUD", GROUPS) == "Põhja Karud"
    assert match_group("hun", GROUPS) == "Hundid"
    with pytest.raises(TextError, match="could be"):
        match_group("k", ("Kotkad", "Karud"))


def test_chat_on_a_shared_channel_is_not_taken_for_a_command():
    assert looks_like_command("D 123") and looks_like_command("stopp") and looks_like_command("Lõpp")
    assert not looks_like_command("Tere, kus te olete?") and not looks_like_command("")


def test_replies_fit_one_meshtastic_text():
    long = "OK: " + "õ" * 300
    out = clip(long)
    assert len(out.encode()) <= 200 and out.endswith("...")
    assert clip("OK: 1 down 00:01") == "OK: 1 down 00:01"


def test_parse_is_a_plain_command():
    assert parse("H 5 1") == Command("headcount", counts=(5, 1, 0))


def test_answers_in_the_language_given_whatever_the_language_spoken():
    """``to_report(language=...)`` and ``TextError.said(...)``: the marshals' language, not the station's."""
    assert report("D 123", language="et").reply == "OK: 123 maas 14:02"
    assert report("B 123 45", language="et").reply == "OK: 123 seotud, sidus 45 14:02"
    assert report("V 7", language="et").reply == "OK: 7 Valhallas 14:02"
    assert report("STOPP vigastus Kotkad", language="et").reply == (
        "OK: STOPP 12-ab01 (vigastus) grupile Kotkad 14:02. Lõpetamiseks LÕPP")
    assert report("H 12 3 1", language="et").reply == "OK: Hundid 12 püsti 3 maas 1 surnud 14:02"
    assert report("?", language="et").reply == HELP.render("et") != HELP.render("en")
    with pytest.raises(TextError) as err:
        report("D 999")
    assert (err.value.said("et"), err.value.said("en")) == ("? märk 999 tundmatu", "? badge 999 unknown")
    with pytest.raises(TextError) as err:
        report("X 1")
    assert err.value.said("et") == f"? tundmatu käsk 'X'. {HELP.render('et')}"
    from controlroom import i18n

    i18n.choose("et")
    try:
        assert report("D 123", language="en").reply == "OK: 123 down 14:02"
        assert report("D 123").reply == "OK: 123 maas 14:02"             # None: the language spoken
    finally:
        i18n.choose(None)
