"""Shape and layout functions: expand_dims, squeeze, swapaxes, flatten, flip*,
moveaxis, rollaxis, transpose, reshape, broadcast*, as_strided, diagonal, tile,
repeat, cast, copy."""

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


@pytest.mark.parametrize('axis', [0, 2, -1, -3])
def test_expand_dims(fc, dtype, axis):
    x = fc.uniform((2, 3), dtype)
    _check_all(fc, lambda x: F.expand_dims(x, axis), (x,), numpy.expand_dims(x, axis), dtype)


@pytest.mark.parametrize('axis', [None, 0, (0, 2), -1])
def test_squeeze(fc, dtype, axis):
    x = fc.uniform((1, 3, 1), dtype)
    _check_all(fc, lambda x: F.squeeze(x, axis), (x,), numpy.squeeze(x, axis), dtype)


@pytest.mark.parametrize('a1,a2', [(0, 1), (0, -1), (2, 2)])
def test_swapaxes(fc, dtype, a1, a2):
    x = fc.uniform((2, 3, 4), dtype)
    _check_all(fc, lambda x: F.swapaxes(x, a1, a2), (x,), x.swapaxes(a1, a2), dtype)


def test_flatten(fc, dtype):
    x = fc.noncontiguous(fc.uniform((2, 3), dtype))
    _check_all(fc, F.flatten, (x,), x.ravel(), dtype)
    fc.check_forward(F.flatten, (numpy.ones((), dtype),), numpy.ones(1, dtype), dtype)
    assert F.flatten(numpy.zeros((2, 0), dtype)).shape == (0,)
    with pytest.raises(TypeError):
        F.flatten([1.0, 2.0])


@pytest.mark.parametrize('fn,ref', [
    (lambda x: F.flip(x, 1), lambda x: numpy.flip(x, 1)),
    (lambda x: F.flip(x, -3), lambda x: numpy.flip(x, -3)),
    (F.fliplr, numpy.fliplr), (F.flipud, numpy.flipud)])
def test_flip(fc, dtype, fn, ref):
    x = fc.uniform((3, 2, 4), dtype)
    _check_all(fc, fn, (x,), ref(x), dtype)


@pytest.mark.parametrize('axis', [0, 1, -1])
def test_flip_array_helper(fc, axis):
    from chainer.functions.array.flip import _flip

    x = fc.uniform((2, 3, 4), numpy.float32)
    y = _flip(x, axis)
    numpy.testing.assert_array_equal(y, numpy.flip(x, axis))
    assert numpy.shares_memory(x, y)


@pytest.mark.parametrize('src,dst', [(0, 2), (-1, 0), ((0, 1), (2, 0)), ([2], [-2])])
def test_moveaxis(fc, dtype, src, dst):
    x = fc.uniform((2, 3, 4), dtype)
    _check_all(fc, lambda x: F.moveaxis(x, src, dst), (x,), numpy.moveaxis(x, src, dst), dtype)


@pytest.mark.parametrize('axis,start', [(2, 0), (0, 3), (1, -1), (-1, 1), (1, 1), (0, -3)])
def test_rollaxis(fc, dtype, axis, start):
    x = fc.uniform((2, 3, 4), dtype)
    _check_all(fc, lambda x: F.rollaxis(x, axis, start), (x,), numpy.rollaxis(x, axis, start),
               dtype)


@pytest.mark.parametrize('axes', [None, (1, 0, 2), (-1, 0, 1)])
def test_transpose(fc, dtype, axes):
    x = fc.uniform((2, 3, 4), dtype)
    _check_all(fc, lambda x: F.transpose(x, axes), (x,), x.transpose(axes), dtype)


def test_reshape(fc, dtype):
    x = fc.uniform((2, 3, 2), dtype)
    _check_all(fc, lambda x: F.reshape(x, (3, -1)), (x,), x.reshape(3, 4), dtype)
    fc.check_forward(lambda x: F.reshape(x, ()), (x[:1, :1, :1],), x[0, 0, 0], dtype)


def test_shape_edge_cases(fc):
    e = numpy.zeros((0, 1, 3), numpy.float32)
    assert F.squeeze(e).shape == (0, 3)
    assert F.expand_dims(e, 3).shape == (0, 1, 3, 1)
    assert F.swapaxes(e, 0, 2).shape == (3, 1, 0)
    assert F.flip(e, 0).shape == e.shape
    assert F.moveaxis(e, 0, -1).shape == (1, 3, 0)
    assert F.rollaxis(e, 2).shape == (3, 0, 1)
    s = numpy.array(2.0, numpy.float32)
    assert F.expand_dims(s, 0).shape == (1,)
    assert F.squeeze(s).shape == ()
    nc = fc.noncontiguous(fc.uniform((2, 3), F64))
    fc.check_backward(lambda x: F.swapaxes(F.expand_dims(x, 1), 0, 2), (nc,), F64)


def test_shape_errors():
    x = numpy.zeros((2, 1, 3), numpy.float32)
    with pytest.raises(InvalidType, match='ExpandDims'):
        F.expand_dims(x, 4)
    with pytest.raises(InvalidType, match='Squeeze'):
        F.squeeze(x, -4)
    with pytest.raises(ValueError, match='length 2'):  # an axis not of length one
        F.squeeze(x, 0)
    with pytest.raises(ValueError):
        F.squeeze(x, (1, 2))
    with pytest.raises(InvalidType):
        F.squeeze(x, 3)
    with pytest.raises(ValueError):
        F.squeeze(x, (1, -2))
    with pytest.raises(InvalidType, match='Swapaxes'):
        F.swapaxes(x, 0, 3)
    with pytest.raises(InvalidType, match='Flip'):
        F.flip(x, 3)
    with pytest.raises(InvalidType):
        F.fliplr(numpy.zeros(3))
    with pytest.raises(InvalidType):
        F.flipud(numpy.zeros(()))
    with pytest.raises(InvalidType, match='Moveaxis'):
        F.moveaxis(x, 0, 3)
    with pytest.raises(ValueError):
        F.moveaxis(x, (0, 0), (1, 2))
    with pytest.raises(ValueError):
        F.moveaxis(x, (0, 1), 2)
    with pytest.raises(InvalidType, match='Rollaxis'):
        F.rollaxis(x, 3)
    with pytest.raises(InvalidType):
        F.rollaxis(x, 0, 4)
    with pytest.raises(ValueError):
        F.transpose(x, (0, 1))
    with pytest.raises(TypeError):
        F.expand_dims(x, 1.0)
    with pytest.raises(InvalidType, match='Reshape'):  # as Chainer 7
        F.reshape(x, (4, 2))
    with pytest.raises(InvalidType, match='Reshape'):
        F.reshape(x, (4, -1))


@pytest.mark.parametrize('shape,to', [((3,), (2, 3)), ((2, 1), (2, 4)), ((), (2, 2)),
                                      ((1, 3), (1, 3))])
def test_broadcast_to(fc, dtype, shape, to):
    x = fc.uniform(shape, dtype)
    _check_all(fc, lambda x: F.broadcast_to(x, to), (x,), numpy.broadcast_to(x, to), dtype)


def test_broadcast(fc, dtype):
    a = fc.uniform((2, 1), dtype)
    b = fc.uniform((3,), dtype)
    c = fc.uniform((), dtype)
    f = lambda a, b, c: F.broadcast(a, b, c)  # noqa: E731
    _check_all(fc, f, (a, b, c), tuple(numpy.broadcast_arrays(a, b, c)), dtype)
    fc.check_backward(lambda a, b: F.broadcast(a, b)[1], (a, b), F64, atol=1e-2, rtol=1e-2)
    v = F.broadcast(a)
    assert isinstance(v, chainer.Variable) and v.shape == (2, 1)


@pytest.mark.parametrize('fn', [lambda x: F.reshape(x, (2, 3)),
                                lambda x: F.broadcast_to(x, (2, 3))])
def test_same_shape_is_a_no_op(fn):
    # as Chainer 7: an array already of the shape comes back wrapped, a Variable as itself
    a = numpy.zeros((2, 3), numpy.float32)
    y = fn(a)
    assert isinstance(y, chainer.Variable) and y.array is a and y.creator is None
    v = chainer.Variable(a)
    assert fn(v) is v


def test_broadcast_errors():
    with pytest.raises(InvalidType, match='BroadcastTo'):
        F.broadcast_to(numpy.zeros((2, 3)), (3, 3))
    with pytest.raises(InvalidType):
        F.broadcast_to(numpy.zeros((2, 3)), (3,))
    with pytest.raises(InvalidType) as info:
        F.broadcast(numpy.zeros((2, 3)), numpy.zeros(2))
    # v7's text: no "Invalid operation" header for a broadcast failure
    assert str(info.value) == ('cannot broadcast inputs of the following shapes:\n'
                               'in_types[0].shape = (2, 3)\nin_types[1].shape = (2,)')


@pytest.mark.parametrize('shape,strides,offset', [
    ((3, 2), (1, 1), 0),          # overlapping windows
    ((2, 3), (3, 1), None),
    ((2, 2), (1, 4), 2),
    ((3,), (-2,), 5),
    ((2, 0), (1, 1), 0),
])
def test_as_strided(fc, dtype, shape, strides, offset):
    x = fc.uniform((2, 4), dtype)
    flat = x.ravel()
    off = offset or 0
    expected = numpy.zeros(shape, dtype)
    for idx in numpy.ndindex(*shape):
        expected[idx] = flat[off + sum(i * s for i, s in zip(idx, strides))]
    f = lambda x: F.as_strided(x, shape, strides, offset)  # noqa: E731
    _check_all(fc, f, (x,), expected, dtype)


def test_as_strided_docs_example_and_errors():
    x = chainer.Variable(numpy.arange(4, dtype=numpy.float32))
    y = F.as_strided(x, (3, 2), (1, 1), 0)
    numpy.testing.assert_array_equal(y.array, [[0, 1], [1, 2], [2, 3]])
    y.grad = numpy.ones((3, 2), numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [1, 2, 2, 1])
    with pytest.raises(ValueError):
        F.as_strided(x, (3, 2), (1, 2))
    with pytest.raises(ValueError):
        F.as_strided(x, (2,), (1,), -1)
    with pytest.raises(ValueError):
        F.as_strided(x, (2, 2), (1,))


def _storage_grad(gy, out_geometry, in_geometry, size):
    """NumPy reference of as_strided's gradient: the storage gradient shared among the
    elements of x that occupy each storage element."""
    def positions(shape, strides, offset):
        pos = numpy.zeros(shape, numpy.int64) + offset
        for idx in numpy.ndindex(*shape):
            pos[idx] += sum(i * s for i, s in zip(idx, strides))
        return pos

    out_pos, in_pos = positions(*out_geometry), positions(*in_geometry)
    g = numpy.zeros(size)
    numpy.add.at(g, out_pos, gy)
    count = numpy.zeros(size)
    numpy.add.at(count, in_pos, 1)
    return g[in_pos] / count[in_pos]


def test_as_strided_reads_the_storage_of_a_view():
    # as Chainer 7: the storage is the memory of the array owning the data, not x in C order
    base = numpy.arange(12, dtype=F64)
    x = base.reshape(3, 4)[::-1]
    y = F.as_strided(x, (12,), (1,), 0)
    numpy.testing.assert_array_equal(y.array, base)
    assert numpy.shares_memory(y.array, base)
    z = F.as_strided(base[4:8], (2, 2), (1, 4), 1)
    numpy.testing.assert_array_equal(z.array, [[1, 5], [2, 6]])


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, F64])
def test_as_strided_overlapping_input_shares_gradient(fc, dtype):
    from chainer.functions.array.as_strided import _stride_array

    storage = numpy.arange(8, dtype=dtype)
    x = _stride_array(storage, (3, 3), (-1, 2), 3)  # elements 3, 5 share storage
    numpy.testing.assert_array_equal(x, [[3, 5, 7], [2, 4, 6], [1, 3, 5]])
    v = chainer.Variable(x)
    y = F.as_strided(v, (3, 3), (1, 2), 0)
    numpy.testing.assert_array_equal(y.array, [[0, 2, 4], [1, 3, 5], [2, 4, 6]])
    gy = chainer.Variable(fc.uniform((3, 3), dtype))
    gx, = chainer.grad((y,), (v,), (gy,), enable_double_backprop=True)
    expected = _storage_grad(gy.array.astype(F64), ((3, 3), (1, 2), 0),
                             ((3, 3), (-1, 2), 3), 8)
    assert gx.dtype == dtype
    tol = {'atol': 1e-3, 'rtol': 1e-2} if dtype == numpy.float16 else {}
    chainer.testing.assert_allclose(gx.array, expected, **tol)
    # the gradient of the gradient is its adjoint: <ggx, gx(gy)> == <ggy(ggx), gy>
    ggx = fc.uniform((3, 3), dtype)
    ggy, = chainer.grad((gx,), (gy,), (chainer.Variable(ggx),))
    lhs = float((ggx.astype(F64) * gx.array.astype(F64)).sum())
    rhs = float((ggy.array.astype(F64) * gy.array.astype(F64)).sum())
    assert abs(lhs - rhs) < {numpy.float16: 1e-2, numpy.float32: 1e-5, F64: 1e-12}[dtype]


def test_as_strided_gradient_of_a_noncontiguous_view(fc):
    nc = fc.noncontiguous(fc.uniform((3, 4), F64))  # its storage: the (3, 8) base
    v = chainer.Variable(nc)
    y = F.as_strided(v, (2, 3), (3, 2), 1)
    expected = nc.base.ravel()[1 + numpy.arange(2)[:, None] * 3 + numpy.arange(3) * 2]
    numpy.testing.assert_array_equal(y.array, expected)
    gy = fc.uniform((2, 3), F64)
    gx, = chainer.grad((y,), (v,), (chainer.Variable(gy),))
    numpy.testing.assert_allclose(
        gx.array, _storage_grad(gy, ((2, 3), (3, 2), 1), ((3, 4), (8, 2), 0), 24))


def test_as_strided_integer_input():
    x = chainer.Variable(numpy.arange(4, dtype=numpy.int32))
    y = F.as_strided(x, (4,), (-1,), 3)
    numpy.testing.assert_array_equal(y.array, [3, 2, 1, 0])
    y.grad = numpy.ones(4, numpy.int32)
    with pytest.raises(TypeError, match='floating'):
        chainer.grad((y,), (x,))


def test_stride_array_errors():
    from chainer.functions.array.as_strided import _stride_array

    a = numpy.arange(8.0)
    with pytest.raises(ValueError, match='outside'):
        _stride_array(a, (3, 3), (-1, 2), 1)
    with pytest.raises(ValueError, match='outside'):
        _stride_array(a, (3,), (4,), 0)
    assert _stride_array(a, (0, 3), (5, 5), 0).shape == (0, 3)


@pytest.mark.parametrize('offset,a1,a2', [(0, 0, 1), (1, 0, 1), (-1, 1, 2), (2, -1, 0)])
def test_diagonal(fc, dtype, offset, a1, a2):
    x = fc.uniform((3, 4, 2), dtype)
    f = lambda x: F.diagonal(x, offset, a1, a2)  # noqa: E731
    _check_all(fc, f, (x,), numpy.diagonal(x, offset, a1, a2), dtype)


def test_diagonal_edges_and_errors(fc):
    assert F.diagonal(numpy.zeros((2, 3)), 5).shape == (0,)
    nc = fc.noncontiguous(fc.uniform((3, 3), F64))
    fc.check_backward(lambda x: F.diagonal(x), (nc,), F64)
    with pytest.raises(InvalidType, match='Diagonal'):
        F.diagonal(numpy.zeros(3))
    with pytest.raises(ValueError):
        F.diagonal(numpy.zeros((2, 2)), 0, 1, 1)


@pytest.mark.parametrize('shape,reps', [((2, 3), 2), ((2, 3), (2, 1)), ((3,), (2, 2)),
                                        ((2, 1, 2), (1, 3)), ((), 3), ((2,), 0)])
def test_tile(fc, dtype, shape, reps):
    x = fc.uniform(shape, dtype)
    _check_all(fc, lambda x: F.tile(x, reps), (x,), numpy.tile(x, reps), dtype)


def test_tile_errors():
    with pytest.raises(ValueError):
        F.tile(numpy.zeros(2), -1)
    with pytest.raises(TypeError):
        F.tile(numpy.zeros(2), 1.5)


@pytest.mark.parametrize('shape,repeats,axis', [
    ((2, 3), 2, None), ((2, 3), 2, 1), ((2, 3), (1, 0, 3), 1), ((2, 3), [2], -2),
    ((3,), (2, 1, 2), None), ((), 3, None), ((2, 3), 0, 0)])
def test_repeat(fc, dtype, shape, repeats, axis):
    x = fc.uniform(shape, dtype)
    f = lambda x: F.repeat(x, repeats, axis)  # noqa: E731
    _check_all(fc, f, (x,), numpy.repeat(x, repeats, axis), dtype)


@pytest.mark.parametrize('repeats', [True, False, (True,), (True, False, True)])
def test_repeat_bool_repeats(fc, repeats):
    # booleans count as 0 and 1, as in NumPy and Chainer 7
    x = fc.uniform((3,), F64)
    _check_all(fc, lambda x: F.repeat(x, repeats, 0), (x,), numpy.repeat(x, repeats, 0), F64)


def test_repeat_errors():
    with pytest.raises(ValueError):
        F.repeat(numpy.zeros((2, 3)), (1, 2), 1)
    with pytest.raises(ValueError):
        F.repeat(numpy.zeros(2), -1)
    with pytest.raises(InvalidType, match='Repeat'):
        F.repeat(numpy.zeros(2), 2, 1)


@pytest.mark.parametrize('to', [numpy.float16, numpy.float32, numpy.float64])
def test_cast(fc, dtype, to):
    x = fc.uniform((3, 2), dtype)
    y = fc.check_forward(lambda x: F.cast(x, to), (x,), x.astype(to), dtype)[0]
    assert y.dtype == to
    v = chainer.Variable(x)
    y = F.cast(v, to)
    y.grad = numpy.ones(y.shape, to)
    y.backward()
    assert v.grad.dtype == dtype
    numpy.testing.assert_array_equal(v.grad, numpy.ones_like(x))
    if dtype == F64:
        fc.check_backward(lambda x: F.cast(x, to), (x,), to)
        fc.check_double_backward(lambda x: F.cast(x, to), (x,), to)


def test_cast_same_type_and_ints():
    x = numpy.arange(3, dtype=numpy.int32)
    y = F.cast(x, numpy.float32)
    assert y.dtype == numpy.float32
    v = chainer.Variable(numpy.ones(2, numpy.float32))
    assert F.cast(v, numpy.float32).creator is not None
    with chainer.no_backprop_mode():
        assert F.cast(v, 'f') is v
    with pytest.raises(TypeError):
        F.cast(v, 'not-a-dtype')


def test_copy(fc):
    x = fc.uniform((2, 3), numpy.float32)
    for dst in (-1, '@numpy', chainer.get_device('@numpy')):
        y = fc.check_forward(lambda x, dst=dst: F.copy(x, dst), (x,), x)[0]
        assert isinstance(y.array, numpy.ndarray)
        assert not numpy.shares_memory(y.array, x)
    fc.check_backward(lambda x: F.copy(x, -1), (x.astype(F64),), F64)
    fc.check_double_backward(lambda x: F.copy(x, -1), (x.astype(F64),), F64)
    with pytest.raises((ValueError, TypeError, RuntimeError)):
        F.copy(x, 'nowhere')
