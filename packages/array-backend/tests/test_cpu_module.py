"""``chainer.backends._cpu``: the module path of CpuDevice that v7 code imports."""

from chainer import backend
from chainer.backends import _cpu


def test_cpu_module_holds_the_cpu_device():
    assert _cpu.CpuDevice is backend.CpuDevice
    assert _cpu.CpuDevice() == backend.get_device('@numpy')
