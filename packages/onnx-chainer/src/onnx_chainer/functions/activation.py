"""Converters of chainer.functions' activations."""

from __future__ import annotations

from typing import Any

from onnx import NodeProto

from onnx_chainer import onnx_helper
from onnx_chainer.functions.opset_version import support


@support((7,))
def convert_ReLU(func: Any, opset_version: int, input_names: list[str],
                 output_names: list[str], context: Any) -> tuple[NodeProto, ...]:
    """ReLU -> Relu."""
    return onnx_helper.make_node('Relu', input_names, output_names),
