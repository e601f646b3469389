"""Shared set-up of the integration tests (``nox -s integration``, ``nox -s gpu``)."""

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "gpu: needs a CUDA device; runs only in `nox -s gpu`")
    config.addinivalue_line("markers", "slow: takes long")


@pytest.fixture
def examples_dir() -> Path:
    """The repository's examples/ folder (tests copy what they run into tmp_path)."""
    return REPO / "examples"
