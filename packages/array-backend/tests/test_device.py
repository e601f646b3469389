import sys

import numpy
import pytest

from chainer import backend
from chainer.backends import cuda


def test_cpu_device_spec_forms():
    for spec in ('@numpy', numpy, -1, '-1', '-3', backend.CpuDevice()):
        d = backend.get_device(spec)
        assert isinstance(d, backend.CpuDevice)
        assert d.xp is numpy
        assert str(d) == '@numpy'
    assert backend.CpuDevice() == backend.CpuDevice()
    assert hash(backend.CpuDevice()) == hash(backend.CpuDevice())


@pytest.mark.parametrize('spec', ['@cupy', '@cupy:x', '@cupy:-1', '@foo', '@foo:0',
                                  '@numpy:0', (numpy, 0), ('native', 0), 1.5, True,
                                  object(), cuda.DummyDevice])
def test_bad_specs_raise_clear_errors(spec):
    with pytest.raises((ValueError, TypeError)) as e:
        backend.get_device(spec)
    assert 'device spec' in str(e.value)
    # using_device checks the spec when called, not when entered
    with pytest.raises((ValueError, TypeError)):
        backend.using_device(spec)


def test_ideep_is_not_provided():
    with pytest.raises(RuntimeError, match='not provided'):
        backend.get_device('@intel64')
    with pytest.raises(RuntimeError, match='not available'):
        backend.Intel64Device()


@pytest.mark.parametrize('spec', ['native:0', 'cuda:0', 'native', 'foo'])
def test_chainerx_names_without_chainerx_say_so(spec, monkeypatch):
    # v7 reads an unprefixed string as a ChainerX device name; without the chainerx
    # distribution (an import of it fails) the error names it
    monkeypatch.setitem(sys.modules, 'chainerx', None)
    with pytest.raises(RuntimeError, match='ChainerX is not available'):
        backend.get_device(spec)


@pytest.mark.parametrize('value', [None, 1, (), numpy.float32(1), [1.0]])
def test_from_array_of_a_non_array_is_none(value):
    assert backend.CpuDevice.from_array(value) is None
    assert backend.GpuDevice.from_array(value) is None
    assert backend.ChainerxDevice.from_array(value) is None
    assert backend.Intel64Device.from_array(value) is None
    # get_device_from_array falls back to the CPU for what it does not recognize
    assert backend.get_device_from_array(value) == backend.CpuDevice()


def test_cpu_from_array_and_reprs():
    device = backend.CpuDevice.from_array(numpy.ones(2))
    assert device == backend.CpuDevice()
    assert device.supported_array_types == (numpy.ndarray,)
    assert repr(device) == '<CpuDevice (numpy)>'
    assert backend.ChainerxDevice.from_array(numpy.ones(2)) is None
    assert backend.Intel64Device.from_array(numpy.ones(2)) is None
    assert int(cuda.DummyDevice) == -1


def test_intel64_module_reports_unavailable():
    # chainerx is its own distribution now (packages/chainerx), no longer a placeholder here
    from chainer.backends import intel64

    assert intel64.is_ideep_available() is False
    assert intel64.should_use_ideep('>=auto') is False
    assert intel64.inputs_all_ready((numpy.ones((2, 2)),)) is False
    assert intel64.Intel64Device is backend.Intel64Device
    assert not isinstance(numpy.ones(2), intel64.mdarray)
    with pytest.raises(RuntimeError, match='iDeep'):
        intel64.check_ideep_available()
    with pytest.raises(ValueError, match='level'):
        intel64.should_use_ideep('always')


@pytest.mark.skipif(cuda.available, reason='checks the error raised without CUDA')
def test_gpu_spec_without_cuda_names_the_extra():
    with pytest.raises(RuntimeError, match=r'cuda12'):
        backend.get_device('@cupy:0')
    with pytest.raises(RuntimeError, match='CUDA environment is not available'):
        cuda.to_gpu(numpy.ones(2))
    assert cuda.cudnn_enabled is False


def test_send_nested_and_scalars():
    d = backend.get_device('@numpy')
    a = numpy.arange(3)
    out = d.send({'a': a, 'b': (a, [1.5, None])})
    assert out['a'] is a
    assert isinstance(out['b'][1][0], numpy.ndarray)
    assert out['b'][1][1] is None
    with pytest.raises(TypeError):
        d.send('text')


def test_get_array_module_and_device_from_array():
    a = numpy.ones(2)
    assert backend.get_array_module(a) is numpy
    assert backend.get_array_module(1.0) is numpy
    assert isinstance(backend.get_device_from_array(a), backend.CpuDevice)


def test_using_device_context():
    with backend.using_device('@numpy') as d:
        assert isinstance(d, backend.CpuDevice)


def test_copyto():
    dst = numpy.zeros(3)
    backend.copyto(dst, numpy.array([1.0, 2.0, 3.0]))
    numpy.testing.assert_array_equal(dst, [1, 2, 3])
    with pytest.raises(TypeError):
        backend.copyto([0, 0], numpy.ones(2))


def test_to_cpu_nested():
    a = numpy.ones(2)
    assert cuda.to_cpu(a) is a
    assert cuda.to_cpu(None) is None
    out = cuda.to_cpu([a, (a,)])
    assert out[0] is a and out[1][0] is a
    with pytest.raises(TypeError):
        cuda.to_cpu('x')


def test_memoize_caches():
    calls = []

    @cuda.memoize()
    def f(x):
        calls.append(x)
        return x * 2

    assert f(2) == 4 and f(2) == 4
    assert calls == [2]
    cuda.clear_memo()
    f(2)
    assert calls == [2, 2]


def test_should_use_cudnn_never_without_cudnn():
    if not cuda.cudnn_enabled:
        assert cuda.should_use_cudnn('>=auto') is False
    with pytest.raises(ValueError):
        cuda.should_use_cudnn('sometimes')


def test_dlpack_producer_to_cpu():
    class Producer:
        def __init__(self, a):
            self.a = a

        def __dlpack__(self, **kwargs):
            return self.a.__dlpack__(**kwargs)

        def __dlpack_device__(self):
            return self.a.__dlpack_device__()

    a = numpy.arange(4.0)
    out = backend.CpuDevice().send(Producer(a))
    numpy.testing.assert_array_equal(out, a)
    assert numpy.shares_memory(out, a)


def test_array_backend_alone_has_no_core():
    """With only chainer-array-backend, ``chainer`` has the backend but not the core."""
    import os
    import sys

    core = any(os.path.exists(os.path.join(p, 'chainer', '__init__.py')) for p in sys.path)
    if core:
        pytest.skip('chainer-autograd-core is importable here (tested in the backend-only env)')
    import chainer

    assert not hasattr(chainer, 'Variable')
    assert chainer.backend.get_device('@numpy').xp is numpy
    with pytest.raises(ModuleNotFoundError, match='chainer-autograd-core'):
        cuda.config


def test_cuda_module_reexports():
    assert cuda.GpuDevice is backend.GpuDevice
    with pytest.raises(AttributeError, match='no_such_name'):
        cuda.no_such_name


@pytest.mark.gpu
def test_gpu_device_roundtrip():
    cupy = pytest.importorskip('cupy')
    d = backend.get_device('@cupy:0')
    a = numpy.arange(4.0)
    g = d.send(a)
    assert isinstance(g, cupy.ndarray)
    assert backend.get_array_module(g) is cupy
    assert backend.get_device_from_array(g) == d
    numpy.testing.assert_array_equal(backend.CpuDevice().send(g), a)
    assert cuda.to_gpu(a).device.id == 0
    k = cuda.elementwise('T x', 'T y', 'y = x * 2', 'double_it')
    numpy.testing.assert_array_equal(cuda.to_cpu(k(g)), a * 2)


@pytest.mark.gpu
def test_gpu_device_copies_and_pickles_by_id():
    pytest.importorskip('cupy')
    import copy
    import pickle

    d = backend.get_device('@cupy:0')
    for other in (copy.copy(d), copy.deepcopy(d), pickle.loads(pickle.dumps(d))):
        assert other == d and other.xp is d.xp and other.device.id == 0


def test_to_device():
    a = numpy.ones(2)
    assert backend.to_device(None, a) is a
    assert backend.to_device('@numpy', None) is None
    assert backend.to_device(-1, a) is a
    out = backend.to_device('@numpy', (a, [1.0]))
    assert out[0] is a and isinstance(out[1][0], numpy.ndarray)
    with pytest.raises(ValueError):
        backend.to_device('@nowhere', a)
