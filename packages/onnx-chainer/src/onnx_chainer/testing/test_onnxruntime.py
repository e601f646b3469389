"""Run an exported test case in onnxruntime and compare with Chainer's outputs."""

from __future__ import annotations

import glob
import os
from collections.abc import Sequence

import numpy
import onnx
import onnx.numpy_helper


def load_test_data(data_dir: str, input_names: Sequence[str] | None = None
                   ) -> tuple[dict[str, numpy.ndarray], list[tuple[str, numpy.ndarray]]]:
    """The inputs ``{name: array}`` and the outputs ``[(name, array)]`` in ``data_dir``."""
    inputs = {}
    for i, path in enumerate(sorted(glob.glob(os.path.join(data_dir, 'input_*.pb')),
                                    key=_index)):
        tensor = onnx.load_tensor(path)
        name = tensor.name or (input_names[i] if input_names else f'Input_{i}')
        inputs[name] = onnx.numpy_helper.to_array(tensor)
    outputs = []
    for path in sorted(glob.glob(os.path.join(data_dir, 'output_*.pb')), key=_index):
        tensor = onnx.load_tensor(path)
        outputs.append((tensor.name, onnx.numpy_helper.to_array(tensor)))
    return inputs, outputs


def _index(path: str) -> int:
    return int(os.path.basename(path).split('_')[-1].split('.')[0])


def check_model_expect(test_path: str, input_names: Sequence[str] | None = None,
                       rtol: float = 1e-5, atol: float = 1e-5) -> None:
    """Run ``test_path/model.onnx`` in onnxruntime (CPU) on ``test_data_set_0``'s inputs
    and assert its outputs equal the saved ones.

    Raises:
        ImportError: without onnxruntime (``pip install onnx-chainer[runtime]``).
        AssertionError: when an output differs beyond ``rtol``/``atol``.
    """
    try:
        import onnxruntime
    except ImportError as e:
        raise ImportError('check_model_expect needs onnxruntime: pip install '
                          'onnx-chainer[runtime]') from e
    model_path = os.path.join(test_path, 'model.onnx')
    session = onnxruntime.InferenceSession(model_path, providers=['CPUExecutionProvider'])
    inputs, expected = load_test_data(os.path.join(test_path, 'test_data_set_0'),
                                      input_names)
    wanted = {i.name for i in session.get_inputs()}
    feed = {k: v for k, v in inputs.items() if k in wanted}
    missing = wanted - set(feed)
    assert not missing, f'no test data for graph inputs {sorted(missing)}'
    output_names = [o.name for o in session.get_outputs()]
    actual = session.run(output_names, feed)
    by_name = dict(zip(output_names, actual))
    assert len(actual) == len(expected), (len(actual), len(expected))
    for i, (name, value) in enumerate(expected):
        got = by_name[name] if name in by_name else actual[i]
        numpy.testing.assert_allclose(got, value, rtol=rtol, atol=atol,
                                      err_msg=f'output {name!r}')
