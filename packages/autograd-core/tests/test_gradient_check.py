"""chainer.gradient_check: correct gradients pass; wrong ones, kinks, params are caught."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import FunctionNode, Variable, gradient_check


class Square(FunctionNode):
    """y = x ** 2 with a configurable (possibly wrong) backward."""

    def __init__(self, factor=2.0, differentiable=True):
        self.factor = factor
        self.differentiable = differentiable

    def forward(self, inputs):
        self.retain_inputs((0,))
        (x,) = inputs
        return (x * x,)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        (gy,) = grad_outputs
        if self.differentiable:
            return (self.factor * x * gy,)
        # Right values, but computed on raw arrays: no graph for double backprop.
        return (Variable(self.factor * x.array * gy.array),)


def square(x, **kw):
    return Square(**kw).apply((x,))[0]


def rand(*shape, dtype=numpy.float64, low=-1, high=1):
    return numpy.random.uniform(low, high, shape).astype(dtype)


# -- check_backward ----------------------------------------------------------------
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_correct_backward_passes(dtype):
    x = rand(3, 4, dtype=dtype)
    gy = rand(3, 4, dtype=dtype)
    gradient_check.check_backward(F.sigmoid, x, gy, dtype=numpy.float64, atol=1e-4, rtol=1e-3)
    gradient_check.check_backward(square, x, gy, dtype=numpy.float64, atol=1e-4, rtol=1e-3)


def test_several_inputs_and_outputs():
    x, W, b = rand(2, 3), rand(4, 3), rand(4)
    gradient_check.check_backward(F.linear, (x, W, b), rand(2, 4))

    def two(a, c):
        return a * c, a + c
    gradient_check.check_backward(two, (rand(3), rand(3)), (rand(3), rand(3)))


def test_wrong_backward_is_detected():
    x, gy = rand(3, 2), rand(3, 2)
    with pytest.raises(AssertionError, match='check_backward failed') as info:
        gradient_check.check_backward(lambda x: square(x, factor=2.5), x, gy)
    message = str(info.value)
    assert 'input 0' in message and 'numerical' in message


def test_missing_gradient_is_detected():
    class NoGrad(FunctionNode):
        def forward(self, inputs):
            return (inputs[0] * 3,)

        def backward(self, indexes, grad_outputs):
            return (None,)

    with pytest.raises(AssertionError, match='no gradient'):
        gradient_check.check_backward(lambda x: NoGrad().apply((x,))[0], rand(4), rand(4))


def test_gradient_of_wrong_shape_is_reported():
    class BadShape(FunctionNode):
        def forward(self, inputs):
            return (inputs[0].sum(keepdims=True),)

        def backward(self, indexes, grad_outputs):
            return grad_outputs

    with pytest.raises(AssertionError, match='shape'):
        gradient_check.check_backward(lambda x: BadShape().apply((x,))[0], rand(3),
                                      rand(1))


def test_loss_function_with_y_grad_none():
    gradient_check.check_backward(lambda x: F.sum(x * x), rand(2, 3), None)
    with pytest.raises(ValueError, match='scalar'):
        gradient_check.check_backward(F.sigmoid, rand(2, 3), None)


def test_bad_arguments():
    x = rand(2, 3)
    with pytest.raises(ValueError, match='shape'):
        gradient_check.check_backward(F.sigmoid, x, rand(3, 2))
    with pytest.raises(ValueError, match='dtype'):
        gradient_check.check_backward(F.sigmoid, x, rand(2, 3, dtype=numpy.float32))
    with pytest.raises(ValueError, match='y_grad entries'):
        gradient_check.check_backward(F.sigmoid, x, (rand(2, 3), rand(2, 3)))
    with pytest.raises(ValueError, match='no_grads'):
        gradient_check.check_backward(F.sigmoid, x, rand(2, 3), no_grads=[True, False])
    with pytest.raises(ValueError, match='float'):
        gradient_check.check_backward(F.sigmoid, x, rand(2, 3), dtype=numpy.int32)
    with pytest.raises(ValueError, match='eps'):
        gradient_check.check_backward(F.sigmoid, x, rand(2, 3), eps=0)
    with pytest.raises(TypeError, match='x_data'):
        gradient_check.check_backward(F.sigmoid, [[1.0]], rand(1, 1))


def test_nondifferentiable_point_is_detected():
    x = numpy.array([-0.5, 0.0, 0.7])
    gy = numpy.array([1.0, 1.0, 1.0])
    with pytest.raises(gradient_check.NondifferentiableError):
        gradient_check.check_backward(F.relu, x, gy, detect_nondifferentiable=True)
    # Away from the kink the same check passes.
    gradient_check.check_backward(F.relu, numpy.array([-0.5, 0.3, 0.7]), gy,
                                  detect_nondifferentiable=True)


def test_smooth_function_is_not_flagged_nondifferentiable():
    x = rand(4, 3, dtype=numpy.float64)
    gradient_check.check_backward(lambda x: F.exp(x) * x, x, rand(4, 3),
                                  detect_nondifferentiable=True)


def test_no_grads_skips_inputs():
    x = rand(3)
    t = numpy.array([0, 2, 1], dtype=numpy.int32)

    def f(x, t):
        return x * t.array.astype(x.dtype)
    # The integer input is skipped by default.
    gradient_check.check_backward(f, (x, t), rand(3))
    with pytest.raises(ValueError, match='no_grads'):
        gradient_check.check_backward(f, (x, t), rand(3), no_grads=[False, False])

    # A skipped float input must get no gradient at all (as in v7); a checked one with a
    # wrong gradient fails.
    def g(a, b):
        return square(a) + square(b, factor=3.0)
    with pytest.raises(RuntimeError, match='input 1 is skipped by no_grads'):
        gradient_check.check_backward(g, (rand(3), rand(3)), rand(3), no_grads=[False, True])
    with pytest.raises(AssertionError):
        gradient_check.check_backward(g, (rand(3), rand(3)), rand(3))

    def h(a, b):
        return square(a) + b.array  # b used as a constant: no gradient
    gradient_check.check_backward(h, (rand(3), rand(3)), rand(3), no_grads=[False, True])


def test_params_are_checked_and_restored():
    W = chainer.Parameter(rand(4, 3))
    b = chainer.Parameter(rand(4))
    W_before, b_before = W.array.copy(), b.array.copy()
    W.grad = numpy.full_like(W.array, 7.0)

    def f(x):
        return F.linear(x, W, b)
    gradient_check.check_backward(f, rand(2, 3), rand(2, 4), params=(W, b))
    numpy.testing.assert_array_equal(W.array, W_before)
    numpy.testing.assert_array_equal(b.array, b_before)
    numpy.testing.assert_array_equal(W.grad, 7.0)   # gradients are not touched

    # A parameter whose backward is wrong is caught even when the input is right.
    def g(x):
        return x * square(W[0, :3], factor=3.0)
    with pytest.raises(AssertionError, match='param 0'):
        gradient_check.check_backward(g, rand(3), rand(3), params=W)
    numpy.testing.assert_array_equal(W.array, W_before)


def test_params_in_float32_with_dtype_float64():
    W = chainer.Parameter(rand(3, 2, dtype=numpy.float32))

    def f(x):
        return F.linear(x, W)
    gradient_check.check_backward(f, rand(4, 2, dtype=numpy.float32),
                                  rand(4, 3, dtype=numpy.float32), params=[W],
                                  dtype=numpy.float64, atol=1e-4, rtol=1e-4)
    assert W.dtype == numpy.float32


def test_dtype_float64_makes_float16_checks_accurate():
    x = rand(3, 3, dtype=numpy.float16)
    gy = rand(3, 3, dtype=numpy.float16)
    gradient_check.check_backward(F.sigmoid, x, gy, dtype=numpy.float64, eps=1e-3,
                                  atol=5e-3, rtol=5e-3)
    with pytest.raises(AssertionError):
        # float16 finite differences with a tiny step are mostly rounding noise.
        gradient_check.check_backward(F.sigmoid, x, gy, eps=1e-4, atol=5e-3, rtol=5e-3)


def test_zero_dim_inputs():
    gradient_check.check_backward(square, numpy.array(0.3), numpy.array(1.5))


# -- numerical_grad ------------------------------------------------------------------
def test_numerical_grad_matches_analytic():
    x = rand(2, 3)
    gy = rand(2, 3)

    def f():
        return (x ** 3,)
    (g,) = gradient_check.numerical_grad(f, (x,), (gy,), eps=1e-4)
    numpy.testing.assert_allclose(g, 3 * x ** 2 * gy, atol=1e-6)
    assert g.dtype == x.dtype and g.shape == x.shape


def test_numerical_grad_keeps_dtype_and_restores_inputs():
    x = rand(4, dtype=numpy.float32)
    before = x.copy()
    (g,) = gradient_check.numerical_grad(lambda: (x * 2,), (x,), (numpy.ones(4, 'f'),))
    assert g.dtype == numpy.float32
    numpy.testing.assert_allclose(g, 2, rtol=1e-3)
    numpy.testing.assert_array_equal(x, before)


def test_numerical_grad_detects_kink():
    x = numpy.array([0.2, 0.0])

    def f():
        return (numpy.abs(x),)
    with pytest.raises(gradient_check.NondifferentiableError, match='index'):
        gradient_check.numerical_grad(f, (x,), (numpy.ones(2),), detect_nondifferentiable=True)
    x[1] = -0.3
    (g,) = gradient_check.numerical_grad(f, (x,), (numpy.ones(2),),
                                         detect_nondifferentiable=True,
                                         center_outputs=(numpy.abs(x),))
    numpy.testing.assert_allclose(g, [1, -1])


def test_numerical_grad_rejects_bad_eps():
    for eps in (0, -1.0):
        # a ValueError, and an AssertionError as v7 raised
        with pytest.raises(ValueError, match='eps'):
            gradient_check.numerical_grad(lambda: (numpy.zeros(1),), (numpy.zeros(1),),
                                          (numpy.ones(1),), eps=eps)
        with pytest.raises(AssertionError):
            gradient_check.numerical_grad(lambda: (numpy.zeros(1),), (numpy.zeros(1),),
                                          (numpy.ones(1),), eps=eps)


def _step(x):
    return (x > 0).astype(x.dtype)


def _nan_inside_unit_interval(x):
    return numpy.where(numpy.abs(x) < 1, numpy.nan, 1).astype(x.dtype)


@pytest.mark.parametrize('func,x,eps,expected', [
    (lambda x: x * x + 2, 0.0, 1e-3, False),  # smooth, zero slope: rounding is no kink
    (lambda x: -3 * x ** 3 + 2 * x ** 2 + 1, 0.0, 1e-3, False),
    (lambda x: -3 * x ** 3 + 2 * x ** 2 + 1, 0.0, 1e-1, True),  # eps too large
    (numpy.abs, 0.8e-3, 1e-3, True),  # the kink lies within eps
    (numpy.abs, -1.2e-3, 1e-3, False),  # the kink lies beyond eps
    (_step, 0.0, 1e-3, True),
    (_step, 100.0, 1e-3, False),
    (numpy.floor, 100 + 0.8e-3, 1e-3, True),
    (numpy.floor, 100 + 1.2e-3, 1e-3, False),
    (numpy.exp, -100.0, 1e-3, False),  # tiny values
    (numpy.log, 0.0, 1e-3, True),  # finite on one side only
    (numpy.log, -10.0, 1e-3, False),  # NaN all around: not a kink
    (_nan_inside_unit_interval, 1.0, 1e-3, True),
    (_nan_inside_unit_interval, 0.0, 1e-3, False),
])
def test_nondifferentiable_detection(func, x, eps, expected):
    x = numpy.array([x], numpy.float32)

    def f():
        return (func(x), func(x))
    gys = (numpy.ones(1, numpy.float32), -numpy.ones(1, numpy.float32))
    with numpy.errstate(all='ignore'):
        if expected:
            with pytest.raises(gradient_check.NondifferentiableError, match='input 0'):
                gradient_check.numerical_grad(f, (x,), gys, eps=eps,
                                              detect_nondifferentiable=True)
        else:
            gradient_check.numerical_grad(f, (x,), gys, eps=eps, detect_nondifferentiable=True)


# -- check_double_backward -------------------------------------------------------------
def test_double_backward_passes():
    x, gy, ggx = rand(3, 2), rand(3, 2), rand(3, 2)
    gradient_check.check_double_backward(F.sigmoid, x, gy, ggx)
    gradient_check.check_double_backward(square, x, gy, ggx)


def test_double_backward_of_non_differentiable_backward_is_detected():
    x, gy, ggx = rand(3, 2), rand(3, 2), rand(3, 2)
    # First order is right ...
    gradient_check.check_backward(lambda x: square(x, differentiable=False), x, gy)
    # ... but its backward builds no graph, so the second order is missing.
    with pytest.raises(AssertionError):
        gradient_check.check_double_backward(lambda x: square(x, differentiable=False), x,
                                             gy, ggx)


def test_double_backward_with_params_and_scalar_loss():
    W = chainer.Parameter(rand(3, 2))

    def f(x):
        return F.sum(F.linear(x, W) ** 3)
    gradient_check.check_double_backward(f, rand(4, 2), None, rand(4, 2), params=W,
                                         params_grad_grad=rand(3, 2))
    with pytest.raises(ValueError, match='params_grad_grad'):
        gradient_check.check_double_backward(f, rand(4, 2), None, rand(4, 2), params=W)
    with pytest.raises(ValueError, match='x_grad_grad'):
        gradient_check.check_double_backward(f, rand(4, 2), None, (), params=W,
                                             params_grad_grad=rand(3, 2))


def test_double_backward_with_integer_input():
    x = rand(3)
    t = numpy.array([1, 2, 3], dtype=numpy.int32)

    def f(x, t):
        return x * x * t.array.astype(x.dtype)
    gradient_check.check_double_backward(f, (x, t), rand(3), rand(3))
    # x_grad_grad may also carry an entry (ignored) for the integer input.
    gradient_check.check_double_backward(f, (x, t), rand(3), (rand(3), None))


@pytest.mark.parametrize('detect', [False, True])
def test_numerical_grad_of_an_output_sharing_memory_with_the_input(detect):
    x = rand(2, 3)

    def f():
        return (x,)  # the very array that is perturbed
    (g,) = gradient_check.numerical_grad(f, (x,), (numpy.ones((2, 3)),),
                                         detect_nondifferentiable=detect)
    numpy.testing.assert_allclose(g, 1.0)


@pytest.mark.gpu
def test_arrays_on_two_devices_are_named():
    cupy = pytest.importorskip('cupy')
    x = cupy.ones((2, 3), 'f')
    with pytest.raises(ValueError, match=r'y_grad\[0\] is a numpy.ndarray but output 0'):
        gradient_check.check_backward(F.sin, x, numpy.ones((2, 3), 'f'))
    with pytest.raises(ValueError, match=r'x_data\[1\] is a numpy.ndarray'):
        gradient_check.check_backward(F.add, (x, numpy.ones((2, 3), 'f')),
                                      cupy.ones((2, 3), 'f'))
    gradient_check.check_backward(F.sin, x, cupy.ones((2, 3), 'f'), dtype='d')


def test_nothing_to_check_without_float_inputs_or_output_gradients():
    # integer inputs and an integer output (no y_grad): nothing to compare, as v7
    x = numpy.array([[1, 2], [3, 4]], numpy.int32)
    gradient_check.check_backward(lambda v: F.transpose(v), (x,), (None,))
    with pytest.raises(ValueError, match='nothing to check'):
        gradient_check.check_backward(lambda v: F.transpose(v),
                                      (numpy.ones((2, 2), numpy.float32),), (None,))


def test_nan_gradients_match_nan_numerical_ones_as_v7():
    # d(a ** b)/db = a ** b log(a) is NaN for a < 0, by backward and numerically alike
    a = numpy.full((2,), -3.0)
    b = numpy.full((2,), -3.0)
    gradient_check.check_backward(lambda x, y: x ** y, (a, b), numpy.ones(2))
