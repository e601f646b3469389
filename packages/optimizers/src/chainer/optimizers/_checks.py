"""Checks of hyperparameter values shared by the optimizers."""

from __future__ import annotations

from typing import Any


def non_negative(name: str, value: Any) -> None:
    """Raise ValueError unless ``value`` (a learning rate, a rate) is at least 0."""
    if not value >= 0:
        raise ValueError(f'{name} must be a non-negative number, not {value!r}')


def positive(name: str, value: Any) -> None:
    """Raise ValueError unless ``value`` (an ``eps`` guarding a division) is above 0."""
    if not value > 0:
        raise ValueError(f'{name} must be a positive number, not {value!r}')
