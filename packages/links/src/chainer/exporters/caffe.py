"""Export a Chainer computational graph as a Caffe model (``chainer.exporters.caffe``).

:func:`export` runs a model once, walks the graph from its outputs back to its inputs
and writes ``chainer_model.prototxt`` (the network, text format) and
``chainer_model.caffemodel`` (the network with its parameters, binary ``NetParameter``).
Writing needs ``protobuf`` (the ``caffe`` extra of chainer-links).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy

import chainer
from chainer import function_node, variable
from chainer.backends import cuda, files
from chainer.functions.activation.leaky_relu import LeakyReLU
from chainer.functions.activation.relu import ReLU
from chainer.functions.activation.sigmoid import Sigmoid
from chainer.functions.activation.softmax import Softmax
from chainer.functions.array.concat import Concat
from chainer.functions.array.reshape import Reshape
from chainer.functions.connection.convolution_2d import Convolution2DFunction
from chainer.functions.connection.deconvolution_2d import Deconvolution2DFunction
from chainer.functions.connection.linear import LinearFunction
from chainer.functions.math.basic_math import Add, Mul, MultiAdd, Sub
from chainer.functions.math.maximum import Maximum
from chainer.functions.normalization.batch_normalization import FixedBatchNormalization
from chainer.functions.normalization.local_response_normalization import (
    LocalResponseNormalization,
)
from chainer.functions.pooling.average_pooling_2d import AveragePooling2D
from chainer.functions.pooling.max_pooling_2d import MaxPooling2D

if TYPE_CHECKING:
    from chainer.types import VariableOrArray

__all__ = ['export']

PROTOTXT = 'chainer_model.prototxt'
CAFFEMODEL = 'chainer_model.caffemodel'

# Caffe's enum values (caffe.proto): PoolingParameter.PoolMethod, .RoundMode,
# EltwiseParameter.EltwiseOp, LRNParameter.NormRegion, Phase
_POOL_MAX, _POOL_AVE = 0, 1
_ROUND_FLOOR = 1
_ELTWISE_PROD, _ELTWISE_SUM, _ELTWISE_MAX = 0, 1, 2
_ACROSS_CHANNELS = 0
_TEST = 1


def _caffe_pb() -> Any:
    """Import the generated Caffe bindings (the ``caffe`` extra: protobuf)."""
    try:
        return importlib.import_module('chainer.links.caffe.protobuf3.caffe_pb2')
    except ImportError as e:
        raise ImportError(
            'chainer.exporters.caffe needs protobuf: pip install "chainer-links[caffe]" '
            f'({e})') from e


def _text_format() -> Any:
    """Import ``google.protobuf.text_format`` (installed with protobuf)."""
    return importlib.import_module('google.protobuf.text_format')


def _as_numpy(node: variable.VariableNode, what: str, layer: str) -> numpy.ndarray:
    """The array of a parameter input of a function, on the CPU."""
    data = node.data
    if data is None:
        var = node.get_variable_or_none()
        data = None if var is None else var.array
    if data is None:
        raise ValueError(f'cannot export {layer}: the array of its {what} is not available')
    return numpy.asarray(cuda.to_cpu(data))


def _add_blob(layer: Any, array: numpy.ndarray, shape: Sequence[int] | None = None) -> None:
    """Append ``array`` (stored as float32 ``data``) to the blobs of a ``LayerParameter``."""
    blob = layer.blobs.add()
    blob.shape.dim.extend(int(d) for d in (array.shape if shape is None else shape))
    blob.data.extend(array.astype(numpy.float32).ravel().tolist())


def _pool_out(size: int, k: int, s: int, p: int, floor: bool) -> int:
    """Caffe's pooled size: ceil rounding (its default) or floor, and its pad clipping."""
    if floor:
        return (size + 2 * p - k) // s + 1
    out = -(-(size + 2 * p - k) // s) + 1
    if p > 0 and (out - 1) * s >= size + p:
        out -= 1  # Caffe: the last window must start inside the image or its left pad
    return out


class _Exporter:
    """Turns the functions of one graph into Caffe layers, in topological order."""

    def __init__(self, inputs: dict[int, str]) -> None:
        self.blobs: dict[int, str] = dict(inputs)  # id(VariableNode) -> blob name
        self.keep: list[Any] = []  # the nodes whose id is a key of blobs
        self.numbers: dict[str, int] = {}

    def layer_name(self, func: function_node.FunctionNode) -> str:
        """``<label>-<rank>-<n>``: v7's names (n counts the layers of that label and rank)."""
        base = f'{func.label}-{func.rank}'
        n = self.numbers.get(base, 0) + 1
        self.numbers[base] = n
        return f'{base}-{n}'

    def bottom(self, node: variable.VariableNode, func: Any, name: str) -> str:
        """The blob name of an input of a layer: a model input or an earlier layer's top."""
        blob = self.blobs.get(id(node))
        if blob is None:
            raise ValueError(
                f'cannot export {name}: an input of {func.label} is neither an input of the '
                f'model nor the output of an exported function (a constant operand has no '
                f'Caffe layer)')
        return blob

    def convert(self, func: Any, net: Any) -> None:
        """Append the layer(s) of ``func`` to ``net`` (a ``NetParameter``)."""
        name = self.layer_name(func)
        nodes: tuple[variable.VariableNode, ...] = func.inputs
        converter = _CONVERTERS.get(type(func))
        if converter is None:
            raise NotImplementedError(
                f'chainer.exporters.caffe cannot export the function {func.label} '
                f'({type(func).__name__}, layer {name}): Caffe export supports '
                f'{", ".join(sorted(c.__name__ for c in _CONVERTERS))}')
        n_bottoms = _N_BOTTOMS.get(type(func), len(nodes))
        bottoms = [self.bottom(n, func, name) for n in nodes[:n_bottoms]]
        converter(func, name, bottoms, net)
        for i, ref in enumerate(func.outputs):
            out = ref()
            if out is not None:
                self.keep.append(out)
                self.blobs[id(out)] = name if i == 0 else f'{name}_{i}'


def _layer(net: Any, name: str, type_: str, bottoms: Sequence[str],
           top: str | None = None) -> Any:
    layer = net.layer.add()
    layer.name = name
    layer.type = type_
    layer.bottom.extend(bottoms)
    layer.top.append(name if top is None else top)
    layer.phase = _TEST
    return layer


def _out_shape(func: Any) -> tuple[int, ...] | None:
    out = func.outputs[0]()
    return None if out is None else tuple(out.shape)


def _linear(func: Any, name: str, bottoms: list[str], net: Any) -> None:
    W = _as_numpy(func.inputs[1], 'weight', name)
    layer = _layer(net, name, 'InnerProduct', bottoms)
    param = layer.inner_product_param
    param.num_output = W.shape[0]
    param.bias_term = len(func.inputs) > 2
    _add_blob(layer, W)
    if len(func.inputs) > 2:
        _add_blob(layer, _as_numpy(func.inputs[2], 'bias', name))


def _conv_param(layer: Any, func: Any, W: numpy.ndarray, n_out: int, has_bias: bool) -> None:
    param = layer.convolution_param
    param.num_output = n_out
    param.bias_term = has_bias
    param.kernel_h, param.kernel_w = (int(k) for k in W.shape[2:])
    param.stride_h, param.stride_w = func.sy, func.sx
    param.pad_h, param.pad_w = func.ph, func.pw
    param.group = func.groups
    if (func.dy, func.dx) != (1, 1):
        param.dilation.extend([func.dy, func.dx])


def _convolution(func: Any, name: str, bottoms: list[str], net: Any) -> None:
    W = _as_numpy(func.inputs[1], 'weight', name)
    x = func.inputs[0]
    out = _out_shape(func)
    if out is not None and x.shape is not None:
        expect = tuple(
            (size + 2 * p - (d * (k - 1) + 1)) // s + 1
            for size, k, s, p, d in zip(x.shape[2:], W.shape[2:], (func.sy, func.sx),
                                        (func.ph, func.pw), (func.dy, func.dx)))
        if tuple(out[2:]) != expect:
            raise ValueError(f'cannot export {name}: cover_all=True gives an output size '
                             f'{out[2:]} that Caffe\'s Convolution cannot give ({expect})')
    layer = _layer(net, name, 'Convolution', bottoms)
    has_bias = len(func.inputs) > 2
    _conv_param(layer, func, W, W.shape[0], has_bias)
    _add_blob(layer, W)
    if has_bias:
        _add_blob(layer, _as_numpy(func.inputs[2], 'bias', name))


def _deconvolution(func: Any, name: str, bottoms: list[str], net: Any) -> None:
    W = _as_numpy(func.inputs[1], 'weight', name)
    x = func.inputs[0]
    out = _out_shape(func)
    if out is not None and x.shape is not None:
        expect = tuple(
            s * (size - 1) + d * (k - 1) + 1 - 2 * p
            for size, k, s, p, d in zip(x.shape[2:], W.shape[2:], (func.sy, func.sx),
                                        (func.ph, func.pw), (func.dy, func.dx)))
        if tuple(out[2:]) != expect:
            raise ValueError(f'cannot export {name}: outsize {out[2:]} differs from the '
                             f'size Caffe\'s Deconvolution gives ({expect})')
    layer = _layer(net, name, 'Deconvolution', bottoms)
    has_bias = len(func.inputs) > 2
    # Chainer's deconvolution weight is (in, out / groups, kh, kw), as Caffe's
    _conv_param(layer, func, W, W.shape[1] * func.groups, has_bias)
    _add_blob(layer, W)
    if has_bias:
        _add_blob(layer, _as_numpy(func.inputs[2], 'bias', name))


def _pooling(func: Any, name: str, bottoms: list[str], net: Any) -> None:
    layer = _layer(net, name, 'Pooling', bottoms)
    param = layer.pooling_param
    param.pool = _POOL_MAX if isinstance(func, MaxPooling2D) else _POOL_AVE
    param.kernel_h, param.kernel_w = func.kh, func.kw
    param.stride_h, param.stride_w = func.sy, func.sx
    param.pad_h, param.pad_w = func.ph, func.pw
    x, out = func.inputs[0].shape, _out_shape(func)
    if x is None or out is None:
        return
    dims = list(zip(x[2:], (func.kh, func.kw), (func.sy, func.sx), (func.ph, func.pw)))
    actual = tuple(out[2:])
    if actual == tuple(_pool_out(*d, floor=False) for d in dims):
        return  # Caffe's default (ceil) rounding gives Chainer's size
    if actual == tuple(_pool_out(*d, floor=True) for d in dims):
        param.round_mode = _ROUND_FLOOR
        return
    raise ValueError(f'cannot export {name}: its output size {actual} is not the size '
                     f'Caffe\'s Pooling gives with ceil or floor rounding')


def _lrn(func: Any, name: str, bottoms: list[str], net: Any) -> None:
    if func.n % 2 != 1:
        raise ValueError(f'cannot export {name}: Caffe\'s LRN needs an odd local size, '
                         f'not n={func.n}')
    layer = _layer(net, name, 'LRN', bottoms)
    param = layer.lrn_param
    param.norm_region = _ACROSS_CHANNELS
    param.local_size = func.n
    param.k = func.k
    param.alpha = func.alpha * func.n  # Caffe divides alpha by the local size
    param.beta = func.beta


def _batch_normalization(func: Any, name: str, bottoms: list[str], net: Any) -> None:
    x = func.inputs[0]
    gamma = _as_numpy(func.inputs[1], 'gamma', name)
    if func.axis is not None or (x.shape is not None and gamma.ndim != 1):
        raise ValueError(f'cannot export {name}: Caffe\'s BatchNorm normalizes over the '
                         f'channel axis 1 only')
    beta = _as_numpy(func.inputs[2], 'beta', name)
    mean = _as_numpy(func.inputs[3], 'mean', name)
    var = _as_numpy(func.inputs[4], 'var', name)
    bn_name = f'{name}_bn'
    bn = _layer(net, bn_name, 'BatchNorm', bottoms)
    bn.batch_norm_param.use_global_stats = True
    bn.batch_norm_param.eps = func.eps
    _add_blob(bn, mean)
    _add_blob(bn, var)
    _add_blob(bn, numpy.ones(1, numpy.float32))  # the scale factor of the statistics
    scale = _layer(net, name, 'Scale', [bn_name])
    scale.scale_param.axis = 1
    scale.scale_param.bias_term = True
    _add_blob(scale, gamma)
    _add_blob(scale, beta)


def _relu(func: Any, name: str, bottoms: list[str], net: Any) -> None:
    layer = _layer(net, name, 'ReLU', bottoms)
    if isinstance(func, LeakyReLU):
        layer.relu_param.negative_slope = func.slope


def _softmax(func: Any, name: str, bottoms: list[str], net: Any) -> None:
    layer = _layer(net, name, 'Softmax', bottoms)
    if func.axis != 1:
        layer.softmax_param.axis = func.axis


def _sigmoid(func: Any, name: str, bottoms: list[str], net: Any) -> None:
    _layer(net, name, 'Sigmoid', bottoms)


def _concat(func: Any, name: str, bottoms: list[str], net: Any) -> None:
    layer = _layer(net, name, 'Concat', bottoms)
    layer.concat_param.axis = func.axis


def _reshape(func: Any, name: str, bottoms: list[str], net: Any) -> None:
    layer = _layer(net, name, 'Reshape', bottoms)
    layer.reshape_param.shape.dim.extend(int(d) for d in func.shape)


def _eltwise(func: Any, name: str, bottoms: list[str], net: Any) -> None:
    layer = _layer(net, name, 'Eltwise', bottoms)
    param = layer.eltwise_param
    if isinstance(func, Mul):
        param.operation = _ELTWISE_PROD
    elif isinstance(func, Maximum):
        param.operation = _ELTWISE_MAX
    else:
        param.operation = _ELTWISE_SUM
        if isinstance(func, Sub):
            param.coeff.extend([1.0, -1.0])


_Converter = Callable[[Any, str, list[str], Any], None]
_CONVERTERS: dict[type, _Converter] = {
    LinearFunction: _linear,
    Convolution2DFunction: _convolution,
    Deconvolution2DFunction: _deconvolution,
    MaxPooling2D: _pooling,
    AveragePooling2D: _pooling,
    LocalResponseNormalization: _lrn,
    FixedBatchNormalization: _batch_normalization,
    ReLU: _relu,
    LeakyReLU: _relu,
    Softmax: _softmax,
    Sigmoid: _sigmoid,
    Concat: _concat,
    Reshape: _reshape,
    Add: _eltwise,
    MultiAdd: _eltwise,
    Sub: _eltwise,
    Mul: _eltwise,
    Maximum: _eltwise,
}
# the functions whose later inputs are parameters (blobs), not bottoms
_N_BOTTOMS: dict[type, int] = {
    LinearFunction: 1, Convolution2DFunction: 1, Deconvolution2DFunction: 1,
    FixedBatchNormalization: 1,
}


def _graph_functions(outputs: Sequence[variable.Variable]) -> list[Any]:
    """The functions that the outputs depend on, inputs first (a topological order)."""
    seen: dict[int, tuple[int, Any]] = {}
    stack = [v.node.creator_node for v in outputs]
    while stack:
        func = stack.pop()
        if func is None or id(func) in seen:
            continue
        seen[id(func)] = (len(seen), func)
        stack.extend(n.creator_node for n in func.inputs)
    # a function's rank exceeds those of the functions that made its inputs
    ordered = sorted(seen.values(), key=lambda p: (p[1].rank, -p[0]))
    return [func for _, func in ordered]


def _run_model(model: Callable[..., Any], args: Any
               ) -> tuple[list[tuple[str, variable.Variable]], list[variable.Variable]]:
    """Call ``model`` on ``args`` (test mode, backprop on); return named inputs and outputs."""
    inputs: list[tuple[str, variable.Variable]]
    if isinstance(args, Mapping):
        inputs = [(str(k), variable.as_variable(v)) for k, v in args.items()]
    elif isinstance(args, (list, tuple)):
        vs = [variable.as_variable(v) for v in args]
        names = ['data'] if len(vs) == 1 else [f'data{i}' for i in range(len(vs))]
        inputs = list(zip(names, vs))
    else:
        inputs = [('data', variable.as_variable(args))]
    if not inputs:
        raise ValueError('export needs at least one input in args')
    with chainer.force_backprop_mode(), chainer.using_config('train', False):
        if isinstance(args, Mapping):
            result = model(**dict(inputs))
        else:
            result = model(*[v for _, v in inputs])
    if isinstance(result, variable.Variable):
        outputs = [result]
    elif isinstance(result, Mapping):
        outputs = list(result.values())
    else:
        outputs = list(result)
    for y in outputs:
        if not isinstance(y, variable.Variable):
            raise TypeError(f'the model must return Variables (or a list, tuple or dict of '
                            f'them), not {type(y).__name__}')
    return inputs, outputs


def export(model: Callable[..., Any],
           args: VariableOrArray | Sequence[VariableOrArray] | Mapping[str, VariableOrArray],
           directory: str | os.PathLike[str] | None = None, export_params: bool = True,
           graph_name: str = 'Graph') -> None:
    """Export the computational graph of ``model(args)`` in Caffe's format.

    The model runs once on ``args`` in test mode (``chainer.config.train`` False) with
    backprop on; the functions between the inputs and the outputs become Caffe layers
    named ``<label>-<rank>-<n>`` as in Chainer v7 (their top blob has the layer's name).
    Supported: linear (InnerProduct), convolution_2d (Convolution), deconvolution_2d
    (Deconvolution), max/average_pooling_2d (Pooling), local_response_normalization (LRN),
    batch normalization in test mode (BatchNorm + Scale), relu and leaky_relu (ReLU),
    softmax, sigmoid, concat, reshape, and ``+``, ``-``, ``*``, ``maximum`` of two
    variables (Eltwise).

    Args:
        model: the model (a callable, usually a :class:`~chainer.Chain`).
        args: its input: a Variable or array (the blob ``data``), a list or tuple of them
            (positional arguments; ``data``, or ``data0``, ``data1``, ... for several) or a
            dict of them (keyword arguments; blobs named by the keys).
        directory: the folder to write ``chainer_model.prototxt`` and (with
            ``export_params``) ``chainer_model.caffemodel`` into, created if missing;
            None: build the network only, write nothing.
        export_params: write the ``caffemodel`` with the parameters too.
        graph_name: the ``name`` of the network.

    Raises:
        NotImplementedError: a function of the graph has no Caffe layer (the message
            names it).
        ValueError: a function's settings cannot be expressed in Caffe (e.g. a pooling
            size that Caffe's rounding cannot give).
        ImportError: protobuf is not installed.
    """
    pb = _caffe_pb()
    inputs, outputs = _run_model(model, args)
    exporter = _Exporter({id(v.node): name for name, v in inputs})
    exporter.keep.extend(v.node for _, v in inputs)
    net = pb.NetParameter()
    net.name = graph_name
    for func in _graph_functions(outputs):
        exporter.convert(func, net)

    if directory is None:
        return
    os.makedirs(directory, exist_ok=True)
    text_net = pb.NetParameter()
    text_net.name = graph_name
    for name, v in inputs:
        layer = text_net.layer.add()
        layer.name = name
        layer.type = 'Input'
        layer.top.append(name)
        layer.input_param.shape.add().dim.extend(int(d) for d in v.shape)
    for layer in net.layer:
        copy = text_net.layer.add()
        copy.CopyFrom(layer)
        del copy.blobs[:]
    with files.atomic_open(os.path.join(directory, PROTOTXT), 'w', encoding='utf-8') as f:
        f.write(_text_format().MessageToString(text_net))
    if export_params:
        with files.atomic_open(os.path.join(directory, CAFFEMODEL), 'wb') as f:
            f.write(net.SerializeToString())
