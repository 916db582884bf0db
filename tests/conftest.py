"""The referee's registry is the scenario loader's catalog of games (physics never imports rules): install it
for every test, whatever a test module imports first."""

import rules.registry  # noqa: F401
