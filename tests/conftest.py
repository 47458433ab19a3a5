"""Shared test helpers: where ../shared lives, and skipping when it is absent."""

from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared"
DATA = SHARED / "data"


def shared_file(*parts):
    """Path to a file in ../shared/data, or skip the test with a clear reason."""
    path = DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared data {path} is not available on this machine")
    return path
