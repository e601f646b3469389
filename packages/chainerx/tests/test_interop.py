"""chainerx._core._fromrawpointer: arrays over memory another library owns."""

import sys

import numpy
import pytest

import chainerx
import chainerx.testing

_fromrawpointer = chainerx._core._fromrawpointer


def _root_and_offset(a):
    root = a
    while root.base is not None:
        root = root.base
    return root, a.__array_interface__['data'][0] - root.__array_interface__['data'][0]


@pytest.mark.parametrize('view', [
    lambda a: a, lambda a: a[::-1, ::2], lambda a: a[:, 1:].T, lambda a: a[1:1]])
def test_native_view_shares_memory_with_its_owner(view):
    owner = numpy.arange(12, dtype=numpy.float32).reshape(2, 6)
    a = view(owner)
    root, offset = _root_and_offset(a)
    refs = sys.getrefcount(root)
    x = _fromrawpointer(root.ctypes.data, a.shape, a.dtype, a.strides, 'native:0', offset,
                        root)
    assert sys.getrefcount(root) == refs + 1  # the owner is kept alive
    assert x.device.name == 'native:0' and x.strides == a.strides
    chainerx.testing.assert_array_equal_ex(x, a)
    if a.size:
        owner[...] = -owner  # writes on either side show on the other
        numpy.testing.assert_array_equal(chainerx.to_numpy(x), a)
        x[...] = 7
        assert (a == 7).all()
    del x
    assert sys.getrefcount(root) == refs


def test_native_owner_outlives_the_names():
    owner = numpy.arange(6, dtype=numpy.int64)
    x = _fromrawpointer(owner.ctypes.data, (2, 3), 'int64', (24, 8), 'native:0', 0, owner)
    del owner
    assert chainerx.to_numpy(x).tolist() == [[0, 1, 2], [3, 4, 5]]


def test_shape_and_strides_must_agree():
    owner = numpy.zeros(4)
    with pytest.raises(chainerx.ChainerxError):
        _fromrawpointer(owner.ctypes.data, (2, 2), 'float64', (8,), 'native:0', 0, owner)


def test_data_size_is_the_whole_buffer():
    a = chainerx.arange(12, dtype='float32').reshape(2, 6)[::-1, ::2]
    assert a.offset == 24 and a.data_size == 48


def test_testing_dtypes_is_a_module_with_the_lists():
    assert chainerx.testing.dtypes.all_dtypes == chainerx.testing.all_dtypes
    assert set(chainerx.testing.dtypes.float_dtypes) <= set(chainerx.testing.all_dtypes)


def _cupy_or_skip():
    cupy = pytest.importorskip('cupy')
    try:
        if cupy.cuda.runtime.getDeviceCount() < 1:
            pytest.skip('no CUDA device')
    except cupy.cuda.runtime.CUDARuntimeError:
        pytest.skip('no CUDA device')
    return cupy


@pytest.mark.gpu
def test_cuda_view_of_a_cupy_array():
    cupy = _cupy_or_skip()
    owner = cupy.arange(12, dtype=cupy.float32).reshape(2, 6)
    a = owner[::-1, ::2]
    x = _fromrawpointer(owner.data.mem.ptr, a.shape, a.dtype, a.strides, 'cuda:0',
                        a.data.ptr - owner.data.mem.ptr, owner)
    assert x.device.name == 'cuda:0' and x.strides == a.strides
    chainerx.testing.assert_array_equal_ex(x, a.get())
    owner[1, 0] = 50  # a[0, 0]
    assert float(chainerx.to_numpy(x)[0, 0]) == 50
    host = numpy.zeros(3, numpy.float32)
    with pytest.raises(chainerx.ChainerxError):
        _fromrawpointer(host.ctypes.data, (3,), 'float32', (4,), 'cuda:0', 0, host)
