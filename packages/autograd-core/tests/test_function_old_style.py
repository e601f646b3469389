"""Old-style chainer.Function: retention, backward results and double backprop."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import Variable


class KeepSecond(chainer.Function):
    def forward(self, inputs):
        self.retain_inputs((1,))
        self.retain_outputs((1,))
        return inputs[0] * 2, inputs[1] * 3

    def backward(self, inputs, grad_outputs):
        self.seen_inputs = inputs
        gy0, gy1 = grad_outputs
        return [None if gy0 is None else gy0 * 2, None if gy1 is None else gy1 * 3]


def test_retain_inputs_and_outputs_choose_what_backward_sees():
    x0 = Variable(numpy.array([1.0], numpy.float32))
    x1 = Variable(numpy.array([2.0], numpy.float32))
    f = KeepSecond()
    y0, y1 = f(x0, x1)
    assert x0.node.data is None and x1.node.data is x1.array
    assert f.output_data[0] is None
    numpy.testing.assert_array_equal(f.output_data[1], [6.0])
    y0.grad = numpy.ones(1, numpy.float32)
    y0.backward()  # backward may return a list, as in v7
    assert f.seen_inputs[0] is None
    numpy.testing.assert_array_equal(x0.grad, [2.0])


def test_second_output_gradient_set_by_the_user_is_used():
    x0 = Variable(numpy.array([1.0], numpy.float32))
    x1 = Variable(numpy.array([2.0], numpy.float32))
    y0, y1 = KeepSecond()(x0, x1)
    y0.grad = numpy.ones(1, numpy.float32)
    y1.grad = numpy.full(1, 10, numpy.float32)
    y0.backward()
    numpy.testing.assert_array_equal(x1.grad, [30.0])


def test_all_inputs_and_outputs_are_kept_by_default():
    class Mul(chainer.Function):
        def forward(self, inputs):
            return inputs[0] * inputs[1],

        def backward(self, inputs, grad_outputs):
            a, b = inputs
            return grad_outputs[0] * b, grad_outputs[0] * a

    a = Variable(numpy.array(2.0))
    b = Variable(numpy.array(5.0))
    f = Mul()
    y = f(a, b)
    numpy.testing.assert_array_equal(f.output_data[0], 10.0)
    y.backward()
    assert (a.grad, b.grad) == (5.0, 2.0)


@pytest.mark.parametrize('grad,error,match', [
    ([1], TypeError, 'must be an array'),
    ((numpy.array([1], numpy.int32),), TypeError, 'dtype'),
    ((numpy.array([1, 2], numpy.float32),), ValueError, 'shape'),
])
def test_bad_backward_results_name_the_function(grad, error, match):
    class Dummy(chainer.Function):
        label = 'dummy_function'

        def forward(self, inputs):
            self.retain_inputs(())
            return numpy.array(1, numpy.float32),

        def backward(self, inputs, grad_outputs):
            return grad

    y = Dummy()(Variable(numpy.array([1], numpy.float32)))
    with pytest.raises(error, match=f'dummy_function.*{match}'):
        y.backward()


class Identity(chainer.Function):
    def forward(self, inputs):
        return inputs[0].copy(),

    def backward(self, inputs, grad_outputs):
        return grad_outputs


@pytest.mark.parametrize('through_new_style', [False, True])
def test_old_style_gradient_is_not_differentiable_again(through_new_style):
    x = Variable(numpy.array(42.0, numpy.float32))
    y = Identity()(F.identity(x) if through_new_style else x)
    y.backward(enable_double_backprop=True)
    numpy.testing.assert_array_equal(x.grad, 1.0)
    with pytest.raises(RuntimeError, match='twice-differentiate an old-style Function'):
        x.grad_var.backward()


def test_old_style_gradient_is_plain_without_double_backprop():
    x = Variable(numpy.array(42.0, numpy.float32))
    Identity()(x).backward()
    assert x.grad_var.creator is None
