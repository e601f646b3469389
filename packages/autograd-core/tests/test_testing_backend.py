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
    # v7 suites also write use_ideep=True (requested) or False ('never')
    assert 'iDeep' in testing.BackendConfig({'use_ideep': True}).unsupported_reason
    assert testing.BackendConfig({'use_ideep': False}).unsupported_reason is None
    chx = testing.BackendConfig({'use_chainerx': True, 'chainerx_device': 'native:0'})
    assert chx.label == 'chainerx_native0'
    try:
        import chainerx
    except ImportError:  # the package's own env: chainerx is an optional distribution
        assert 'ChainerX' in chx.unsupported_reason
        with pytest.raises(RuntimeError, match='ChainerX'):
            chx.xp
    else:
        assert chx.unsupported_reason is None and chx.xp is chainerx
    if not cuda.available:
        gpu_chx = testing.BackendConfig({'use_chainerx': True, 'chainerx_device': 'cuda:0'})
        assert 'not available' in gpu_chx.unsupported_reason


def test_context_sets_config():
    c = testing.BackendConfig({})
    before = chainer.config.use_cudnn
    with c:
        assert chainer.config.use_cudnn == 'never'
        assert chainer.config.autotune is False
    assert chainer.config.use_cudnn == before


_CPU_SUFFIX = ('_use_chainerx_false__chainerx_device_None__use_cuda_false__cuda_device_None'
               '__use_cudnn_never__cudnn_deterministic_false__autotune_false'
               '__cudnn_fast_batch_normalization_false__use_ideep_never')


def test_inject_generates_a_class_per_config_named_as_v7():
    calls = []

    @testing.inject_backend_tests(['test_a'], [{}, {'use_cuda': True}])
    class Case(unittest.TestCase):
        def test_a(self, backend_config):
            calls.append(backend_config.label)

        def test_b(self):
            calls.append('b')

    *generated, carrier = [c for c, _, _ in Case.cases]
    names = [c.__name__ for c in generated]
    assert names[0] == 'Case' + _CPU_SUFFIX
    assert names[1] == 'Case' + _CPU_SUFFIX.replace(
        'use_cuda_false__cuda_device_None', 'use_cuda_true__cuda_device_0')
    # Only the named methods run in the generated classes; the template runs nothing.
    assert all(c.test_b is None for c in generated)
    assert all(c.__bases__[0].__test__ is False for c in generated)
    # The others stay on a hidden carrier (for an outer parameterize), as in v7.
    assert carrier.__test__ is False and carrier.test_a is None and callable(carrier.test_b)
    result = unittest.TestResult()
    for c in generated:
        unittest.TestLoader().loadTestsFromTestCase(c).run(result)
    assert result.testsRun == 2 and not result.failures and not result.errors
    assert 'cpu' in calls and 'b' not in calls
    assert ('gpu0' in calls) == cuda.available
    assert len(result.skipped) == (0 if cuda.available else 1)

    with pytest.raises(ValueError, match='no test method'):
        testing.inject_backend_tests(['test_missing'], [{}])(
            type('Other', (unittest.TestCase,), {'test_x': lambda self: None}))
    with pytest.raises(ValueError):
        testing.inject_backend_tests(None, [])


def test_inject_stacks_with_parameterize_in_both_orders():
    @testing.parameterize({'a': 1}, {'a': 2})
    @testing.inject_backend_tests(None, [{}])
    class Outer(unittest.TestCase):
        def test_x(self, backend_config):
            assert self.a in (1, 2) and backend_config.xp is numpy

    @testing.inject_backend_tests(None, [{}])
    @testing.parameterize({'a': 1}, {'a': 2})
    class Inner(unittest.TestCase):
        def test_x(self, backend_config):
            assert self.a in (1, 2) and backend_config.xp is numpy

    assert [c.__name__ for c, _, _ in Outer.cases] == [
        'Outer' + _CPU_SUFFIX + '_param_0_{a=1}', 'Outer' + _CPU_SUFFIX + '_param_1_{a=2}']
    assert [c.__name__ for c, _, _ in Inner.cases] == [
        'Inner_param_0_{a=1}' + _CPU_SUFFIX, 'Inner_param_1_{a=2}' + _CPU_SUFFIX]
    result = unittest.TestResult()
    for c, _, _ in Outer.cases + Inner.cases:
        unittest.TestLoader().loadTestsFromTestCase(c).run(result)
    assert result.testsRun == 4 and result.wasSuccessful()


def test_inject_stacked_on_itself_passes_one_config_per_decorator():
    seen = []

    @testing.inject_backend_tests(None, [{}])  # second argument
    @testing.inject_backend_tests(None, [{'autotune': True}])  # first argument
    class Twice(unittest.TestCase):
        def test_pair(self, config1, config2):
            seen.append((config1.autotune, config2.autotune))

    result = unittest.TestResult()
    for c, _, _ in Twice.cases:
        unittest.TestLoader().loadTestsFromTestCase(c).run(result)
    assert result.wasSuccessful() and seen == [(True, False)]


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


def test_any_ideep_value_is_accepted_and_unsupported():
    # v7 suites pass odd use_ideep values (e.g. a list); the configuration is built
    # and skipped, since iDeep is not provided
    config = testing.BackendConfig({'use_ideep': ['never', 'always']})
    assert 'iDeep' in config.unsupported_reason


def test_parameterize_over_inject_keeps_the_methods_not_named():
    # v7: @parameterize over @inject_backend_tests(['test_a']) runs test_a once per
    # parameter and backend, and the other tests once per parameter.
    calls = []

    @testing.parameterize({'x': 1}, {'x': 2})
    @testing.inject_backend_tests(['test_a'], [{}])
    class Case(unittest.TestCase):
        def test_a(self, backend_config):
            calls.append(('a', self.x))

        def test_b(self):
            calls.append(('b', self.x))

    generated = [c for c, _, _ in Case.cases]
    names = sorted(c.__name__ for c in generated)
    assert names == sorted(['Case' + _CPU_SUFFIX + '_param_0_{x=1}',
                            'Case' + _CPU_SUFFIX + '_param_1_{x=2}',
                            'Case_param_0_{x=1}', 'Case_param_1_{x=2}'])
    result = unittest.TestResult()
    for c in generated:
        unittest.TestLoader().loadTestsFromTestCase(c).run(result)
    assert not result.failures and not result.errors
    assert sorted(calls) == [('a', 1), ('a', 2), ('b', 1), ('b', 2)]
