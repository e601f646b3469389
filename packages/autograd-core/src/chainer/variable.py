"""Variables: arrays with a place in the computational graph.

A :class:`Variable` holds an array and its gradient; its :class:`VariableNode`
is what the backward graph references. A :class:`FunctionNode` keeps strong
references to its input nodes and weak references to its output nodes, so the
graph lives exactly as long as the variables the user still holds.
"""

from __future__ import annotations

import copy as _copy
import warnings
import weakref
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeAlias, cast

import numpy

import chainer
from chainer import _backprop, _chainerx_bridge
from chainer.backend import ChainerxDevice, get_array_module, get_device, get_device_from_array
from chainer.backends import cuda

if TYPE_CHECKING:
    from chainer.backend import Device
    from chainer.function import Function
    from chainer.function_node import FunctionNode
    from chainer.types import AbstractInitializer, DeviceSpec, InitializerSpec, NdArray, ShapeSpec

    # What an arithmetic operator of Variable takes besides a Variable.
    _Operand: TypeAlias = 'Variable | NdArray | float | complex | numpy.generic'
    _Binary: TypeAlias = 'Callable[[Variable, _Operand], Variable]'

_array_types: tuple[type, ...] = (numpy.ndarray,)
if cuda.cupy is not None:
    _array_types = (numpy.ndarray, cuda.cupy.ndarray)


_NO_GRAD = object()


class VariableNode:
    """The node of a variable in the backward graph.

    Args:
        variable: the variable this node represents.
        name: the name of the variable.

    Raises:
        ValueError: when ``grad`` is given (removed in Chainer v3: the gradient
            belongs to the variable).
    """

    __slots__ = ('_variable', 'creator_node', 'data', 'name', '_rank', '_requires_grad',
                 'dtype', 'shape', '__weakref__')
    if TYPE_CHECKING:
        creator_node: FunctionNode | None
        data: Any  # the retained array (NumPy or CuPy), or None
        dtype: numpy.dtype | None
        shape: tuple[int, ...] | None

    def __init__(self, variable: Variable, name: str | None = None,
                 grad: object = _NO_GRAD) -> None:
        if grad is not _NO_GRAD:
            raise ValueError('the grad argument of VariableNode was removed in Chainer v3: '
                             'set the gradient on the Variable instead')
        self._variable = weakref.ref(variable)
        self.creator_node = None
        self.data = None
        self.name = name
        self._rank = 0
        self._requires_grad = variable._requires_grad
        data = variable._data
        if data is not None:
            self.dtype = data.dtype
            self.shape = data.shape
        else:
            self.dtype = None
            self.shape = None

    @property
    def creator(self) -> Any:
        """The old-style Function that created this node (or its FunctionNode)."""
        node = self.creator_node
        if node is None:
            return None
        return getattr(node, '_function', node)

    @creator.setter
    def creator(self, func: FunctionNode | Function | None) -> None:
        self.set_creator(func)

    @property
    def rank(self) -> int:
        """The topological rank: 0 for a root, one more than its creator's."""
        return self._rank

    @rank.setter
    def rank(self, rank: int) -> None:
        self._rank = rank

    @property
    def requires_grad(self) -> bool:
        """Whether the gradient w.r.t. this node is needed."""
        return self._requires_grad

    @property
    def grad(self) -> Any:
        """The gradient array of the variable, if it is alive."""
        var = self._variable()
        return None if var is None else var.grad

    @property
    def grad_var(self) -> Variable | None:
        """The gradient variable of the variable, if it is alive."""
        var = self._variable()
        return None if var is None else var._grad_var

    @property
    def label(self) -> str:
        """A short text label: shape and dtype."""
        if self.shape == ():
            return str(self.dtype)
        return f'({", ".join(map(str, self.shape or ()))}), {self.dtype}'

    def get_variable(self) -> Variable:
        """Return the variable of this node, re-creating it from retained data if dead."""
        var = self._variable()
        if var is not None:
            return var
        var = Variable._new(self.data, self._requires_grad)
        var._node = self
        var.name = self.name
        self._variable = weakref.ref(var)
        return var

    def get_variable_or_none(self) -> Variable | None:
        """Return the variable of this node, or None if it has been collected."""
        return self._variable()

    def set_creator(self, creator: FunctionNode | Function | None) -> None:
        """Set an old-style Function (or FunctionNode) as the creator."""
        # a Function's node, or the FunctionNode itself
        node = creator if creator is None else getattr(creator, 'node', creator)
        self.set_creator_node(cast('FunctionNode | None', node))

    def set_creator_node(self, creator_node: FunctionNode | None) -> None:
        """Set the FunctionNode that created this node (None: make it a root); the rank
        follows it."""
        self.creator_node = creator_node
        if creator_node is not None:
            # a node made a root keeps its rank, as in v7
            self._rank = creator_node.rank + 1

    def unchain(self) -> None:
        """Forget the creator, making this node a root of the graph."""
        self.creator_node = None

    def retain_data(self) -> None:
        """Keep a reference to the variable's array in the node."""
        var = self._variable()
        if var is None:
            raise RuntimeError('cannot retain the data of a variable node whose variable is gone')
        self.data = var._data

    def _set_data_type(self, data: Any) -> None:
        if data is None:
            self.dtype = self.shape = None
        else:
            self.dtype = data.dtype
            self.shape = data.shape

    def __repr__(self) -> str:
        return f'<VariableNode name={self.name} {self.label}>'


class Variable:
    """An array with its gradient and its place in the computational graph.

    Args:
        data: the initial array (NumPy or CuPy), or None.
        name: the name of the variable.
        grad: the initial gradient array.
        requires_grad: whether the gradient w.r.t. this variable is computed.

    Raises:
        TypeError: when ``data`` is neither an array nor None.

    Example:
        >>> import numpy as np
        >>> import chainer
        >>> import chainer.functions as F
        >>> x = chainer.Variable(np.array([1., 2., 3.], np.float32))
        >>> y = F.sum(x ** 2)
        >>> y.backward()
        >>> print(y.array, x.grad)
        14.0 [2. 4. 6.]
    """

    __slots__ = ('_data', '_nd', '_grad_var', '_requires_grad', '_loss_scale', '_chx',
                 '_chx_array', '__weakref__')
    if TYPE_CHECKING:
        # chainer.functions installs the operators when it is imported
        # (basic_math.install_variable_arithmetics); declared here for type checkers.
        __add__: ClassVar[_Binary]
        __radd__: ClassVar[_Binary]
        __sub__: ClassVar[_Binary]
        __rsub__: ClassVar[_Binary]
        __mul__: ClassVar[_Binary]
        __rmul__: ClassVar[_Binary]
        __truediv__: ClassVar[_Binary]
        __rtruediv__: ClassVar[_Binary]
        __floordiv__: ClassVar[_Binary]
        __rfloordiv__: ClassVar[_Binary]
        __pow__: ClassVar[_Binary]
        __rpow__: ClassVar[_Binary]
        __matmul__: ClassVar[_Binary]
        __rmatmul__: ClassVar[_Binary]
        __neg__: ClassVar[Callable[[Variable], Variable]]
        __pos__: ClassVar[Callable[[Variable], Variable]]
        __abs__: ClassVar[Callable[[Variable], Variable]]
        _nd: VariableNode | None
        # The array (NumPy or CuPy; None for an uninitialized parameter). Any: the hot
        # paths that read it check for None where it can be None. For a Variable over a
        # ChainerX array, the NumPy/CuPy array behind it (see chainer._chainerx_bridge).
        _data: Any
        # The ChainerxDevice of a Variable over a ChainerX array, else None.
        _chx: Any
        # (_data, the ChainerX array over it) once `array` was read; set only then
        _chx_array: tuple[Any, Any] | None
        _grad_var: Variable | None
        _requires_grad: bool
        _loss_scale: float | None
    __array_priority__ = 200

    def __init__(self, data: NdArray | None = None, **kwargs: Any) -> None:
        name = kwargs.pop('name', None)
        grad = kwargs.pop('grad', None)
        requires_grad = kwargs.pop('requires_grad', True)
        if kwargs:
            if 'volatile' in kwargs:
                raise ValueError(
                    'the volatile argument was removed in Chainer v2: use '
                    'chainer.no_backprop_mode() or chainer.using_config("enable_backprop", '
                    'False) instead')
            raise TypeError(f'Variable got unexpected keyword arguments: {sorted(kwargs)}')
        chx = None
        if data is not None and not isinstance(data, _array_types):
            chx_array: Any = data
            data, chx = _chainerx_bridge.split(chx_array)
            if not requires_grad and chx_array.is_backprop_required():
                raise ValueError('a Variable with requires_grad=False cannot be made from a '
                                 'ChainerX array that is in a graph')
        self._data = data
        self._chx = chx
        self._requires_grad = requires_grad
        self._loss_scale = None
        self._nd = VariableNode(self, name)
        self._grad_var = None if grad is None else Variable(grad)

    @classmethod
    def _init_unchecked(cls, data: Any = None, name: str | None = None, grad: Any = None,
                        requires_grad: bool = True, is_chainerx_array: bool | None = None,
                        node: VariableNode | None = None, layout: Any = None) -> Variable:
        """Build a Variable without checking ``data`` (Chainer v7's fast constructor).

        ``is_chainerx_array`` is looked up from ``data`` itself; ``layout`` is accepted
        for compatibility (memory layouts are not provided); ``node`` becomes the
        variable's node.
        """
        chx = None
        if data is not None and not isinstance(data, _array_types):
            data, chx = _chainerx_bridge.split(data)
        self = cls._new(data, requires_grad)
        self._chx = chx
        if node is not None:
            self._nd = node
            node._variable = weakref.ref(self)
        if name is not None:
            self._node.name = name
        if grad is not None:
            self._grad_var = Variable(grad)
        return self

    @classmethod
    def _new(cls, data: Any, requires_grad: bool) -> Variable:
        # Fast constructor for function outputs: no argument parsing or checks.
        self = object.__new__(cls)
        self._data = data
        self._requires_grad = requires_grad
        self._loss_scale = None
        self._grad_var = None
        self._nd = None  # created on first use: most gradients never need one
        self._chx = None
        return self

    @property
    def _node(self) -> VariableNode:
        node = self._nd
        if node is None:
            node = self._nd = VariableNode(self)
        return node

    @_node.setter
    def _node(self, node: VariableNode) -> None:
        self._nd = node

    # -- data and gradient ---------------------------------------------------
    @property
    def array(self) -> Any:
        """The underlying array (NumPy, CuPy or ChainerX).

        For a Variable over a ChainerX array, a ChainerX array over the same memory,
        in no ChainerX graph (the graph is the Variable's).

        Example:
            >>> import numpy as np
            >>> import chainer
            >>> x = chainer.Variable(np.zeros((2, 3), np.float32))
            >>> x.array.shape, x.array.dtype
            ((2, 3), dtype('float32'))
        """
        if self._chx is None or _chainerx_bridge.mode.depth:
            return self._data
        return _chainerx_bridge.array_of(self)

    @array.setter
    def array(self, d: NdArray | None) -> None:
        chx = None
        if d is not None and not isinstance(d, _array_types):
            d, chx = _chainerx_bridge.split(d)
        elif self._chx is not None and _chainerx_bridge.mode.depth:
            chx = self._chx  # Chainer's own code gives the backing array: still ChainerX
        self._chx = chx
        self._data = d
        node = self._node
        node._set_data_type(d)
        if node.data is not None:
            node.data = d  # a retained array follows the variable, as in v7

    data = array

    @property
    def grad(self) -> Any:
        """The gradient array (None when not computed).

        Example:
            >>> import numpy as np
            >>> import chainer
            >>> import chainer.functions as F
            >>> x = chainer.Variable(np.array([1., -2.], np.float32))
            >>> print(x.grad)
            None
            >>> F.sum(3 * x).backward()
            >>> x.grad
            array([3., 3.], dtype=float32)
        """
        gv = self._grad_var
        if gv is None:
            return None
        chx = self._chx
        if chx is None or _chainerx_bridge.mode.depth:
            return gv._data
        gv._chx = chx
        return _chainerx_bridge.array_of(gv)

    @grad.setter
    def grad(self, g: NdArray | None) -> None:
        if g is not None:
            chx = None
            if not isinstance(g, _array_types):
                g, chx = _chainerx_bridge.split(g)
            if chx is not None or self._chx is not None:
                self._check_chainerx_grad_device(chx)
            self._check_grad_type(g)
            gv = self._grad_var = Variable(g)
            if chx is not None:
                gv._chx = chx
        else:
            self._grad_var = None

    @property
    def grad_var(self) -> Variable | None:
        """The gradient as a Variable (carries a graph after double backprop)."""
        gv = self._grad_var
        chx = self._chx
        if chx is not None and gv is not None:
            gv._chx = chx  # the gradient of a ChainerX variable shows as one too
        return gv

    @grad_var.setter
    def grad_var(self, g: Variable | None) -> None:
        if g is not None:
            self._check_chainerx_grad()
            self._check_grad_type(g._data)
        self._grad_var = g

    def _check_chainerx_grad(self) -> None:
        if self._chx is not None and not self._requires_grad:
            raise RuntimeError('a Variable over a ChainerX array that does not require a '
                               'gradient cannot be given one (as in v7)')

    def _check_chainerx_grad_device(self, chx: Any) -> None:
        """The checks of a gradient on ChainerX device ``chx`` (None: NumPy/CuPy) given
        to this Variable (one of the two is on a ChainerX device)."""
        self._check_chainerx_grad()
        if self._data is not None and (chx is None) != (self._chx is None):
            raise TypeError('the gradient and the data are on different devices '
                            '(a ChainerX array and a NumPy/CuPy one)')

    def _check_grad_type(self, g: Any) -> None:
        x = self._data
        if x is None or g is None:
            return
        if g.dtype != x.dtype:
            raise TypeError(f'the gradient dtype {g.dtype} does not match the data dtype '
                            f'{x.dtype}')
        if g.shape != x.shape:
            raise ValueError(f'the gradient shape {g.shape} does not match the data shape '
                             f'{x.shape}')
        if type(g) is not type(x):
            raise TypeError(f'the gradient ({type(g).__name__}) and the data '
                            f'({type(x).__name__}) are on different devices')

    @property
    def shape(self) -> tuple[int, ...]:
        """The shape of the array."""
        return self._data.shape

    @property
    def ndim(self) -> int:
        """The number of dimensions of the array."""
        return self._data.ndim

    @property
    def size(self) -> int:
        """The number of elements of the array."""
        return self._data.size

    @property
    def dtype(self) -> Any:
        """The dtype of the array."""
        return self._data.dtype

    @property
    def xp(self) -> Any:
        """The array module of the data (numpy, cupy or chainerx)."""
        chx = self._chx
        if chx is not None:
            return chx.fallback_device.xp if _chainerx_bridge.mode.depth else chx.xp
        return get_array_module(self._data)

    @property
    def device(self) -> Any:
        """The :class:`~chainer.backend.Device` holding the array."""
        chx = self._chx
        if chx is not None:
            return chx.fallback_device if _chainerx_bridge.mode.depth else chx
        return get_device_from_array(self._data)

    @property
    def _has_chainerx_array(self) -> bool:
        """Whether the data is a ChainerX array (v7's name)."""
        return self._chx is not None

    # -- graph ---------------------------------------------------------------
    @property
    def node(self) -> VariableNode:
        """The :class:`VariableNode` of this variable.

        Raises:
            RuntimeError: for a Variable over a ChainerX array, as in v7 (its graph is
                not shown as nodes).
        """
        if self._chx is not None and not _chainerx_bridge.mode.depth:
            raise RuntimeError('a Variable over a ChainerX array has no node')
        return self._node

    @property
    def name(self) -> str | None:
        """The name of the variable."""
        return self._node.name

    @name.setter
    def name(self, n: str | None) -> None:
        self._node.name = n

    @property
    def label(self) -> str:
        """A short text label: shape and dtype."""
        return self._node.label

    @property
    def requires_grad(self) -> bool:
        """Whether the gradient w.r.t. this variable is computed."""
        return self._requires_grad

    @property
    def creator(self) -> Any:
        """The function that created this variable (None for a leaf)."""
        return self._node.creator

    @creator.setter
    def creator(self, func: FunctionNode | Function | None) -> None:
        self._node.set_creator(func)

    @property
    def creator_node(self) -> FunctionNode | None:
        """The :class:`FunctionNode` that created this variable (None for a leaf)."""
        return self._node.creator_node

    @creator_node.setter
    def creator_node(self, func: FunctionNode | None) -> None:
        self._node.set_creator_node(func)

    @property
    def rank(self) -> int:
        """The topological rank: 0 for a leaf, one more than its creator's."""
        return self._node._rank

    def set_creator(self, gen_func: FunctionNode | Function | None) -> None:
        """Set an old-style Function (or FunctionNode) as the creator."""
        self._node.set_creator(gen_func)

    def set_creator_node(self, fnode: FunctionNode | None) -> None:
        """Set the FunctionNode that created this variable."""
        self._node.set_creator_node(fnode)

    def unchain(self) -> None:
        """Cut the link to the creator, making this variable a leaf."""
        self._node.unchain()

    def unchain_backward(self) -> None:
        """Cut every link in the graph behind this variable (freeing it)."""
        _backprop.unchain_backward(self._node)

    def retain_data(self) -> None:
        """Keep the array in the node (used by functions retaining their I/O)."""
        self._node.data = self._data

    # -- gradient handling -----------------------------------------------------
    def cleargrad(self) -> None:
        """Set the gradient to None."""
        self._grad_var = None

    def zerograd(self) -> None:
        """Fill the gradient with zeros (deprecated: use :meth:`cleargrad`)."""
        warnings.warn('Variable.zerograd is deprecated. Use Variable.cleargrad instead.',
                      DeprecationWarning, stacklevel=2)
        self._zerograd()

    def _zerograd(self) -> None:
        x = self._data
        if x is None:
            return
        gv = self._grad_var
        if gv is None:
            gv = self._grad_var = Variable(get_array_module(x).zeros_like(x))
            gv._chx = self._chx
        else:
            gv._data.fill(0)
            gv._node.unchain()  # zeros have no history

    def addgrad(self, var: Variable) -> None:
        """Add the gradient of ``var`` to this one, across devices if needed.

        An uninitialized parameter is first initialized to the shape of ``var``.
        """
        if (self._chx is None) != (var._chx is None):
            raise RuntimeError('addgrad between a Variable over a ChainerX array and one over '
                               'a NumPy/CuPy array is not supported (as in v7)')
        src_var = var._grad_var
        if src_var is None:
            return
        if self._data is None and isinstance(self, Parameter):
            self.initialize(var.shape)
        # the backing arrays: a ChainerX device's data lives on its fallback device
        chx = self._chx
        dst_device = self.device if chx is None else chx.fallback_device
        src = dst_device.send(src_var._data)
        gv = self._grad_var
        if gv is None:
            gv = self._grad_var = Variable(src.copy())
        else:
            gv = self._grad_var = Variable(chainer.utils.force_array(gv._data + src))
        gv._chx = chx

    def copydata(self, var: Variable) -> None:
        """Copy the array of ``var`` into this variable's array.

        Uninitialized parameters are handled as in Chainer: if both are
        uninitialized nothing happens; if only one is, it is initialized first.
        """
        src = var._data
        dst = self._data
        if src is None:
            if dst is None:
                return
            cast(Parameter, var).initialize(self.shape)
            src = var._data
        if dst is None:
            if isinstance(self, Parameter):
                self.initialize(src.shape)
                dst = self._data
            else:
                self._data = get_device_from_array(src).send(src).copy()
                self._node._set_data_type(self._data)
                _chainerx_bridge.mark(self, var._chx)
                return
        chainer.backend.copyto(dst, src)

    def backward(self, retain_grad: bool = False, enable_double_backprop: bool = False,
                 loss_scale: float | None = None) -> None:
        """Run backpropagation from this variable.

        Args:
            retain_grad: keep the gradients of intermediate variables.
            enable_double_backprop: build the graph of the backward computation
                so that the gradients can be differentiated again.
            loss_scale: scale the initial gradient (for mixed precision); the
                parameter update rules divide it out.

        Example:
            >>> import numpy as np
            >>> import chainer
            >>> x = chainer.Variable(np.array([1., 2.], np.float32))
            >>> y = x * x
            >>> y.grad = np.ones(2, np.float32)
            >>> y.backward()
            >>> x.grad
            array([2., 4.], dtype=float32)
        """
        _backprop.backward_from(self, retain_grad, enable_double_backprop, loss_scale)

    # -- devices ----------------------------------------------------------------
    def to_device(self, device: DeviceSpec) -> Variable:
        """Move the data and the gradient to ``device`` in place; returns self.

        On a ChainerX device the data stays the NumPy/CuPy array of its fallback device
        (``native:N``: the same NumPy array, not copied), viewed as a ChainerX array.
        """
        device = get_device(device)
        chx = None
        if isinstance(device, ChainerxDevice):
            chx = device
            device = device.fallback_device
            if (self._chx is None and self._nd is not None
                    and self._nd.creator_node is not None):
                raise RuntimeError('a Variable with a creator cannot move to a ChainerX '
                                   'device (as in v7): unchain it first')
        elif (self._chx is not None and self._requires_grad and self._data is not None
              and not isinstance(self, Parameter)):
            raise RuntimeError(
                'a Variable over a ChainerX array that requires a gradient cannot leave '
                'ChainerX devices (as in v7; a Parameter can)')
        if self._data is not None:
            self._data = device.send(self._data)
        _chainerx_bridge.mark(self, chx)
        gv = self._grad_var
        if gv is not None and chx is not None and not self._requires_grad:
            gv = self._grad_var = None  # as v7: no gradient on ChainerX without requires_grad
        if gv is not None:
            gv._data = device.send(gv._data)
            _chainerx_bridge.mark(gv, chx)
        node = self._node
        node._set_data_type(self._data)
        if node.data is not None:
            node.data = self._data
        return self

    def to_cpu(self) -> Variable:
        """Move the data and the gradient to the CPU in place."""
        return self.to_device('@numpy')

    def to_gpu(self, device: DeviceSpec | None = None) -> Variable:
        """Move the data and the gradient to a GPU in place."""
        cuda.check_cuda_available()
        if device is None:
            device = cuda.cupy.cuda.runtime.getDevice()
        return self.to_device(device if not isinstance(device, int) else f'@cupy:{device}')

    def to_intel64(self) -> Variable:
        """iDeep is not provided: raises RuntimeError."""
        raise RuntimeError('iDeep (@intel64) is not provided by this project')

    def to_chx(self) -> Variable:
        """Move to the ChainerX device over the current one (``native:0`` from the CPU,
        ``cuda:N`` from GPU N), without copying; returns self."""
        if self._chx is None:
            self.to_device(ChainerxDevice.from_fallback_device(self.device))
        return self

    def from_chx(self) -> Variable:
        """Move from a ChainerX device to its NumPy/CuPy device, without copying;
        returns self."""
        chx = self._chx
        if chx is not None:
            self.to_device(chx.fallback_device)
        return self

    # -- array-like conveniences --------------------------------------------------
    def reshape(self, *shape: int | Sequence[int]) -> Variable:
        """Return a reshaped variable (differentiable)."""
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            return chainer.functions.reshape(self, tuple(shape[0]))
        # several ints (F.reshape rejects anything else with a TypeError)
        return chainer.functions.reshape(self, cast('tuple[int, ...]', shape))

    def transpose(self, *axes: int | Sequence[int] | None) -> Variable:
        """Return a variable with permuted axes (differentiable)."""
        if len(axes) == 0:
            return chainer.functions.transpose(self, None)
        if len(axes) == 1 and (isinstance(axes[0], (tuple, list)) or axes[0] is None):
            return chainer.functions.transpose(self, axes[0])
        # several ints (F.transpose rejects anything else)
        return chainer.functions.transpose(self, cast('tuple[int, ...]', axes))

    @property
    def T(self) -> Variable:
        """The transposed variable."""
        return chainer.functions.transpose(self)

    def mean(self, axis: int | tuple[int, ...] | None = None, *,
             weights: Variable | NdArray | None = None, keepdims: bool = False) -> Variable:
        """The mean over ``axis`` (differentiable)."""
        return chainer.functions.mean(self, axis=axis, weights=weights, keepdims=keepdims)

    def item(self) -> Any:
        """The single element of the array as a Python scalar."""
        if self._data.size != 1:
            if self._chx is not None:  # ChainerX's own error, as its item() raises
                raise self._chx.xp.DimensionError(
                    f'item() needs an array of size 1, this has {self._data.size}')
            raise ValueError(f'item() needs an array of size 1, this has {self._data.size}')
        return self._data.item()

    def __len__(self) -> int:
        if self._data is None or self._data.ndim == 0:
            raise TypeError('len() of a 0-dimensional (or empty) Variable')
        return self._data.shape[0]

    def __getitem__(self, slices: Any) -> Variable:
        return chainer.functions.get_item(self, slices)

    def __bool__(self) -> bool:
        raise TypeError(
            'the truth value of a Variable is ambiguous: compare its .array (e.g. '
            'bool(x.array)) instead')

    def __iter__(self) -> Iterator[Variable]:
        """Iterate over the first axis, yielding differentiable slices as v7 does."""
        for i in range(len(self)):
            yield chainer.functions.get_item(self, i)

    def _compare(self, other: Any) -> bool:
        raise TypeError(
            'Variables cannot be compared: compare their arrays instead, e.g. '
            'x.array < y.array')

    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _compare
    __hash__ = object.__hash__

    @property
    def layout(self) -> None:
        """The memory layout of the array: always None (the standard layout)."""
        return None

    def as_layout(self, layout: str | None) -> Variable:
        """Return this variable in ``layout``; only None (standard) is supported."""
        if layout is not None:
            raise ValueError(f'unsupported layout {layout!r}: only None is supported')
        return self

    @property
    def raw_array(self) -> Any:
        """The array as stored (the same as :attr:`array`: no layouts here)."""
        return self._data

    @property
    def chx_array(self) -> Any:
        """The ChainerX array of a Variable on a ChainerX device.

        Raises:
            ValueError: when the data is not a ChainerX array.
        """
        if self._chx is None:
            raise ValueError('the data of this Variable is not a ChainerX array')
        return _chainerx_bridge.array_of(self)

    # -- printing ----------------------------------------------------------------
    def __repr__(self) -> str:
        prefix = 'variable' if self.name is None else f'variable {self.name}'
        x = self._data
        if x is None:
            return f'{prefix}(None)'
        if x.size == 0 and x.shape != (0,):
            return f'{prefix}([], shape={x.shape})'
        text = numpy.array2string(cuda.to_cpu(x), separator=', ', prefix=prefix + '(')
        return f'{prefix}({text})'

    def __str__(self) -> str:
        if self._data is None:
            return 'variable(None)' if self.name is None else f'variable {self.name}(None)'
        # array2string, not str: NumPy 2 prints a 0-dim array as "5.0", v7 showed "5."
        prefix = 'variable' if self.name is None else f'variable {self.name}'
        text = numpy.array2string(cuda.to_cpu(self._data), prefix=prefix + '(')
        return f'{prefix}({text})'

    def summary(self) -> str:
        """A one-line summary: ``<variable NAME>``, or ``<variable at 0x...>`` unnamed."""
        if self.name is not None:
            return f'<variable {self.name}>'
        return f'<variable at 0x{id(self):x}>'

    def debug_print(self) -> str:
        """A multi-line description with statistics of the data and gradient."""
        lines = [self.summary()]
        x = self._data
        if x is None:
            lines += ['- device: None', '- backend: None', '- shape: None', '- dtype: None',
                      '- statistics: None']
        else:
            device = 'CPU' if isinstance(x, numpy.ndarray) else x.device
            lines.append(f'- device: {device}')
            lines.append(f'- backend: {type(x)}')
            lines.append(f'- shape: {x.shape}')
            lines.append(f'- dtype: {x.dtype}')
            if x.size:
                lines.append(f'- statistics: mean={float(x.mean()):.8f}, '
                             f'std={float(x.std()):.8f}')
            else:
                lines.append('- statistics: None')
        g = self.grad
        if g is None:
            lines.append('- grad: None')
        elif g.size and (g == 0).all():
            lines.append('- grad: 0')
        elif g.size:
            lines.append(f'- grad: mean={float(g.mean()):.8f}, std={float(g.std()):.8f}')
        return '\n'.join(lines)

    # -- copying and pickling --------------------------------------------------------
    def __copy__(self) -> Variable:
        new = Variable._new(self._data, self._requires_grad)
        new._chx = self._chx
        new._grad_var = self._grad_var
        new._node.name = self.name
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> Variable:
        new = Variable._new(_copy.deepcopy(self._data, memo), self._requires_grad)
        new._chx = self._chx
        if self._grad_var is not None:
            gv = new._grad_var = Variable(_copy.deepcopy(self._grad_var._data, memo))
            gv._chx = self._chx
        new._node.name = self.name
        return new

    def __reduce__(self) -> Any:
        return (_rebuild_variable,
                (type(self), self.array, self.grad, self.name, self._requires_grad))


def _rebuild_variable(cls: type[Variable], data: Any, grad: Any, name: str | None,
                      requires_grad: bool) -> Variable:
    var = cls.__new__(cls)
    Variable.__init__(var, data, name=name, grad=grad, requires_grad=requires_grad)
    return var


class _NaNGrad:
    """The initial gradient of a parameter: NaN of the parameter's dtype."""

    dtype = None

    def __call__(self, array: Any) -> None:
        array.fill(numpy.nan)


_NAN_GRAD = _NaNGrad()


class Parameter(Variable):
    """A trainable variable owned by a Link, initialized lazily.

    Args:
        initializer: an initializer, a scalar, or an array (used as the data).
            None means NaN-filled data (so a forgotten initialization shows).
        shape: the shape; when given the data is allocated now, else at the
            first :meth:`initialize` call.
        name: the name of the parameter.
    """

    __slots__ = ('initializer', 'update_rule', '_initial_device', '_grad_initializer',
                 '__dict__')
    if TYPE_CHECKING:
        initializer: AbstractInitializer
        # an UpdateRule of chainer-optimizers, a distribution above this one
        update_rule: Any
        _initial_device: Device | None
        _grad_initializer: AbstractInitializer | None

    def __init__(self, initializer: InitializerSpec | None = None,
                 shape: ShapeSpec | None = None, name: str | None = None,
                 **kwargs: Any) -> None:
        from chainer import initializers

        kwargs.pop('layout', None)
        if kwargs:
            raise TypeError(f'Parameter got unexpected keyword arguments: {sorted(kwargs)}')
        self._initial_device = None
        self._grad_initializer = None
        self.update_rule = None
        if initializer is None:
            initializer = initializers.NaN()
        elif numpy.isscalar(initializer):
            initializer = initializers.Constant(initializer)
        if isinstance(initializer, _array_types) or _chainerx_bridge.is_chainerx_array(
                initializer):
            array = cast('NdArray', initializer)
            super().__init__(array, name=name)
            # the initializer keeps the NumPy/CuPy array (a ChainerX one's backing array)
            self.initializer = initializers.Constant(self._data)
            self._initial_device = self.device
            return
        super().__init__(None, name=name)
        # a scalar became a Constant and an array returned above: a callable is left
        self.initializer = cast('AbstractInitializer', initializer)
        # As in Chainer v7, a parameter made from an initializer starts with a NaN
        # gradient, so that an update without cleargrads()/backward() shows up.
        self._grad_initializer = _NAN_GRAD
        if shape is not None:
            self.initialize(shape)
            # As v7: re-initializing a parameter made with a shape gives no gradient.
            self._grad_initializer = None

    @property
    def is_initialized(self) -> bool:
        """Whether the data has been allocated."""
        return self._data is not None

    @property
    def dtype(self) -> Any:
        """The dtype of the data, or that of the initializer before initialization.

        Raises:
            RuntimeError: before initialization, when the initializer has no ``dtype``
                attribute (a plain callable): the dtype is not determined yet.
        """
        if self._data is not None:
            return self._data.dtype
        try:
            dtype = self.initializer.dtype
        except AttributeError:
            raise RuntimeError(
                'the dtype of this uninitialized parameter is not determined yet: its '
                'initializer has no dtype attribute') from None
        return numpy.dtype(dtype) if dtype is not None else chainer.get_dtype()

    @property
    def device(self) -> Any:
        """The device of the data (for an uninitialized parameter, its target device).

        A parameter sent with :meth:`to_device` to a device of its own kind holding
        NumPy arrays (not the plain CPU device) reports that device, as in v7.
        """
        initial = self._initial_device
        chx = self._chx
        if chx is not None:
            return chx.fallback_device if _chainerx_bridge.mode.depth else chx
        if self._data is None:
            return initial or get_device('@numpy')
        actual = get_device_from_array(self._data)
        if initial is not None and initial.xp is numpy and actual.xp is numpy:
            return initial
        return actual

    def initialize(self, shape: ShapeSpec) -> None:
        """Allocate the data of ``shape`` from the initializer (on the target device)."""
        from chainer import initializers
        from chainer.utils.numeric_args import as_shape

        device = self._initial_device or get_device('@numpy')
        chx = None
        if isinstance(device, ChainerxDevice):
            # made on the fallback device, viewed as a ChainerX array
            chx = device
            device = device.fallback_device
        data = initializers.generate_array(self.initializer, as_shape(shape), device.xp,
                                           device=device)
        self._data = data
        _chainerx_bridge.mark(self, chx)
        self._node._set_data_type(data)
        ginit = self._grad_initializer
        if ginit is None or data.dtype.kind != 'f':
            self._grad_var = None
        else:
            gv = self._grad_var = Variable(initializers.generate_array(
                ginit, data.shape, device.xp, dtype=data.dtype, device=device))
            gv._chx = chx

    def cleargrad(self) -> None:
        """Set the gradient to None (also for a parameter not yet initialized)."""
        self._grad_var = None
        self._grad_initializer = None

    def zerograd(self) -> None:
        """Fill the gradient with zeros, deferred until initialization if needed
        (deprecated: use :meth:`cleargrad`)."""
        warnings.warn('Variable.zerograd is deprecated. Use Variable.cleargrad instead.',
                      DeprecationWarning, stacklevel=2)
        self._zerograd()
        if self._data is None:
            from chainer import initializers

            dtype = getattr(self.initializer, 'dtype', None)
            self._grad_initializer = initializers.Zero(dtype)

    def to_device(self, device: DeviceSpec) -> Parameter:
        """Move data and gradient to ``device``; an uninitialized one is created there."""
        device = get_device(device)
        self._initial_device = device
        super().to_device(device)
        return self

    def update(self) -> None:
        """Update the data with the attached update rule (if any)."""
        if self.update_rule is not None:
            self.update_rule.update(self)

    def __copy__(self) -> Parameter:
        new = Parameter.__new__(Parameter)
        Variable.__init__(new, self._data, name=self.name)
        new._chx = self._chx
        new._grad_var = self._grad_var
        new.initializer = self.initializer
        new.update_rule = self.update_rule
        new._initial_device = self._initial_device
        new._grad_initializer = self._grad_initializer
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> Parameter:
        new = Parameter.__new__(Parameter)
        memo[id(self)] = new
        Variable.__init__(new, _copy.deepcopy(self._data, memo), name=self.name)
        new._chx = self._chx
        if self._grad_var is not None:
            gv = new._grad_var = Variable(_copy.deepcopy(self._grad_var._data, memo))
            gv._chx = self._chx
        new.initializer = self.initializer
        new.update_rule = _copy.deepcopy(self.update_rule, memo)
        new._initial_device = self._initial_device
        # As v7, a copy re-initialized later gets a NaN gradient.
        new._grad_initializer = _NAN_GRAD
        new.__dict__.update(_copy.deepcopy(self.__dict__, memo))
        return new

    def __reduce__(self) -> Any:
        gv = self._grad_var
        chx_device = self._initial_device
        if not isinstance(chx_device, ChainerxDevice):
            chx_device = None  # only a ChainerX target device travels with the pickle
        return (_rebuild_parameter, (self.array, None if gv is None else self.grad, self.name,
                                     self.initializer, self.update_rule, dict(self.__dict__),
                                     chx_device))


def _rebuild_parameter(data: Any, grad: Any, name: Any, initializer: Any, update_rule: Any,
                       extra: dict[str, Any], initial_device: Any = None) -> Parameter:
    p = Parameter.__new__(Parameter)
    Variable.__init__(p, data, name=name, grad=grad)
    p.initializer = initializer
    p.update_rule = update_rule
    # a ChainerX device is kept (an uninitialized parameter is made there later)
    p._initial_device = initial_device
    p._grad_initializer = _NAN_GRAD if grad is None else None
    p.__dict__.update(extra)
    return p


def as_variable(obj: Variable | NdArray) -> Variable:
    """Return ``obj`` if it is a Variable, else a Variable wrapping it (no gradient)."""
    if isinstance(obj, Variable):
        return obj
    return Variable(obj, requires_grad=False)


def as_array(obj: Variable | NdArray) -> NdArray:
    """Return the array of a Variable, or ``obj`` itself if it is an array."""
    if isinstance(obj, Variable):
        return obj.array
    return obj


def variable_repr(var: Variable) -> str:
    """The ``repr`` of a Variable: ``variable name(array(...))`` (``Variable.__repr__``)."""
    return Variable.__repr__(var)


def variable_str(var: Variable) -> str:
    """The ``str`` of a Variable: ``variable name([...])`` (``Variable.__str__``)."""
    return Variable.__str__(var)
