"""chainer.testing.unary_math_function_unittest on existing functions."""

import unittest

import numpy
import pytest

import chainer.functions as F
from chainer import FunctionNode, testing


def _positive(shape, dtype):
    x = numpy.asarray(numpy.random.uniform(0.5, 2, shape)).astype(dtype)
    gy = numpy.asarray(numpy.random.uniform(-1, 1, shape)).astype(dtype)
    return x, gy


@testing.unary_math_function_unittest(F.exp, label_expected='exp')
class TestExp(unittest.TestCase):
    pass


@testing.unary_math_function_unittest(F.log, make_data=_positive, label_expected='log')
class TestLog(unittest.TestCase):
    pass


@testing.unary_math_function_unittest(F.tanh, label_expected='Tanh')
class TestTanh(unittest.TestCase):
    pass


class Negative(FunctionNode):
    def forward(self, inputs):
        return (-inputs[0],)

    def backward(self, indexes, grad_outputs):
        return (-grad_outputs[0],)


@testing.unary_math_function_unittest(Negative(), is_linear=True,
                                      label_expected='Negative')
class TestNegativeNode(unittest.TestCase):
    pass


def test_generated_classes():
    generated = [c for c, _, _ in TestExp.cases]
    assert len(generated) == 6
    assert {(c.shape, c.dtype) for c in generated} == {
        (s, d) for s in [(), (3, 2)] for d in [numpy.float16, numpy.float32, numpy.float64]}
    for name in ('test_forward_cpu', 'test_backward_cpu', 'test_double_backward_cpu',
                 'test_forward_gpu', 'test_label'):
        assert callable(getattr(generated[0], name))
    marks = [m.name for m in getattr(generated[0].test_forward_gpu, 'pytestmark', [])]
    assert 'gpu' in marks


def test_wrong_reference_fails():
    @testing.unary_math_function_unittest(F.exp, func_expected=numpy.sin)
    class Wrong(unittest.TestCase):
        pass

    result = unittest.TestResult()
    for cls, _, _ in Wrong.cases:
        cls('test_forward_cpu').run(result)
    assert len(result.failures) == 6


def test_unknown_numpy_name_needs_func_expected():
    def no_such_function(x):
        return x
    with pytest.raises(ValueError, match='func_expected'):
        testing.unary_math_function_unittest(no_such_function)


def _erf_reference(x, dtype):
    import math

    return numpy.vectorize(math.erf, otypes=[dtype])(x)


@testing.unary_math_function_unittest(F.erf, func_expected=_erf_reference)
class TestErfReferenceWithDtype(unittest.TestCase):
    """As in v7, ``func_expected`` is called with the input and ``dtype=``."""


def test_func_expected_gets_the_dtype():
    seen = []

    def reference(x, dtype):
        seen.append(dtype)
        return numpy.exp(x, dtype=dtype)

    @testing.unary_math_function_unittest(F.exp, func_expected=reference)
    class Exp(unittest.TestCase):
        pass

    result = unittest.TestResult()
    for cls, _, _ in Exp.cases:
        cls('test_forward_cpu').run(result)
    assert result.wasSuccessful(), result.failures + result.errors
    assert sorted(numpy.dtype(d).name for d in seen) == sorted(
        ['float16', 'float32', 'float64'] * 2)


@testing.unary_math_function_unittest(F.sqrt, make_data=_positive,
                                      backward_options={'eps': 1e-6},
                                      double_backward_options={'eps': 1e-6})
class TestSqrtOptionsOverDefaults(unittest.TestCase):
    """Given options update the defaults per dtype: float16 still checks its gradients in
    float64, where a step of 1e-6 is meaningful."""


def test_options_update_the_defaults():
    cls = next(c for c, _, _ in TestSqrtOptionsOverDefaults.cases
               if c.dtype == numpy.float16)
    case = cls('test_backward_cpu')
    case.setUp()
    assert case.backward_options['eps'] == 1e-6
    assert case.backward_options['dtype'] == numpy.float64
