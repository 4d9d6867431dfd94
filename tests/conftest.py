"""Test-wide settings.

Hypothesis' per-example deadline is a timing assertion: on a loaded machine (CI, or several
test runs at once) a slow example fails a test that is right. Speed is measured by the
benchmarks instead, so no property test here has a deadline.

A test that needs a tool (Chromium, gnubg, mosquitto, MicroPython, shellcheck) skips on a
laptop that lacks it, with the install command as its reason. In CI (``CI`` set, as ``.ci/run``
runs) every such tool is installed, so a skip there is a failure: nothing passes by not running.
"""

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

settings.register_profile("bgpi", deadline=None, print_blob=True)
settings.load_profile("bgpi")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> object:
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if os.environ.get("CI") and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = f"skipped in CI, where nothing may skip: {report.longrepr}"


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    """Every test reads English unless it chooses a language: the locale of the machine
    running the tests must not change what they see (``LANGUAGE`` is the first variable
    gettext reads), and a test that chose one leaves English behind."""
    from bgpi.base import i18n  # noqa: PLC0415 (a test-wide fixture; bgpi loads in the test)

    os.environ["LANGUAGE"] = "en"
    i18n.use(i18n.Language.ENGLISH)
    yield
    i18n.use(i18n.Language.ENGLISH)
    os.environ["LANGUAGE"] = "en"
