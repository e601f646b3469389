"""Links built with NumPy scalars or 0-d arrays as sizes and hyperparameters.

v7 programs compute sizes with NumPy (``n_vocab = numpy.max(train) + 1``, then
``L.EmbedID(n_vocab, n_units)``); each link here is built once with Python numbers
and once with their NumPy twins, from the same seed, and must hold the same
parameters and give the same outputs.
"""

from __future__ import annotations

from typing import Any

import numpy
import pytest

import chainer
import chainer.links as L

X2 = numpy.random.RandomState(0).rand(2, 3).astype(numpy.float32)
X3 = numpy.random.RandomState(2).rand(2, 2, 5).astype(numpy.float32)
X4 = numpy.random.RandomState(1).rand(2, 2, 5, 5).astype(numpy.float32)
IDS = numpy.array([0, 2], numpy.int32)
H0 = numpy.zeros((2, 4), numpy.float32)

TWINS = {
    'int64': (numpy.int64, numpy.float64),
    'int32': (numpy.int32, numpy.float32),
    'uint8': (numpy.uint8, numpy.float16),
    '0-d': (numpy.array, numpy.array),
}


def twin(value: Any, kind: str) -> Any:
    """``value`` with its Python numbers (also in lists and tuples) as NumPy numbers."""
    to_int, to_float = TWINS[kind]
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return to_int(value) if value >= 0 else numpy.int64(value)
    if isinstance(value, float):
        return to_float(value)
    if type(value) in (list, tuple):
        return type(value)(twin(v, kind) for v in value)
    return value


def python(value: Any, kind: str) -> Any:
    """``value`` with its floats rounded as the twin of ``kind`` rounds them."""
    if isinstance(value, float) and not isinstance(value, bool):
        return float(TWINS[kind][1](value))
    if type(value) in (list, tuple):
        return type(value)(python(v, kind) for v in value)
    return value


CASES = [
    ('Linear', (3, 4), {}, lambda l: l(X2)),
    ('Linear', (4,), {'initial_bias': 0.5}, lambda l: l(X2)),
    ('EmbedID', (5, 3), {'ignore_label': -1}, lambda l: l(IDS)),
    ('Convolution2D', (2, 3, 3), {'stride': 2, 'pad': 1}, lambda l: l(X4)),
    ('Convolution2D', (2, 4, 3), {'groups': 2, 'dilate': 2}, lambda l: l(X4)),
    ('Convolution1D', (2, 3, 3), {}, lambda l: l(X3)),
    ('ConvolutionND', (2, 2, 3, 3), {'stride': 1, 'pad': 1}, lambda l: l(X4)),
    ('Deconvolution2D', (2, 3, 3), {'stride': 2, 'pad': 1, 'outsize': (9, 9)},
     lambda l: l(X4)),
    ('DeconvolutionND', (2, 2, 3, 3), {'stride': 2}, lambda l: l(X4)),
    ('DilatedConvolution2D', (2, 3, 3), {'dilate': 2, 'pad': 2}, lambda l: l(X4)),
    ('DepthwiseConvolution2D', (2, 2, 3), {}, lambda l: l(X4)),
    ('LocalConvolution2D', (2, 2, (5, 5), 3), {}, lambda l: l(X4)),
    ('MLPConvolution2D', (2, (3, 3), 1), {}, lambda l: l(X4)),
    ('LSTM', (3, 4), {}, lambda l: l(X2)),
    ('LSTM', (None, 4), {}, lambda l: l(X2)),
    ('StatelessLSTM', (3, 4), {}, lambda l: l(None, None, X2)),
    ('StatefulPeepholeLSTM', (3, 4), {}, lambda l: l(X2)),
    ('StatefulZoneoutLSTM', (3, 4), {'c_ratio': 0.25, 'h_ratio': 0.75}, lambda l: l(X2)),
    ('StatefulGRU', (3, 4), {}, lambda l: l(X2)),
    ('StatelessGRU', (3, 4), {}, lambda l: l(H0, X2)),
    ('StatefulMGU', (3, 4), {}, lambda l: l(X2)),
    ('StatelessMGU', (3, 4), {}, lambda l: l(H0, X2)),
    ('NStepLSTM', (1, 3, 4, 0.0), {}, lambda l: l(None, None, [X2, X2[:1]])),
    ('NStepBiLSTM', (2, 3, 4, 0.0), {}, lambda l: l(None, None, [X2, X2[:1]])),
    ('NStepGRU', (1, 3, 4, 0.0), {}, lambda l: l(None, [X2, X2[:1]])),
    ('NStepRNNTanh', (1, 3, 4, 0.0), {}, lambda l: l(None, [X2, X2[:1]])),
    ('BatchNormalization', (3,), {'decay': 0.75, 'eps': 0.25}, lambda l: l(X2)),
    ('BatchNormalization', ((2,),), {'axis': (0, 2, 3)}, lambda l: l(X4)),
    ('BatchRenormalization', (3,), {'rmax': 2.0, 'dmax': 1.0, 'decay': 0.75},
     lambda l: l(X2)),
    ('DecorrelatedBatchNormalization', (4,), {'groups': 2, 'decay': 0.75},
     lambda l: l(numpy.random.RandomState(3).rand(5, 4).astype(numpy.float32))),
    ('LayerNormalization', (3,), {'eps': 0.25}, lambda l: l(X2)),
    ('GroupNormalization', (2, 2), {'eps': 0.25}, lambda l: l(X4)),
    ('Maxout', (3, 4, 2), {}, lambda l: l(X2)),
    ('Bilinear', (3, 3, 2), {}, lambda l: l(X2, X2)),
    ('Highway', (3,), {}, lambda l: l(X2)),
    ('Scale', (), {'axis': 1, 'W_shape': (3,), 'bias_term': True}, lambda l: l(X2)),
    ('Bias', (), {'axis': 1, 'shape': (3,)}, lambda l: l(X2)),
    ('PReLU', (), {'shape': (3,), 'init': 0.25}, lambda l: l(X2 - 0.5)),
    ('Swish', ((3,),), {'beta_init': 0.75}, lambda l: l(X2)),
    ('SimplifiedDropconnect', (3, 4), {'ratio': 0.25}, lambda l: l(X2, train=False)),
    ('NegativeSampling', (3, [1, 1, 1, 1], 2), {'power': 0.5}, lambda l: l(X2, IDS)),
    ('Inception', (2, 1, 1, 1, 1, 1, 1), {}, lambda l: l(X4)),
    ('InceptionBN', (2, 1, 1, 1, 1, 1, 'max', 1), {}, lambda l: l(X4)),
    ('CRF1d', (3,), {}, lambda l: l([X2, X2], [IDS, IDS])),
    ('ChildSumTreeLSTM', (3, 4), {}, lambda l: l(None, None, X2)),
    ('NaryTreeLSTM', (3, 4), {'n_ary': 2}, lambda l: l(None, None, None, None, X2)),
    ('Classifier', (L.Linear(3, 3),), {'label_key': -1}, lambda l: l(X2, IDS)),
]


def _arrays(out: Any) -> list[Any]:
    if isinstance(out, (tuple, list)):
        return [a for o in out for a in _arrays(o)]
    return [] if out is None else [getattr(out, 'array', out)]


def _build(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> chainer.Link:
    numpy.random.seed(0)
    return getattr(L, name)(*args, **kwargs)


@pytest.mark.parametrize('kind', list(TWINS))
@pytest.mark.parametrize('name, args, kwargs, run', CASES,
                         ids=[f'{c[0]}-{i}' for i, c in enumerate(CASES)])
def test_link_with_numpy_numbers_equals_python_numbers(name, args, kwargs, run, kind):
    expected = _build(name, python(args, kind), python(kwargs, kind))
    got = _build(name, twin(args, kind), twin(kwargs, kind))
    numpy.random.seed(1)
    out_expected = _arrays(run(expected))
    numpy.random.seed(1)
    out_got = _arrays(run(got))
    assert len(out_got) == len(out_expected)
    for e, g in zip(out_expected, out_got):
        assert g.dtype == e.dtype and g.shape == e.shape
        numpy.testing.assert_array_equal(g, e)
    params = dict(expected.namedparams())
    got_params = dict(got.namedparams())
    assert params.keys() == got_params.keys()
    for key, p in params.items():
        q = got_params[key]
        assert q.shape == p.shape and all(type(s) is int for s in q.shape)
        assert q.dtype == p.dtype
        numpy.testing.assert_array_equal(q.array, p.array)


def test_embed_id_of_a_numpy_vocabulary_size():
    """v7's PTB example: the vocabulary size is a NumPy integer from ``numpy.max``."""
    train = numpy.array([3, 1, 4, 1, 5], numpy.int32)
    n_vocab = numpy.max(train) + 1
    embed = L.EmbedID(n_vocab, 3)
    out = L.Linear(3, n_vocab)
    assert embed.W.shape == (6, 3) and out.W.shape == (6, 3)
    assert out(embed(train)).shape == (5, 6)


@pytest.mark.parametrize('twin_int', [numpy.int64, numpy.array])
def test_add_param_and_lazy_init(twin_int):
    link = chainer.Link()
    link.add_param('w', twin_int(3))
    link.add_param('v', (twin_int(2), 3), initializer=numpy.float32(0.5))
    assert link.w.shape == (3,) and link.v.shape == (2, 3)
    numpy.testing.assert_array_equal(link.v.array, numpy.full((2, 3), 0.5, numpy.float32))
    link.add_param('u')
    link.u.initialize(twin_int(4))
    assert link.u.shape == (4,)


@pytest.mark.parametrize('bad', [3.0, True, (2, 3.5), numpy.float32(3)])
def test_float_and_bool_sizes_stay_refused(bad):
    with pytest.raises(TypeError):
        L.Linear(3, bad)


def test_classifier_label_key_refuses_floats():
    with pytest.raises(TypeError, match='label_key must be int or str'):
        L.Classifier(L.Linear(3, 3), label_key=1.0)
