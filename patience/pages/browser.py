"""Headless Chromium (the Debian package, driven by Selenium) for the pages' tests and screenshots.

Never downloads a browser: it uses /usr/bin/chromium and /usr/bin/chromedriver (or CHROMIUM_PATH and
CHROMEDRIVER_PATH), and says why when they are missing.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--hide-scrollbars")


def executables() -> tuple[str | None, str | None]:
    """(chromium, chromedriver) paths, None where not installed."""
    browser = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or shutil.which("chromium-browser")
    driver = os.environ.get("CHROMEDRIVER_PATH") or shutil.which("chromedriver")
    return browser, driver


def missing() -> str | None:
    """Why no browser can start here (None when one can)."""
    browser, driver = executables()
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[dev]')"
    if browser is None or driver is None:
        return "Chromium is not installed (Debian packages chromium and chromium-driver: bash setup.sh --browser)"
    return None


@contextmanager
def chromium(width: int = 1400, height: int = 900) -> Iterator[object]:
    """A headless Chromium with a fresh profile, its console log readable; quit and removed on exit."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    browser, driver = executables()
    if browser is None or driver is None:
        raise RuntimeError(missing())
    profile = tempfile.mkdtemp(prefix="patience-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in (*FLAGS, f"--user-data-dir={profile}", f"--window-size={width},{height}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    session = webdriver.Chrome(options=options, service=Service(executable_path=driver))
    try:
        yield session
    finally:
        session.quit()
        shutil.rmtree(profile, ignore_errors=True)
