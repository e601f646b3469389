"""A placeholder dataset for processes whose model takes no input."""

from __future__ import annotations

from collections.abc import Sized


def create_empty_dataset(dataset: Sized) -> list[tuple[()]]:
    """A dataset of ``len(dataset)`` empty tuples.

    For the processes of a model-parallel job whose part of the model receives its
    input from other processes (it starts with ``chainermn.functions.recv``): the
    updater still needs a dataset of the right length.
    """
    return [()] * len(dataset)
