"""The web view's fixtures: a game with invites, headless stations with a gateway on a pty, one real browser."""

from __future__ import annotations

import os
import shutil

import pytest
from web_helpers import CHROMIUM_FLAGS, Game, Station, browser_missing


@pytest.fixture
def game(tmp_path) -> Game:
    return Game(tmp_path / "web.crgame")


@pytest.fixture
def station(game):
    stations = []

    def start(*extra, **kw) -> Station:
        s = Station(game, *extra, **kw)
        stations.append(s)
        return s

    yield start
    for s in stations:
        s.stop()


@pytest.fixture(scope="session")
def chromium(tmp_path_factory):
    """Debian's chromium, headless, driven by chromium-driver through selenium (nothing is downloaded)."""
    missing = browser_missing()
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"the web view's browser tests must run in CI: {missing}")
        pytest.skip(missing)
    os.environ["SE_OFFLINE"] = "true"          # Selenium Manager never fetches a browser or a driver
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    options.add_argument("--lang=en-GB")
    options.add_experimental_option("prefs", {"intl.accept_languages": "en-GB,en"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=shutil.which("chromedriver")))
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


@pytest.fixture
def browser(chromium):
    """The shared browser, as a new phone: no cookie (language, session) is left from an earlier test."""
    chromium.get("about:blank")
    chromium.execute_cdp_cmd("Network.clearBrowserCookies", {})
    return chromium
