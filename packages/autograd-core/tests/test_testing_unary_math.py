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


@testing.unary_math_function_unittest(F.tanh, label_expected='tanh')
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
    generated = TestExp._chainer_generated_classes
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
    for cls in Wrong._chainer_generated_classes:
        cls('test_forward_cpu').run(result)
    assert len(result.failures) == 6


def test_unknown_numpy_name_needs_func_expected():
    def no_such_function(x):
        return x
    with pytest.raises(ValueError, match='func_expected'):
        testing.unary_math_function_unittest(no_such_function)


def _reference_exp(x, dtype):
    return numpy.exp(x).astype(dtype)


@testing.unary_math_function_unittest(F.exp, func_expected=_reference_exp, label_expected='exp')
class TestExpWithReferenceTakingDtype(unittest.TestCase):
    pass


def test_reference_gets_the_dtype():
    seen = []

    def reference(x, dtype):
        seen.append((x.dtype, numpy.dtype(dtype)))
        return numpy.exp(x)

    @testing.unary_math_function_unittest(F.exp, func_expected=reference)
    class Case(unittest.TestCase):
        pass

    result = unittest.TestResult()
    for cls in Case._chainer_generated_classes:
        cls('test_forward_cpu').run(result)
    assert result.wasSuccessful(), result.failures
    assert len(seen) == 6 and all(a == b for a, b in seen)
