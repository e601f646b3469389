"""Converters of chainer.functions.noise."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy
from onnx import NodeProto

from onnx_chainer import onnx_helper
from onnx_chainer.context import Context
from onnx_chainer.functions.opset_version import support

if TYPE_CHECKING:
    from chainer.functions.noise.dropout import Dropout


@support((7, 12))
def convert_Dropout(func: Dropout, opset_version: int, input_names: list[str],
                    output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Dropout -> Dropout with the function's ratio (an attribute before opset 12, an
    input from 12), in ONNX's inference mode.

    The function node exists only when the model ran with ``train=True`` (in test mode
    ``F.dropout`` returns its input and nothing is exported). ONNX's Dropout in inference
    mode is the identity, the exported graph being a graph for inference: the mask drawn
    in the traced forward is not exported, and a runtime that trains may draw its own."""
    ratio = float(func.dropout_ratio)
    if opset_version >= 12:
        r = context.add_const(numpy.asarray(ratio, numpy.float32), 'ratio')
        return onnx_helper.make_node('Dropout', [input_names[0], r], output_names),
    return onnx_helper.make_node('Dropout', input_names, output_names, ratio=ratio),
