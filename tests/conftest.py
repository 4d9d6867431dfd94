"""Test-wide settings.

Hypothesis' per-example deadline is a timing assertion: on a loaded machine (CI, or several
test runs at once) a slow example fails a test that is right. Speed is measured by the
benchmarks instead, so no property test here has a deadline.
"""

from hypothesis import settings

settings.register_profile("bgpi", deadline=None, print_blob=True)
settings.load_profile("bgpi")
