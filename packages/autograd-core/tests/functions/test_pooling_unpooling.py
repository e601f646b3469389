"""Unpooling (1-d, 2-d, 3-d, N-d): values against a NumPy reference that spreads every
element over its window, gradients checked numerically, output sizes and bad
arguments."""

import itertools

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils.type_check import InvalidType


def _tuple(v, nd):
    return tuple(v) if isinstance(v, tuple) else (v,) * nd


def _tolerances(case):
    if case.dtype == numpy.float16:
        case.check_forward_options = {'atol': 2e-3, 'rtol': 2e-3}
        case.check_backward_options = {'atol': 5e-3, 'rtol': 5e-3}
        case.check_double_backward_options = {'atol': 5e-3, 'rtol': 5e-3}
    else:
        case.check_backward_options = {'atol': 1e-4, 'rtol': 1e-4}
        case.check_double_backward_options = {'atol': 1e-4, 'rtol': 1e-4}


def default_outsize(insize, ksize, stride, pad, cover_all):
    out = []
    for n, k, s, p in zip(insize, ksize, stride, pad):
        out.append(s * (n - 1) + k - 2 * p - (s - 1 if cover_all else 0))
    return tuple(out)


def unpooling_reference(x, ksize, stride, pad, outsize, cover_all):
    """Each input element added to every output element of its window."""
    nd = x.ndim - 2
    k, p = _tuple(ksize, nd), _tuple(pad, nd)
    s = _tuple(stride, nd) if stride is not None else k
    outsize = outsize or default_outsize(x.shape[2:], k, s, p, cover_all)
    y = numpy.zeros(x.shape[:2] + tuple(outsize), numpy.float64)
    for i in itertools.product(*[range(n) for n in x.shape[2:]]):
        for off in itertools.product(*[range(kk) for kk in k]):
            pos = tuple(ii * ss - pp + oo for ii, ss, pp, oo in zip(i, s, p, off))
            if all(0 <= q < n for q, n in zip(pos, outsize)):
                y[(slice(None),) * 2 + pos] += x[(slice(None),) * 2 + i]
    return y.astype(x.dtype)


# shape, ksize, stride, pad, outsize, cover_all
GEOMETRIES = [
    ((2, 3, 2, 3), 2, None, 0, None, True),  # each pixel repeated over a 2x2 block
    ((2, 3, 3, 2), 3, 2, 1, None, False),  # overlapping windows add up
    ((2, 3, 2, 1), 2, None, 0, (5, 2), False),  # larger output: zeros beyond
    ((2, 3, 4, 5), 2, None, 2, (4, 6), True),  # padding crops the output
    ((2, 3, 3, 2), 1, 3, 1, None, True),  # stride > window
    ((2, 2, 5), 3, 3, 1, None, True),  # 1-d
    ((1, 2, 2, 3, 2), (2, 3, 1), (1, 2, 2), (0, 1, 0), None, False),  # 3-d
]


def _params():
    out = []
    for i, (shape, k, s, p, o, cover_all) in enumerate(GEOMETRIES):
        for dtype in (numpy.float16, numpy.float32, numpy.float64):
            out.append({'shape': shape, 'ksize': k, 'stride': s, 'pad': p, 'outsize': o,
                        'cover_all': cover_all, 'dtype': dtype,
                        'contiguous': None if i % 2 else 'C'})
    return out


@testing.parameterize(*_params())
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestUnpoolingND(testing.FunctionTestCase):

    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.unpooling_nd(x, self.ksize, self.stride, self.pad, self.outsize,
                              self.cover_all),

    def forward_expected(self, inputs):
        return unpooling_reference(inputs[0], self.ksize, self.stride, self.pad,
                                   self.outsize, self.cover_all),


@pytest.mark.parametrize('fn,nd', [(F.unpooling_1d, 1), (F.unpooling_2d, 2),
                                   (F.unpooling_3d, 3)])
def test_unpooling_wrappers(fn, nd):
    x = numpy.random.uniform(-1, 1, (2, 3) + (3,) * nd).astype(numpy.float32)
    expected = unpooling_reference(x, 2, None, 0, None, True)
    testing.assert_allclose(fn(x, 2).array, expected)
    testing.assert_allclose(F.unpooling_nd(x, 2).array, expected)
    if nd != 2:
        with pytest.raises(ValueError, match="'x'"):
            fn(numpy.zeros((2, 3) + (3,) * (nd + 1), numpy.float32), 2)


def test_unpooling_2d_attributes_and_left_inverse_of_pooling():
    x = chainer.Variable(numpy.arange(25, dtype=numpy.float32).reshape(1, 1, 5, 5))
    y = F.unpooling_2d(x, 3, 3, 0, None, True)
    assert (y.creator.kh, y.creator.sy, y.creator.outh) == (3, 3, None)
    testing.assert_allclose(F.max_pooling_2d(y, 3, 3, 0, True).array, x.array)
    z = F.unpooling_2d(x, 3, 3, 0, None, False)
    testing.assert_allclose(F.average_pooling_2d(z, 3, 3, 0).array, x.array)


@pytest.mark.parametrize('shape,outshape', [((2, 3, 3, 2), (1, 0)), ((2, 3, 2, 2), (0, 0)),
                                            ((0, 3, 2, 2), (0, 0))])
def test_unpooling_may_give_an_empty_axis(shape, outshape):
    x = chainer.Variable(numpy.ones(shape, numpy.float32))
    y = F.unpooling_nd(x, 1, 1, 1)
    assert y.shape == shape[:2] + outshape
    y.grad = numpy.zeros(y.shape, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, numpy.zeros_like(x.array))


@pytest.mark.parametrize('call,error,match', [
    (lambda: F.unpooling_2d(numpy.zeros((1, 1, 2, 2), 'f'), 2, 2, 0, (5, 5)), InvalidType,
     'Unpooling2D'),
    (lambda: F.unpooling_2d(numpy.zeros((1, 2, 2), 'f'), 2), InvalidType, 'Unpooling2D'),
    (lambda: F.unpooling_nd(numpy.zeros((1, 1, 2, 2), 'i'), 2), InvalidType, 'UnpoolingND'),
    (lambda: F.unpooling_nd(numpy.zeros((1, 1, 2, 2), 'f'), 2, outsize=(4, 4, 4)),
     ValueError, 'outsize'),
    (lambda: F.unpooling_nd(numpy.zeros((1, 1, 2, 2), 'f'), 2, outsize=(4, -1)),
     ValueError, 'outsize'),
])
def test_unpooling_bad_arguments(call, error, match):
    with pytest.raises(error, match=match):
        call()
