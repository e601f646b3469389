"""Copying onto a device."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import _chainerx_bridge, backend
from chainer.backends import cuda
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.utils import type_check
from chainer.variable import Variable, as_array

if TYPE_CHECKING:
    from chainer.backend import Device
    from chainer.backends.cuda import DummyDeviceType
    from chainer.types import DeviceSpec, GradInputs, GradOutputs, NdArray, VariableOrArray


class Copy(FunctionNode):
    """Copy an array from ``in_device`` to ``out_device``."""

    def __init__(self, in_device: Device, out_device: Device) -> None:
        self._in_device = in_device
        self.out_device = out_device

    @property
    def label(self) -> str:
        return 'Copy'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('x',))

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        y = self.out_device.send(x)
        if y is x:
            y = x.copy()
        return y,

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return Copy(self.out_device, self._in_device).apply(grad_outputs)


@guarded
def copy(x: VariableOrArray, dst: DeviceSpec | DummyDeviceType) -> Variable:
    """Copy ``x`` onto the device ``dst`` (always a new array).

    Args:
        x: input variable or array.
        dst: the target device: a device specifier (``'@numpy'``,
            ``'@cupy:N'``, a :class:`~chainer.backend.Device`, ...) or an int
            (negative for the CPU, ``N`` for GPU ``N``).

    Returns:
        The copied variable; its gradient is copied back to the device of ``x``.

    Raises:
        ValueError, TypeError, RuntimeError: for an invalid or unavailable device.
        RuntimeError: for a Variable requiring a gradient copied between a ChainerX
            device and a NumPy/CuPy one (as in v7).
    """
    if dst is cuda.DummyDevice:
        dst = -1
    # (a ChainerX variable is seen here through its NumPy/CuPy array: chainer.functions
    # run in the fallback mode; a ChainerX destination is its fallback device, marked)
    in_device = backend.get_device_from_array(as_array(x))
    out_device = backend.get_device(dst)
    out_chx = out_device if isinstance(out_device, backend.ChainerxDevice) else None
    if (isinstance(x, Variable) and x.requires_grad
            and (x._chx is None) != (out_chx is None)):
        raise RuntimeError('F.copy of a Variable that requires a gradient between a ChainerX '
                           'device and a NumPy/CuPy one is not supported (as in v7)')
    if out_chx is not None:
        out_device = out_chx.fallback_device
    y = Copy(in_device, out_device).apply((x,))[0]
    _chainerx_bridge.mark(y, out_chx)
    return y


# the function under the guard chooses its output's device (see chainer._chainerx_bridge)
copy.__wrapped__._chainerx_sets_device = True  # type: ignore[attr-defined]
