"""Padding."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions.array.get_item import get_item
from chainer.utils import type_check
from chainer.variable import Variable, as_array

if TYPE_CHECKING:
    from collections.abc import Sequence

    from numpy.typing import ArrayLike

    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray

# Modes whose padded values are copies of input elements: they are gathers,
# differentiated by scattering back.
_INDEX_MODES = ('edge', 'reflect', 'symmetric', 'wrap')


def _pad_width(pad_width: Any, ndim: int) -> tuple[tuple[int, int], ...]:
    pw = numpy.asarray(pad_width)
    if pw.dtype.kind not in 'iu':
        if pw.size and not numpy.all(numpy.equal(numpy.mod(pw, 1), 0)):
            raise TypeError(f'pad_width must be integers, not {pad_width!r}')
        pw = pw.astype(numpy.int64)
    try:
        pw = numpy.broadcast_to(pw, (ndim, 2))
    except ValueError:
        raise ValueError(f'pad_width {pad_width!r} does not fit an input of {ndim} '
                         'dimension(s)') from None
    if (pw < 0).any():
        raise ValueError(f'pad_width must be non-negative, not {pad_width!r}')
    return tuple((int(a), int(b)) for a, b in pw)


class Pad(FunctionNode):
    """Pad with a constant value."""

    def __init__(self, pad_width: int | Sequence[int] | Sequence[Sequence[int]],
                 mode: str = 'constant', **keywords: ArrayLike) -> None:
        self.pad_width = pad_width
        self.mode = mode
        self.keywords = keywords

    @property
    def label(self) -> str:
        return 'Pad'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('x',))

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        self._pw = _pad_width(self.pad_width, x.ndim)
        self._in_shape = x.shape
        if x.ndim == 0:
            return x.copy(),
        xp = backend.get_array_module(x)
        return xp.pad(x, self._pw, mode=self.mode, **self.keywords),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:

        gy, = grad_outputs
        assert gy is not None
        slices = tuple(slice(a, a + n) for (a, _), n in zip(self._pw, self._in_shape))
        return get_item(gy, slices),


def _index_pad(x: Any, pad_width: Any, mode: Any, keywords: dict[str, Any]) -> Variable:
    # mode: a name numpy.pad takes (its stubs want a Literal of them)

    pw = _pad_width(pad_width, as_array(x).ndim)
    shape = as_array(x).shape
    y = x
    for axis, ((before, after), n) in enumerate(zip(pw, shape)):
        if before == 0 and after == 0:
            continue
        if n == 0:
            raise ValueError(f"can't extend the empty axis {axis} with mode {mode!r}")
        idx = numpy.pad(numpy.arange(n), (before, after), mode=mode, **keywords)
        y = get_item(y, (slice(None),) * axis + (idx,))
    if y is x:
        y = get_item(x, Ellipsis)
    return y


@guarded
def pad(x: VariableOrArray, pad_width: int | Sequence[int] | Sequence[Sequence[int]], mode: str,
        **keywords: ArrayLike) -> Variable:
    """Pad ``x`` (like :func:`numpy.pad`).

    Args:
        x: input variable.
        pad_width: the numbers of values padded before and after each axis:
            an int, a pair, or one pair per axis.
        mode: ``'constant'`` (keyword ``constant_values``, default 0); also
            ``'edge'``, ``'reflect'``, ``'symmetric'`` and ``'wrap'``, whose
            gradients gather the contributions of every copy of an element.
        **keywords: the keyword arguments of :func:`numpy.pad` for ``mode``.

    Returns:
        The padded variable.

    Raises:
        ValueError: for an unsupported mode, or a negative or ill-shaped pad_width.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> x = np.array([[1, 2], [3, 4]], np.float32)
        >>> y = F.pad(x, ((0, 0), (1, 2)), mode='constant', constant_values=0)
        >>> print(y.array)
        [[0. 1. 2. 0. 0.]
         [0. 3. 4. 0. 0.]]
    """
    if mode == 'constant':
        unknown = set(keywords) - {'constant_values'}
        if unknown:
            raise TypeError(f"unexpected keyword arguments for mode 'constant': {unknown}")
        return Pad(pad_width, mode, **keywords).apply((x,))[0]
    if mode in _INDEX_MODES:
        unknown = set(keywords) - ({'reflect_type'} if mode != 'edge' and mode != 'wrap'
                                   else set())
        if unknown:
            raise TypeError(f'unexpected keyword arguments for mode {mode!r}: {unknown}')
        if keywords.get('reflect_type', 'even') != 'even':
            raise ValueError("only reflect_type='even' is supported (the 'odd' variant "
                             'extrapolates values instead of copying them)')
        return _index_pad(x, pad_width, mode, keywords)
    raise ValueError(f"unsupported padding mode {mode!r}: use 'constant', "
                     f"{', '.join(repr(m) for m in _INDEX_MODES)}")
