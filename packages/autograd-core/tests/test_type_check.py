import numpy
import pytest

import chainer
from chainer import FunctionNode
from chainer.utils import type_check as T


def _types(*arrays):
    return T.get_types(arrays, 'in_types', False)


def test_expect_passes_and_fails_with_message():
    t = _types(numpy.zeros((2, 3), numpy.float32), numpy.zeros(2, numpy.int32))
    x, y = t
    T.expect(x.dtype == numpy.float32, x.ndim == 2, x.shape[0] == y.shape[0], t.size() == 2)
    with pytest.raises(T.InvalidType) as e:
        T.expect(x.shape[1] == 4)
    assert e.value.expect == 'in_types[0].shape[1] == 4'
    assert e.value.actual == '3 != 4'
    with pytest.raises(T.InvalidType) as e:
        T.expect(y.dtype.kind == 'f')
    assert 'in_types[1].dtype.kind == f' in str(e.value)
    assert 'Actual: i != f' in str(e.value)


def test_argname_arithmetic_and_prod():
    t = _types(numpy.zeros((2, 3, 4), numpy.float32), numpy.zeros((4, 12), numpy.float32))
    T.argname(t, ('x', 'W'))
    x, W = t
    T.expect(T.prod(x.shape[1:]) == W.shape[1], x.shape[0] * 2 == W.shape[0])
    with pytest.raises(T.InvalidType) as e:
        T.expect(x.shape[2] + 1 < W.shape[0])
    assert e.value.expect == 'x.shape[2] + 1 < W.shape[0]'
    assert e.value.actual == '5 >= 4'
    with pytest.raises(T.InvalidType, match='expected 3 arguments'):
        T.argname(t, ('a', 'b', 'c'))


def test_expr_cannot_be_bool():
    x, = _types(numpy.zeros(2))
    with pytest.raises(RuntimeError, match='expect'):
        bool(x.ndim == 1)


def test_eval_and_same_types_and_broadcast():
    x, = _types(numpy.zeros((2, 5)))
    assert T.eval(x.shape[1] * 2) == 10
    assert T.eval(7) == 7
    assert T.same_types(numpy.zeros(1), numpy.zeros(2))
    T.expect_broadcast_shapes((2, 1), (1, 3))
    with pytest.raises(T.InvalidType, match='broadcast'):
        T.expect_broadcast_shapes((2, 3), (4,))


def test_light_mode_uses_plain_values():
    data = (numpy.zeros((2, 3), numpy.float32),)
    with T.light_mode:
        assert T.in_light_mode()
        t = T.get_light_types(data)
        assert t.size() == 1
        T.expect(t[0].ndim == 2, T.prod(t[0].shape) == 6)
        with pytest.raises(T.InvalidType):
            T.expect(t[0].ndim == 3)
    assert not T.in_light_mode()


class Needs2D(FunctionNode):
    def check_type_forward(self, in_types):
        T.argname(in_types, ('x',))
        T.expect(in_types[0].ndim == 2, in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        return inputs[0] * 1,


def test_function_error_is_built_in_full_mode():
    Needs2D().apply((numpy.zeros((2, 2), numpy.float32),))
    with pytest.raises(T.InvalidType) as e:
        Needs2D().apply((numpy.zeros(3, numpy.float32),))
    text = str(e.value)
    assert 'Invalid operation is performed in: Needs2D' in text
    assert 'Expect: x.ndim == 2' in text
    assert 'Actual: 1 != 2' in text


def test_type_check_can_be_disabled():
    with chainer.using_config('type_check', False):
        Needs2D().apply((numpy.zeros(3, numpy.float32),))


def test_invalid_type_pickles():
    import pickle

    e = T.InvalidType('a', 'b')
    assert 'a' in str(pickle.loads(pickle.dumps(e)))


def test_custom_message_is_on_its_own_line():
    e = T.InvalidType('x', 'y', 'mask must have the shape of x')
    e._context = 'Dropout'
    assert str(e) == ('\nInvalid operation is performed in: Dropout (Forward)\n\n'
                      'mask must have the shape of x')


def test_expression_classes_build_like_v7():
    x = T.Variable(3, 'x')
    cond = T.BoolBinaryOperator(x, 4, '==', '!=', lambda a, b: a == b)
    assert isinstance(cond, T.Testable) and isinstance(cond, T.BinaryOperator)
    assert str(cond) == 'x == 4'
    with pytest.raises(T.InvalidType) as e:
        T.expect(cond)
    assert e.value.actual == '3 != 4'
    T.expect(T.BoolBinaryOperator(x, 4, '<', '>=', lambda a, b: a < b))
    call = T.Call(T.Constant(len), ((1, 2),))
    assert call.obj.value is len and call.eval() == 2
    assert T.Expr(5).priority == 5
    with pytest.raises(NotImplementedError):
        T.Testable().expect()


def test_types_with_shapes_given():
    data = (numpy.zeros((2, 3), numpy.float32),)
    t = T.get_types(data, 'in_types', False, shapes=[(6,)])
    assert T.eval(t[0].shape) == (6,) and T.eval(t[0].ndim) == 1
    with T.light_mode:
        lt = T.get_light_types(data, shapes=[(3, 2)])
        assert lt[0].shape == (3, 2) and lt[0].dtype == numpy.float32 and lt[0].size == 6
    with pytest.raises(TypeError):
        T.get_types(data, 'in_types', False, [(6,)])


def test_texts_of_expressions_as_v7():
    x = T.Variable([1, 2, 3], 'x')
    y = T.Variable({'a': 1}, 'y')
    assert str(T.GetItem(y, 'a')) == "y['a']"
    assert str(x[1:2:, ...]) == 'x[1:2, ...]'
    assert str(T.GetAttr(T.Variable(3, 'x'), 'real')) == 'x.real'
    assert str(T.GetAttr(T.Variable(3, 'x'), T.Constant('real'))) == 'x.real'
    assert str(T.GetAttr(T.Variable(3, 'x'), 3)) == 'getattr(x, 3)'
    assert T.GetAttr(T.Variable(3, 'x'), T.Constant('real')).eval() == 3
    assert str(T.Call(T.Variable(sum, 'sum'), (['', 1],))) == "sum(['', 1])"
    assert T._repr([T.Constant(0)]) == '[0]'
    assert T._repr((T.Constant(0),)) == '(0,)'
    assert T._repr(()) == '()'
    assert str(T.prod([])) == 'prod([])' and T.prod([2, 3]).eval() == 6


def test_constants_holding_expressions_are_evaluated():
    assert (T.Constant([0]) == [T.Constant(0)]).eval()
    assert (T.Constant((0, 1)) == (T.Constant(0), 1)).eval()
    assert (T.Constant([[0]]) == [[T.Constant(0)]]).eval()
    T.expect(T.Constant([2]) == [T.Variable(2, 'n')])


def test_dtype_message_shows_the_values_as_str():
    x, = _types(numpy.zeros(2, numpy.float64))
    with pytest.raises(T.InvalidType) as e:
        T.expect(x.dtype == numpy.float32)
    assert e.value.expect == "in_types[0].dtype == <class 'numpy.float32'>"
    assert e.value.actual == "float64 != <class 'numpy.float32'>"


def test_get_types_needs_a_tuple():
    with pytest.raises(AssertionError):
        T.get_types(1, 'name', False)
    with pytest.raises(TypeError, match='tuple of arrays'):
        T.get_types(1, 'name', False)


def test_same_types_counts_ndarray_subclasses_as_numpy():
    class Sub(numpy.ndarray):
        pass

    assert T.same_types(numpy.zeros(1), numpy.zeros(2).view(Sub), None)
    assert not T.same_types(numpy.zeros(1), [0])


def test_v7_argname_alias():
    t = _types(numpy.zeros(2))
    T._argname(t, ('x',))
    with pytest.raises(T.InvalidType) as e:
        T.expect(t[0].ndim == 2)
    assert e.value.expect == 'x.ndim == 2'
