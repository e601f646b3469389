"""chainerx.internal: the arrays behind ChainerX arrays, and back, without copies."""

import numpy

import chainerx
import chainerx.internal


def test_backing_and_wrap_share_memory_both_ways():
    data = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)[:, ::2]  # a strided view
    device = chainerx.get_device('native:1')
    a = chainerx.internal.wrap(data, device)
    assert isinstance(a, chainerx.ndarray) and a.device is device
    assert a.shape == data.shape and a.strides == data.strides and a.dtype == data.dtype
    assert chainerx.internal.backing(a) is data
    data[0, 0] = 42
    assert float(a[0, 0]) == 42
    a[1, 1] = -1
    assert data[1, 1] == -1


def test_a_wrapped_array_is_in_no_graph():
    a = chainerx.internal.wrap(numpy.ones(3, numpy.float32), chainerx.get_device('native:0'))
    assert not a.is_backprop_required()
    b = chainerx.ones((3,), chainerx.float32).require_grad()
    view = chainerx.internal.wrap(chainerx.internal.backing(b), b.device)
    assert not view.is_backprop_required() and b.is_backprop_required()
