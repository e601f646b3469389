"""ChainerX devices: specs, identity, transfers without copies, get_array_module."""

import pickle

import numpy
import pytest

from chainer import backend
from chainer.backends import cuda

chainerx = pytest.importorskip('chainerx')


@pytest.mark.parametrize('spec, name', [
    ('native:0', 'native:0'), ('native', 'native:0'), ('native:1', 'native:1')])
def test_names_give_chainerx_devices(spec, name):
    device = backend.get_device(spec)
    assert isinstance(device, backend.ChainerxDevice)
    assert device.xp is chainerx
    assert device.device is chainerx.get_device(name)
    assert device.name == str(device) == name
    assert repr(device) == f'<ChainerxDevice {name}>'
    assert device.supported_array_types == (chainerx.ndarray,)
    assert isinstance(device.fallback_device, backend.CpuDevice)


def test_a_chainerx_device_object_is_a_spec_and_devices_compare_by_device():
    chx_device = chainerx.get_device('native:2')
    device = backend.get_device(chx_device)
    assert device == backend.ChainerxDevice(chx_device) == backend.get_device('native:2')
    assert hash(device) == hash(backend.ChainerxDevice(chx_device))
    assert device != backend.get_device('native:0')
    assert device != backend.CpuDevice()
    assert backend.get_device(device) is device
    assert pickle.loads(pickle.dumps(device)) == device


@pytest.mark.parametrize('spec', ['native:foo', 'native:99', 'nosuchbackend:0', '',
                                  ('native', 0)])
def test_bad_chainerx_specs(spec):
    with pytest.raises(ValueError):
        backend.get_device(spec)


def test_constructor_takes_a_chainerx_device_only():
    with pytest.raises(TypeError):
        backend.ChainerxDevice('native:0')


@pytest.mark.skipif(cuda.available, reason='checks the error raised without CUDA')
def test_cuda_devices_without_cuda_are_unavailable():
    with pytest.raises(RuntimeError, match='not available'):
        backend.get_device('cuda:0')


def test_use_and_using_device_set_the_default_chainerx_device():
    device = backend.get_device('native:1')
    with chainerx.using_device('native:0'):
        device.use()
        assert chainerx.get_default_device() is device.device
    with backend.using_device('native:3'):
        assert chainerx.get_default_device() is chainerx.get_device('native:3')
    with device:
        assert chainerx.get_default_device() is device.device


def test_send_views_numpy_memory_and_cpu_send_gives_it_back():
    device = backend.get_device('native:0')
    a = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    x = device.send(a)
    assert isinstance(x, chainerx.ndarray) and x.device.name == 'native:0'
    assert device.send(x) is x
    a[0, 0] = 42
    assert float(x[0, 0]) == 42  # the same memory
    back = backend.CpuDevice().send(x)
    assert back is a
    # nested structures and scalars
    out = device.send({'a': [a, (a,)], 'n': None, 's': numpy.float32(2)})
    assert isinstance(out['a'][1][0], chainerx.ndarray) and out['n'] is None
    assert isinstance(out['s'], chainerx.ndarray) and out['s'].shape == ()


def test_send_to_another_native_device_and_unsupported_dtypes():
    x = backend.get_device('native:0').send(numpy.ones(3, numpy.float32))
    y = backend.get_device('native:1').send(x)
    assert y.device.name == 'native:1'
    numpy.testing.assert_array_equal(backend.CpuDevice().send(y), numpy.ones(3))
    # a dtype ChainerX lacks is refused, as ChainerX refuses it
    with pytest.raises(chainerx.DtypeError):
        backend.get_device('native:0').send(numpy.arange(3, dtype=numpy.uint16))


def test_from_array_and_get_device_from_array():
    x = chainerx.ones((2,), chainerx.float32, device='native:1')
    assert backend.ChainerxDevice.from_array(x) == backend.get_device('native:1')
    assert backend.get_device_from_array(numpy.ones(1), x) == backend.get_device('native:1')
    for value in (numpy.ones(1), None, 1, ()):
        assert backend.ChainerxDevice.from_array(value) is None
    assert backend.get_device('native:0').is_array_supported(
        chainerx.ones((1,), device='native:0'))
    assert not backend.get_device('native:0').is_array_supported(numpy.ones(1))


def test_from_fallback_device():
    device = backend.ChainerxDevice.from_fallback_device(backend.CpuDevice())
    assert device == backend.get_device('native:0')
    with pytest.raises(RuntimeError):
        backend.ChainerxDevice.from_fallback_device(device)


def test_get_array_module():
    x = chainerx.zeros((1,))
    assert backend.get_array_module(x) is chainerx
    assert backend.get_array_module(numpy.ones(1), x) is chainerx
    assert backend.get_array_module(numpy.ones(1)) is numpy
    assert backend.get_array_module() is numpy


def test_to_chx_and_from_chx_share_memory():
    a = numpy.arange(4, dtype=numpy.float32)
    x = backend.to_chx(a)
    assert isinstance(x, chainerx.ndarray) and x.device.name == 'native:0'
    assert backend.to_chx(x) is x
    assert backend.from_chx(x) is a
    nested = backend.from_chx([x, {'k': (x, 3)}])
    assert nested[0] is a and nested[1]['k'][0] is a and nested[1]['k'][1] == 3
    assert backend.to_chx(None) is None and backend.from_chx('text') == 'text'


def test_copyto_into_and_from_chainerx_arrays():
    dst = chainerx.zeros((3,), chainerx.float32)
    backend.copyto(dst, numpy.arange(3, dtype=numpy.float32))
    numpy.testing.assert_array_equal(backend.CpuDevice().send(dst), [0, 1, 2])
    out = numpy.zeros(3, numpy.float32)
    backend.copyto(out, chainerx.full((3,), 5, chainerx.float32))
    numpy.testing.assert_array_equal(out, [5, 5, 5])
