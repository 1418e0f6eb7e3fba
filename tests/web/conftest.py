"""Browser tests of the web page: headless Chromium (Debian's ``chromium``) driven by Playwright's
Python package, against a real ``tabletape serve`` on 127.0.0.1 over a temporary DuckDB file.

The browser is never downloaded by Playwright (``playwright install`` needs the internet): the
tests launch the system's Chromium by its path (``TABLETAPE_CHROMIUM``, default
``/usr/bin/chromium``). Without it, or without the ``playwright`` package, they are skipped with
the way to install them. Screenshots go to ``test-artifacts/web/`` (not committed).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import httpx
import pytest


from pagehelp import ARTIFACTS, DESKTOP, PHONE, PHONE_TALL, WIDE, own_server

CHROMIUM = os.environ.get("TABLETAPE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
INSTALL = (
    "install Debian's browser with `sudo apt-get install -y --no-install-recommends chromium` "
    "(or point TABLETAPE_CHROMIUM at a Chromium) and the driver with `make .venv/.test` (the test extra)"
)
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - the test extra installs it
    sync_playwright = None


def _skip_reason() -> str | None:
    if sync_playwright is None:
        return f"the playwright package is missing: {INSTALL}"
    if not (Path(CHROMIUM).is_file() and os.access(CHROMIUM, os.X_OK)):
        return f"no Chromium at {CHROMIUM}: {INSTALL}"
    return None


def pytest_collection_modifyitems(config, items):
    reason = _skip_reason()
    if reason is None:
        return
    for item in items:
        here = Path(str(item.fspath)).parent == Path(__file__).parent
        if here and {"browser", "page", "phone"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """A real server on a fresh DuckDB file, shared by the browser tests: its base URL."""
    yield from own_server(tmp_path_factory, "web")


@pytest.fixture(scope="session")
def http(server):
    with httpx.Client(base_url=server, timeout=10) as client:
        yield client


@pytest.fixture(scope="session")
def browser():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


class Errors(list):
    """Uncaught script errors of a page (console errors of failed requests are expected: a 422)."""


def _page(browser, viewport):
    context = browser.new_context(viewport=viewport, device_scale_factor=1, has_touch=viewport["width"] < 600)
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors = Errors()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    return context, page


def _opened(browser, viewport):
    """A page for one test; afterwards, no script error may have happened on it."""
    context, page = _page(browser, viewport)
    yield page
    errors = list(page.errors)
    context.close()
    assert not errors, errors


@pytest.fixture
def page(browser):
    yield from _opened(browser, DESKTOP)


@pytest.fixture
def phone(browser):
    yield from _opened(browser, PHONE)


@pytest.fixture
def tall_phone(browser):
    yield from _opened(browser, PHONE_TALL)


@pytest.fixture
def wide(browser):
    yield from _opened(browser, WIDE)


@pytest.fixture(scope="module")
def api(stats_server):
    """A client of the module's own ``stats_server`` (a page test's seeded service)."""
    with httpx.Client(base_url=stats_server, timeout=20) as client:
        yield client


@pytest.fixture(params=["tall_phone", "wide"])
def screen(request):
    """The test at 375×812 and on a wide screen."""
    return request.getfixturevalue(request.param)
