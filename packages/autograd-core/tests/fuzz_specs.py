"""One valid call of every public function of ``chainer.functions``, for the fuzzer.

:func:`base_call` gives positional and keyword arguments that the function accepts;
the fuzzer (``test_fuzz_functions.py``) replaces some of them with hostile or
borderline values chosen by the *role* of the argument, which it reads off the valid
value (:func:`role`): an array, a list of arrays, an int (axis, size, count), a
tuple of ints (shape, sizes), a real number, a string option, a flag or a callable.

A function missing from :data:`CALLS` is called with a float32 array of shape (2, 3)
for each required parameter; the test checks that every public function either has
an entry here or accepts that default.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy

import chainer.functions as F
from chainer.utils import to_coo


def f(*shape: int, dtype: Any = numpy.float32) -> numpy.ndarray:
    """A float array with values in [0.1, 0.9) (inside every domain used here)."""
    rng = numpy.random.RandomState(sum(shape) + len(shape))
    return rng.uniform(0.1, 0.9, shape).astype(dtype)


def i(*shape: int, high: int = 3) -> numpy.ndarray:
    """An int32 array of labels in [0, high)."""
    rng = numpy.random.RandomState(sum(shape) + 7)
    return rng.randint(0, high, shape).astype(numpy.int32)


def _spd(n: int) -> numpy.ndarray:
    a = f(n, n)
    return (a @ a.T + n * numpy.eye(n)).astype(numpy.float32)


def _rnn(n_gates: int, bi: bool, cell: bool) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """Arguments of an n_step_* function: 1 layer, 2 units, inputs of size 3."""
    dirs = 2 if bi else 1
    hx = f(dirs, 2, 2)
    ws = [[f(2, 3) for _ in range(n_gates)] + [f(2, 2) for _ in range(n_gates)]
          for _ in range(dirs)]
    bs = [[f(2) for _ in range(2 * n_gates)] for _ in range(dirs)]
    xs = [f(2, 3), f(1, 3)]
    if cell:
        return (1, 0.0, hx, f(dirs, 2, 2), ws, bs, xs), {}
    return (1, 0.0, hx, ws, bs, xs), {}


def _roi() -> tuple[tuple[Any, ...], dict[str, Any]]:
    """Arguments of the ROI poolings and aligns: one 4x4 box, output 2x2, scale 1."""
    return (f(1, 2, 6, 6), numpy.array([[0, 0, 4, 4]], numpy.float32),
            numpy.array([0], numpy.int32), 2, 1.0), {}


Call = Callable[[], tuple[tuple[Any, ...], dict[str, Any]]]

CALLS: dict[str, Call] = {
    'accuracy': lambda: ((f(4, 3), i(4)), {}),
    'add': lambda: ((f(2, 3), f(2, 3)), {}),
    'arctanh': lambda: ((f(2, 3),), {}),
    'argmax': lambda: ((f(2, 3),), {'axis': 1}),
    'argmax_crf1d': lambda: ((f(3, 3), [f(2, 3), f(2, 3)]), {}),
    'argmin': lambda: ((f(2, 3),), {'axis': 1}),
    'as_strided': lambda: ((f(6), (2, 3), (3, 1)), {}),
    'average': lambda: ((f(2, 3),), {'axis': 1}),
    'average_pooling_1d': lambda: ((f(1, 2, 5), 2), {}),
    'average_pooling_2d': lambda: ((f(1, 2, 5, 5), 2), {}),
    'average_pooling_3d': lambda: ((f(1, 1, 4, 4, 4), 2), {}),
    'average_pooling_nd': lambda: ((f(1, 2, 5, 5), 2), {}),
    'batch_det': lambda: ((f(2, 3, 3),), {}),
    'batch_inv': lambda: ((numpy.stack([_spd(3)] * 2),), {}),
    'batch_l2_norm_squared': lambda: ((f(2, 3),), {}),
    'batch_matmul': lambda: ((f(2, 3, 4), f(2, 4, 2)), {}),
    'batch_normalization': lambda: ((f(4, 3), f(3), f(3)), {}),
    'batch_renormalization': lambda: ((f(4, 3), f(3), f(3), 2.0, 1.0), {}),
    'bernoulli_nll': lambda: ((i(2, 3, high=2).astype(numpy.float32), f(2, 3)), {}),
    'bias': lambda: ((f(2, 3), f(3)), {'axis': 1}),
    'bilinear': lambda: ((f(2, 3), f(2, 4), f(3, 4, 5)), {}),
    'binary_accuracy': lambda: ((f(4, 3), i(4, 3, high=2)), {}),
    'black_out': lambda: ((f(2, 3), i(2, high=4), f(4, 3), i(2, 2, high=4)), {}),
    'broadcast': lambda: ((f(2, 3), f(1, 3)), {}),
    'broadcast_to': lambda: ((f(1, 3), (2, 3)), {}),
    'cast': lambda: ((f(2, 3), 'float64'), {}),
    'cholesky': lambda: ((_spd(3),), {}),
    'classification_summary': lambda: ((f(4, 3), i(4)), {}),
    'clip': lambda: ((f(2, 3), 0.2, 0.8), {}),
    'concat': lambda: (([f(2, 3), f(2, 2)],), {'axis': 1}),
    'connectionist_temporal_classification': lambda: (([f(2, 3)] * 4, i(2, 1, high=2) + 1, 0),
                                                       {}),
    'contrastive': lambda: ((f(2, 3), f(2, 3), i(2, high=2)), {}),
    'convolution_1d': lambda: ((f(1, 2, 5), f(3, 2, 2)), {}),
    'convolution_2d': lambda: ((f(1, 2, 5, 5), f(3, 2, 2, 2)), {}),
    'convolution_3d': lambda: ((f(1, 1, 3, 3, 3), f(2, 1, 2, 2, 2)), {}),
    'convolution_nd': lambda: ((f(1, 2, 5, 5), f(3, 2, 2, 2)), {}),
    'copy': lambda: ((f(2, 3), -1), {}),
    'crelu': lambda: ((f(2, 3),), {'axis': 1}),
    'crf1d': lambda: ((f(3, 3), [f(2, 3), f(2, 3)], [i(2), i(2)]), {}),
    'cross_covariance': lambda: ((f(2, 3), f(2, 4)), {}),
    'cumprod': lambda: ((f(2, 3),), {'axis': 1}),
    'cumsum': lambda: ((f(2, 3),), {'axis': 1}),
    'deconvolution_1d': lambda: ((f(1, 2, 5), f(2, 3, 2)), {}),
    'deconvolution_2d': lambda: ((f(1, 2, 5, 5), f(2, 3, 2, 2)), {}),
    'deconvolution_3d': lambda: ((f(1, 1, 3, 3, 3), f(1, 2, 2, 2, 2)), {}),
    'deconvolution_nd': lambda: ((f(1, 2, 5, 5), f(2, 3, 2, 2)), {}),
    'decorrelated_batch_normalization': lambda: ((f(6, 4),), {'groups': 2}),
    'decov': lambda: ((f(4, 3),), {}),
    'deformable_convolution_2d_sampler': lambda: (
        (f(1, 2, 4, 4), numpy.zeros((1, 8, 3, 3), numpy.float32), f(3, 2, 2, 2)), {}),
    'depth2space': lambda: ((f(1, 4, 2, 3), 2), {}),
    'depthwise_convolution_2d': lambda: ((f(1, 2, 4, 4), f(2, 2, 2, 2)), {}),
    'det': lambda: ((_spd(3),), {}),
    'diagonal': lambda: ((f(3, 3),), {}),
    'dilated_convolution_2d': lambda: ((f(1, 2, 5, 5), f(3, 2, 2, 2)), {'dilate': 2}),
    'discriminative_margin_based_clustering_loss': lambda: (
        (f(2, 3, 4, 4), i(2, 4, 4, high=3), 0.5, 1.5, 3), {}),
    'dropout': lambda: ((f(2, 3),), {'ratio': 0.5}),
    'dstack': lambda: (([f(2, 3), f(2, 3)],), {}),
    'einsum': lambda: (('ij,jk->ik', f(2, 3), f(3, 4)), {}),
    'embed_id': lambda: ((i(2, 3, high=4), f(4, 5)), {}),
    'erfcinv': lambda: ((f(2, 3),), {}),
    'erfinv': lambda: ((f(2, 3),), {}),
    'expand_dims': lambda: ((f(2, 3), 1), {}),
    'f1_score': lambda: ((f(4, 3), i(4)), {}),
    'fft': lambda: (((f(2, 4), f(2, 4)),), {}),
    'fixed_batch_normalization': lambda: ((f(4, 3), f(3), f(3), f(3), f(3)), {}),
    'fixed_batch_renormalization': lambda: ((f(4, 3), f(3), f(3), f(3), f(3)), {}),
    'fixed_decorrelated_batch_normalization': lambda: (
        (f(6, 4), f(2, 2), numpy.stack([numpy.eye(2, dtype=numpy.float32)] * 2)),
        {'groups': 2}),
    'flip': lambda: ((f(2, 3), 1), {}),
    'fmod': lambda: ((f(2, 3), f(2, 3) + 1), {}),
    'forget': lambda: ((F.tanh, f(2, 3)), {}),
    'gaussian': lambda: ((f(2, 3), f(2, 3)), {}),
    'gaussian_kl_divergence': lambda: ((f(2, 3), f(2, 3)), {}),
    'gaussian_nll': lambda: ((f(2, 3), f(2, 3), f(2, 3)), {}),
    'get_item': lambda: ((f(2, 3), (slice(None), 1)), {}),
    'group_normalization': lambda: ((f(2, 4, 3), 2, f(4), f(4)), {}),
    'gumbel_softmax': lambda: ((f(2, 3),), {}),
    'hinge': lambda: ((f(4, 3), i(4)), {}),
    'hstack': lambda: (([f(2, 3), f(2, 2)],), {}),
    'huber_loss': lambda: ((f(2, 3), f(2, 3), 1.0), {}),
    'identity': lambda: ((f(2, 3), f(3)), {}),
    'ifft': lambda: (((f(2, 4), f(2, 4)),), {}),
    'im2col': lambda: ((f(1, 2, 4, 4), 2), {}),
    'inv': lambda: ((_spd(3),), {}),
    'layer_normalization': lambda: ((f(2, 3), f(3), f(3)), {}),
    'linear': lambda: ((f(2, 3), f(4, 3), f(4)), {}),
    'linear_interpolate': lambda: ((f(2, 3), f(2, 3), f(2, 3)), {}),
    'local_convolution_2d': lambda: ((f(1, 2, 3, 3), f(2, 2, 2, 2, 2, 2)), {}),
    'local_response_normalization': lambda: ((f(1, 6, 2, 2),), {'n': 3}),
    'log_softmax': lambda: ((f(2, 3),), {'axis': 1}),
    'logsumexp': lambda: ((f(2, 3),), {'axis': 1}),
    'lstm': lambda: ((f(2, 3), f(2, 12)), {}),
    'matmul': lambda: ((f(2, 3), f(3, 4)), {}),
    'max': lambda: ((f(2, 3),), {'axis': 1}),
    'max_pooling_1d': lambda: ((f(1, 2, 5), 2), {}),
    'max_pooling_2d': lambda: ((f(1, 2, 5, 5), 2), {}),
    'max_pooling_3d': lambda: ((f(1, 1, 4, 4, 4), 2), {}),
    'max_pooling_nd': lambda: ((f(1, 2, 5, 5), 2), {}),
    'maxout': lambda: ((f(2, 6), 2), {'axis': 1}),
    'mean': lambda: ((f(2, 3),), {'axis': 1}),
    'min': lambda: ((f(2, 3),), {'axis': 1}),
    'moveaxis': lambda: ((f(2, 3, 4), 0, 2), {}),
    'n_step_bigru': lambda: _rnn(3, True, False),
    'n_step_bilstm': lambda: _rnn(4, True, True),
    'n_step_birnn': lambda: _rnn(1, True, False),
    'n_step_gru': lambda: _rnn(3, False, False),
    'n_step_lstm': lambda: _rnn(4, False, True),
    'n_step_rnn': lambda: _rnn(1, False, False),
    'negative_sampling': lambda: (
        (f(2, 3), i(2, high=4), f(4, 3), lambda shape: i(*shape, high=4), 2), {}),
    'normalize': lambda: ((f(2, 3),), {}),
    'pad': lambda: ((f(2, 3), 1, 'constant'), {}),
    'pad_sequence': lambda: (([f(2, 3), f(1, 3)],), {'length': 3}),
    'permutate': lambda: ((f(3, 2), numpy.array([2, 0, 1], numpy.int32)), {'axis': 0}),
    'polygamma': lambda: ((i(2, 3), f(2, 3)), {}),
    'precision': lambda: ((f(4, 3), i(4)), {}),
    'prelu': lambda: ((f(2, 3), f(3)), {}),
    'prod': lambda: ((f(2, 3),), {'axis': 1}),
    'r2_score': lambda: ((f(4, 3), f(4, 3)), {}),
    'recall': lambda: ((f(4, 3), i(4)), {}),
    'repeat': lambda: ((f(2, 3), 2), {'axis': 1}),
    'reshape': lambda: ((f(2, 3), (3, 2)), {}),
    'resize_images': lambda: ((f(1, 2, 3, 3), (4, 5)), {}),
    'roi_average_align_2d': _roi,
    'roi_average_pooling_2d': _roi,
    'roi_max_align_2d': _roi,
    'roi_max_pooling_2d': _roi,
    'roi_pooling_2d': lambda: (
        (f(1, 2, 6, 6), numpy.array([[0, 0, 0, 4, 4]], numpy.float32), 2, 2, 1.0), {}),
    'rollaxis': lambda: ((f(2, 3, 4), 2), {}),
    'scale': lambda: ((f(2, 3), f(3)), {'axis': 1}),
    'scatter_add': lambda: ((f(2, 3), (slice(None), 1), f(2)), {}),
    'select_item': lambda: ((f(4, 3), i(4)), {}),
    'separate': lambda: ((f(2, 3),), {'axis': 0}),
    'shift': lambda: ((f(1, 9, 4, 4),), {}),
    'sigmoid_cross_entropy': lambda: ((f(2, 3), i(2, 3, high=2)), {}),
    'simplified_dropconnect': lambda: ((f(2, 3), f(4, 3), f(4)), {}),
    'slstm': lambda: ((f(2, 3), f(2, 3), f(2, 12), f(2, 12)), {}),
    'softmax': lambda: ((f(2, 3),), {'axis': 1}),
    'softmax_cross_entropy': lambda: ((f(4, 3), i(4)), {}),
    'space2depth': lambda: ((f(1, 1, 4, 6), 2), {}),
    'sparse_matmul': lambda: ((to_coo(f(2, 3)), f(3, 4)), {}),
    'spatial_pyramid_pooling_2d': lambda: ((f(1, 2, 8, 8), 2), {'pooling': 'max'}),
    'spatial_transformer_grid': lambda: ((f(1, 2, 3), (4, 5)), {}),
    'spatial_transformer_sampler': lambda: ((f(1, 2, 4, 4), f(1, 2, 3, 3) * 2 - 1), {}),
    'split_axis': lambda: ((f(2, 6), 3, 1), {}),
    'squared_difference': lambda: ((f(2, 3), f(2, 3)), {}),
    'squeeze': lambda: ((f(2, 1, 3),), {'axis': 1}),
    'stack': lambda: (([f(2, 3), f(2, 3)],), {'axis': 0}),
    'sum': lambda: ((f(2, 3),), {'axis': 1}),
    'sum_to': lambda: ((f(2, 3), (1, 3)), {}),
    'swapaxes': lambda: ((f(2, 3, 4), 0, 2), {}),
    'swish': lambda: ((f(2, 3), f(3)), {}),
    'tensordot': lambda: ((f(2, 3), f(3, 4)), {'axes': 1}),
    'tile': lambda: ((f(2, 3), 2), {}),
    'transpose': lambda: ((f(2, 3, 4), (2, 0, 1)), {}),
    'transpose_sequence': lambda: (([f(3, 2), f(2, 2)],), {}),
    'tree_lstm': lambda: ((f(2, 3), f(2, 3), f(2, 15)), {}),
    'triplet': lambda: ((f(2, 3), f(2, 3), f(2, 3)), {}),
    'unpooling_1d': lambda: ((f(1, 2, 3), 2), {}),
    'unpooling_2d': lambda: ((f(1, 2, 3, 3), 2), {}),
    'unpooling_3d': lambda: ((f(1, 1, 2, 2, 2), 2), {}),
    'unpooling_nd': lambda: ((f(1, 2, 3, 3), 2), {}),
    'upsampling_2d': lambda: ((f(1, 2, 2, 2), i(1, 2, 2, 2, high=4), 2), {}),
    'vstack': lambda: (([f(2, 3), f(1, 3)],), {}),
    'where': lambda: ((f(2, 3) > 0.5, f(2, 3), f(2, 3)), {}),
    'zeta': lambda: ((f(2, 3) + 1.5, f(2, 3)), {}),
    'zoneout': lambda: ((f(2, 3), f(2, 3)), {}),
}


def public_functions() -> list[str]:
    """The names of every public function of ``chainer.functions``."""
    return sorted(n for n, v in vars(F).items()
                  if not n.startswith('_') and inspect.isfunction(v))


def base_call(name: str) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """A valid call of ``F.<name>``: (positional arguments, keyword arguments)."""
    if name in CALLS:
        return CALLS[name]()
    sig = inspect.signature(getattr(F, name))
    args = tuple(f(2, 3) for p in sig.parameters.values()
                 if p.default is inspect.Parameter.empty
                 and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))
    return args, {}


def role(value: Any) -> str:
    """The role of a valid argument value, which decides how it is mutated."""
    if hasattr(value, 'shape') and hasattr(value, 'dtype'):
        return 'array'
    if isinstance(value, bool):
        return 'bool'
    if isinstance(value, (int, numpy.integer)):
        return 'int'
    if isinstance(value, float):
        return 'real'
    if isinstance(value, str):
        return 'str'
    if isinstance(value, (list, tuple)):
        if value and all(hasattr(v, 'dtype') for v in value):
            return 'arrays'
        if all(isinstance(v, int) for v in value):
            return 'ints'
        return 'other'
    if callable(value):
        return 'callable'
    return 'other'
