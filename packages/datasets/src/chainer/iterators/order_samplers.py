"""Order samplers: decide the order in which an iterator visits examples."""

from __future__ import annotations

import numpy


class OrderSampler:
    """Base class of order samplers.

    An order sampler is called by an iterator at the start of every epoch as
    ``sampler(current_order, current_position)`` and returns the index order
    (a 1-d integer array, a permutation of ``range(len(current_order))``) for
    the next epoch.
    """

    def __call__(self, current_order: numpy.ndarray, current_position: int) -> numpy.ndarray:
        """Return the order of the next epoch.

        Raises:
            NotImplementedError: unless a subclass overrides it.
        """
        raise NotImplementedError(f'{type(self).__name__} does not implement __call__')


class ShuffleOrderSampler(OrderSampler):
    """Order sampler that draws a fresh random permutation every epoch.

    Args:
        random_state: A :class:`numpy.random.RandomState`; ``None`` uses
            NumPy's global random state (so ``numpy.random.seed`` applies).
    """

    def __init__(self, random_state: numpy.random.RandomState | None = None) -> None:
        self._random = random_state

    def __call__(self, current_order: numpy.ndarray, current_position: int) -> numpy.ndarray:
        """Return a random permutation of ``range(len(current_order))``."""
        random = self._random if self._random is not None else numpy.random
        return random.permutation(len(current_order))
