"""GroupNormalization: normalization over groups of channels of each sample."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from chainer import functions
from chainer.link import Link
from chainer.links.normalization import _affine

if TYPE_CHECKING:
    from chainer.types import InitializerSpec, VariableOrArray
    from chainer.variable import Variable


class GroupNormalization(Link):
    """Group normalization layer (Wu and He, 2018).

    See :func:`chainer.functions.group_normalization`. The parameters
    ``gamma`` and ``beta`` have one element per channel (axis 1).

    Args:
        groups: the number of groups; it must divide the number of channels.
        size: the number of channels, or None to read it off the first input.
        eps: added to the variance.
        initial_gamma: initializer of ``gamma`` (ones by default).
        initial_beta: initializer of ``beta`` (zeros by default).

    The parameters are float32 under ``config.dtype == mixed16``, else of
    ``config.dtype`` (read when the link is built).
    """

    gamma: Any
    beta: Any

    def __init__(self, groups: int, size: int | None = None, eps: float = 1e-5,
                 initial_gamma: InitializerSpec | None = None,
                 initial_beta: InitializerSpec | None = None) -> None:
        super().__init__()
        self.groups = groups
        self.eps = eps
        _affine.affine_params(self, None, _affine.highprec_dtype(None),
                              initial_gamma=initial_gamma, initial_beta=initial_beta)
        if size is not None:
            self._initialize_params(size)

    def _initialize_params(self, size: int) -> None:
        self.gamma.initialize(size)
        self.beta.initialize(size)

    @property
    def printable_specs(self) -> Iterator[tuple[str, Any]]:
        """The groups, size and eps."""
        yield 'groups', self.groups
        yield 'size', None if self.gamma.array is None else self.gamma.shape[0]
        yield 'eps', self.eps

    def forward(self, x: VariableOrArray) -> Variable:
        """Normalize ``x`` of shape ``(N, C, ...)``.

        Raises:
            ValueError: when ``x`` has fewer than two axes or ``groups`` does
                not divide ``C``.
            TypeError: when ``groups`` is not an int.
        """
        if self.gamma.array is None:
            if x.ndim < 2:
                raise ValueError('GroupNormalization: the input must have at least 2 axes '
                                 f'(batch, channel, ...), got shape {x.shape}')
            self._initialize_params(x.shape[1])
        return functions.group_normalization(x, self.groups, self.gamma, self.beta, self.eps)
