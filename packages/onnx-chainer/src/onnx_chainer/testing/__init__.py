"""Helpers to test exports: monotonic inputs, test data sets, onnxruntime checks."""

from onnx_chainer.testing import input_generator
from onnx_chainer.testing.get_test_data_set import gen_test_data_set
