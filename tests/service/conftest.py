"""The headless Chromium fixture of the page's own browser test, for the service's."""

from tests.web.test_browser import browser  # noqa: F401 - a fixture
