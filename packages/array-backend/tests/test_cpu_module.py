"""``chainer.backends._cpu``: the module path of CpuDevice that v7 code imports."""

import numpy
import pytest

from chainer import backend
from chainer.backends import _cpu


def test_cpu_module_holds_the_cpu_device():
    assert _cpu.CpuDevice is backend.CpuDevice
    assert _cpu.CpuDevice() == backend.get_device('@numpy')


def test_to_cpu_helpers():
    a = numpy.ones(3)
    assert _cpu._to_cpu(a) is a
    assert _cpu._to_cpu(numpy.float32(2)).shape == ()
    assert _cpu._array_to_cpu(None) is None
    with pytest.raises(TypeError):
        _cpu._to_cpu(None)
    with pytest.raises(TypeError, match='list'):
        _cpu._to_cpu([1, 2])
