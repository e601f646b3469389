"""Tests of Sequential: layers that are links or plain functions."""

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
from chainer.sequential import Sequential


def _x(n=4, d=3):
    return numpy.random.RandomState(0).randn(n, d).astype(numpy.float32)


def test_forward_with_links_and_functions_matches_numpy():
    l1, l2 = L.Linear(3, 5), L.Linear(5, 2)
    seq = Sequential(l1, F.relu, l2)
    x = _x()
    y = seq(x)
    h = numpy.maximum(x @ l1.W.array.T + l1.b.array, 0)
    numpy.testing.assert_allclose(y.array, h @ l2.W.array.T + l2.b.array, rtol=1e-5)


def test_children_are_the_links_named_by_link_order():
    seq = Sequential(L.Linear(3, 4), F.relu, L.Linear(4, 2))
    assert len(seq) == 3
    assert [c.name for c in seq.children()] == ['0', '1']
    assert [n for n, _ in seq.namedparams()] == ['/0/W', '/0/b', '/1/W', '/1/b']


def test_lazy_linear_in_sequential():
    seq = Sequential(L.Linear(None, 4), F.relu, L.Linear(2))
    y = seq(_x(5, 7))
    assert y.shape == (5, 2)
    assert seq[0].W.shape == (4, 7)


def test_tuple_outputs_are_unpacked():
    seq = Sequential(lambda x: (x, x * 2), lambda a, b: a + b)
    numpy.testing.assert_array_equal(seq(numpy.ones(2)), numpy.full(2, 3.0))


def test_empty_and_non_callable():
    with pytest.raises(RuntimeError, match='any layer'):
        Sequential()(numpy.ones(1))
    with pytest.raises(ValueError, match='callable'):
        Sequential(1)
    seq = Sequential(F.relu)
    with pytest.raises(ValueError):
        seq.append('x')
    with pytest.raises(IndexError):
        seq.insert(5, F.relu)


def test_list_operations():
    a, b, c = L.Linear(2, 2), L.Linear(2, 2), L.Linear(2, 2)
    seq = Sequential(a, F.relu)
    seq.append(b)
    seq.insert(0, c)
    assert list(seq) == [c, a, F.relu, b]
    assert [x.name for x in seq.children()] == ['0', '1', '2']
    assert seq.index(F.relu) == 2
    assert seq.count(F.relu) == 1
    assert seq[1:3] == [a, F.relu]
    assert seq.pop() is b
    assert list(seq.children()) == [c, a]
    seq.remove(c)
    assert list(seq) == [a, F.relu] and a.name == '0'
    with pytest.raises(ValueError):
        seq.remove(c)
    seq.extend(Sequential(F.tanh, b))
    assert list(seq) == [a, F.relu, F.tanh, b]
    assert F.tanh in seq
    del seq[0]
    assert list(seq.children()) == [b] and b.name == '0'
    seq[0] = F.sigmoid
    assert seq[0] is F.sigmoid
    seq.clear()
    assert len(seq) == 0 and list(seq.params()) == []


def test_layer_type_helpers():
    seq = Sequential(L.Linear(2, 2), F.relu, L.Linear(2, 2), F.relu)
    assert seq.count_by_layer_type('Linear') == 2
    assert seq.count_by_layer_type('relu') == 2
    seq.remove_by_layer_type('relu')
    assert len(seq) == 2
    assert all(isinstance(x, L.Linear) for x in seq)


def test_add_and_iadd():
    s1 = Sequential(L.Linear(2, 3))
    s2 = Sequential(F.relu, L.Linear(3, 1))
    s = s1 + s2
    assert len(s) == 3 and s[0] is s1[0]
    assert [n for n, _ in s.namedparams()] == ['/0/W', '/0/b', '/1/W', '/1/b']
    with pytest.raises(ValueError):
        s1 + F.relu
    s1 += s2
    assert len(s1) == 3


def test_flatten():
    inner = Sequential(L.Linear(2, 2), F.relu)
    outer = Sequential(inner, Sequential(F.tanh, Sequential(F.sigmoid)))
    flat = outer.flatten()
    assert len(flat) == 4
    assert flat[1] is F.relu and flat[3] is F.sigmoid


def test_copy_modes():
    seq = Sequential(L.Linear(2, 3), F.relu)
    shared = seq.copy()
    assert shared[0] is not seq[0] and shared[0].W.array is seq[0].W.array
    assert shared[1] is F.relu
    deep = seq.copy('copy')
    assert deep[0].W.array is not seq[0].W.array
    numpy.testing.assert_array_equal(deep[0].W.array, seq[0].W.array)
    init = seq.copy('init')
    assert not numpy.array_equal(init[0].W.array, seq[0].W.array)


def test_copyparams():
    a = Sequential(L.Linear(2, 3), F.relu)
    b = Sequential(L.Linear(2, 3), F.relu)
    a.copyparams(b)
    numpy.testing.assert_array_equal(a[0].W.array, b[0].W.array)
    with pytest.raises(ValueError):
        a.copyparams(L.Linear(2, 3))


def test_repeat_sequential_and_link():
    block = Sequential(L.Linear(3, 3), F.relu)
    net = block.repeat(3)
    assert len(net) == 3 and all(isinstance(x, Sequential) for x in net)
    assert [n for n, _ in net.namedparams()][:2] == ['/0/0/W', '/0/0/b']
    assert net(_x()).shape == (4, 3)
    assert not numpy.array_equal(net[0][0].W.array, net[1][0].W.array)


def test_sequential_in_chain_copy_share():
    chain = chainer.Chain(body=Sequential(L.Linear(2, 2), F.relu))
    c = chain.copy()
    assert c.body is not chain.body and c.body.name == 'body'
    assert c.body[0].W.array is chain.body[0].W.array


def test_str():
    seq = Sequential(L.Linear(2, 3), F.relu)
    text = str(seq)
    assert text.startswith('Sequential(\n  (0): Linear(in_size=2, out_size=3, nobias=False),\n')
    assert 'relu' in text


def test_str_shows_lambda_source_and_repr_of_functions():
    import functools
    layer = functools.partial(F.leaky_relu, slope=0.2)
    seq = Sequential(lambda x: F.leaky_relu(x, slope=0.2), F.relu, layer)
    assert str(seq) == (
        'Sequential(\n'
        '  (0): lambda x: F.leaky_relu(x, slope=0.2),\n'
        f'  (1): {F.relu!r},\n'
        f'  (2): {layer!r},\n'
        ')')


def test_pickle_refuses_lambda_layers_but_copies_work():
    import copy
    import pickle
    seq = Sequential(L.Linear(2, 2), lambda x: x * 2)
    with pytest.raises(ValueError, match='lambda'):
        pickle.dumps(seq)
    deep = copy.deepcopy(seq)
    assert deep[1] is seq[1] and deep[0] is not seq[0]
    chain = chainer.Chain(body=seq)
    assert len(chain.copy('copy').body) == 2
    plain = pickle.loads(pickle.dumps(Sequential(L.Linear(2, 2), F.relu)))
    assert plain[1] is F.relu
