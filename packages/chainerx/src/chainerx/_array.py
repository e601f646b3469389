"""``chainerx.ndarray``: an array on a device, with its nodes in computational graphs.

The data is a NumPy array (native devices) or a CuPy array (cuda devices) viewed as it
is: strides and offset are the underlying array's.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy

from chainerx import _dtypes, _graph
from chainerx._device import BackpropId, Device, resolve
from chainerx._errors import ChainerxError, DeviceError, DimensionError, DtypeError, GradientError


def make(data: Any, device: Device) -> ndarray:
    """Wrap backend array *data* (on *device*) without copying and without graph nodes."""
    a = ndarray.__new__(ndarray)
    a._data = data
    a._device = device
    a._nodes = {}
    return a


def _root(data: Any) -> Any:
    """The backend array owning the buffer that *data* views."""
    base = data
    while getattr(base, 'base', None) is not None and hasattr(base.base, 'shape'):
        base = base.base
    return base


def _root_address(data: Any) -> int:
    return _address(_root(data))


def _address(data: Any) -> int:
    if isinstance(data, numpy.ndarray):
        return int(data.__array_interface__['data'][0])
    return int(data.data.ptr)


def _deferring(method: Callable[[ndarray, Any], ndarray]) -> Callable[[ndarray, Any], Any]:
    """A binary operator that returns NotImplemented for an operand it does not take (not
    an ndarray, a scalar, or a NumPy/CuPy array, which get a clear TypeError), so that
    the operand's reflected operator runs, as ChainerX's operators did: ``a + v`` for a
    ``chainer.Variable`` ``v`` is ``v.__radd__(a)``."""
    @functools.wraps(method)
    def operator(self: ndarray, other: Any) -> Any:
        if (isinstance(other, ndarray) or _dtypes.is_scalar(other)
                or hasattr(other, '__array_interface__')
                or hasattr(other, '__cuda_array_interface__')):
            return method(self, other)
        return NotImplemented
    return operator


class ndarray:
    """An N-dimensional array of ChainerX (shape, dtype, device, graph nodes).

    ``ndarray(shape, dtype, device=None)`` allocates an uninitialized C-contiguous array.
    """

    __slots__ = ('__weakref__', '_data', '_device', '_nodes')
    __array_priority__ = 100
    __array_ufunc__ = None  # NumPy defers to the reflected operators

    _data: Any
    _device: Device
    _nodes: dict[BackpropId, _graph.ArrayNode]

    def __init__(self, shape: Any, dtype: Any, device: Any = None) -> None:
        dev = resolve(device)
        with dev._scope():
            self._data = dev.xp.empty(_creation.normalize_shape(shape), _dtypes.to_dtype(dtype))
        self._device = dev
        self._nodes = {}

    # ---- attributes --------------------------------------------------------------------

    @property
    def shape(self) -> tuple[int, ...]:
        """The lengths of the axes."""
        return self._data.shape

    @property
    def dtype(self) -> numpy.dtype:
        """The element type (a :class:`numpy.dtype`)."""
        return self._data.dtype

    @property
    def device(self) -> Device:
        """The device holding the data."""
        return self._device

    @property
    def strides(self) -> tuple[int, ...]:
        """Bytes to step in each axis."""
        return self._data.strides

    @property
    def offset(self) -> int:
        """Bytes from the start of the underlying buffer to the first element."""
        return _address(self._data) - _root_address(self._data)

    @property
    def size(self) -> int:
        """The number of elements."""
        return int(self._data.size)

    @property
    def ndim(self) -> int:
        """The number of axes."""
        return int(self._data.ndim)

    @property
    def itemsize(self) -> int:
        """Bytes per element."""
        return int(self._data.itemsize)

    @property
    def nbytes(self) -> int:
        """Bytes of all elements (``size * itemsize``)."""
        return int(self._data.nbytes)

    @property
    def is_contiguous(self) -> bool:
        """Whether the elements lie in C order without gaps."""
        return bool(self._data.flags.c_contiguous)

    @property
    def data_ptr(self) -> int:
        """The address of the underlying buffer."""
        return _root_address(self._data)

    @property
    def data_size(self) -> int:
        """The size in bytes of the buffer the array views."""
        return int(_root(self._data).nbytes)

    @property
    def T(self) -> ndarray:
        """The array with its axes reversed (a view)."""
        return _manipulation.transpose(self)

    @property
    def _debug_flat_data(self) -> list[Any]:
        return self._device_host().ravel().tolist()

    @property
    def _debug_data_memory_address(self) -> int:
        return _address(self._data)

    def _device_host(self) -> numpy.ndarray:
        if isinstance(self._data, numpy.ndarray):
            return self._data
        return self._data.get()

    # ---- conversions -------------------------------------------------------------------

    def item(self) -> Any:
        """The one element as a Python scalar (DimensionError unless the size is 1)."""
        if self._data.size != 1:
            raise DimensionError(f'item() needs an array of size 1, not of shape {self.shape}')
        return self._data.item()

    def __float__(self) -> float:
        return float(self.item())

    def __int__(self) -> int:
        return int(self.item())

    def __bool__(self) -> bool:
        return bool(self.item())

    def __index__(self) -> int:
        if self.dtype.kind not in 'iu' or self._data.size != 1:
            raise TypeError('only integer arrays of size 1 can be used as an index')
        return int(self.item())

    def __len__(self) -> int:
        if self.ndim == 0:
            raise TypeError('len() of unsized object')
        return int(self.shape[0])

    def __iter__(self) -> Any:
        if self.ndim == 0:
            raise TypeError('iteration over a 0-d array')
        return (self[i] for i in range(self.shape[0]))

    def tolist(self) -> Any:
        """The elements as nested Python lists."""
        return self._device_host().tolist()

    def __array__(self, dtype: Any = None, copy: Any = None) -> numpy.ndarray:
        host = self._device_host()
        return host if dtype is None else host.astype(dtype)

    def __repr__(self) -> str:
        body = numpy.array2string(self._device_host(), separator=', ', prefix='array(')
        text = f"array({body}, shape={self.shape}, dtype={self.dtype.name}, " \
               f"device='{self._device.name}'"
        if self._nodes:
            names = ["<expired>" if bp._released else bp.name for bp in self._nodes]
            text += f", backprop_ids={names!r}"
        return text + ')'

    __str__ = __repr__

    def __reduce__(self) -> tuple[Any, ...]:
        return (_unpickle, (self._device_host(), self._device.name))

    def __deepcopy__(self, memo: dict[int, Any]) -> ndarray:
        return _creation.copy(self).as_grad_stopped()

    # ---- copies and views --------------------------------------------------------------

    def copy(self) -> ndarray:
        """A C-contiguous copy, connected to the graphs."""
        return _creation.copy(self)

    def view(self) -> ndarray:
        """A view of the same data, connected to the graphs."""
        return _manipulation.view(self)

    def astype(self, dtype: Any, copy: bool = True) -> ndarray:
        """The array cast to *dtype* (the array itself if the dtype is the same and
        *copy* is False)."""
        return _math.astype(self, dtype, copy)

    def to_device(self, device: Any, index: int | None = None) -> ndarray:
        """The array on another device (a device, a name, or a backend name and index)."""
        dev = resolve(device) if index is None else resolve(f'{device}:{index}')
        return _creation.to_device(self, dev)

    def fill(self, value: Any) -> None:
        """Set every element to *value* (in place)."""
        self._check_writable()
        self._data.fill(value)

    def _check_writable(self) -> None:
        for bp in self._nodes:
            if not bp._released and _graph._enabled(bp):
                raise ChainerxError(
                    'an array that is part of a graph cannot be modified in place')

    # ---- autograd ----------------------------------------------------------------------

    def require_grad(self, backprop_id: BackpropId | None = None) -> ndarray:
        """Mark the array as needing its gradient in graph *backprop_id*; returns self."""
        bp = _graph.resolve_backprop_id(backprop_id)
        if self.dtype.kind != 'f':
            raise DtypeError(f'an array of dtype {self.dtype.name} cannot require a gradient')
        node = self._nodes.get(bp)
        if node is None:
            node = self._nodes[bp] = _graph.ArrayNode(None, 0)
        node.grad_required = True
        return self

    def is_grad_required(self, backprop_id: BackpropId | None = None) -> bool:
        """Whether the gradient is kept in graph *backprop_id*."""
        node = self._nodes.get(_graph.resolve_backprop_id(backprop_id))
        return node is not None and node.grad_required

    def is_backprop_required(self, backprop_id: Any = None) -> bool:
        """Whether the array is in graph *backprop_id* (``chainerx.anygraph``: in any)
        and that graph is recorded here."""
        if backprop_id is _graph.anygraph:
            return any(not bp._released and _graph._enabled(bp) for bp in self._nodes)
        bp = _graph.resolve_backprop_id(backprop_id)
        return bp in self._nodes and _graph._enabled(bp)

    def _grad_node(self, backprop_id: BackpropId | None) -> _graph.ArrayNode:
        node = self._nodes.get(_graph.resolve_backprop_id(backprop_id))
        if node is None or not node.grad_required:
            raise ChainerxError('the array does not require a gradient in this graph')
        return node

    def get_grad(self, backprop_id: BackpropId | None = None) -> ndarray | None:
        """The gradient in graph *backprop_id* (None if not computed)."""
        return self._grad_node(backprop_id).grad

    def set_grad(self, grad: ndarray | None, backprop_id: BackpropId | None = None) -> None:
        """Set (None: clear) the gradient in graph *backprop_id*; the array must be in it."""
        node = self._nodes.get(_graph.resolve_backprop_id(backprop_id))
        if node is None:
            raise ChainerxError('the array is not in this graph')
        if grad is not None:
            if not isinstance(grad, ndarray):
                raise TypeError('a gradient must be a chainerx.ndarray')
            if grad.shape != self.shape or grad.dtype != self.dtype:
                raise GradientError(
                    f'gradient of shape {grad.shape} and dtype {grad.dtype.name} for an '
                    f'array of shape {self.shape} and dtype {self.dtype.name}')
            if grad._device is not self._device:
                raise GradientError(
                    f'gradient on {grad._device.name} for an array on {self._device.name}')
        node.grad = grad
        node.grad_required = True

    def cleargrad(self, backprop_id: BackpropId | None = None) -> None:
        """Clear the gradient in graph *backprop_id*."""
        self._grad_node(backprop_id).grad = None

    @property
    def grad(self) -> ndarray | None:
        """The gradient in the default graph."""
        return self.get_grad()

    @grad.setter
    def grad(self, value: ndarray | None) -> None:
        self.set_grad(value)

    def backward(self, backprop_id: BackpropId | None = None,
                 enable_double_backprop: bool = False) -> None:
        """Backpropagate from this array (see :func:`chainerx.backward`)."""
        _graph.backward(self, backprop_id, enable_double_backprop)

    def as_grad_stopped(self, backprop_ids: Any = None, copy: bool = False) -> ndarray:
        """The array cut from the graphs *backprop_ids* (default: all), a view or a copy."""
        data = self._data.copy() if copy else self._data
        out = make(data, self._device)
        if backprop_ids is not None and self._nodes:
            if isinstance(backprop_ids, BackpropId):
                backprop_ids = (backprop_ids,)
            ids = {_graph.resolve_backprop_id(b) for b in backprop_ids}
            kept = make(self._data, self._device)  # self, in the graphs not stopped only
            kept._nodes = {bp: n for bp, n in self._nodes.items() if bp not in ids}
            _graph.record((kept,), (out,), lambda gys, need: [gys[0]])
        return out

    def _is_chained(self) -> bool:
        node = self._nodes.get(_graph.resolve_backprop_id(None))
        if node is None:
            raise ChainerxError('the array is not in the default graph')
        return node.creator is not None

    # ---- shape -------------------------------------------------------------------------

    def reshape(self, *shape: Any) -> ndarray:
        """The array with another shape (a view where possible)."""
        if not shape:
            raise TypeError('reshape needs a shape')
        if len(shape) == 1 and not isinstance(shape[0], int):
            shape = tuple(shape[0])
        return _manipulation.reshape(self, shape)

    def transpose(self, *axes: Any) -> ndarray:
        """The array with permuted axes (default: reversed)."""
        if len(axes) == 1 and (axes[0] is None or not isinstance(axes[0], int)):
            return _manipulation.transpose(self, axes[0])
        return _manipulation.transpose(self, axes or None)

    def swapaxes(self, axis1: int, axis2: int) -> ndarray:
        """The array with two axes exchanged."""
        return _manipulation.swapaxes(self, axis1, axis2)

    def squeeze(self, axis: Any = None) -> ndarray:
        """The array without axes of length 1."""
        return _manipulation.squeeze(self, axis)

    def flatten(self) -> ndarray:
        """A 1-d copy."""
        return _manipulation.reshape(_creation.copy(self), (self.size,))

    def ravel(self) -> ndarray:
        """The array as 1-d (a view where possible)."""
        return _manipulation.ravel(self)

    # ---- reductions and others ---------------------------------------------------------

    def sum(self, axis: Any = None, keepdims: bool = False) -> ndarray:
        """Sum over *axis*."""
        return _reduction.sum(self, axis, keepdims)

    def mean(self, axis: Any = None, keepdims: bool = False) -> ndarray:
        """Mean over *axis*."""
        return _reduction.mean(self, axis, keepdims)

    def var(self, axis: Any = None, keepdims: bool = False) -> ndarray:
        """Variance over *axis*."""
        return _reduction.var(self, axis, keepdims)

    def max(self, axis: Any = None, keepdims: bool = False) -> ndarray:
        """Maximum over *axis*."""
        return _reduction.amax(self, axis, keepdims)

    def min(self, axis: Any = None, keepdims: bool = False) -> ndarray:
        """Minimum over *axis*."""
        return _reduction.amin(self, axis, keepdims)

    def argmax(self, axis: int | None = None) -> ndarray:
        """Indices of the maxima along *axis*."""
        return _reduction.argmax(self, axis)

    def argmin(self, axis: int | None = None) -> ndarray:
        """Indices of the minima along *axis*."""
        return _reduction.argmin(self, axis)

    def all(self, axis: Any = None, keepdims: bool = False) -> ndarray:
        """Whether all elements are true along *axis*."""
        return _reduction.all(self, axis, keepdims)

    def any(self, axis: Any = None, keepdims: bool = False) -> ndarray:
        """Whether any element is true along *axis*."""
        return _reduction.any(self, axis, keepdims)

    def cumsum(self, axis: int | None = None) -> ndarray:
        """Cumulative sum along *axis* (flattened if None)."""
        return _reduction.cumsum(self, axis)

    def dot(self, b: ndarray) -> ndarray:
        """The dot product with *b*."""
        return _linalg.dot(self, b)

    def repeat(self, repeats: Any, axis: int | None = None) -> ndarray:
        """Each element repeated (see :func:`chainerx.repeat`)."""
        return _manipulation.repeat(self, repeats, axis)

    def take(self, indices: Any, axis: int | None = None, mode: str = 'wrap') -> ndarray:
        """Elements at *indices* along *axis* (see :func:`chainerx.take`)."""
        return _indexing.take(self, indices, axis, mode)

    def clip(self, a_min: Any, a_max: Any) -> ndarray:
        """Elements limited to ``[a_min, a_max]``."""
        return _math.clip(self, a_min, a_max)

    # ---- indexing ----------------------------------------------------------------------

    def __getitem__(self, key: Any) -> ndarray:
        return _indexing.getitem(self, key)

    def __setitem__(self, key: Any, value: Any) -> None:
        _indexing.setitem(self, key, value)

    # ---- operators ---------------------------------------------------------------------

    def __neg__(self) -> ndarray:
        return _math.negative(self)

    def __pos__(self) -> ndarray:
        return _math.positive(self)

    def __abs__(self) -> ndarray:
        return _math.absolute(self)

    def __invert__(self) -> ndarray:
        return _math.bitwise_not(self)

    @_deferring
    def __add__(self, other: Any) -> ndarray:
        return _math.add(self, other)

    @_deferring
    def __radd__(self, other: Any) -> ndarray:
        return _math.add(other, self)

    @_deferring
    def __iadd__(self, other: Any) -> ndarray:
        return _math.inplace(_math.add, self, other)

    @_deferring
    def __sub__(self, other: Any) -> ndarray:
        return _math.subtract(self, other)

    @_deferring
    def __rsub__(self, other: Any) -> ndarray:
        return _math.subtract(other, self)

    @_deferring
    def __isub__(self, other: Any) -> ndarray:
        return _math.inplace(_math.subtract, self, other)

    @_deferring
    def __mul__(self, other: Any) -> ndarray:
        return _math.multiply(self, other)

    @_deferring
    def __rmul__(self, other: Any) -> ndarray:
        return _math.multiply(other, self)

    @_deferring
    def __imul__(self, other: Any) -> ndarray:
        return _math.inplace(_math.multiply, self, other)

    @_deferring
    def __truediv__(self, other: Any) -> ndarray:
        return _math.divide(self, other)

    @_deferring
    def __rtruediv__(self, other: Any) -> ndarray:
        return _math.divide(other, self)

    @_deferring
    def __itruediv__(self, other: Any) -> ndarray:
        return _math.inplace(_math.divide, self, other)

    @_deferring
    def __floordiv__(self, other: Any) -> ndarray:
        return _math.floor_divide(self, other)

    @_deferring
    def __rfloordiv__(self, other: Any) -> ndarray:
        return _math.floor_divide(other, self)

    @_deferring
    def __ifloordiv__(self, other: Any) -> ndarray:
        return _math.inplace(_math.floor_divide, self, other)

    @_deferring
    def __mod__(self, other: Any) -> ndarray:
        return _math.remainder(self, other)

    @_deferring
    def __rmod__(self, other: Any) -> ndarray:
        return _math.remainder(other, self)

    @_deferring
    def __imod__(self, other: Any) -> ndarray:
        return _math.inplace(_math.remainder, self, other)

    @_deferring
    def __pow__(self, other: Any) -> ndarray:
        return _math.power(self, other)

    @_deferring
    def __rpow__(self, other: Any) -> ndarray:
        return _math.power(other, self)

    @_deferring
    def __ipow__(self, other: Any) -> ndarray:
        return _math.inplace(_math.power, self, other)

    @_deferring
    def __matmul__(self, other: Any) -> ndarray:
        return _linalg.matmul(self, other)

    @_deferring
    def __rmatmul__(self, other: Any) -> ndarray:
        return _linalg.matmul(other, self)

    @_deferring
    def __and__(self, other: Any) -> ndarray:
        return _math.bitwise_and(self, other)

    @_deferring
    def __rand__(self, other: Any) -> ndarray:
        return _math.bitwise_and(other, self)

    @_deferring
    def __iand__(self, other: Any) -> ndarray:
        return _math.inplace(_math.bitwise_and, self, other)

    @_deferring
    def __or__(self, other: Any) -> ndarray:
        return _math.bitwise_or(self, other)

    @_deferring
    def __ror__(self, other: Any) -> ndarray:
        return _math.bitwise_or(other, self)

    @_deferring
    def __ior__(self, other: Any) -> ndarray:
        return _math.inplace(_math.bitwise_or, self, other)

    @_deferring
    def __xor__(self, other: Any) -> ndarray:
        return _math.bitwise_xor(self, other)

    @_deferring
    def __rxor__(self, other: Any) -> ndarray:
        return _math.bitwise_xor(other, self)

    @_deferring
    def __ixor__(self, other: Any) -> ndarray:
        return _math.inplace(_math.bitwise_xor, self, other)

    @_deferring
    def __lshift__(self, other: Any) -> ndarray:
        return _math.left_shift(self, other)

    @_deferring
    def __rlshift__(self, other: Any) -> ndarray:
        return _math.left_shift(other, self)

    @_deferring
    def __rshift__(self, other: Any) -> ndarray:
        return _math.right_shift(self, other)

    @_deferring
    def __rrshift__(self, other: Any) -> ndarray:
        return _math.right_shift(other, self)

    @_deferring
    def __ilshift__(self, other: Any) -> ndarray:
        return _math.inplace(_math.left_shift, self, other)

    @_deferring
    def __irshift__(self, other: Any) -> ndarray:
        return _math.inplace(_math.right_shift, self, other)

    def __eq__(self, other: Any) -> ndarray:  # type: ignore[override]
        return _math.equal(self, other)

    def __ne__(self, other: Any) -> ndarray:  # type: ignore[override]
        return _math.not_equal(self, other)

    def __lt__(self, other: Any) -> ndarray:
        return _math.less(self, other)

    def __le__(self, other: Any) -> ndarray:
        return _math.less_equal(self, other)

    def __gt__(self, other: Any) -> ndarray:
        return _math.greater(self, other)

    def __ge__(self, other: Any) -> ndarray:
        return _math.greater_equal(self, other)

    __hash__ = None  # type: ignore[assignment]


def _unpickle(host: numpy.ndarray, device_name: str) -> ndarray:
    return _creation.array(host, device=device_name)


def check_same_device(*arrays: ndarray) -> Device:
    """The device of *arrays*; DeviceError if they are not all on one."""
    device = arrays[0]._device
    for a in arrays[1:]:
        if a._device is not device:
            raise DeviceError(f'arrays on different devices: {device.name} and {a._device.name}')
    return device


from chainerx import (  # noqa: E402 -- the routines use ndarray: imported after it
    _creation,
    _indexing,
    _linalg,
    _manipulation,
    _math,
    _reduction,
)
