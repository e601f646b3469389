"""BatchNormalization: batch normalization with running statistics."""

from __future__ import annotations

import operator
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import chainer
from chainer import functions
from chainer.functions.normalization.batch_normalization import compute_axes
from chainer.link import Link
from chainer.links.normalization import _affine
from chainer.utils import argument

if TYPE_CHECKING:
    from chainer.types import DTypeSpec, InitializerSpec, NdArray, ShapeSpec, VariableOrArray
    from chainer.variable import Variable

_TEST_REMOVED = 'test argument is not supported anymore. Use chainer.using_config'


def _size_to_shape(size: Any) -> tuple[int, ...] | None:
    """``size`` (None, an int or a sequence of ints) as a parameter shape."""
    if size is None:
        return None
    try:
        return (operator.index(size),)
    except TypeError:
        pass
    if isinstance(size, (tuple, list)):
        try:
            return tuple(operator.index(s) for s in size)
        except TypeError:
            pass
    raise TypeError(f'size must be None, an int or a tuple of ints, not {size!r}')


def finetune_argument(kwargs: dict[str, Any]) -> bool:
    """Parse the keyword arguments of a batch normalization link's ``forward``.

    Raises:
        ValueError: for the removed ``test`` argument.
        TypeError: for any other argument.
    """
    finetune, = argument.parse_kwargs(kwargs, ('finetune', False), test=_TEST_REMOVED)
    return finetune


class BatchNormalization(Link):
    """Batch normalization layer, keeping running averages of the statistics.

    In training mode (``chainer.config.train``) the input is normalized with
    the mean and variance of the batch, and the running averages ``avg_mean``
    and ``avg_var`` (the unbiased variance) are updated with ``decay``. In
    test mode the running averages are used instead. With ``finetune=True``
    the averages become the plain mean over all batches seen (the counter
    ``N`` counts them). Statistics are never updated while
    :func:`chainer.functions.forget` recomputes a forward pass.

    Args:
        size: the shape of the parameters (int or tuple), or None to infer it
            from the first input (then ``axis`` is needed).
        decay: the decay rate of the running averages.
        eps: added to the variance.
        dtype: the dtype of the parameters and statistics (None:
            ``config.dtype``; ``mixed16`` gives float32 ones).
        use_gamma: whether to have the scaling parameter ``gamma``.
        use_beta: whether to have the shifting parameter ``beta``.
        initial_gamma: initializer of ``gamma`` (ones by default).
        initial_beta: initializer of ``beta`` (zeros by default).
        axis: the aggregated axes (int or tuple); None for axis 0 and the
            axes after those of the parameters.
        initial_avg_mean: initializer of ``avg_mean`` (zeros by default).
        initial_avg_var: initializer of ``avg_var`` (ones by default).

    Attributes:
        gamma, beta: the parameters (None when not used).
        avg_mean, avg_var: the running statistics (persistent).
        N: the number of batches seen in fine-tuning (persistent).

    Raises:
        RuntimeError: when neither ``size`` nor ``axis`` is given.
        TypeError: for a ``size`` that is not an int or a tuple of ints.

    Example:
        >>> import numpy as np
        >>> import chainer
        >>> import chainer.links as L
        >>> bn = L.BatchNormalization(2)
        >>> x = np.array([[1., 10.], [3., 30.]], np.float32)
        >>> print(bn(x).array.round(3))
        [[-1. -1.]
         [ 1.  1.]]
        >>> print(bn.avg_mean)
        [0.2 2. ]
        >>> with chainer.using_config('train', False):
        ...     print(bn(x).array.shape)
        (2, 2)
    """

    gamma: Any
    beta: Any
    avg_mean: NdArray | None
    avg_var: NdArray | None

    def __init__(self, size: ShapeSpec | None = None, decay: float = 0.9, eps: float = 2e-5,
                 dtype: DTypeSpec | None = None, use_gamma: bool = True, use_beta: bool = True,
                 initial_gamma: InitializerSpec | None = None,
                 initial_beta: InitializerSpec | None = None,
                 axis: int | tuple[int, ...] | None = None,
                 initial_avg_mean: InitializerSpec | None = None,
                 initial_avg_var: InitializerSpec | None = None) -> None:
        super().__init__()
        shape = _size_to_shape(size)
        if shape is None and axis is None:
            raise RuntimeError('BatchNormalization needs size or axis to know its parameter '
                               'shape')
        self.decay = decay
        self.eps = eps
        self.axis = axis
        self._highprec_dtype = _affine.highprec_dtype(dtype)
        self._initial_avg_mean = initial_avg_mean
        self._initial_avg_var = initial_avg_var
        self.N = 0
        self.register_persistent('N')
        self.avg_mean = None
        self.register_persistent('avg_mean')
        self.avg_var = None
        self.register_persistent('avg_var')
        _affine.affine_params(self, None, self._highprec_dtype, use_gamma, use_beta,
                              initial_gamma, initial_beta)
        if shape is not None:
            self._initialize_params(shape)

    def _initialize_params(self, shape: tuple[int, ...]) -> None:
        dtype = self._highprec_dtype
        self.avg_mean = _affine.statistic(self, self._initial_avg_mean, 0, shape, dtype)
        self.avg_var = _affine.statistic(self, self._initial_avg_var, 1, shape, dtype)
        if self.gamma is not None:
            self.gamma.initialize(shape)
        if self.beta is not None:
            self.beta.initialize(shape)

    def _statistics(self) -> tuple[NdArray, NdArray]:
        """``(avg_mean, avg_var)``, once the parameters are initialized.

        Raises:
            RuntimeError: before the parameters are initialized.
        """
        mean, var = self.avg_mean, self.avg_var
        if mean is None or var is None:
            raise RuntimeError(f'{type(self).__name__}: the running statistics are not '
                               'initialized (give the size, or call it once)')
        return mean, var

    @property
    def printable_specs(self) -> Iterator[tuple[str, Any]]:
        """The size, decay, eps, dtype and axis."""
        size = None if self.avg_mean is None else self.avg_mean.shape
        yield 'size', size
        yield 'decay', self.decay
        yield 'eps', self.eps
        yield 'dtype', self._highprec_dtype
        yield 'use_gamma', self.gamma is not None
        yield 'use_beta', self.beta is not None
        yield 'axis', self.axis

    def forward(self, x: VariableOrArray, **kwargs: Any) -> Variable:
        """Normalize ``x``, updating the running statistics in training mode.

        Args:
            x: the input (array or Variable).
            finetune: (keyword) if True, in training mode, make the statistics
                the average over all the batches seen (``decay = 1 - 1/N``).

        Returns:
            The normalized output, of the shape and dtype of ``x``.

        Raises:
            ValueError: for the removed ``test`` argument.
            TypeError: for another keyword argument.
            chainer.utils.type_check.InvalidType: when ``x`` does not fit the
                parameters.
        """
        finetune = finetune_argument(kwargs)
        if self.avg_mean is None:
            _, key = compute_axes(x.ndim, 0, self.axis)
            self._initialize_params(tuple(x.shape[i] for i in key))
        mean, var = self._statistics()
        gamma, beta = _affine.gamma_beta(self, mean.shape, self._highprec_dtype)
        if not chainer.config.train:
            return functions.fixed_batch_normalization(
                x, gamma, beta, mean, var, self.eps, axis=self.axis)
        avg_mean: NdArray | None
        avg_var: NdArray | None
        if chainer.config.in_recomputing:
            # forget() runs the forward pass again: the statistics were updated once.
            avg_mean = avg_var = None
            decay = self.decay
        else:
            avg_mean, avg_var = mean, var
            if finetune:
                self.N += 1
                decay = 1. - 1. / self.N
            else:
                decay = self.decay
        return functions.batch_normalization(
            x, gamma, beta, eps=self.eps, running_mean=avg_mean, running_var=avg_var,
            decay=decay, axis=self.axis)

    def start_finetuning(self) -> None:
        """Reset the fine-tuning counter ``N`` (call before fine-tuning)."""
        self.N = 0
