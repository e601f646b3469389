import copy
import gc
import pickle
import weakref

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import Parameter, Variable, initializers


def test_construct_and_properties():
    a = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    v = Variable(a, name='v')
    assert v.array is a and v.data is a
    assert v.shape == (2, 3) and v.ndim == 2 and v.size == 6 and v.dtype == numpy.float32
    assert len(v) == 2
    assert v.name == 'v'
    assert v.grad is None and v.grad_var is None
    assert v.creator is None and v.creator_node is None and v.rank == 0
    assert v.requires_grad
    assert v.xp is numpy
    assert v.summary() == '<variable v>'
    assert Variable(a).summary().startswith('<variable at 0x')
    assert 'shape: (2, 3)' in v.debug_print()


@pytest.mark.parametrize('bad', [1.0, [1, 2], 'x', numpy.float32(1)])
def test_non_array_data_is_rejected(bad):
    with pytest.raises(TypeError, match='numpy.ndarray or cupy.ndarray'):
        Variable(bad)


def test_removed_volatile_argument_is_explained():
    with pytest.raises(ValueError, match='no_backprop_mode'):
        Variable(numpy.ones(1), volatile=True)


def test_grad_setter_checks_shape_and_dtype():
    v = Variable(numpy.ones((2, 3), numpy.float32))
    v.grad = numpy.zeros((2, 3), numpy.float32)
    assert v.grad_var.array is v.grad
    with pytest.raises(ValueError, match='shape'):
        v.grad = numpy.zeros((3, 2), numpy.float32)
    with pytest.raises(TypeError, match='dtype'):
        v.grad = numpy.zeros((2, 3), numpy.float64)
    v.cleargrad()
    assert v.grad is None
    with pytest.warns(DeprecationWarning, match='zerograd is deprecated'):
        v.zerograd()
    numpy.testing.assert_array_equal(v.grad, numpy.zeros((2, 3)))


def test_bool_is_ambiguous():
    with pytest.raises(TypeError, match='ambiguous'):
        bool(Variable(numpy.ones(1)))


def test_iteration_yields_differentiable_rows():
    data = numpy.arange(6.0).reshape(3, 2)
    x = Variable(data)
    rows = list(x)
    assert len(rows) == 3
    for i, row in enumerate(rows):
        assert isinstance(row, Variable)
        numpy.testing.assert_array_equal(row.array, data[i])
    a, b, c = x
    chainer.functions.sum(b * 2.0 + c).backward()
    numpy.testing.assert_array_equal(x.grad, [[0, 0], [2, 2], [1, 1]])
    with pytest.raises(TypeError):
        list(Variable(numpy.array(1.0)))


def test_backward_accumulates_into_leaves():
    x = Variable(numpy.array([1.0, 2.0, 3.0]))
    y = F.sum(x * x + x)
    y.backward()
    numpy.testing.assert_allclose(x.grad, 2 * x.array + 1)
    assert y.grad is None  # the output gradient is consumed by the pass, as in v7
    y2 = F.sum(x * 3)
    y2.backward()
    numpy.testing.assert_allclose(x.grad, 2 * x.array + 1 + 3)


def test_backward_through_shared_subexpression():
    x = Variable(numpy.array(2.0))
    h = x * x
    y = h * h + h  # y = x^4 + x^2
    y.backward()
    numpy.testing.assert_allclose(x.grad, 4 * 8 + 2 * 2)


def test_retain_grad():
    x = Variable(numpy.array([1.0, 2.0]))
    h = x * 2
    y = F.sum(h * h)
    y.backward()
    assert h.grad is None
    x.cleargrad()
    h = x * 2
    y = F.sum(h * h)
    y.backward(retain_grad=True)
    numpy.testing.assert_allclose(h.grad, 2 * h.array)


def test_requires_grad_false_gets_no_grad():
    x = Variable(numpy.array([1.0]), requires_grad=False)
    w = Variable(numpy.array([3.0]))
    y = F.sum(x * w)
    y.backward()
    assert x.grad is None
    numpy.testing.assert_allclose(w.grad, [1.0])


def test_no_backprop_mode_builds_no_graph():
    x = Variable(numpy.array([1.0]))
    with chainer.no_backprop_mode():
        y = x * 2
    assert y.creator is None
    with chainer.no_backprop_mode(), chainer.force_backprop_mode():
        z = x * 2
    assert z.creator is not None


def test_loss_scale_scales_gradients():
    x = Variable(numpy.array([1.0, 2.0]))
    y = F.sum(x * x)
    y.backward(loss_scale=8.0)
    numpy.testing.assert_allclose(x.grad, 8 * 2 * x.array)
    assert x._loss_scale == 8.0


def test_unchain_and_unchain_backward():
    x = Variable(numpy.array([1.0]))
    h = x * 2
    y = h * 3
    y.unchain()
    assert y.creator is None
    h2 = x * 2
    y2 = h2 * 3
    y2.unchain_backward()
    assert y2.creator is None and h2.creator is None


def test_graph_is_freed_with_its_output():
    x = Variable(numpy.ones(1000, numpy.float32))
    h = x * 2
    y = F.sum(h * h)
    h_ref = weakref.ref(h.array)
    node_ref = weakref.ref(h.node)
    func_ref = weakref.ref(y.creator_node)
    del h
    y.backward()
    del y
    gc.collect()
    assert func_ref() is None
    assert node_ref() is None
    assert h_ref() is None


def test_intermediate_grads_freed_during_backward():
    x = Variable(numpy.ones(100))
    y = x
    for _ in range(5):
        y = y * 1.5
    y = F.sum(y)
    y.backward()
    # only the leaf keeps a gradient: intermediates did not keep theirs
    numpy.testing.assert_allclose(x.grad, numpy.full(100, 1.5 ** 5))


def test_reshape_transpose_T_item_mean():
    v = Variable(numpy.arange(6.0).reshape(2, 3))
    assert v.reshape(3, 2).shape == (3, 2)
    assert v.reshape((6,)).shape == (6,)
    assert v.T.shape == (3, 2)
    assert v.transpose(1, 0).shape == (3, 2)
    assert v.mean().array == pytest.approx(2.5)
    assert Variable(numpy.array([4.0])).item() == 4.0
    with pytest.raises(ValueError):
        v.item()


def test_getitem():
    v = Variable(numpy.arange(6.0).reshape(2, 3))
    y = v[1, ::2]
    numpy.testing.assert_array_equal(y.array, [3.0, 5.0])
    F.sum(y).backward()
    numpy.testing.assert_array_equal(v.grad, [[0, 0, 0], [1, 0, 1]])


def test_copy_deepcopy_pickle():
    v = Variable(numpy.arange(3.0), name='v')
    v.grad = numpy.ones(3)
    c = copy.copy(v)
    assert c.array is v.array and c.name == 'v'
    d = copy.deepcopy(v)
    assert d.array is not v.array
    numpy.testing.assert_array_equal(d.grad, v.grad)
    p = pickle.loads(pickle.dumps(v))
    numpy.testing.assert_array_equal(p.array, v.array)
    numpy.testing.assert_array_equal(p.grad, v.grad)
    assert p.name == 'v'


def test_addgrad_and_copydata():
    a = Variable(numpy.ones(3))
    b = Variable(numpy.full(3, 2.0))
    b.grad = numpy.full(3, 5.0)
    a.addgrad(b)
    numpy.testing.assert_array_equal(a.grad, numpy.full(3, 5.0))
    a.addgrad(b)
    numpy.testing.assert_array_equal(a.grad, numpy.full(3, 10.0))
    a.copydata(b)
    numpy.testing.assert_array_equal(a.array, b.array)
    assert a.array is not b.array


def test_to_device_cpu():
    v = Variable(numpy.ones(2))
    v.grad = numpy.ones(2)
    assert v.to_cpu() is v
    assert v.to_device('@numpy') is v
    with pytest.raises(RuntimeError):
        v.to_device('@intel64')


def test_parameter_lazy_initialization():
    p = Parameter(initializers.Constant(3.0))
    assert p.array is None
    assert not p.is_initialized
    p.initialize((2, 3))
    assert p.shape == (2, 3) and p.dtype == numpy.float32
    numpy.testing.assert_array_equal(p.array, numpy.full((2, 3), 3.0))
    # as in Chainer v7, the gradient starts as NaN until cleargrad/zerograd/backward
    assert p.grad.shape == (2, 3) and numpy.isnan(p.grad).all()
    p.cleargrad()
    assert p.grad is None
    assert Parameter(numpy.ones(2)).grad is None


def test_parameter_forms():
    p = Parameter(numpy.ones((2,), numpy.float64))
    assert p.dtype == numpy.float64
    q = Parameter(2.0, (3,))
    numpy.testing.assert_array_equal(q.array, [2, 2, 2])
    r = Parameter(shape=(2,))
    assert numpy.isnan(r.array).all()
    s = Parameter(initializers.Zero(numpy.float16), (2,))
    assert s.dtype == numpy.float16


def test_parameter_zerograd_before_init():
    p = Parameter(initializers.One())
    with pytest.warns(DeprecationWarning, match='zerograd is deprecated'):
        p.zerograd()
    p.initialize((2,))
    numpy.testing.assert_array_equal(p.grad, [0, 0])
    p2 = Parameter(initializers.One())
    p2.cleargrad()
    p2.initialize((2,))
    assert p2.grad is None


def test_parameter_update_uses_rule():
    class Rule:
        def update(self, param):
            param.array -= param.grad

    p = Parameter(numpy.ones(2))
    p.grad = numpy.ones(2)
    p.update()
    numpy.testing.assert_array_equal(p.array, [1, 1])
    p.update_rule = Rule()
    p.update()
    numpy.testing.assert_array_equal(p.array, [0, 0])


def test_parameter_copy_and_pickle():
    p = Parameter(numpy.arange(3.0), name='W')
    p.grad = numpy.ones(3)
    q = copy.deepcopy(p)
    assert isinstance(q, Parameter) and q.name == 'W'
    assert q.array is not p.array
    r = pickle.loads(pickle.dumps(p))
    assert isinstance(r, Parameter)
    numpy.testing.assert_array_equal(r.array, p.array)


def test_as_variable_as_array():
    a = numpy.ones(2)
    v = chainer.as_variable(a)
    assert isinstance(v, Variable) and not v.requires_grad
    assert chainer.as_variable(v) is v
    assert chainer.as_array(v) is a
    assert chainer.as_array(a) is a


def test_copydata_with_uninitialized_parameters():
    a = Parameter(initializers.One())
    b = Parameter(initializers.Zero())
    a.copydata(b)  # both uninitialized: nothing to do
    assert a.array is None and b.array is None
    c = Parameter(numpy.full((2,), 7.0, numpy.float32))
    a.copydata(c)  # destination initialized from the source shape
    numpy.testing.assert_array_equal(a.array, [7, 7])
    c.copydata(b)  # source initialized to the destination shape first
    numpy.testing.assert_array_equal(c.array, [0, 0])


def test_zero_dim_gradients_accumulate_as_arrays():
    x = Variable(numpy.array(2.0))
    y = x * x + x * 3
    y.backward()
    assert type(x.grad) is numpy.ndarray and x.grad.shape == ()
    assert float(x.grad) == 7.0
    a = Variable(numpy.array(1.0))
    a.grad = numpy.array(1.0)
    b = Variable(numpy.array(1.0))
    b.grad = numpy.array(2.0)
    a.addgrad(b)
    assert type(a.grad) is numpy.ndarray and float(a.grad) == 3.0


def test_repr_and_str_print_like_v7():
    v = Variable(numpy.array([[1.0, 2.0], [3.0, 4.0]], numpy.float32))
    assert repr(v) == 'variable([[1., 2.],\n          [3., 4.]])'
    assert str(v) == 'variable([[1. 2.]\n          [3. 4.]])'
    assert str(Variable(numpy.array(5.0, numpy.float32))) == 'variable(5.)'
    assert repr(Variable(numpy.array(5.0, numpy.float32))) == 'variable(5.)'
    v.name = 'w'
    assert repr(v).startswith('variable w([[1., 2.],')
    assert str(Variable(None)) == 'variable(None)'


def test_backward_of_non_scalar_without_grad_warns_and_computes_nothing():
    # as v7: no error, no gradient (a backward that would fail on None is never called)
    x = Variable(numpy.ones(3))
    y = x * 2
    with pytest.warns(RuntimeWarning, match=r'shape \(3,\) without its grad'):
        y.backward()
    assert x.grad is None
    y.grad = numpy.ones(3)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [2.0, 2.0, 2.0])


def test_set_creator_none_makes_a_root():
    y = Variable(numpy.ones(2)) * 2
    assert y.rank == 1
    y.set_creator(None)
    assert y.creator is None and y.rank == 1  # a node made a root keeps its rank (v7)


def test_backward_consumes_the_output_gradient_unless_retained():
    x = Variable(numpy.array([1.0, 2.0]))
    y = x * 3
    y.grad = numpy.ones(2)
    y.backward()
    assert y.grad is None
    numpy.testing.assert_array_equal(x.grad, [3.0, 3.0])
    y = x * 3
    y.grad = numpy.ones(2)
    y.backward(retain_grad=True)
    numpy.testing.assert_array_equal(y.grad, [1.0, 1.0])


def test_chainer_backward_consumes_each_output_gradient_once():
    x = Variable(numpy.array(0.0, numpy.float32))
    y = F.identity(x)
    y.grad = numpy.array(3.0, numpy.float32)
    with pytest.warns(RuntimeWarning, match='no grad'):
        chainer.backward([y, y])
    assert x.grad == 3.0 and y.grad is None


def test_size_one_non_scalar_backward_is_deprecated():
    x = Variable(numpy.array([2.0]))
    y = x * 3
    with pytest.warns(DeprecationWarning, match='only one element'):
        y.backward()
    numpy.testing.assert_array_equal(x.grad, [3.0])


def test_made_root_keeps_its_rank_and_a_new_creator_sets_it():
    x = Variable(numpy.ones(2))
    y = (x * 2) * 2
    creator = y.creator_node
    assert y.rank == 2
    y.creator_node = None
    assert y.creator_node is None and y.rank == 2
    y.node._rank = -1
    y.creator_node = creator
    assert y.rank == creator.rank + 1 == 2


def test_assigning_data_updates_the_node_and_retained_data():
    x = Variable(numpy.ones((3, 2), numpy.float32))
    F.sin(x)  # retains x's array in its node
    x.data = numpy.ones((2, 4), numpy.float64)
    assert x.node.shape == (2, 4) and x.node.dtype == numpy.float64
    assert x.node.data is x.data
    x.to_device('@numpy')
    assert x.node.data is x.data


def test_addgrad_initializes_an_uninitialized_parameter():
    src = Parameter(numpy.random.rand(3, 2).astype(numpy.float32))
    src.grad = numpy.full((3, 2), 2, numpy.float32)
    dst = Parameter()
    dst.cleargrad()
    dst.addgrad(src)
    assert dst.shape == (3, 2)
    numpy.testing.assert_array_equal(dst.grad, src.grad)


def test_repr_of_empty_arrays_shows_the_shape():
    assert repr(Variable(numpy.empty((0, 0), numpy.float32))) == 'variable([], shape=(0, 0))'
    assert str(Variable(numpy.empty((0, 0), numpy.float32))) == 'variable([])'
    assert repr(Variable(numpy.empty((0,), numpy.float32), name='x')) == 'variable x([])'


def test_debug_print_layout():
    v = Variable(numpy.arange(6, dtype=numpy.float32).reshape(2, 3))
    lines = v.debug_print().splitlines()
    assert lines[0] == v.summary()
    assert lines[1:5] == ['- device: CPU', "- backend: <class 'numpy.ndarray'>",
                          '- shape: (2, 3)', '- dtype: float32']
    a = v.array
    assert lines[5] == f'- statistics: mean={float(a.mean()):.8f}, std={float(a.std()):.8f}'
    assert lines[6] == '- grad: None'
    empty = Variable().debug_print().splitlines()
    assert empty[1:] == ['- device: None', '- backend: None', '- shape: None',
                         '- dtype: None', '- statistics: None', '- grad: None']


def test_uninitialized_parameter_dtype_needs_an_initializer_dtype():
    def fill(array):
        array.fill(1)

    with pytest.raises(RuntimeError, match='not determined'):
        Parameter(fill).dtype
    assert Parameter(initializers.Zero(numpy.float16)).dtype == numpy.float16


def test_init_unchecked_and_v7_private_names():
    a = numpy.ones(3, numpy.float32)
    x = Variable._init_unchecked(a, name='x', requires_grad=False)
    assert x.array is a and x.name == 'x' and not x.requires_grad
    assert x._has_chainerx_array is False
    with pytest.raises(ValueError, match='grad'):
        chainer.variable.VariableNode(Variable(), '', grad=None)


def test_zerograd_zeroes_in_place_and_unchains_the_gradient():
    a = Variable(numpy.ones(3, numpy.float32))
    gv = Variable(numpy.full(3, numpy.nan, numpy.float32))
    gv.creator_node = chainer.FunctionNode()
    a.grad_var = gv
    with pytest.warns(DeprecationWarning):
        a.zerograd()
    assert a.grad_var is gv and gv.creator_node is None
    numpy.testing.assert_array_equal(a.grad, [0, 0, 0])


def test_summary_names_the_variable_or_its_address():
    assert Variable(numpy.ones(1), name='w').summary() == '<variable w>'
    v = Variable(numpy.ones(1))
    assert v.summary() == f'<variable at 0x{id(v):x}>'


def test_parameter_reports_the_numpy_device_it_was_sent_to():
    # as v7: a device of its own kind holding NumPy arrays (e.g. a test double)
    class Custom(chainer.backend.Device):
        xp = numpy
        supported_array_types = (numpy.ndarray,)

        def __eq__(self, other):
            return isinstance(other, Custom)

        def __hash__(self):
            return 0

        def send_array(self, array):
            return array.copy()

    p = chainer.Parameter(numpy.ones(2, numpy.float32))
    assert p.device == chainer.backend.CpuDevice()
    p.to_device(Custom())
    assert p.device == Custom()
    p.to_device('@numpy')
    assert p.device == chainer.backend.CpuDevice()
    lazy = chainer.Parameter()
    lazy.to_device(Custom())
    assert lazy.device == Custom()
    lazy.initialize((3,))
    assert lazy.device == Custom() and lazy.array.shape == (3,)


def test_gradient_handed_to_two_inputs_is_not_shared_by_later_sums():
    # s's gradient is a sum; F.add hands that same gradient to both its inputs, then p
    # gets more contributions: summing them must not change q's gradient (identity passes
    # it on unchanged and delays its use past p's sums).
    x = chainer.Variable(numpy.array([1.0, 2.0]))
    p = x * 1
    q = chainer.functions.identity(x * 3)
    s = p + q
    loss = (chainer.functions.sum(s) + chainer.functions.sum(s * 2)
            + chainer.functions.sum(p * 5) + chainer.functions.sum(p * 7))
    loss.backward()
    # dp = 3 + 5 + 7, dq = 3
    numpy.testing.assert_allclose(x.grad, [15 * 1 + 3 * 3] * 2)


def test_shared_weight_gradient_over_many_uses():
    w = chainer.Variable(numpy.array([[1.0, -2.0], [0.5, 3.0]]))
    h = chainer.Variable(numpy.array([[1.0, 1.0]]))
    total = 0
    hs = []
    for _ in range(6):
        h = chainer.functions.tanh(chainer.functions.matmul(h, w))
        hs.append(h)
        total = total + chainer.functions.sum(h)
    total.backward()
    numerical = numpy.zeros_like(w.array)
    eps = 1e-6
    for idx in numpy.ndindex(*w.shape):
        def f(delta, idx=idx):
            wv = w.array.copy()
            wv[idx] += delta
            hv = numpy.array([[1.0, 1.0]])
            out = 0.0
            for _ in range(6):
                hv = numpy.tanh(hv @ wv)
                out += hv.sum()
            return out
        numerical[idx] = (f(eps) - f(-eps)) / (2 * eps)
    numpy.testing.assert_allclose(w.grad, numerical, rtol=1e-5)
