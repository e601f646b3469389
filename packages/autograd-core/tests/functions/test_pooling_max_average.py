"""Max and average pooling (1-d, 2-d, 3-d, N-d), upsampling with the indexes of max
pooling, and spatial pyramid pooling: values against a NumPy reference that visits
every window, gradients checked numerically, the indexes of the maxima, odd geometries
and bad arguments."""

import itertools

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import gradient_check, testing
from chainer.functions.pooling.average_pooling_2d import AveragePooling2D
from chainer.functions.pooling.max_pooling_2d import MaxPooling2D
from chainer.functions.pooling.max_pooling_nd import MaxPoolingND
from chainer.utils.type_check import InvalidType


def _tuple(v, nd):
    return tuple(v) if isinstance(v, tuple) else (v,) * nd


def windows(size, ksize, stride, pad, cover_all):
    """``(out_size, [(out_index, [(start, stop) per axis]) ...])``: every pooling window
    with its unclipped bounds in image coordinates."""
    nd = len(size)
    k, s, p = _tuple(ksize, nd), _tuple(stride if stride is not None else ksize, nd), \
        _tuple(pad, nd)
    extra = [si - 1 if cover_all else 0 for si in s]
    out = tuple((n + 2 * pi - ki + e) // si + 1 for n, ki, si, pi, e in zip(size, k, s, p, extra))
    found = []
    for o in itertools.product(*[range(m) for m in out]):
        found.append((o, [(oi * si - pi, oi * si - pi + ki) for oi, si, pi, ki in
                          zip(o, s, p, k)]))
    return out, found


def max_reference(x, ksize, stride, pad, cover_all):
    """Maxima (padding never wins; an all-padding window gives -inf) and the row-major
    offsets of the first maxima in their windows."""
    out, wins = windows(x.shape[2:], ksize, stride, pad, cover_all)
    y = numpy.empty(x.shape[:2] + out, x.dtype)
    idx = numpy.empty(x.shape[:2] + out, numpy.int64)
    for o, bounds in wins:
        shape = tuple(b - a for a, b in bounds)
        patch = numpy.full(x.shape[:2] + shape, -numpy.inf)
        src, dst = [], []
        for (a, b), n in zip(bounds, x.shape[2:]):
            lo, hi = max(a, 0), min(b, n)
            src.append(slice(lo, max(lo, hi)))
            dst.append(slice(lo - a, lo - a + max(0, hi - lo)))
        patch[(slice(None),) * 2 + tuple(dst)] = x[(slice(None),) * 2 + tuple(src)]
        flat = patch.reshape(x.shape[:2] + (-1,))
        y[(slice(None),) * 2 + o] = flat.max(axis=-1)
        idx[(slice(None),) * 2 + o] = flat.argmax(axis=-1)
    return y, idx


def average_reference(x, ksize, stride, pad, pad_value):
    out, wins = windows(x.shape[2:], ksize, stride, pad, False)
    y = numpy.empty(x.shape[:2] + out, numpy.float64)
    volume = numpy.prod(_tuple(ksize, x.ndim - 2))
    for o, bounds in wins:
        sl = tuple(slice(max(a, 0), min(b, n)) for (a, b), n in zip(bounds, x.shape[2:]))
        patch = x[(slice(None),) * 2 + sl].astype(numpy.float64)
        count = volume if pad_value == 0 else patch[0, 0].size
        y[(slice(None),) * 2 + o] = patch.reshape(x.shape[:2] + (-1,)).sum(-1) / count
    return y.astype(x.dtype)


def distinct(shape, dtype, rng=numpy.random):
    """Values in [-1, 1) far enough apart that maxima are unique and stable under the
    numerical gradient's perturbations."""
    size = int(numpy.prod(shape))
    return (rng.permutation(size) * (2.0 / max(size, 1)) - 1).reshape(shape).astype(dtype)


def _tolerances(case, fwd=None):
    if case.dtype == numpy.float16:
        case.check_forward_options = fwd or {'atol': 1e-3, 'rtol': 1e-3}
        case.check_backward_options = {'atol': 5e-3, 'rtol': 5e-3}
        case.check_double_backward_options = {'atol': 5e-3, 'rtol': 5e-3}
    else:
        case.check_backward_options = {'atol': 1e-4, 'rtol': 1e-4}
        case.check_double_backward_options = {'atol': 1e-4, 'rtol': 1e-4}


# shape, ksize, stride, pad, cover_all
GEOMETRIES = [
    ((2, 3, 4, 6), 2, None, 0, True),  # windows tile the image
    ((2, 3, 5, 4), 3, 2, 1, True),  # overlapping, padded, an extra window to cover all
    ((2, 3, 5, 4), 3, 2, 1, False),
    ((1, 2, 7, 5), (2, 1), (3, 2), 0, False),  # stride larger than the window
    ((2, 2, 3, 3), 1, 1, 0, True),  # 1x1
    ((1, 2, 6, 6), 6, None, 0, True),  # the whole image
    ((2, 2, 5), 2, 1, 1, True),  # 1-d
    ((1, 2, 4, 3, 5), (2, 3, 2), (2, 1, 3), (1, 0, 0), True),  # 3-d
]
DTYPES = [numpy.float16, numpy.float32, numpy.float64]


def _geometry_params():
    params = []
    for i, (shape, k, s, p, cover_all) in enumerate(GEOMETRIES):
        for dtype in DTYPES:
            params.append({'shape': shape, 'ksize': k, 'stride': s, 'pad': p,
                           'cover_all': cover_all, 'dtype': dtype,
                           'contiguous': None if (i + DTYPES.index(dtype)) % 2 else 'C'})
    return params


@testing.parameterize(*_geometry_params())
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestMaxPoolingND(testing.FunctionTestCase):

    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        return distinct(self.shape, self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.max_pooling_nd(x, self.ksize, self.stride, self.pad, self.cover_all),

    def forward_expected(self, inputs):
        return max_reference(inputs[0], self.ksize, self.stride, self.pad, self.cover_all)[0],


class _AveragePoolingNDCase(testing.FunctionTestCase):
    __test__ = False  # the base of the two parameterized cases below

    pad_value = 0

    def setUp(self):
        _tolerances(self, {'atol': 2e-3, 'rtol': 2e-3})

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.average_pooling_nd(x, self.ksize, self.stride, self.pad, self.pad_value),

    def forward_expected(self, inputs):
        return average_reference(inputs[0], self.ksize, self.stride, self.pad,
                                 self.pad_value),


@testing.parameterize(*[p for p in _geometry_params() if not p['cover_all']
                        or p['pad'] == 0])
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestAveragePoolingND(_AveragePoolingNDCase):
    pass


@testing.parameterize(*[dict(p, pad_value=None) for p in _geometry_params()
                        if p['pad'] != 0 and not p['cover_all']])
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestAveragePoolingNDPadValueNone(_AveragePoolingNDCase):
    pass


@pytest.mark.parametrize('fn,nd', [(F.max_pooling_1d, 1), (F.max_pooling_2d, 2),
                                   (F.max_pooling_3d, 3)])
def test_max_pooling_wrappers(fn, nd):
    x = distinct((2, 3) + (5,) * nd, numpy.float32)
    expected = max_reference(x, 2, 2, 1, True)[0]
    numpy.testing.assert_array_equal(fn(x, 2, 2, 1).array, expected)
    numpy.testing.assert_array_equal(F.max_pooling_nd(x, 2, 2, 1).array, expected)
    with pytest.raises(ValueError, match="'x'"):
        fn(numpy.zeros((2, 3) + (5,) * (nd + 1), numpy.float32), 2)


@pytest.mark.parametrize('fn,nd', [(F.average_pooling_1d, 1), (F.average_pooling_3d, 3)])
def test_average_pooling_wrappers(fn, nd):
    x = numpy.random.uniform(-1, 1, (2, 3) + (5,) * nd).astype(numpy.float32)
    expected = average_reference(x, 3, 2, 1, None)
    testing.assert_allclose(fn(x, 3, 2, 1, pad_value=None).array, expected)
    with pytest.raises(ValueError, match="'x'"):
        fn(numpy.zeros((2, 3) + (5,) * (nd + 1), numpy.float32), 2)


@pytest.mark.parametrize('pad', [(2, 1), (3, 3), (1, 3)])
def test_average_pooling_ignoring_padding_gives_nan_for_windows_of_padding_alone(pad):
    # a window over padding alone has no elements to average: 0 / 0 (NaN), never -0 or
    # the product of two negative "counts"
    x = numpy.arange(1, 10, dtype=numpy.float32).reshape(1, 1, 3, 3)
    with numpy.errstate(invalid='ignore'):
        y = F.average_pooling_nd(x, 2, 2, pad, pad_value=None).array[0, 0]
    for (i, j), value in numpy.ndenumerate(y):
        rows = range(max(i * 2 - pad[0], 0), min(i * 2 - pad[0] + 2, 3))
        cols = range(max(j * 2 - pad[1], 0), min(j * 2 - pad[1] + 2, 3))
        window = x[0, 0][numpy.ix_(list(rows), list(cols))]
        if window.size:
            assert value == pytest.approx(window.mean())
        else:
            assert numpy.isnan(value)


def test_average_pooling_2d_counts_padding_as_zeros():
    x = chainer.Variable(numpy.random.uniform(-1, 1, (2, 3, 5, 4)).astype(numpy.float32))
    y = F.average_pooling_2d(x, 3, 2, 1)
    testing.assert_allclose(y.array, average_reference(x.array, 3, 2, 1, 0))
    testing.assert_allclose(y.array, F.average_pooling_nd(x, 3, 2, 1).array)
    assert isinstance(y.creator, AveragePooling2D)
    assert (y.creator.kh, y.creator.kw, y.creator.sy, y.creator.ph) == (3, 3, 2, 1)


@pytest.mark.parametrize('shape,ksize,stride,pad,cover_all', [
    ((2, 3, 4, 4), 2, None, 0, False), ((2, 3, 5, 4), 3, 2, 1, True),
    ((1, 2, 5, 6), (2, 3), (1, 2), (1, 0), True), ((1, 2, 12, 12), 6, None, 0, True)])
def test_max_pooling_return_indices(shape, ksize, stride, pad, cover_all):
    x = distinct(shape, numpy.float32)
    y, indexes = F.max_pooling_2d(x, ksize, stride, pad, cover_all, return_indices=True)
    expected_y, expected_idx = max_reference(x, ksize, stride, pad, cover_all)
    assert isinstance(y, chainer.Variable) and isinstance(indexes, numpy.ndarray)
    assert indexes.dtype == numpy.int64
    numpy.testing.assert_array_equal(y.array, expected_y)
    numpy.testing.assert_array_equal(indexes, expected_idx)
    _, nd_indexes = F.max_pooling_nd(x, ksize, stride, pad, cover_all, return_indices=True)
    numpy.testing.assert_array_equal(nd_indexes, expected_idx)


@pytest.mark.parametrize('shape,ksize,stride,pad,cover_all', GEOMETRIES)
@pytest.mark.parametrize('dtype', DTYPES)
def test_max_pooling_without_backprop_gives_the_same_maxima(shape, ksize, stride, pad,
                                                            cover_all, dtype):
    # without a graph only the maxima are computed; indexes are found when asked for
    x = distinct(shape, dtype)
    x[(0,) * x.ndim] = numpy.nan  # a NaN wins its windows on both paths
    expected = F.max_pooling_nd(x, ksize, stride, pad, cover_all).array
    node = MaxPoolingND(len(shape) - 2, ksize, stride, pad, cover_all)
    with chainer.no_backprop_mode():
        y, = node.apply((x,))
    assert y.array.flags.c_contiguous and y.dtype == dtype
    assert not numpy.shares_memory(y.array, x)
    numpy.testing.assert_array_equal(y.array, expected)
    numpy.testing.assert_array_equal(
        node.indexes, F.max_pooling_nd(x, ksize, stride, pad, cover_all,
                                       return_indices=True)[1])


def test_max_pooling_first_maximum_wins_ties():
    x = numpy.zeros((1, 1, 4, 4), numpy.float32)
    x[0, 0, 1, 1] = x[0, 0, 0, 1] = 1  # two maxima in the first window
    y, idx = F.max_pooling_2d(x, 2, return_indices=True)
    numpy.testing.assert_array_equal(idx[0, 0], [[1, 0], [0, 0]])
    v = chainer.Variable(x)
    z = F.sum(F.max_pooling_2d(v, 2))
    z.backward()
    expected = numpy.zeros_like(x)
    expected[0, 0, 0, 1] = expected[0, 0, 0, 2] = expected[0, 0, 2, 0] = expected[0, 0, 2, 2] = 1
    numpy.testing.assert_array_equal(v.grad, expected)


def test_max_pooling_2d_class_keeps_v7_attributes():
    x = distinct((2, 3, 6, 6), numpy.float32)
    p = MaxPooling2D(2, 2)
    y, = p.apply((x,))
    assert isinstance(p, MaxPoolingND)
    assert (p.kh, p.kw, p.sy, p.sx, p.ph, p.pw, p.cover_all) == (2, 2, 2, 2, 0, 0, True)
    numpy.testing.assert_array_equal(p.indexes, max_reference(x, 2, 2, 0, True)[1])
    up = F.upsampling_2d(y, p.indexes, p.kh, p.sy, p.ph, x.shape[2:])
    # every maximum back at its place, zeros elsewhere
    numpy.testing.assert_array_equal(up.array, numpy.where(
        x == numpy.repeat(numpy.repeat(y.array, 2, 2), 2, 3), x, 0))


def test_all_padding_window_gives_minus_infinity_and_no_gradient():
    x = chainer.Variable(distinct((1, 1, 2, 2), numpy.float64))
    y = F.max_pooling_2d(x, 2, 2, 2, cover_all=False)
    assert y.shape == (1, 1, 3, 3)
    assert numpy.isneginf(y.array[0, 0, 0, 0]) and numpy.isneginf(y.array[0, 0, 2, 2])
    assert numpy.isfinite(y.array).sum() == 1  # the one window that holds the image
    F.sum(F.where(numpy.isinf(y.array), numpy.zeros(y.shape), y)).backward()
    numpy.testing.assert_array_equal(x.grad.ravel(), numpy.eye(4)[x.array.argmax()])


@pytest.mark.parametrize('fn', [
    lambda x: F.max_pooling_2d(x, 2), lambda x: F.max_pooling_2d(x, 3, 2, 1),
    lambda x: F.average_pooling_2d(x, 3, 2, 1),
    lambda x: F.average_pooling_nd(x, 2, pad_value=None)])
def test_pooling_empty_batch(fn):
    x = chainer.Variable(numpy.zeros((0, 3, 5, 4), numpy.float32))
    y = fn(x)
    assert y.shape[:2] == (0, 3) and y.dtype == numpy.float32
    y.grad = numpy.zeros(y.shape, numpy.float32)
    y.backward()
    assert x.grad.shape == x.shape


def test_pooling_keeps_graph_dtypes_for_double_backward():
    x = distinct((2, 2, 4, 4), numpy.float64)
    gy = numpy.random.uniform(-1, 1, (2, 2, 2, 2))
    ggx = numpy.random.uniform(-1, 1, x.shape)
    for f in (lambda x: F.max_pooling_2d(x, 2) ** 2, lambda x: F.average_pooling_2d(x, 2) ** 2):
        gradient_check.check_double_backward(f, x, gy, ggx, atol=1e-6, rtol=1e-6)


@pytest.mark.parametrize('call,error,match', [
    (lambda: F.max_pooling_2d(numpy.zeros((1, 1, 2, 2), 'f'), 3, cover_all=False),
     ValueError, 'ksize'),
    (lambda: F.average_pooling_2d(numpy.zeros((1, 1, 2, 2), 'f'), 3), ValueError, 'ksize'),
    (lambda: F.max_pooling_2d(numpy.zeros((1, 2, 2), 'f'), 2), ValueError, "'x'"),
    (lambda: F.average_pooling_2d(numpy.zeros((1, 2, 2), 'f'), 2), InvalidType,
     'AveragePooling2D'),
    (lambda: F.max_pooling_2d(numpy.zeros((1, 1, 4, 4), 'i'), 2), InvalidType,
     'MaxPoolingND'),  # v7's max_pooling_2d applies a MaxPoolingND
    (lambda: F.max_pooling_nd(numpy.zeros((1, 1), 'f'), 2), ValueError, 'spatial'),
    (lambda: F.max_pooling_2d(numpy.zeros((1, 1, 4, 4), 'f'), 0), ValueError, 'ksize'),
    (lambda: F.max_pooling_2d(numpy.zeros((1, 1, 4, 4), 'f'), 2, 0), ValueError, 'stride'),
    (lambda: F.max_pooling_2d(numpy.zeros((1, 1, 4, 4), 'f'), 2, 1, -1), ValueError, 'pad'),
    (lambda: F.max_pooling_nd(numpy.zeros((1, 1, 4, 4), 'f'), (2, 2, 2)), ValueError,
     'ksize'),
    (lambda: F.max_pooling_2d(numpy.zeros((1, 1, 4, 4), 'f'), 2.5), TypeError, 'ksize'),
    (lambda: F.average_pooling_nd(numpy.zeros((1, 1, 4, 4), 'f'), 2, pad_value=1),
     ValueError, 'pad_value'),
])
def test_pooling_bad_arguments(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_pooling_without_type_check_still_rejects_a_wrong_ndim():
    with chainer.using_config('type_check', False), pytest.raises(ValueError, match="'x'"):
        F.average_pooling_2d(numpy.zeros((1, 2, 2), 'f'), 2)


# upsampling with the indexes of max pooling

def upsampling_reference(y, indexes, ksize, stride, pad, outsize):
    k, s, p = _tuple(ksize, 2), _tuple(stride if stride is not None else ksize, 2), \
        _tuple(pad, 2)
    out = numpy.zeros(y.shape[:2] + tuple(outsize), numpy.float64)
    for n, c, i, j in itertools.product(*[range(d) for d in y.shape]):
        ky, kx = divmod(int(indexes[n, c, i, j]), k[1])
        r, q = i * s[0] - p[0] + ky, j * s[1] - p[1] + kx
        if 0 <= r < outsize[0] and 0 <= q < outsize[1]:
            out[n, c, r, q] += y[n, c, i, j]
    return out.astype(y.dtype)


@testing.parameterize(*testing.product_dict(
    [{'shape': (2, 3, 6, 8), 'ksize': 2, 'stride': None, 'pad': 0, 'cover_all': True},
     {'shape': (2, 3, 5, 7), 'ksize': 2, 'stride': None, 'pad': 0, 'cover_all': True},
     {'shape': (1, 2, 5, 4), 'ksize': 3, 'stride': 2, 'pad': 1, 'cover_all': False}],
    [{'dtype': numpy.float16}, {'dtype': numpy.float32}, {'dtype': numpy.float64}]))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestUpsampling2D(testing.FunctionTestCase):

    def setUp(self):
        _tolerances(self)
        x = distinct(self.shape, self.dtype)
        _, self.indexes = max_reference(x, self.ksize, self.stride, self.pad,
                                        self.cover_all)

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.indexes.shape).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.upsampling_2d(x, device.send(self.indexes), self.ksize, self.stride,
                               self.pad, self.shape[2:], self.cover_all),

    def forward_expected(self, inputs):
        return upsampling_reference(inputs[0], self.indexes, self.ksize, self.stride,
                                    self.pad, self.shape[2:]),


def test_upsampling_2d_documented_example():
    x = numpy.arange(1, 37).reshape(1, 1, 6, 6).astype(numpy.float32)
    pooled, indexes = F.max_pooling_2d(x, ksize=2, stride=2, return_indices=True)
    numpy.testing.assert_array_equal(indexes, numpy.full((1, 1, 3, 3), 3))
    up = F.upsampling_2d(pooled, indexes, ksize=2, stride=2, outsize=x.shape[2:])
    expected = numpy.zeros_like(x)
    expected[:, :, 1::2, 1::2] = x[:, :, 1::2, 1::2]
    numpy.testing.assert_array_equal(up.array, expected)
    # the default output size is the smallest that pools to the input's
    assert F.upsampling_2d(pooled, indexes, 2).shape == (1, 1, 5, 5)


@pytest.mark.parametrize('call,match', [
    (lambda: F.upsampling_2d(numpy.zeros((1, 1, 2, 2), 'f'), numpy.zeros((1, 1, 2, 3), 'i'),
                             2), 'Upsampling2D'),
    (lambda: F.upsampling_2d(numpy.zeros((1, 1, 2, 2), 'f'), numpy.zeros((1, 1, 2, 2), 'i'),
                             2, outsize=(5, 5)), 'Upsampling2D'),
    (lambda: F.upsampling_2d(numpy.zeros((1, 1, 2, 2), 'i'), numpy.zeros((1, 1, 2, 2), 'i'),
                             2), 'Upsampling2D'),
])
def test_upsampling_bad_arguments(call, match):
    with pytest.raises(InvalidType, match=match):
        call()


# spatial pyramid pooling

def spp_reference(x, height):
    n, c, h, w = x.shape
    parts = []
    for level in range(height):
        bins = 2 ** level
        kh, kw = -(-h // bins), -(-w // bins)
        pad = ((kh * bins - h) // 2, (kw * bins - w) // 2)
        y, _ = max_reference(x, (kh, kw), (kh, kw), pad, True)
        parts.append(y.reshape(n, -1))
    return numpy.concatenate(parts, axis=1).reshape(n, -1, 1, 1)


@pytest.mark.parametrize('shape,height', [((2, 3, 9, 8), 3), ((1, 2, 5, 3), 2),
                                          ((2, 2, 4, 4), 1)])
def test_spatial_pyramid_pooling_2d(shape, height):
    x = distinct(shape, numpy.float64)
    y = F.spatial_pyramid_pooling_2d(x, height, pooling='max')
    assert y.shape == (shape[0], shape[1] * sum(4 ** i for i in range(height)), 1, 1)
    numpy.testing.assert_array_equal(y.array, spp_reference(x, height))
    gy = numpy.random.uniform(-1, 1, y.shape)
    f = lambda x: F.spatial_pyramid_pooling_2d(x, height, pooling='max')  # noqa: E731
    gradient_check.check_backward(f, x, gy, atol=1e-6, rtol=1e-6)
    gradient_check.check_double_backward(f, x, gy, numpy.random.uniform(-1, 1, shape),
                                         atol=1e-6, rtol=1e-6)


def test_spatial_pyramid_pooling_2d_empty_batch_and_errors():
    y = F.spatial_pyramid_pooling_2d(numpy.zeros((0, 3, 5, 5), 'f'), 2, 'max')
    assert y.shape == (0, 15, 1, 1)
    x = numpy.zeros((1, 3, 5, 5), 'f')
    with pytest.raises(ValueError, match='pooling'):
        F.spatial_pyramid_pooling_2d(x, 3)
    with pytest.raises(ValueError, match='pooling'):
        F.spatial_pyramid_pooling_2d(x, 3, pooling='avg')
    with pytest.raises(ValueError, match='pyramid_height'):
        F.spatial_pyramid_pooling_2d(x, 0, pooling='max')
    with pytest.raises(InvalidType):
        F.spatial_pyramid_pooling_2d(x.astype('i'), 2, pooling='max')


def test_max_pooling_ties_go_to_the_first_maximum_in_row_major_order():
    # as v7 (argmax over the flattened window): equal maxima at (0, 1) and (1, 0) of a
    # 2x2 window -> offset 1, and the gradient goes there
    x = numpy.array([[[[1, 5], [5, 1]]]], numpy.float32)
    y, idx = F.max_pooling_2d(x, 2, return_indices=True)
    assert idx.ravel().tolist() == [1]
    xv = chainer.Variable(x)
    F.sum(F.max_pooling_2d(xv, 2)).backward()
    numpy.testing.assert_array_equal(xv.grad.ravel(), [0, 1, 0, 0])
    x3 = numpy.zeros((1, 1, 2, 2, 2), numpy.float32)
    x3[0, 0, 1, 0, 0] = x3[0, 0, 0, 1, 1] = 1  # flat offsets 4 and 3 of the window
    _, idx3 = F.max_pooling_nd(x3, 2, return_indices=True)
    assert idx3.ravel().tolist() == [3]
