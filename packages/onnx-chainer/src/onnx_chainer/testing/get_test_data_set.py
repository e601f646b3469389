"""Write a model's ONNX test data set under ``out/opset<N>/<name>``."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from onnx_chainer.export_testcase import export_testcase

if TYPE_CHECKING:
    from onnx_chainer.export import ModelArgs

# where gen_test_data_set writes (relative to the working folder, as in Chainer 7.8.1)
TEST_OUT_DIR = 'out'


def gen_test_data_set(model: Callable[..., Any], args: ModelArgs, name: str, opset_version: int,
                      **kwargs: Any) -> str:
    """Export ``model`` with its test data to ``out/opset<opset_version>/<name>``.

    Args:
        model: the model.
        args: its input.
        name: the test's folder name.
        opset_version: the opset to export.
        **kwargs: more arguments of :func:`onnx_chainer.export_testcase`.

    Returns:
        The folder written.
    """
    path = os.path.join(TEST_OUT_DIR, f'opset{opset_version}', name)
    export_testcase(model, args, path, opset_version=opset_version, **kwargs)
    return path
