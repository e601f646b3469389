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
    assert _cpu._array_to_cpu(None) is None and _cpu._to_cpu(None) is None
    pair = _cpu._to_cpu((a, None))
    assert isinstance(pair, tuple) and pair[0] is a and pair[1] is None
    assert isinstance(_cpu._to_cpu([a]), list)
    with pytest.raises(TypeError, match='dict'):
        _cpu._to_cpu({'a': a})
