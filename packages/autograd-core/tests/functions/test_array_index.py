"""Indexing and gathering: get_item, scatter_add, select_item, permutate, where,
pad, pad_sequence, transpose_sequence."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType

F64 = numpy.float64


def _check_all(fc, fn, xs, expected, dtype, double=True):
    fc.check_forward(fn, xs, expected, dtype)
    if dtype != numpy.float16:
        fc.check_backward(fn, xs, dtype)
        if double:
            fc.check_double_backward(fn, xs, dtype)


INDEXES = [
    1, -1, slice(1, None), (Ellipsis, 1), (None, 0, Ellipsis), (slice(None, None, -1), 2),
    numpy.array([2, 0, 0]), [0, 2, 0], ([1, 2], [0, 3]), (slice(None), [3, 3, 1]),
    (numpy.array([[0, 1], [2, 2]]), slice(1, 3)), numpy.array([True, False, True]),
    (numpy.array([True, False, True]), 2), (slice(None), numpy.array([True, False, True, True])),
    numpy.array([[True, False, False, True]] * 3), (1, 2), (Ellipsis,), (),
    ([0, 1], slice(None), None), [0, slice(1, 3)], numpy.zeros((0,), numpy.int32),
]


@pytest.mark.parametrize('index', INDEXES, ids=[str(i) for i in range(len(INDEXES))])
def test_get_item(fc, index):
    x = fc.uniform((3, 4), F64)
    ref = x[tuple(index)] if isinstance(index, list) and any(
        isinstance(s, slice) for s in index) else x[index]
    _check_all(fc, lambda x: F.get_item(x, index), (x,), ref, F64)


def test_get_item_dtypes(fc, dtype):
    x = fc.uniform((3, 4), dtype)
    fc.check_forward(lambda x: x[[0, 0, 2], 1:], (x,), x[[0, 0, 2], 1:], dtype)
    fc.check_forward(lambda x: x[x.array > 0], (x,), x[x > 0], dtype)
    fc.check_backward(lambda x: x[[0, 0, 2], ::2], (x,), dtype)


def test_get_item_variable_indices_and_repeated_targets():
    x = chainer.Variable(numpy.arange(12, dtype=numpy.float32).reshape(3, 4))
    i = chainer.Variable(numpy.array([2, 0, 2], numpy.int32))
    y = F.get_item(x, i)
    numpy.testing.assert_array_equal(y.array, x.array[[2, 0, 2]])
    y = x[i, chainer.Variable(numpy.array([1, 1, 1]))]
    numpy.testing.assert_array_equal(y.array, [9, 1, 9])
    F.sum(y).backward()
    expected = numpy.zeros((3, 4), numpy.float32)
    expected[0, 1] = 1
    expected[2, 1] = 2
    numpy.testing.assert_array_equal(x.grad, expected)
    m = chainer.Variable(numpy.array([True, False, True]))
    assert x[m].shape == (2, 4)


def test_get_item_edges(fc):
    s = numpy.array(3.0)
    fc.check_forward(lambda s: F.get_item(s, None), (s,), s[None], F64)
    fc.check_forward(lambda s: s[...], (s,), s, F64)
    e = numpy.zeros((0, 3))
    assert F.get_item(e, slice(None, None, 2)).shape == (0, 3)
    nc = fc.noncontiguous(fc.uniform((3, 4), F64))
    fc.check_backward(lambda x: x[[1, 1], 1::2], (nc,), F64)


def test_get_item_errors():
    x = numpy.zeros((3, 4), numpy.float32)
    with pytest.raises(IndexError):
        F.get_item(x, 3)
    with pytest.raises(IndexError):
        F.get_item(x, (0, 0, 0))
    with pytest.raises(IndexError):
        F.get_item(x, numpy.array([0.5]))
    with pytest.raises(IndexError):
        F.get_item(x, (Ellipsis, Ellipsis))
    with pytest.raises(IndexError):
        F.get_item(x, numpy.array([True, False]))


@pytest.mark.parametrize('slices,b_shape', [
    (1, (4,)), ((slice(None), 2), (3,)), ([0, 2, 0], (3, 4)), (([1, 1], [0, 0]), (2,)),
    (numpy.array([True, False, True]), (2, 4)), ((Ellipsis, [3, 3]), (3, 2)),
    ((slice(None), 1), ()), ([0, 0], (4,))])
def test_scatter_add(fc, dtype, slices, b_shape):
    a = fc.uniform((3, 4), dtype)
    b = fc.uniform(b_shape, dtype)
    expected = a.copy()
    index = tuple(slices) if isinstance(slices, list) and any(
        isinstance(s, list) for s in slices) else slices
    numpy.add.at(expected, index, b)
    f = lambda a, b: F.scatter_add(a, slices, b)  # noqa: E731
    _check_all(fc, f, (a, b), expected, dtype)


def test_scatter_add_keeps_input_and_errors():
    a = numpy.zeros((3,), numpy.float32)
    y = F.scatter_add(a, [0, 0, 1], numpy.ones(3, numpy.float32))
    numpy.testing.assert_array_equal(y.array, [2, 1, 0])
    numpy.testing.assert_array_equal(a, 0)
    with pytest.raises(InvalidType, match='ScatterAdd'):
        F.scatter_add(a, 0, numpy.ones((), numpy.float64))
    with pytest.raises(ValueError):
        F.scatter_add(a, [0, 1], numpy.ones(3, numpy.float32))


def test_scatter_add_index_errors():
    a = numpy.zeros((4, 3, 2))
    b = numpy.ones((2, 2))
    # more than one Ellipsis: a ValueError (Chainer 7) that is also NumPy's IndexError
    with pytest.raises(ValueError):
        F.scatter_add(a, (Ellipsis, Ellipsis), b)
    with pytest.raises(IndexError):
        F.get_item(a, (Ellipsis, 0, Ellipsis))
    with pytest.raises(InvalidType, match='ScatterAdd'):
        F.scatter_add(a, (0, 0, 0, 0), b)
    with pytest.raises(InvalidType):
        F.scatter_add(a, (numpy.ones((4, 3), bool), 0, 0), b)
    y = F.scatter_add(a, (None, 0, Ellipsis, 1), numpy.ones(3))
    numpy.testing.assert_array_equal(y.array[0, :, 1], 1)
    assert y.array.sum() == 3


def test_select_item(fc, dtype):
    x = fc.uniform((4, 3), dtype)
    t = numpy.array([2, 0, 1, -1], numpy.int32)
    _check_all(fc, F.select_item, (x, t), x[numpy.arange(4), t], dtype)
    e = numpy.zeros((0, 3), dtype)
    assert F.select_item(e, numpy.zeros(0, numpy.int32)).shape == (0,)


def test_select_item_variable_t_and_errors():
    x = chainer.Variable(numpy.arange(6, dtype=numpy.float32).reshape(2, 3))
    t = chainer.Variable(numpy.array([1, 2], numpy.int64))
    y = F.select_item(x, t)
    numpy.testing.assert_array_equal(y.array, [1, 5])
    F.sum(y).backward()
    numpy.testing.assert_array_equal(x.grad, [[0, 1, 0], [0, 0, 1]])
    with pytest.raises(InvalidType, match='SelectItem'):
        F.select_item(x, numpy.array([0.0, 1.0], numpy.float32))
    with pytest.raises(InvalidType):
        F.select_item(x, numpy.array([0, 1, 1], numpy.int32))
    with pytest.raises(InvalidType):
        F.select_item(numpy.zeros(3, numpy.float32), numpy.array([0, 1, 1], numpy.int32))
    with pytest.raises(IndexError):
        F.select_item(x, numpy.array([0, 3], numpy.int32))


@pytest.mark.parametrize('t', [-1, 3])
def test_select_item_debug_mode_checks_range(t):
    x = numpy.zeros((1, 3), numpy.float32)
    with chainer.using_config('debug', True):
        with pytest.raises(ValueError, match='debug'):
            F.select_item(x, numpy.array([t], numpy.int32))
        F.select_item(x, numpy.array([2], numpy.int32))
    if t < 0:  # a negative index counts from the end outside debug mode
        y = F.select_item(numpy.arange(3, dtype=numpy.float32)[None], numpy.array([t], 'i'))
        numpy.testing.assert_array_equal(y.array, [2])


@pytest.mark.parametrize('axis,inv', [(0, False), (0, True), (1, False), (-1, True)])
def test_permutate(fc, dtype, axis, inv):
    x = fc.uniform((4, 3), dtype)
    ind = numpy.array([2, 0, 3, 1] if axis == 0 else [1, 2, 0], numpy.int32)
    if inv:
        expected = numpy.empty_like(x)
        numpy.moveaxis(expected, axis, 0)[ind] = numpy.moveaxis(x, axis, 0)
    else:
        expected = numpy.take(x, ind, axis)
    _check_all(fc, lambda x: F.permutate(x, ind, axis, inv), (x,), expected, dtype)


def test_permutate_variable_indices_and_errors():
    x = numpy.arange(3, dtype=numpy.float32)
    y = F.permutate(x, chainer.Variable(numpy.array([2, 0, 1], numpy.int32)))
    numpy.testing.assert_array_equal(y.array, [2, 0, 1])
    with pytest.raises(ValueError, match='permutation'):
        F.permutate(x, numpy.array([0, 0, 1], numpy.int32))
    with pytest.raises(InvalidType, match='Permutate'):
        F.permutate(x, numpy.array([0, 1], numpy.int32))
    with pytest.raises(InvalidType):
        F.permutate(x, numpy.array([0.0, 1.0, 2.0]))


@pytest.mark.parametrize('cshape,xshape,yshape', [((3, 2), (3, 2), (3, 2)),
                                                  ((3, 1), (3, 2), (2,)),
                                                  ((), (2,), (1,)), ((2,), (), ())])
def test_where(fc, dtype, cshape, xshape, yshape):
    c = fc.rng.uniform(size=cshape) > 0.5
    x = fc.uniform(xshape, dtype)
    y = fc.uniform(yshape, dtype)
    f = lambda x, y: F.where(c, x, y)  # noqa: E731
    _check_all(fc, f, (x, y), numpy.where(c, x, y).astype(dtype), dtype)


def test_where_variable_condition_and_errors():
    c = chainer.Variable(numpy.array([True, False]))
    y = F.where(c, numpy.ones(2, 'f'), numpy.zeros(2, 'f'))
    numpy.testing.assert_array_equal(y.array, [1, 0])
    x = chainer.Variable(numpy.array([3.0, 4.0], 'f'))
    y = F.where(c, x, 0.0)
    assert y.dtype == numpy.float32
    numpy.testing.assert_array_equal(y.array, [3, 0])
    F.sum(y).backward()
    numpy.testing.assert_array_equal(x.grad, [1, 0])
    numpy.testing.assert_array_equal(F.where(c, -1, x).array, [-1, 4])
    with pytest.raises(TypeError):
        F.where(c, 1.0, 0.0)
    with pytest.raises(InvalidType, match='Where'):
        F.where(numpy.array([1, 0]), numpy.ones(2, 'f'), numpy.zeros(2, 'f'))
    with pytest.raises(InvalidType):
        F.where(numpy.array([True, False]), numpy.ones(2, 'f'), numpy.zeros(2, 'd'))
    with pytest.raises(InvalidType):
        F.where(numpy.array([True, False]), numpy.ones(3, 'f'), numpy.zeros(2, 'f'))


@pytest.mark.parametrize('pad_width,mode,kw', [
    (1, 'constant', {}), (((0, 1), (2, 0)), 'constant', {'constant_values': 3.0}),
    ((1, 2), 'edge', {}), (2, 'reflect', {}), ((1, 3), 'symmetric', {}), (((3, 1), (0, 4)),
                                                                          'wrap', {}),
    (1, 'reflect', {'reflect_type': 'even'})])
def test_pad(fc, dtype, pad_width, mode, kw):
    x = fc.uniform((3, 2), dtype)
    f = lambda x: F.pad(x, pad_width, mode, **kw)  # noqa: E731
    _check_all(fc, f, (x,), numpy.pad(x, pad_width, mode, **kw), dtype)


def test_pad_edges_and_errors(fc):
    s = numpy.array(2.0)
    fc.check_forward(lambda s: F.pad(s, 1, 'constant'), (s,), s, F64)
    e = numpy.zeros((0, 2))
    assert F.pad(e, 1, 'constant').shape == (2, 4)
    nc = fc.noncontiguous(fc.uniform((2, 3), F64))
    fc.check_backward(lambda x: F.pad(x, 1, 'edge'), (nc,), F64)
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError):
        F.pad(x, -1, 'constant')
    with pytest.raises(ValueError):
        F.pad(x, ((1, 1), (1, 1), (1, 1)), 'constant')
    with pytest.raises(ValueError, match='mode'):
        F.pad(x, 1, 'median')
    with pytest.raises(TypeError):
        F.pad(x, 1, 'constant', reflect_type='odd')
    with pytest.raises(ValueError, match='odd'):
        F.pad(x, 1, 'reflect', reflect_type='odd')


@pytest.mark.parametrize('length,padding', [(None, 0), (5, -1.0)])
def test_pad_sequence(fc, dtype, length, padding):
    xs = [fc.uniform((n, 2), dtype) for n in (3, 1, 4)]
    total = length or 4
    expected = numpy.full((3, total, 2), padding, dtype)
    for i, x in enumerate(xs):
        expected[i, :len(x)] = x
    f = lambda *xs: F.pad_sequence(xs, length, padding)  # noqa: E731
    _check_all(fc, f, xs, expected, dtype)


@pytest.mark.parametrize('dtype,padding,filled', [
    (numpy.uint8, -1, 255), (numpy.uint32, -1, 2 ** 32 - 1), (numpy.int8, -1, -1),
    (numpy.bool_, 0, False), (numpy.int16, 7, 7)])
def test_pad_sequence_integer_padding_wraps(dtype, padding, filled):
    # an int padding is cast as NumPy 1 did (NumPy 2 raises OverflowError in numpy.full)
    xs = [numpy.ones((2, 3), dtype), numpy.ones((1, 3), dtype)]
    y = F.pad_sequence(xs, 3, padding)
    assert y.dtype == dtype
    numpy.testing.assert_array_equal(y.array[1, 1:], numpy.full((2, 3), filled, dtype))
    numpy.testing.assert_array_equal(y.array[0, :2], xs[0])


def test_pad_sequence_edges_and_errors(fc):
    y = F.pad_sequence([numpy.zeros((0, 3), 'f'), numpy.ones((2, 3), 'f')])
    assert y.shape == (2, 2, 3)
    fc.check_backward(lambda a: F.pad_sequence([a]), (fc.uniform((2,), F64),), F64)
    with pytest.raises(InvalidType, match='PadSequence'):  # as Chainer 7
        F.pad_sequence([numpy.zeros(3, 'f')], length=2)
    with chainer.using_config('type_check', False), pytest.raises(ValueError):
        F.pad_sequence([numpy.zeros(3, 'f')], length=2)
    with pytest.raises(InvalidType, match='PadSequence'):
        F.pad_sequence([numpy.zeros((2, 3), 'f'), numpy.zeros((2, 2), 'f')])
    with pytest.raises(InvalidType):
        F.pad_sequence([])


def test_transpose_sequence(fc, dtype):
    xs = [fc.uniform((n, 2), dtype) for n in (4, 2, 2, 1)]
    expected = tuple(numpy.stack([x[t] for x in xs if len(x) > t]) for t in range(4))
    f = lambda *xs: F.transpose_sequence(xs)  # noqa: E731
    _check_all(fc, f, xs, expected, dtype)
    back = F.transpose_sequence(F.transpose_sequence(xs))
    for x, b in zip(xs, back):
        numpy.testing.assert_array_equal(x, b.array)


def test_transpose_sequence_unused_outputs_and_edges(fc):
    xs = [fc.uniform((n,), F64) for n in (3, 2, 0)]
    fc.check_backward(lambda *xs: F.transpose_sequence(xs)[1], xs, F64)
    fc.check_double_backward(lambda *xs: F.transpose_sequence(xs)[0], xs, F64)
    assert F.transpose_sequence([]) == ()
    v = chainer.Variable(xs[0])
    ys = F.transpose_sequence([v, xs[1]])
    F.sum(ys[2]).backward()
    numpy.testing.assert_array_equal(v.grad, [0, 0, 1])
    with pytest.raises(InvalidType, match='TransposeSequence'):
        F.transpose_sequence([numpy.zeros(2), numpy.zeros(3)])
    with pytest.raises(InvalidType):
        F.transpose_sequence([numpy.zeros((2, 2)), numpy.zeros((2, 3))])
