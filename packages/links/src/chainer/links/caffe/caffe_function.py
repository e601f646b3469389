"""``CaffeFunction``: a Chain built from a trained Caffe model (a binary ``.caffemodel``).

Reading Caffe models needs ``protobuf`` (``pip install chainer-links[caffe]``).
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy

import chainer
from chainer import functions
from chainer.link import Chain, Link
from chainer.links.connection.convolution_2d import Convolution2D
from chainer.links.connection.deconvolution_2d import Deconvolution2D
from chainer.links.connection.linear import Linear
from chainer.links.connection.scale import Scale
from chainer.links.normalization.batch_normalization import BatchNormalization
from chainer.variable import Variable

try:
    # protobuf ships no type information: the generated module and DecodeError are Any
    caffe_pb: Any = importlib.import_module('chainer.links.caffe.protobuf3.caffe_pb2')
    DecodeError: Any = importlib.import_module('google.protobuf.message').DecodeError
except ImportError as _exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        'chainer.links.caffe needs protobuf: install the caffe extra '
        '(pip install "chainer-links[caffe]" or "chainer[caffe]")') from _exc

__all__ = ['CaffeFunction', 'caffe_pb']

_Forward = Callable[..., Any]

# V1LayerParameter.LayerType enum names -> the layer type names of LayerParameter
_V1_TYPES = {
    'CONCAT': 'Concat', 'CONVOLUTION': 'Convolution', 'DECONVOLUTION': 'Deconvolution',
    'DATA': 'Data', 'DROPOUT': 'Dropout', 'ELTWISE': 'Eltwise',
    'INNER_PRODUCT': 'InnerProduct', 'LRN': 'LRN', 'POOLING': 'Pooling', 'RELU': 'ReLU',
    'SIGMOID': 'Sigmoid', 'SOFTMAX': 'Softmax', 'SOFTMAX_LOSS': 'SoftmaxWithLoss',
    'SPLIT': 'Split', 'SLICE': 'Slice',
}


def _blob_dims(blob: Any) -> list[int]:
    """The blob's shape: ``shape.dim`` when set, else the legacy num/channels/height/width."""
    if len(blob.shape.dim):
        return [int(d) for d in blob.shape.dim]
    return [int(blob.num), int(blob.channels), int(blob.height), int(blob.width)]


def _blob_array(blob: Any, shape: Sequence[int]) -> numpy.ndarray:
    data = numpy.asarray(blob.data, dtype=numpy.float32)
    size = int(numpy.prod(shape))
    if data.size != size:
        raise RuntimeError(f'a blob holds {data.size} values, {size} expected '
                           f'for shape {tuple(shape)}')
    return data.reshape(shape)


def _set(param: Any, value: numpy.ndarray) -> None:
    """Copy ``value`` into a parameter (of a shape the link was built with)."""
    param.array[...] = value


def _pair(h: int, w: int, single: Sequence[int] | int, default: int) -> int | tuple[int, int]:
    """A Caffe size parameter: (h, w) when given apart, else the shared value."""
    if h > 0 or w > 0:
        return (h, w)
    if isinstance(single, int):
        return single
    if len(single) == 0:
        return default
    if len(single) == 1:
        return int(single[0])
    return (int(single[0]), int(single[1]))


class CaffeFunction(Chain):
    """Caffe emulator: a Chain computing the network of a binary ``.caffemodel`` file.

    Each layer with parameters becomes a child link named after the layer
    (Convolution -> :class:`~chainer.links.Convolution2D`, InnerProduct ->
    :class:`~chainer.links.Linear`, ...); the others become functions. Supported layer
    types: Data (ignored), Convolution, Deconvolution, InnerProduct, Pooling (MAX, AVE),
    ReLU, LRN (ACROSS_CHANNELS), Dropout, Softmax, SoftmaxWithLoss, Sigmoid, Concat,
    Eltwise (PROD, SUM, MAX), BatchNorm, Scale, Split, Slice, Reshape, and the V1 layer
    types of the same kinds. Other layers are skipped with a warning.

    Args:
        model_path: the path of the binary ``.caffemodel``.

    Attributes:
        forwards: layer name -> the callable computing it.
        layers: ``(layer name, bottom blob names, top blob names)`` in file order.
        split_map: a Split layer's top blob name -> its bottom blob name.
    """

    def __init__(self, model_path: str) -> None:
        super().__init__()
        net = caffe_pb.NetParameter()
        try:
            with open(model_path, 'rb') as f:
                net.ParseFromString(f.read())
        except DecodeError as exc:
            raise ValueError(f'{model_path}: not a valid Caffe model (caffemodel): the '
                             f'file is damaged or truncated ({exc})') from exc
        self.forwards: dict[str, _Forward] = {}
        self.layers: list[tuple[str, list[str], list[str]]] = []
        self.split_map: dict[str, str] = {}
        if len(net.layer):
            for layer in net.layer:
                self._add(layer, str(layer.type))
        else:
            for layer in net.layers:
                name = caffe_pb.V1LayerParameter.LayerType.Name(layer.type)
                self._add(layer, _V1_TYPES.get(name, name))

    # -- building -----------------------------------------------------------------------

    def _add(self, layer: Any, typ: str) -> None:
        builder = getattr(self, '_setup_' + typ.lower(), None)
        if builder is None:
            warnings.warn(f'Skip the layer "{layer.name}", since CaffeFunction does not '
                          f'support {typ} layer', stacklevel=3)
            return
        builder(layer)

    def _register(self, layer: Any, forward: _Forward) -> None:
        bottom = [self.split_map.get(b, b) for b in layer.bottom]
        self.forwards[layer.name] = forward
        self.layers.append((layer.name, bottom, list(layer.top)))

    def _add_link(self, layer: Any, link: Link) -> None:
        name = str(layer.name)
        with self.init_scope():
            setattr(self, name, link)
        self._register(layer, lambda *xs: getattr(self, name)(*xs))

    def _setup_data(self, layer: Any) -> None:
        """Data layers feed the network from a database: the inputs are given instead."""

    def _setup_convolution(self, layer: Any, deconv: bool = False) -> None:
        param = layer.convolution_param
        ksize = _pair(param.kernel_h, param.kernel_w, param.kernel_size, 1)
        stride = _pair(param.stride_h, param.stride_w, param.stride, 1)
        pad = _pair(param.pad_h, param.pad_w, param.pad, 0)
        kh, kw = ksize if isinstance(ksize, tuple) else (ksize, ksize)
        blob = layer.blobs[0]
        dims = _blob_dims(blob)
        num, channels = dims[0], dims[1]
        group = int(param.group)
        weights = _blob_array(blob, (num, channels, kh, kw))
        link: Link
        if deconv:
            # Caffe: (in, out / group, kh, kw); Chainer: (in, out, kh, kw)
            n_in, n_out = num, channels * group
            link = Deconvolution2D(n_in, n_out, ksize, stride=stride, pad=pad,
                                   nobias=not param.bias_term)
            w = numpy.zeros((n_in, n_out, kh, kw), numpy.float32)
            step_in, step_out = n_in // group, channels
        else:
            n_in, n_out = channels * group, num
            link = Convolution2D(n_in, n_out, ksize, stride=stride, pad=pad,
                                 nobias=not param.bias_term)
            w = numpy.zeros((n_out, n_in, kh, kw), numpy.float32)
            step_in, step_out = n_out // group, channels
        for g in range(group):
            rows = slice(g * step_in, (g + 1) * step_in)
            cols = slice(g * step_out, (g + 1) * step_out)
            w[rows, cols] = weights[rows]
        _set(link.W, w)
        if param.bias_term:
            _set(link.b, _blob_array(layer.blobs[1], (n_out,)))
        self._add_link(layer, link)

    def _setup_deconvolution(self, layer: Any) -> None:
        self._setup_convolution(layer, deconv=True)

    def _setup_innerproduct(self, layer: Any) -> None:
        param = layer.inner_product_param
        if param.axis != 1:
            raise RuntimeError(f'layer {layer.name}: InnerProduct with axis '
                               f'{param.axis} is not supported (only 1)')
        blob = layer.blobs[0]
        dims = _blob_dims(blob)
        if len(dims) == 2:
            out_size, in_size = dims
        elif len(dims) == 4:
            out_size, in_size = dims[2], dims[3]
        else:
            raise RuntimeError(f'layer {layer.name}: InnerProduct weights of {len(dims)} '
                               'dimensions are not supported (2 or 4)')
        link = Linear(in_size, out_size, nobias=not param.bias_term)
        _set(link.W, _blob_array(blob, (out_size, in_size)))
        if param.bias_term:
            _set(link.b, _blob_array(layer.blobs[1], (out_size,)))
        self._add_link(layer, link)

    def _setup_pooling(self, layer: Any) -> None:
        param = layer.pooling_param
        method = param.pool
        stride = _pair(param.stride_h, param.stride_w, int(param.stride), 1)
        pad = _pair(param.pad_h, param.pad_w, int(param.pad), 0)
        if method == param.MAX:
            name = 'max_pooling_2d'
        elif method == param.AVE:
            name = 'average_pooling_2d'
        else:
            raise RuntimeError(f'layer {layer.name}: stochastic pooling is not supported')

        def forward(x: Any) -> Any:
            pool = getattr(functions, name)
            if param.global_pooling:
                return pool(x, tuple(x.shape[2:]), stride=stride, pad=pad)
            ksize = _pair(param.kernel_h, param.kernel_w, int(param.kernel_size), 1)
            return pool(x, ksize, stride=stride, pad=pad)

        self._register(layer, forward)

    def _setup_relu(self, layer: Any) -> None:
        slope = float(layer.relu_param.negative_slope)
        if slope != 0:
            self._register(layer, lambda x: functions.leaky_relu(x, slope=slope))
        else:
            self._register(layer, lambda x: functions.relu(x))

    def _setup_lrn(self, layer: Any) -> None:
        param = layer.lrn_param
        if param.norm_region != param.ACROSS_CHANNELS:
            raise RuntimeError(f'layer {layer.name}: LRN within a channel is not supported')
        n, k = int(param.local_size), float(param.k)
        alpha, beta = float(param.alpha) / n, float(param.beta)
        self._register(layer, lambda x: functions.local_response_normalization(
            x, n=n, k=k, alpha=alpha, beta=beta))

    def _setup_dropout(self, layer: Any) -> None:
        ratio = float(layer.dropout_param.dropout_ratio)
        self._register(layer, lambda x: functions.dropout(x, ratio=ratio))

    def _check_softmax_axis(self, layer: Any) -> None:
        if layer.softmax_param.axis != 1:
            raise RuntimeError(f'layer {layer.name}: {layer.type} along axis '
                               f'{layer.softmax_param.axis} is not supported (only 1)')

    def _setup_softmax(self, layer: Any) -> None:
        self._check_softmax_axis(layer)
        self._register(layer, lambda x: functions.softmax(x))

    def _setup_softmaxwithloss(self, layer: Any) -> None:
        self._check_softmax_axis(layer)
        self._register(layer, lambda *xs: functions.softmax_cross_entropy(*xs))

    def _setup_sigmoid(self, layer: Any) -> None:
        self._register(layer, lambda x: functions.sigmoid(x))

    def _setup_concat(self, layer: Any) -> None:
        axis = int(layer.concat_param.axis)
        self._register(layer, lambda *xs: functions.concat(xs, axis=axis))

    def _setup_eltwise(self, layer: Any) -> None:
        param = layer.eltwise_param
        operation = param.operation
        coeffs = [float(c) for c in param.coeff]

        def forward(*xs: Any) -> Any:
            if operation == param.PROD:
                y = xs[0]
                for x in xs[1:]:
                    y = y * x
                return y
            if operation == param.MAX:
                y = xs[0]
                for x in xs[1:]:
                    y = functions.maximum(y, x)
                return y
            if not coeffs:
                y = xs[0]
                for x in xs[1:]:
                    y = y + x
                return y
            assert len(coeffs) == len(xs), (
                f'layer {layer.name}: {len(coeffs)} coefficients for {len(xs)} inputs')
            y = xs[0] * coeffs[0]
            for c, x in zip(coeffs[1:], xs[1:]):
                y = y + x * c
            return y

        self._register(layer, forward)

    def _setup_batchnorm(self, layer: Any) -> None:
        blobs = layer.blobs
        mean = numpy.asarray(blobs[0].data, numpy.float32)
        var = numpy.asarray(blobs[1].data, numpy.float32)
        factor = 1.0
        if len(blobs) > 2 and len(blobs[2].data):
            factor = float(blobs[2].data[0])
        scale = 0.0 if factor == 0 else 1.0 / factor
        param = layer.batch_norm_param
        link = BatchNormalization(mean.size, decay=float(param.moving_average_fraction),
                                  eps=float(param.eps), use_gamma=False, use_beta=False)
        link.avg_mean = mean * scale
        link.avg_var = var * scale
        name = str(layer.name)
        with self.init_scope():
            setattr(self, name, link)
        global_stats = bool(param.use_global_stats)

        def forward(x: Any) -> Any:
            if global_stats:
                with chainer.using_config('train', False):
                    return getattr(self, name)(x, finetune=False)
            return getattr(self, name)(x, finetune=False)

        self._register(layer, forward)

    def _setup_scale(self, layer: Any) -> None:
        param = layer.scale_param
        axis = int(param.axis)
        bias_term = bool(param.bias_term)
        blobs = list(layer.blobs)
        link: Scale
        if len(layer.bottom) == 2:
            # the scale is the second input; the only blob (if any) is the bias
            bias_shape = _blob_dims(blobs[0]) if bias_term else None
            link = Scale(axis=axis, bias_term=bias_term, bias_shape=bias_shape)
            if bias_term and bias_shape is not None:
                link.bias.b.array[...] = _blob_array(blobs[0], bias_shape)
        else:
            w_shape = _blob_dims(blobs[0])
            link = Scale(axis=axis, W_shape=w_shape, bias_term=bias_term)
            link.W.array[...] = _blob_array(blobs[0], w_shape)
            if bias_term:
                link.bias.b.array[...] = _blob_array(blobs[1], w_shape)
        self._add_link(layer, link)

    def _setup_split(self, layer: Any) -> None:
        for top in layer.top:
            self.split_map[top] = self.split_map.get(layer.bottom[0], layer.bottom[0])

    def _setup_slice(self, layer: Any) -> None:
        param = layer.slice_param
        if param.HasField('axis'):
            axis = int(param.axis)
        elif param.HasField('slice_dim'):
            axis = int(param.slice_dim)
        else:
            axis = 1
        points = [int(p) for p in param.slice_point]
        sections: int | list[int] = points if points else len(layer.top)
        self._register(layer, lambda x: functions.split_axis(
            x, indices_or_sections=sections, axis=axis))

    def _setup_reshape(self, layer: Any) -> None:
        shape = [int(d) for d in layer.reshape_param.shape.dim]
        self._register(layer, lambda x: functions.reshape(x, shape=shape))

    # -- running ------------------------------------------------------------------------

    def forward(self, inputs: dict[str, Any], outputs: Iterable[str],
                disable: Iterable[str] = (), **kwargs: Any) -> tuple[Variable, ...]:
        """Compute the named output blobs from the given input blobs.

        Args:
            inputs: blob name -> its value (a Variable or an array).
            outputs: the names of the blobs to return.
            disable: names of layers not to compute (and what depends only on them).

        Returns:
            The output blobs, in the order of ``outputs``.

        Raises:
            ValueError: for the removed ``train`` argument.
            TypeError: for another keyword argument.
            KeyError: when an output blob is not computed.
        """
        if 'train' in kwargs:
            raise ValueError('train argument is not supported anymore. '
                             "Use chainer.using_config('train', ...)")
        if kwargs:
            raise TypeError(f'unexpected keyword arguments: {", ".join(kwargs)}')
        skip = set(disable)
        blobs: dict[str, Any] = dict(inputs)
        for name, bottom, top in self.layers:
            if name in skip or not all(b in blobs for b in bottom):
                continue
            ys = self.forwards[name](*[blobs[b] for b in bottom])
            if not isinstance(ys, tuple):
                ys = (ys,)
            for blob_name, y in zip(top, ys):
                blobs[blob_name] = y
        return tuple(blobs[self.split_map.get(o, o)] for o in outputs)
