"""The web view in a real browser (Debian's chromium): each role's page on a phone, live, forms, the stale banner.

Screenshots are written to the test's folder (``shots``); a person looks at
them when the page changes (none is committed).
"""

from __future__ import annotations

import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from web_helpers import phone, wait_for

ROLES = ("viewer", "safety", "valhalla", "marshal")


@pytest.fixture
def shots(tmp_path):
    folder = tmp_path / "shots"
    folder.mkdir()
    return folder


def open_as(browser, station, role: str) -> None:
    browser.get(station.join_url(role))
    wait_for(lambda: browser.current_url.endswith("/") and browser.find_element(By.ID, "sides-body").text,
             what=f"the {role}'s page")


def text(browser, element_id: str) -> str:
    return browser.find_element(By.ID, element_id).text


def test_each_role_page_opens_on_a_phone(browser, station, shots):
    s = station()
    phone(browser)
    expected = {"viewer": ("stopps", "dying", "map"), "safety": ("alarms", "stopps", "dying"),
                "valhalla": ("due", "checkin"), "marshal": ("casualty", "call-stopp", "dying")}
    for role in ROLES:
        open_as(browser, s, role)
        for element_id in expected[role]:
            assert browser.find_element(By.ID, element_id).is_displayed(), (role, element_id)
        assert "North" in text(browser, "sides-body") and "South" in text(browser, "sides-body")
        width = browser.execute_script("return document.documentElement.scrollWidth")
        assert width <= 390, f"the {role}'s page is wider than the phone ({width} px)"
        browser.save_screenshot(str(shots / f"{role}-390x844.png"))
    phone(browser, 820, 1180)                # a tablet
    open_as(browser, s, "safety")
    assert browser.execute_script("return document.documentElement.scrollWidth") <= 820
    browser.save_screenshot(str(shots / "safety-tablet.png"))


def test_a_radio_casualty_reaches_the_viewer_within_2_s(browser, station, shots):
    s = station()
    phone(browser)
    open_as(browser, s, "viewer")
    assert "Aldo" not in text(browser, "dying-body")
    s.radio(101, "down", counter=1)
    sent = time.monotonic()
    wait_for(lambda: "Aldo" in text(browser, "dying-body"), timeout=2.0, what="the casualty on the viewer's page")
    assert time.monotonic() - sent < 2.0
    browser.save_screenshot(str(shots / "viewer-dying.png"))


def test_a_marshals_form_is_stored_once_after_a_resend(browser, station, shots, game):
    s = station(gateway=False)
    phone(browser)
    open_as(browser, s, "marshal")
    Select(browser.find_element(By.ID, "kind")).select_by_value("died")
    browser.find_element(By.ID, "badge").send_keys("102")
    browser.find_element(By.ID, "send").click()
    wait_for(lambda: text(browser, "answer").startswith("Stored"), what="the answer")
    assert "102 died" in text(browser, "answer")
    browser.save_screenshot(str(shots / "marshal-stored.png"))
    browser.execute_script("window.crResend()")              # the same form again (a lost answer, a double tap)
    wait_for(lambda: "kept once" in text(browser, "answer"), what="the answer to the resend")
    stored = [r for r in game.events() if r.event.type == "died"]
    assert len(stored) == 1 and stored[0].event.data["badge"] == 102 and stored[0].event.source == "web:Marshal One"
    # The rule's verdict in words: 101 is not dead, so a Valhalla check-in does not count.
    Select(browser.find_element(By.ID, "kind")).select_by_value("valhalla")
    badge = browser.find_element(By.ID, "badge")
    badge.clear()
    badge.send_keys("101")
    browser.find_element(By.ID, "send").click()
    wait_for(lambda: "does not count" in text(browser, "answer"), what="the verdict")
    assert "only the dead report to Valhalla" in text(browser, "answer")


def test_the_stale_banner_shows_when_the_station_stops(browser, station, shots):
    s = station(gateway=False)
    phone(browser)
    open_as(browser, s, "viewer")
    assert not browser.find_element(By.ID, "status").is_displayed()
    s.stop()
    wait_for(lambda: browser.find_element(By.ID, "status").is_displayed(), what="the stale banner")
    assert text(browser, "status").startswith("stale since ")
    browser.save_screenshot(str(shots / "viewer-stale.png"))


def test_the_language_switch_and_the_night_theme(browser, station, shots):
    s = station(gateway=False)
    phone(browser)
    open_as(browser, s, "valhalla")
    assert browser.find_element(By.CSS_SELECTOR, "#checkin h2").text.lower() == "check in"
    browser.find_element(By.ID, "lang-et").click()
    wait_for(lambda: browser.find_element(By.CSS_SELECTOR, "#checkin h2").text.lower() == "registreeri",
             what="the Estonian words")
    dark = browser.execute_script("return document.body.classList.contains('dark')")
    browser.find_element(By.ID, "theme").click()
    assert browser.execute_script("return document.body.classList.contains('dark')") != dark
    browser.save_screenshot(str(shots / "valhalla-et.png"))


def test_a_revoked_invite_loses_the_page(browser, station, game):
    s = station(gateway=False)
    phone(browser)
    open_as(browser, s, "safety")
    from controlroom.store.game import GameStore
    from controlroom.store.invites import revoke_invite

    with GameStore.open(game.path, create=False) as store:
        assert revoke_invite(store, "Safety One") == 1
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "main p.denied"), timeout=10.0, what="the page refused")
    assert "not valid" in text(browser, "main")
