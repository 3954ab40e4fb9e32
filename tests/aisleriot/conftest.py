"""Fixtures for the AisleRiot reference tests: a missing reference fails, naming the setup command."""

from __future__ import annotations

from pathlib import Path

import pytest

from .harness import HarnessMissing, guile_dir

RULES_DIR = Path(__file__).resolve().parents[2] / "rules"

# AisleRiot's game module for each page id of our rules/.
GAMES = {"hamilton": "hamilton", "agnes": "agnes", "eagle_wing": "eagle-wing"}


@pytest.fixture(scope="session")
def aisleriot_dir() -> Path:
    """The unpacked AisleRiot rules; a missing setup is a failure, since the test setup installs it."""
    try:
        return guile_dir()
    except HarnessMissing as err:
        pytest.fail(f"AisleRiot reference not available: {err}", pytrace=False)


@pytest.fixture(scope="session")
def rules_document():
    """Our rules/ document, loaded once."""
    from patiencebook.generator.sources import load_document
    return load_document(RULES_DIR)
