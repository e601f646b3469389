"""The built-in converters, one ``convert_<FunctionNode name>`` per Chainer function.

``converters`` maps each function node's class name (``'ReLU'``) to its converter,
called with a :class:`~onnx_chainer.functions.converter.FunctionConverterParams`.
"""

from __future__ import annotations

from types import ModuleType

from onnx_chainer.functions import (
    activation,
    array,
    connection,
    loss,
    math,
    noise,
    normalization,
    pooling,
    rnn,
)
from onnx_chainer.functions.converter import FunctionConverter

_MODULES: tuple[ModuleType, ...] = (activation, array, connection, loss, math, noise,
                                    normalization, pooling, rnn)


def _collect() -> dict[str, FunctionConverter]:
    found: dict[str, FunctionConverter] = {}
    for module in _MODULES:
        for attr in sorted(vars(module)):
            if attr.startswith('convert_'):
                fn = getattr(module, attr)
                found[attr[len('convert_'):]] = FunctionConverter(fn)
                globals()[attr] = fn
    return found


converters: dict[str, FunctionConverter] = _collect()
