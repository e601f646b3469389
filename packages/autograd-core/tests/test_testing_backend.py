"""chainer.testing.BackendConfig and inject_backend_tests."""

import unittest

import numpy
import pytest

import chainer
from chainer import testing
from chainer.backends import cuda


def test_defaults_are_the_cpu():
    c = testing.BackendConfig({})
    assert c.use_cuda is False and c.use_cudnn == 'never' and c.use_chainerx is False
    assert c.xp is numpy and c.device == chainer.get_device('@numpy')
    assert c.label == 'cpu' and c.get_func_str() == 'cpu'
    assert c.unsupported_reason is None and c.get_pytest_marks() == []
    a = numpy.arange(3)
    assert c.get_array(a) is a or numpy.array_equal(c.get_array(a), a)


def test_cuda_config_fields():
    c = testing.BackendConfig({'use_cuda': True, 'use_cudnn': 'always', 'autotune': True})
    assert c.cuda_device == 0 and c.is_gpu
    assert c.label == 'gpu0_cudnn_always_autotune'
    assert "use_cuda=True" in c.get_func_str()
    assert [m.name for m in c.get_pytest_marks()] == ['gpu']
    if not cuda.available:
        assert 'CUDA is not available' in c.unsupported_reason
        with pytest.raises(RuntimeError, match='CUDA is not available'):
            c.device
        with pytest.raises(unittest.SkipTest):
            c.skip_if_unsupported()


@pytest.mark.parametrize('params, match', [
    ({'use_cuda': False, 'cuda_device': 1}, 'cuda_device'),
    ({'use_cudnn': 'always'}, 'use_cuda'),
    ({'use_cudnn': 'sometimes', 'use_cuda': True}, 'use_cudnn'),
    ({'use_chainerx': True}, 'chainerx_device'),
    ({'chainerx_device': 'native:0'}, 'use_chainerx'),
    ({'use_gpu': True}, 'unknown'),
])
def test_invalid_configs(params, match):
    with pytest.raises(ValueError, match=match):
        testing.BackendConfig(params)


def test_unsupported_backends_have_reasons():
    ideep = testing.BackendConfig({'use_ideep': 'always'})
    assert 'iDeep' in ideep.unsupported_reason
    chx = testing.BackendConfig({'use_chainerx': True, 'chainerx_device': 'native:0'})
    assert 'ChainerX' in chx.unsupported_reason and chx.label == 'chainerx_native0'
    with pytest.raises(RuntimeError, match='ChainerX'):
        chx.xp


def test_context_sets_config():
    c = testing.BackendConfig({})
    before = chainer.config.use_cudnn
    with c:
        assert chainer.config.use_cudnn == 'never'
        assert chainer.config.autotune is False
    assert chainer.config.use_cudnn == before


def test_inject_with_method_names_and_errors():
    calls = []

    @testing.inject_backend_tests(['test_a'], [{}, {'use_cuda': True}])
    class Case(unittest.TestCase):
        def test_a(self, backend_config):
            calls.append(backend_config.label)

        def test_b(self):
            calls.append('b')

    assert Case.test_a is None
    assert callable(Case.test_a__cpu) and callable(Case.test_a__gpu0)
    result = unittest.TestResult()
    unittest.TestLoader().loadTestsFromTestCase(Case).run(result)
    assert result.testsRun == 3 and result.wasSuccessful()
    assert 'cpu' in calls and 'b' in calls
    assert ('gpu0' in calls) == cuda.available

    with pytest.raises(ValueError, match='no test method'):
        testing.inject_backend_tests(['test_missing'], [{}])(Case)
    with pytest.raises(ValueError):
        testing.inject_backend_tests(None, [])
    # Two identical configs still get distinct names.
    Twice = testing.inject_backend_tests(None, [{}, {}])(
        type('Twice', (unittest.TestCase,), {'test_x': lambda self, bc: None}))
    assert hasattr(Twice, 'test_x__0_cpu') and hasattr(Twice, 'test_x__1_cpu')


@testing.inject_backend_tests(None, [{}, {'use_cuda': True}, {'use_cuda': True,
                                                               'use_cudnn': 'always'}])
class TestDevicePlacement(unittest.TestCase):
    """Runs on each backend: arrays land on the configured device."""

    def test_arrays_on_device(self, backend_config):
        x = backend_config.get_array(numpy.ones((2, 3), numpy.float32))
        assert isinstance(x, backend_config.xp.ndarray)
        with backend_config:
            y = chainer.functions.relu(x)
        assert isinstance(y.array, backend_config.xp.ndarray)
        assert chainer.backend.get_device_from_array(y.array) == backend_config.device
