"""chainer.types.GradOutputs and GradInputs: what FunctionNode.backward takes and returns."""

import typing

import numpy

import chainer
from chainer import types
from chainer.function_node import FunctionNode


def _resolve(alias):
    # the aliases name Variable (and the optional array types) as forward references
    def f(x: alias) -> None:
        pass

    return typing.get_type_hints(f, {'chainer': chainer, 'cupy': numpy, 'chainerx': numpy})['x']


def test_grad_outputs_is_a_tuple_of_optional_variables():
    assert typing.get_origin(types.GradOutputs) is tuple
    item, ellipsis = typing.get_args(_resolve(types.GradOutputs))
    assert ellipsis is Ellipsis
    assert set(typing.get_args(item)) == {chainer.Variable, type(None)}


def test_grad_inputs_takes_variables_arrays_and_none():
    item, ellipsis = typing.get_args(_resolve(types.GradInputs))
    assert ellipsis is Ellipsis
    args = set(typing.get_args(item))
    assert {chainer.Variable, numpy.ndarray, type(None)} <= args
    assert {'GradOutputs', 'GradInputs'} <= set(types.__all__)


def test_function_node_backward_is_annotated_with_them():
    hints = typing.get_type_hints(FunctionNode.backward, {
        'chainer': chainer, 'cupy': numpy, 'chainerx': numpy,
        'GradOutputs': types.GradOutputs, 'GradInputs': types.GradInputs})
    assert hints['grad_outputs'] == _resolve(types.GradOutputs)
    assert hints['return'] == _resolve(types.GradInputs)


class _Square(FunctionNode):
    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        return x * x,

    def backward(self, indexes: tuple[int, ...],
                 grad_outputs: types.GradOutputs) -> types.GradInputs:
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        assert gy is not None
        return 2 * x * gy,


def test_a_node_annotated_with_the_aliases_backpropagates():
    x = chainer.Variable(numpy.array([1., 2., 3.], numpy.float32))
    y, = _Square().apply((x,))
    y.grad = numpy.ones(3, numpy.float32)
    y.backward()
    numpy.testing.assert_allclose(x.grad, [2., 4., 6.])
