"""``onnx_chainer.export_testcase``: the model with input, output (and gradient) tensors,
in the layout of ONNX's backend test data."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy

import chainer
from onnx_chainer.context import to_numpy
from onnx_chainer.export import export
from onnx_chainer.onnx_helper import cleanse_param_name, write_bytes_atomic, write_tensor_pb

if TYPE_CHECKING:
    from onnx_chainer.export import ModelArgs


def export_testcase(model: Callable[..., Any], args: ModelArgs, out_dir: str | os.PathLike[str],
                    output_grad: bool = False, **kwargs: Any) -> None:
    """Export ``model`` to ``out_dir/model.onnx`` with test data.

    ``out_dir/test_data_set_0/`` gets ``input_<i>.pb`` and ``output_<i>.pb`` (tensors
    named as the graph's inputs and outputs) and, with ``output_grad``, ``gradient_<i>.pb``:
    the gradient of each parameter in the graph (named as its initializer) when every
    output's gradient is one.

    Args:
        model: the model, as for :func:`onnx_chainer.export`.
        args: its input, as for :func:`onnx_chainer.export`.
        out_dir: the folder to write (made when missing).
        output_grad: also write the parameters' gradients.
        **kwargs: the other arguments of :func:`onnx_chainer.export`.

    Raises:
        ValueError: as :func:`onnx_chainer.export`; and when ``output_grad`` is asked but
            the graph cannot be differentiated.
    """
    kwargs = dict(kwargs, return_named_inout=True, no_testcase=True)
    kwargs.pop('filename', None)
    if output_grad and isinstance(model, chainer.Link):
        model.cleargrads()
    onnx_model, inputs, outputs = export(model, args, **kwargs)
    os.makedirs(out_dir, exist_ok=True)
    write_bytes_atomic(os.path.join(out_dir, 'model.onnx'), onnx_model.SerializeToString())
    data_dir = os.path.join(out_dir, 'test_data_set_0')
    os.makedirs(data_dir, exist_ok=True)
    initializer_names = {t.name for t in onnx_model.graph.initializer}
    graph_input_names = [v.name for v in onnx_model.graph.input
                         if v.name not in initializer_names]
    # the inputs the graph reads, in graph order (parameters exported as inputs included)
    values = dict(inputs)
    for i, name in enumerate(graph_input_names):
        value = values[name] if name in values else _param_value(model, name)
        write_tensor_pb(os.path.join(data_dir, f'input_{i}.pb'), name, value)
    for i, (name, var) in enumerate(outputs.items()):
        write_tensor_pb(os.path.join(data_dir, f'output_{i}.pb'), name, var)
    if output_grad:
        _write_gradients(model, onnx_model, outputs, data_dir)


def _params_by_name(model: Any) -> dict[str, chainer.Parameter]:
    """The model's parameters by their tensor names (``param_<path>``)."""
    if not isinstance(model, chainer.Link):
        return {}
    return {cleanse_param_name(path): p for path, p in model.namedparams()}


def _param_value(model: Any, tensor_name: str) -> Any:
    param = _params_by_name(model).get(tensor_name)
    if param is None:
        raise KeyError(f'graph input {tensor_name!r} is neither an input nor a parameter')
    return param.array


def _write_gradients(model: Any, onnx_model: Any, outputs: dict[str, Any],
                     data_dir: str) -> None:
    variables = list(outputs.values())
    grads = [chainer.backend.get_array_module(v.array).ones_like(v.array) for v in variables]
    try:
        chainer.backward(variables, grads)
    except Exception as e:
        raise ValueError(f'cannot compute the gradients for output_grad: {e}') from e
    params = _params_by_name(model)
    names = [t.name for t in onnx_model.graph.initializer] + \
        [v.name for v in onnx_model.graph.input]
    index = 0
    for name in dict.fromkeys(names):
        param = params.get(name)
        if param is None:
            continue
        grad = param.grad if param.grad is not None else numpy.zeros_like(
            to_numpy(param.array))
        write_tensor_pb(os.path.join(data_dir, f'gradient_{index}.pb'), name, grad)
        index += 1
