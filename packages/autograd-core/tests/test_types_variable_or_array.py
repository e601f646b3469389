"""chainer.types.VariableOrArray: what a link's forward or a function takes as an input."""

import typing

import numpy

import chainer
from chainer import types


def test_variable_or_array_names_variable_and_the_array_types():
    args = typing.get_args(types.VariableOrArray)
    assert numpy.ndarray in args
    assert typing.ForwardRef('chainer.variable.Variable') in args
    # the forward reference resolves to chainer.Variable
    ref = next(a for a in args if isinstance(a, typing.ForwardRef)
               and 'Variable' in a.__forward_arg__)
    assert eval(ref.__forward_arg__, {'chainer': chainer}) is chainer.Variable
    assert 'VariableOrArray' in types.__all__
