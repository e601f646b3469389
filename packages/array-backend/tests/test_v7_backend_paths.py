"""v7's private backend module paths: ``chainer.backends._cpu`` and ``_chainerx``."""

import subprocess
import sys

import numpy
import pytest

import chainer.backend
import chainer.backends


def test_private_backend_modules_are_attributes_of_the_package():
    code = ('import chainer.backends as b; '
            'assert b._cpu.__name__ == "chainer.backends._cpu"; '
            'assert b._chainerx.__name__ == "chainer.backends._chainerx"')
    subprocess.run([sys.executable, '-c', code], check=True)
    with pytest.raises(AttributeError):
        chainer.backends._no_such_backend


def test_chainerx_module_gives_the_device_and_converters():
    mod = chainer.backends._chainerx
    assert mod.ChainerxDevice is chainer.backend.ChainerxDevice
    assert mod.to_chx is chainer.backend.to_chx
    assert mod.from_chx is chainer.backend.from_chx
    a = numpy.arange(3)
    assert mod.from_chx(a) is a
    assert mod.ChainerxDevice.from_array(a) is None
    assert chainer.backends._cpu.CpuDevice is chainer.backend.CpuDevice
