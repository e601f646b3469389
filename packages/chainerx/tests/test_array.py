import numpy
import pytest

import chainerx


def test_attributes_follow_numpy():
    host = numpy.arange(24, dtype=numpy.float32).reshape(2, 3, 4)
    a = chainerx.asarray(host)
    assert a.shape == (2, 3, 4) and a.dtype == chainerx.float32 and a.ndim == 3
    assert a.size == 24 and a.itemsize == 4 and a.nbytes == 96
    assert a.strides == host.strides and a.is_contiguous and a.offset == 0
    t = a.T
    assert t.shape == (4, 3, 2) and t.strides == host.T.strides and not t.is_contiguous
    s = a[:, 1:]
    assert s.offset == 16
    assert chainerx.to_numpy(s, copy=False).base is not None


def test_asarray_shares_and_array_copies():
    host = numpy.zeros(3, numpy.float32)
    shared = chainerx.asarray(host)
    copied = chainerx.array(host)
    host[0] = 5
    assert shared._debug_flat_data == [5, 0, 0]
    assert copied._debug_flat_data == [0, 0, 0]


def test_item_and_scalar_casts():
    assert chainerx.array([2.5], chainerx.float32).item() == 2.5
    assert int(chainerx.array(3, chainerx.int8)) == 3
    with pytest.raises(chainerx.DimensionError):
        float(chainerx.ones((2,)))


def test_astype_copy_rule():
    a = chainerx.ones((2,), chainerx.float32)
    assert a.astype(chainerx.float32, copy=False) is a
    b = a.astype('int16')
    assert b.dtype == chainerx.int16 and b is not a


def test_repr():
    a = chainerx.array([[0, 1], [2, 3]], chainerx.int8)
    assert repr(a) == ("array([[0, 1],\n       [2, 3]], shape=(2, 2), dtype=int8, "
                       "device='native:0')")


@pytest.mark.parametrize('dtypes,expected', [
    (('int64', 'float16'), 'float16'),
    (('uint8', 'int8'), 'int16'),
    (('float32', 'float64'), 'float64'),
    (('int8', 'int32'), 'int32'),
])
def test_promotion_between_arrays(dtypes, expected):
    a = chainerx.ones((2,), dtypes[0])
    b = chainerx.ones((2,), dtypes[1])
    assert (a + b).dtype == numpy.dtype(expected)
    assert (b * a).dtype == numpy.dtype(expected)


@pytest.mark.parametrize('dtype,scalar,expected', [
    ('int8', 1.5, 'float32'), ('float16', 2.0, 'float16'), ('uint8', 300, 'uint8'),
    ('int16', numpy.float64(1), 'float32'), ('float64', 1, 'float64'),
])
def test_promotion_with_scalars(dtype, scalar, expected):
    a = chainerx.ones((2,), dtype)
    assert (a + scalar).dtype == numpy.dtype(expected)
    assert (scalar * a).dtype == numpy.dtype(expected)


def test_bool_arithmetic_and_integer_division():
    with pytest.raises(chainerx.DtypeError):
        chainerx.ones((2,), 'bool') + chainerx.ones((2,), 'bool')
    q = chainerx.array([3, 4], 'int32') / chainerx.array([2, 2], 'int32')
    assert q.dtype == chainerx.float32 and q._debug_flat_data == [1.5, 2.0]


def test_inplace_ops_check_kind():
    a = chainerx.array([1, 2], 'int32')
    a += 3
    assert a._debug_flat_data == [4, 5]
    with pytest.raises(chainerx.DtypeError):
        a += chainerx.array([0.5, 0.5], 'float32')


def test_indexing_views_and_setitem():
    host = numpy.arange(12, dtype=numpy.float32).reshape(3, 4)
    a = chainerx.array(host)
    numpy.testing.assert_array_equal(chainerx.to_numpy(a[1]), host[1])
    numpy.testing.assert_array_equal(chainerx.to_numpy(a[..., None, ::-2]), host[..., None, ::-2])
    idx = chainerx.array([2, 0, 2], 'int64')
    numpy.testing.assert_array_equal(chainerx.to_numpy(a[idx]), host[[2, 0, 2]])
    a[0, :] = 7
    assert a._debug_flat_data[:4] == [7, 7, 7, 7]


def test_setitem_on_graph_array_is_refused():
    a = chainerx.ones((2,)).require_grad()
    with pytest.raises(chainerx.ChainerxError):
        a[0] = 3


def test_numpy_scalars_defer_to_chainerx():
    a = chainerx.ones((2,), 'float32')
    out = numpy.float32(2) * a
    assert isinstance(out, chainerx.ndarray) and out._debug_flat_data == [2, 2]


class _Reflected:
    """An operand ChainerX does not take, with reflected operators of its own."""

    def __radd__(self, other):
        return ('radd', other)

    def __rmul__(self, other):
        return ('rmul', other)

    def __rmatmul__(self, other):
        return ('rmatmul', other)

    def __rlshift__(self, other):
        return ('rlshift', other)


def test_operators_defer_to_operands_they_do_not_take():
    a = chainerx.arange(3)
    other = _Reflected()
    assert (a + other)[0] == 'radd' and (a + other)[1] is a
    assert (a * other)[0] == 'rmul'
    assert (a @ other)[0] == 'rmatmul'
    assert (a << other)[0] == 'rlshift'
    with pytest.raises(TypeError):
        a - other  # no reflected operator: Python's TypeError
    with pytest.raises(TypeError):
        a + 'text'
    b = chainerx.arange(3)
    b += 1  # scalars and arrays still run here
    assert b.tolist() == [1, 2, 3]
    with pytest.raises(TypeError, match='unsupported operand type'):
        a + numpy.ones(3)  # NumPy arrays: ChainerX's own clear error
