# ruff: noqa: UP006, UP007
"""Type aliases of Chainer v7 (``chainer.types``), for annotations.

They are real :mod:`typing` objects: ``def f(x: chainer.types.NdArray) -> None`` and
``typing.get_type_hints`` work. Array and device types of optional packages (CuPy,
ChainerX) are written as forward references, so nothing here imports them.
"""

from __future__ import annotations

import numbers
import types
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ForwardRef, Protocol, Tuple, Union, runtime_checkable  # noqa: UP035

import numpy

from chainer.backend import Device

__all__ = [
    'TYPE_CHECKING', 'AbstractInitializer', 'CudaDevice', 'CudaDeviceSpec', 'DTypeSpec',
    'DeviceSpec', 'GradInputs', 'GradOutputs', 'InitializerSpec', 'NdArray', 'ScalarValue',
    'Shape', 'ShapeSpec', 'VariableOrArray', 'Xp',
]


@runtime_checkable
class AbstractInitializer(Protocol):
    """What an initializer is: a callable filling an array in place, with a ``dtype``."""

    dtype: Any

    def __call__(self, array: NdArray) -> None:
        """Fill ``array`` in place."""


# A shape as arrays report it, and a shape as a caller may give it (one int or a sequence).
Shape = Tuple[int, ...]
ShapeSpec = Union[int, Sequence[int]]

if TYPE_CHECKING:
    # What a type checker sees. CuPy ships no type information, so a checker sees CuPy
    # arrays and devices as Any, which every annotation accepts: the aliases name the
    # types a checker can verify, and CuPy values still pass. ChainerX is not provided
    # (no array is ever a chainerx.ndarray), so NdArray is NumPy's. numbers.Number is
    # spelled out as the builtin numbers (checkers do not see int/float as registered
    # Number subclasses).
    from numpy.typing import DTypeLike

    from chainer.variable import Variable

    DTypeSpec = DTypeLike
    NdArray = numpy.ndarray
    VariableOrArray = Union[Variable, numpy.ndarray]
    GradOutputs = Tuple[Union[Variable, None], ...]
    GradInputs = Tuple[Union[Variable, numpy.ndarray, None], ...]
    Xp = types.ModuleType
    ScalarValue = Union[numpy.generic, bytes, str, memoryview, int, float, complex]
    InitializerSpec = Union[AbstractInitializer, ScalarValue, numpy.ndarray]
    CudaDevice = Any
    CudaDeviceSpec = Union[int, numpy.integer, Any]
    DeviceSpec = Union[Device, str, int, numpy.integer, Tuple[str, int], types.ModuleType,
                       Tuple[types.ModuleType, int]]
else:
    # Anything numpy.dtype accepts (a dtype, a type, a name).
    DTypeSpec = Union[Any]
    # An array of a backend (CuPy and ChainerX arrays by name: they are optional), and an
    # array module (numpy, cupy).
    NdArray = Union[numpy.ndarray, ForwardRef('cupy.ndarray'), ForwardRef('chainerx.ndarray')]
    # What a function or a link's forward takes as an input: a Variable or an array (not
    # a v7 name; chainer.variable imports this module, hence the forward reference).
    VariableOrArray = Union[ForwardRef('chainer.variable.Variable'), NdArray]
    # What FunctionNode.backward is given: the gradient Variable of each output, None
    # for an output no gradient reached (the backward pass calls backward only when at
    # least one output has a gradient, so a single output's gradient is never None).
    GradOutputs = Tuple[Union[ForwardRef('chainer.variable.Variable'), None], ...]
    # What FunctionNode.backward returns: the gradient of each target input (or of every
    # input), None for an input that gets no gradient. A gradient is a Variable, as in v7;
    # an array is accepted too (the backward pass wraps it in a Variable), which built-in
    # functions return when no graph of the backward is needed.
    GradInputs = Tuple[Union[ForwardRef('chainer.variable.Variable'), NdArray, None], ...]
    Xp = Union[Any]
    # A scalar an initializer may be given.
    ScalarValue = Union[numpy.generic, bytes, str, memoryview, numbers.Number]
    InitializerSpec = Union[AbstractInitializer, ScalarValue, numpy.ndarray]
    # A CUDA device, and what chainer.backends.cuda.get_device_from_id accepts.
    CudaDevice = Union[ForwardRef('cupy.cuda.Device')]
    CudaDeviceSpec = Union[CudaDevice, int, numpy.integer]
    # What chainer.get_device accepts.
    DeviceSpec = Union[Device, ForwardRef('chainerx.Device'), CudaDevice, str, Tuple[str, int],
                       types.ModuleType, Tuple[types.ModuleType, int]]
