"""Converters: turn a list of examples into batched arrays on a device."""

from __future__ import annotations

import collections
import functools
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Union

import numpy

from chainer import backend

if TYPE_CHECKING:
    import cupy

    from chainer.types import DeviceSpec, NdArray


to_device = backend.to_device

#: ``padding`` of :func:`concat_examples`: None (equal shapes required), one scalar, or one
#: (scalar or None) per component of a tuple or dict example.
Padding = Union[int, float, tuple[Union[int, float, None], ...],  # noqa: UP007
                dict[str, int | float | None], None]
"""Send an array to a device (see :func:`chainer.backend.to_device`)."""


class Converter:
    """Base class of batch converters.

    A converter is called as ``converter(batch, device)`` where ``batch`` is a
    list of examples and ``device`` is ``None`` or a
    :class:`chainer.backend.Device`; it returns the arrays to feed a model.
    Updaters and evaluators pass a :class:`~chainer.backend.Device` to
    converters of this type, and the legacy integer id to plain callables.
    """

    def __call__(self, batch: Sequence[Any], device: DeviceSpec | None = None) -> Any:
        """Convert ``batch`` (a list of examples) for ``device``.

        Raises:
            NotImplementedError: unless a subclass overrides it.
        """
        raise NotImplementedError(f'{type(self).__name__} does not implement __call__')


class _ArbitraryCallableConverter(Converter):
    """A :class:`Converter` that forwards to a plain function."""

    def __init__(self, base_callable: Callable[..., Any]) -> None:
        if not callable(base_callable):
            raise TypeError(f'converter target must be callable, got {type(base_callable)}')
        self.base_callable = base_callable

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.base_callable(*args, **kwargs)

    def __reduce__(self) -> Any:
        # A decorated module-level function pickles by name, like the function would.
        module = sys.modules.get(getattr(self, '__module__', ''))
        name = getattr(self, '__qualname__', None)
        if module is not None and name and '<' not in name:
            target: Any = module
            for part in name.split('.'):
                target = getattr(target, part, None)
            if target is self:
                return name
        return _ArbitraryCallableConverter, (self.base_callable,)


def converter() -> Callable[[Callable[..., Any]], _ArbitraryCallableConverter]:
    """Decorator that makes a ``f(batch, device)`` function a :class:`Converter`.

    Usage::

        @chainer.dataset.converter()
        def my_converter(batch, device):
            ...

    Returns:
        A decorator; the decorated object is a :class:`Converter` that keeps
        the name and docstring of the function.
    """

    def wrap(func: Callable[..., Any]) -> _ArbitraryCallableConverter:
        conv = _ArbitraryCallableConverter(func)
        functools.update_wrapper(conv, func)
        return conv

    return wrap


def _call_converter(conv: Callable[..., Any], batch: Sequence[Any], device: Any) -> Any:
    """Call ``conv`` the way updaters do.

    A :class:`Converter` receives the :class:`~chainer.backend.Device` (or
    ``None``); a plain callable receives no device when ``device`` is ``None``,
    ``-1`` for the CPU and the integer id for a CUDA device, as in Chainer v1.
    """
    if isinstance(conv, Converter):
        return conv(batch, device)
    if device is None:
        return conv(batch)
    if device.xp is numpy:
        return conv(batch, -1)
    cuda_device = getattr(device, 'device', None)
    if cuda_device is not None and hasattr(cuda_device, 'id'):
        return conv(batch, cuda_device.id)
    return conv(batch, device)


def _call_with_arrays(func: Callable[..., Any], in_arrays: Any, *args: Any) -> Any:
    """``func(*args, ...)`` with the output of a converter as the last arguments.

    A tuple is passed as positional arguments, a dict as keyword arguments,
    anything else (an array) as one argument.
    """
    if isinstance(in_arrays, tuple):
        return func(*args, *in_arrays)
    if isinstance(in_arrays, dict):
        return func(*args, **in_arrays)
    return func(*args, in_arrays)


def _is_array(x: Any) -> bool:
    if isinstance(x, numpy.ndarray):
        return True
    return backend.get_array_module(x) is not numpy


def _stack(arrays: Sequence[Any], padding: Any) -> Any:
    """Stack examples along a new first axis, padding them when asked."""
    first = arrays[0]
    xp = backend.get_array_module(first)
    if padding is None:
        try:
            if xp is numpy:
                return numpy.stack(arrays)
            with first.device:
                return xp.stack(arrays)
        except ValueError:
            shapes = list(dict.fromkeys(numpy.shape(a) for a in arrays))
            if len(shapes) > 1:
                raise ValueError(
                    'concat_examples: examples have different shapes '
                    f'({shapes[0]} and {shapes[1]}); pass padding= to pad them to a common shape'
                ) from None
            raise
    arrays = [a if _is_array(a) else numpy.asarray(a) for a in arrays]
    first = arrays[0]
    ndim = first.ndim
    for a in arrays:
        if a.ndim != ndim:
            raise ValueError(
                f'concat_examples: cannot pad examples of different ndim ({ndim} and {a.ndim})'
            )
    shape = tuple(max(a.shape[d] for a in arrays) for d in range(ndim))
    if xp is numpy:
        result = numpy.full((len(arrays),) + shape, padding, dtype=first.dtype)
    else:
        with first.device:
            result = xp.full((len(arrays),) + shape, padding, dtype=first.dtype)
    for i, a in enumerate(arrays):
        result[(i,) + tuple(slice(n) for n in a.shape)] = a
    return result


@converter()
def concat_examples(batch: Sequence[Any], device: DeviceSpec | None = None,
                    padding: Padding = None) -> Any:
    """Concatenate a list of examples into batched arrays.

    Each example is an array (or scalar), a tuple of arrays or a dict of
    arrays; the result has the same structure with every component stacked
    along a new first axis and sent to ``device``.

    Args:
        batch: A non-empty list of examples, all with the same structure.
        device: Where to send the result; see :func:`to_device`.
        padding: ``None`` to require equal shapes; otherwise a scalar used to
            pad every component to the largest shape in the batch. A tuple
            (for tuple examples) or a dict (for dict examples) gives one
            padding value per component.

    Returns:
        An array, a tuple of arrays or a dict of arrays.

    Raises:
        ValueError: if ``batch`` is empty, or shapes differ without padding.

    Example:
        >>> import numpy as np
        >>> from chainer.dataset import concat_examples
        >>> batch = [(np.array([1., 2.], np.float32), 0), (np.array([3., 4.], np.float32), 1)]
        >>> x, t = concat_examples(batch)
        >>> print(x)
        [[1. 2.]
         [3. 4.]]
        >>> print(t)
        [0 1]
        >>> x, t = concat_examples([(np.array([1, 2]), 0), (np.array([3]), 1)], padding=-1)
        >>> print(x)
        [[ 1  2]
         [ 3 -1]]
    """
    if len(batch) == 0:
        raise ValueError('concat_examples: batch is empty')
    first = batch[0]
    if isinstance(first, tuple):
        n = len(first)
        pads = padding if isinstance(padding, tuple) else (padding,) * n
        if len(pads) != n:
            raise ValueError(
                f'concat_examples: padding has {len(pads)} entries, examples have {n} components'
            )
        return tuple(
            to_device(device, _stack([example[i] for example in batch], pads[i]))
            for i in range(n)
        )
    if isinstance(first, dict):
        key_pads = padding if isinstance(padding, dict) else dict.fromkeys(first, padding)
        return {
            key: to_device(device, _stack([example[key] for example in batch], key_pads.get(key)))
            for key in first
        }
    return to_device(device, _stack(batch, padding))



# v7's names: the plain function under the converter, and the stacking of one component.
concat_examples_func = concat_examples.base_callable


def _concat_arrays(arrays: Sequence[Any], padding: Any) -> Any:
    """Stack ``arrays`` along a new first axis; with ``padding`` (a scalar) pad each to
    the largest shape first. Scalars and lists are read as NumPy arrays.

    Raises:
        ValueError: shapes differ without padding, or ndims differ with it.
    """
    return _stack(list(arrays), padding)


def _is_cpu_spec(device: Any) -> bool:
    return device is None or (isinstance(device, (int, numpy.integer)) and int(device) < 0)


class Conveyor:
    """Double-buffered transfer of arrays to a device: send the next batch while the
    current one is used.

    :meth:`put` starts sending an array (or a tuple/dict of arrays); :meth:`get` returns
    the oldest one put, once it is on the device. To a GPU the copy runs on ``stream``
    through page-locked memory; to the CPU the array is converted at once.

    Args:
        device: the destination: a device spec, a CUDA device id, or None / a negative
            id for the CPU.
        stream: ``cupy.cuda.Stream`` for the copies (made on the first GPU put when None).
    """

    def __init__(self, device: DeviceSpec | None = None,
                 stream: cupy.cuda.Stream | None = None) -> None:
        self.device = device
        self.stream = stream
        self._pending: collections.deque[tuple[Any, Any, list[Any]]] = collections.deque()

    def put(self, array: NdArray) -> None:
        """Start sending ``array`` to the device."""
        if _is_cpu_spec(self.device):
            self._pending.append((to_device(-1 if self.device is None else self.device,
                                            array), None, []))
            return
        spec = f'@cupy:{int(self.device)}' if isinstance(self.device, (int, numpy.integer)) \
            else self.device
        target = backend.get_device(spec)
        if not isinstance(target, backend.GpuDevice):  # the CPU, e.g. '@numpy'
            self._pending.append((target.send(array), None, []))
            return
        with target.device:
            if self.stream is None:
                self.stream = target.xp.cuda.Stream(non_blocking=True)
            buffers: list[Any] = []
            result = _async_send(array, target.xp, self.stream, buffers)
            event = self.stream.record()
        self._pending.append((result, event, buffers))

    def get(self) -> NdArray:
        """Return the oldest array put, on the device (waiting for its copy to end).

        Raises:
            RuntimeError: when nothing was put.
        """
        if not self._pending:
            raise RuntimeError('Conveyor.get: no array was put')
        result, event, _buffers = self._pending.popleft()
        if event is not None:
            event.synchronize()
        return result


class ConcatWithAsyncTransfer(Converter):
    """:func:`concat_examples` that copies batches to a GPU on a separate CUDA stream.

    On a GPU the batch is stacked on the host in page-locked memory and copied to the
    device on ``stream``, so that the copy overlaps with kernels still running on the
    compute stream. The arrays returned are ready to use on ``compute_stream`` (or, when
    it is ``None``, once the call returns). For the CPU (``device`` ``None``, ``-1``,
    ``'@numpy'``) it is :func:`concat_examples`.

    Args:
        stream: ``cupy.cuda.Stream`` for the copies; created on the first GPU call when
            ``None``.
        compute_stream: ``cupy.cuda.Stream`` running the model; when given, it waits for
            the copy through a CUDA event instead of the host waiting for it.
    """

    def __init__(self, stream: cupy.cuda.Stream | None = None,
                 compute_stream: cupy.cuda.Stream | None = None) -> None:
        self._stream = stream
        self.compute_stream = compute_stream
        self._in_flight: tuple[Any, list[Any]] | None = None  # (event, host buffers)

    def __getstate__(self) -> dict[str, Any]:
        # CUDA streams cannot be pickled; a fresh stream is made when needed.
        return {'_stream': None, 'compute_stream': None, '_in_flight': None}

    def __call__(self, batch: Sequence[Any], device: DeviceSpec | None = None,
                 padding: Padding = None) -> Any:
        """Concatenate ``batch`` and send it to ``device`` (see :func:`concat_examples`).

        Raises:
            ValueError: as :func:`concat_examples`.
        """
        target = None if device is None else backend.get_device(device)
        if not isinstance(target, backend.GpuDevice):  # None or the CPU
            return concat_examples(batch, device, padding)
        host = concat_examples(batch, None, padding)
        with target.device:
            if self._stream is None:
                self._stream = target.xp.cuda.Stream(non_blocking=True)
            if self._in_flight is not None:
                # The previous copy must end before its page-locked buffers are reused.
                self._in_flight[0].synchronize()
                self._in_flight = None
            buffers: list[Any] = []
            result = _async_send(host, target.xp, self._stream, buffers)
            if self.compute_stream is not None:
                event = self._stream.record()
                self.compute_stream.wait_event(event)
                self._in_flight = (event, buffers)
            else:
                self._stream.synchronize()
        return result


def _async_send(value: Any, cupy: Any, stream: Any, buffers: list[Any]) -> Any:
    """Copy host arrays (nested in tuples and dicts) to the current GPU on ``stream``,
    through page-locked buffers appended to ``buffers``."""
    if isinstance(value, tuple):
        return tuple(_async_send(v, cupy, stream, buffers) for v in value)
    if isinstance(value, dict):
        return {k: _async_send(v, cupy, stream, buffers) for k, v in value.items()}
    if not isinstance(value, numpy.ndarray):
        return cupy.asarray(value)
    source = numpy.ascontiguousarray(value)
    pinned = cupy.cuda.alloc_pinned_memory(max(source.nbytes, 1))
    buffers.append(pinned)
    staged = numpy.frombuffer(pinned, source.dtype, source.size).reshape(source.shape)
    staged[...] = source
    result = cupy.empty(source.shape, source.dtype)
    result.set(staged, stream=stream)
    return result
