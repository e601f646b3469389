import numpy
import pytest

import chainer
from chainer import backend
from chainer.device_resident import DeviceResident, DeviceResidentsVisitor, ToDeviceVisitor


class Holder(DeviceResident):
    def __init__(self):
        super().__init__()
        self.p = chainer.Parameter(numpy.ones(3, numpy.float32))
        self.buf = numpy.zeros(2)

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        visitor.visit_variable(self.p)
        self.buf = visitor.visit_array(self.buf)


def test_to_device_visits_everything():
    h = Holder()
    seen = []

    class Recorder(DeviceResidentsVisitor):
        def visit_device_resident(self, dr):
            seen.append('resident')

        def visit_variable(self, param):
            seen.append('variable')

        def visit_array(self, arr):
            seen.append('array')
            return arr

    h.device_resident_accept(Recorder())
    assert seen == ['resident', 'variable', 'array']
    assert h.to_device('@numpy') is h
    assert isinstance(h.device, backend.CpuDevice)
    assert h.xp is numpy
    with pytest.warns(DeprecationWarning, match='to_device'):
        assert h.to_cpu() is h


def test_unsupported_devices():
    h = Holder()
    with pytest.raises(RuntimeError, match='not provided'):
        h.to_device('@intel64')
    with pytest.raises(RuntimeError, match='not provided'), \
            pytest.warns(DeprecationWarning):
        h.to_intel64()
    assert h.from_chx() is h  # not on a ChainerX device: nothing to do


def test_to_device_visitor_sends_arrays():
    v = ToDeviceVisitor('@numpy')
    a = numpy.ones(2)
    assert v.visit_array(a) is a
    assert v.visit_array(None) is None


@pytest.mark.gpu
def test_gpu_round_trip_keeps_gradients():
    cupy = pytest.importorskip('cupy')
    h = Holder()
    h.p.grad = numpy.full(3, 2.0, numpy.float32)
    h.to_gpu(0)
    assert isinstance(h.p.array, cupy.ndarray) and isinstance(h.p.grad, cupy.ndarray)
    assert isinstance(h.buf, cupy.ndarray)
    assert h.xp is cupy
    h.to_cpu()
    numpy.testing.assert_array_equal(h.p.grad, [2, 2, 2])


@pytest.mark.gpu
def test_gpu_backward_matches_cpu():
    cupy = pytest.importorskip('cupy')
    import chainer.functions as F

    a = numpy.random.randn(4, 3).astype(numpy.float32)
    w = numpy.random.randn(2, 3).astype(numpy.float32)
    results = []
    for xp_send in (lambda x: x, cupy.asarray):
        x = chainer.Variable(xp_send(a))
        W = chainer.Variable(xp_send(w))
        y = F.sum(F.tanh(F.linear(x, W)) * 2)
        y.backward()
        results.append((chainer.backends.cuda.to_cpu(x.grad),
                        chainer.backends.cuda.to_cpu(W.grad)))
    for c, g in zip(*results):
        numpy.testing.assert_allclose(c, g, rtol=1e-5, atol=1e-5)
