"""What a converter receives, and the wrapper that gives built-in converters their
v7 signature."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from onnx import NodeProto

if TYPE_CHECKING:
    from chainer.function_node import FunctionNode
    from chainer.variable import Variable
    from onnx_chainer.context import Context


class FunctionConverterParams:
    """The arguments of one conversion, passed to external converters.

    Attributes:
        func: the ``FunctionNode`` being converted (its attributes hold the function's
            settings, e.g. ``func.value`` of ``AddConstant``).
        opset_version: the opset of the exported model.
        input_names: the names of the function's input tensors, in input order (a
            converter may append names of constants it adds).
        output_names: the names the converter must give the function's outputs.
        context: the :class:`~onnx_chainer.context.Context` (``add_const``,
            ``add_param``, ``get_name``).
        vars: the input ``Variable``\\ s (their arrays, for converters that read values).
    """

    def __init__(self, func: FunctionNode, opset_version: int, input_names: list[str],
                 output_names: list[str], context: Context,
                 vars: list[Variable] | None = None):
        self.func = func
        self.opset_version = opset_version
        self.input_names = input_names
        self.output_names = output_names
        self.context = context
        self.vars = vars or []


class FunctionConverter:
    """A built-in converter ``convert(func, opset_version, input_names, output_names,
    context)``, callable with a :class:`FunctionConverterParams` like external ones."""

    def __init__(self, converter: Callable[..., Any]):
        self.converter = converter

    def __call__(self, params: FunctionConverterParams) -> tuple[NodeProto, ...]:
        return self.converter(params.func, params.opset_version, params.input_names,
                              params.output_names, params.context)
