"""Converters of chainer.functions' connections."""

from __future__ import annotations

from typing import Any

from onnx import NodeProto

from onnx_chainer import onnx_helper
from onnx_chainer.functions.opset_version import support


@support((7,))
def convert_LinearFunction(func: Any, opset_version: int, input_names: list[str],
                           output_names: list[str], context: Any) -> tuple[NodeProto, ...]:
    """LinearFunction (x W^T + b) -> Gemm with transB."""
    x, w = input_names[0], input_names[1]
    b = input_names[2] if len(input_names) > 2 and input_names[2] else None
    gb = onnx_helper.GraphBuilder()
    if b is None:
        return gb.op_output_named('Gemm', [x, w], output_names, transB=1),
    return gb.op_output_named('Gemm', [x, w, b], output_names, transB=1),
