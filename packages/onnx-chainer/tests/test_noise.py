"""Export of the noise functions."""

from __future__ import annotations

import numpy
import pytest
from _onnx_check import op_types, opsets, run_onnx

import chainer.functions as F
import onnx_chainer


@pytest.mark.parametrize('opset', opsets(7, [12]))
def test_dropout_train_is_exported_as_inference_dropout(opset):
    # the function exists only in training mode; ONNX's Dropout in inference is the identity
    x = numpy.random.RandomState(0).uniform(-1, 1, (3, 4)).astype(numpy.float32)
    proto = onnx_chainer.export(lambda v: F.dropout(v, ratio=0.3), x, opset_version=opset,
                                train=True)
    assert op_types(proto)[-1] == 'Dropout'
    node = proto.graph.node[-1]
    if opset >= 12:
        assert len(node.input) == 2 and not node.attribute
    else:
        assert node.attribute[0].name == 'ratio'
        assert node.attribute[0].f == pytest.approx(0.3)
    got, = run_onnx(proto, {'Input_0': x})
    numpy.testing.assert_array_equal(got, x)


@pytest.mark.parametrize('opset', opsets(7))
def test_dropout_test_mode_is_nothing(opset):
    x = numpy.ones((2, 3), numpy.float32)
    proto = onnx_chainer.export(lambda v: F.relu(F.dropout(v)), x, opset_version=opset)
    assert op_types(proto) == ['Relu']
