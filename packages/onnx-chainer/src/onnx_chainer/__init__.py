"""onnx_chainer: export Chainer models to ONNX.

>>> import numpy as np, chainer, chainer.links as L, onnx_chainer
>>> model = chainer.Sequential(L.Linear(3, 2), chainer.functions.relu)
>>> onnx_model = onnx_chainer.export(model, np.zeros((1, 3), np.float32))
>>> [node.op_type for node in onnx_model.graph.node]
['Gemm', 'Relu']
"""

from onnx_chainer import functions, onnx_helper, replace_func
from onnx_chainer._opsets import (
    DEFAULT_OPSET_VERSION,
    MAXIMUM_OPSET_VERSION,
    MINIMUM_OPSET_VERSION,
)
from onnx_chainer._version import __version__
from onnx_chainer.export import export
from onnx_chainer.export_testcase import export_testcase

__all__ = ['export', 'export_testcase', 'MINIMUM_OPSET_VERSION', 'MAXIMUM_OPSET_VERSION',
           'DEFAULT_OPSET_VERSION', 'functions', 'onnx_helper', 'replace_func', '__version__']
