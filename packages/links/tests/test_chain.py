"""Tests of Chain and ChainList: children, paths, copies and gradients."""

import numpy
import pytest

import chainer
from chainer import initializers
from chainer.link import Chain, ChainList, Link


class Leaf(Link):
    def __init__(self, n=2):
        super().__init__()
        with self.init_scope():
            self.W = chainer.Parameter(initializers.Normal(1.0), (n, n))
            self.b = chainer.Parameter(0.0, (n,))


class Net(Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l2 = Leaf()
            self.l1 = Leaf()
            self.p = chainer.Parameter(1.0, (1,))


def test_children_registered_in_init_scope_and_named():
    net = Net()
    assert net._children == {'l1', 'l2'}
    assert net.l1.name == 'l1'
    assert net['l1'] is net.l1
    assert list(net.children()) == [net.l1, net.l2]


def test_namedparams_paths():
    net = Net()
    names = [name for name, _ in net.namedparams()]
    assert names == ['/p', '/l1/W', '/l1/b', '/l2/W', '/l2/b']
    params = list(net.params())
    assert params[1] is net.l1.W and len(params) == 5


def test_namedlinks_and_links():
    net = Net()
    assert [p for p, _ in net.namedlinks()] == ['/', '/l1', '/l2']
    assert [p for p, _ in net.namedlinks(skipself=True)] == ['/l1', '/l2']
    assert list(net.links()) == [net, net.l1, net.l2]
    assert list(net.links(skipself=True)) == [net.l1, net.l2]


def test_nested_paths():
    outer = Chain(inner=Net())
    assert ('/inner/l1/W', outer.inner.l1.W) in list(outer.namedparams())
    assert [p for p, _ in outer.namedlinks()] == ['/', '/inner', '/inner/l1', '/inner/l2']


def test_chain_kwargs_and_add_link_errors():
    c = Chain(a=Leaf(), b=Leaf())
    assert c._children == {'a', 'b'}
    with pytest.raises(AttributeError, match='attribute exists'):
        c.add_link('a', Leaf())
    with pytest.raises(TypeError, match='non-link'):
        c.add_link('z', object())
    with pytest.raises(AttributeError, match='attribute exists'), c.init_scope():
        c.a = Leaf()


def test_assigning_outside_scope_does_not_register():
    c = Chain()
    c.free = Leaf()
    assert c._children == set()
    assert list(c.params()) == []


def test_delattr_removes_child():
    net = Net()
    del net.l1
    assert net._children == {'l2'}
    assert [n for n, _ in net.namedparams()] == ['/p', '/l2/W', '/l2/b']


def test_cleargrads_recursive():
    net = Net()
    for p in net.params():
        p.grad = numpy.ones_like(p.array)
    net.cleargrads()
    assert all(p.grad is None for p in net.params())


def test_chain_copy_share():
    net = Net()
    c = net.copy()
    assert c.l1 is not net.l1 and c.l1.name == 'l1'
    assert c.l1.W is not net.l1.W and c.l1.W.array is net.l1.W.array
    assert c._children == net._children and c._children is not net._children
    with c.init_scope():
        c.l3 = Leaf()
    assert 'l3' not in net._children


def test_chain_copy_copy_and_init():
    net = Net()
    c = net.copy('copy')
    numpy.testing.assert_array_equal(c.l1.W.array, net.l1.W.array)
    assert c.l1.W.array is not net.l1.W.array
    assert c.l1.name == 'l1' and c.name is None
    i = net.copy('init')
    assert not numpy.array_equal(i.l1.W.array, net.l1.W.array)


def test_chain_copyparams_and_addgrads():
    a, b = Net(), Net()
    a.copyparams(b)
    for (_, pa), (_, pb) in zip(a.namedparams(), b.namedparams(), strict=True):
        numpy.testing.assert_array_equal(pa.array, pb.array)
    a.cleargrads()  # new parameters start with NaN gradients, as in Chainer v7
    b.l2.W.grad = numpy.ones((2, 2), 'f')
    a.addgrads(b)
    numpy.testing.assert_array_equal(a.l2.W.grad, numpy.ones((2, 2), 'f'))


def test_chain_str():
    net = Chain(a=Leaf())
    assert str(net) == 'Chain(\n  (a): Leaf(),\n)'


def test_chainlist_basics():
    cl = ChainList(Leaf(), Leaf())
    assert len(cl) == 2
    assert cl[0].name == '0' and cl[1].name == '1'
    assert list(cl) == [cl[0], cl[1]]
    assert cl[0:1] == [cl[0]]
    third = Leaf()
    cl.append(third)
    assert third.name == '2' and cl[-1] is third
    names = [n for n, _ in cl.namedparams()]
    assert names == ['/0/W', '/0/b', '/1/W', '/1/b', '/2/W', '/2/b']
    assert [p for p, _ in cl.namedlinks(skipself=True)] == ['/0', '/1', '/2']
    assert list(cl.links()) == [cl, cl[0], cl[1], cl[2]]
    assert list(cl.children()) == [cl[0], cl[1], cl[2]]


def test_chainlist_insert_renames():
    a, b, c = Leaf(), Leaf(), Leaf()
    cl = ChainList(a, b)
    cl.insert(1, c)
    assert list(cl) == [a, c, b]
    assert [x.name for x in cl] == ['0', '1', '2']


def test_chainlist_errors():
    cl = ChainList()
    with pytest.raises(TypeError):
        cl.add_link(42)
    with pytest.raises(TypeError, match='init_scope'), cl.init_scope():
        cl.x = Leaf()


def test_chainlist_copy_modes():
    cl = ChainList(Leaf(), Leaf())
    s = cl.copy()
    assert s[0] is not cl[0] and s[0].W.array is cl[0].W.array and s[1].name == '1'
    assert s._children is not cl._children
    d = cl.copy('copy')
    assert d[0].W.array is not cl[0].W.array
    numpy.testing.assert_array_equal(d[0].W.array, cl[0].W.array)


def test_chainlist_copyparams_addgrads():
    a, b = ChainList(Leaf(), Leaf()), ChainList(Leaf(), Leaf())
    a.copyparams(b)
    numpy.testing.assert_array_equal(a[1].W.array, b[1].W.array)
    a.cleargrads()  # new parameters start with NaN gradients, as in Chainer v7
    b[1].b.grad = numpy.ones(2, 'f')
    a.addgrads(b)
    numpy.testing.assert_array_equal(a[1].b.grad, numpy.ones(2, 'f'))


def test_serialize_uses_child_groups():
    class Recorder:
        def __init__(self, path=''):
            self.path = path
            self.keys = [] if not path else None

        def __getitem__(self, key):
            child = Recorder(self.path + key + '/')
            child.keys = self.keys
            return child

        def __call__(self, key, value):
            self.keys.append(self.path + key)
            return value

    r = Recorder()
    Chain(net=Net(), lst=ChainList(Leaf())).serialize(r)
    assert r.keys == ['lst/0/W', 'lst/0/b', 'net/p', 'net/l1/W', 'net/l1/b', 'net/l2/W',
                      'net/l2/b']


def test_repeat_builds_sequential():
    leaf = Leaf(3)
    seq = leaf.repeat(3)
    assert isinstance(seq, chainer.Sequential)
    assert len(seq) == 3
    assert all(isinstance(x, Leaf) for x in seq)
    assert seq[0] is not leaf
    assert not numpy.array_equal(seq[0].W.array, leaf.W.array)
    shared = leaf.repeat(2, mode='share')
    assert shared[1].W.array is leaf.W.array
    copied = leaf.repeat(2, mode='copy')
    numpy.testing.assert_array_equal(copied[0].W.array, leaf.W.array)
    assert copied[0].W.array is not leaf.W.array
    assert len(leaf.repeat(0)) == 0
    with pytest.raises(ValueError):
        leaf.repeat(2, mode='nope')


def _leaves(n):
    return [Leaf() for _ in range(n)]


def test_chainlist_setitem_renames_and_checks_type():
    a, b, c = _leaves(3)
    cl = ChainList(a, b)
    cl[1] = c
    assert list(cl) == [a, c] and c.name == '1'
    with pytest.raises(TypeError, match='non-link'):
        cl[0] = 3
    assert list(cl) == [a, c]


@pytest.mark.parametrize('index,new,expected', [
    (slice(1, 3), 1, ['a', 'n0']),
    (slice(1, 3), 3, ['a', 'n0', 'n1', 'n2']),
    (slice(3, 0, -1), 2, ['a', 'n1', 'n0']),
])
def test_chainlist_setitem_slice_renumbers(index, new, expected):
    a, b, c = _leaves(3)
    news = _leaves(new)
    names = {id(a): 'a', id(b): 'b', id(c): 'c'}
    names.update({id(n): f'n{i}' for i, n in enumerate(news)})
    cl = ChainList(a, b, c)
    cl[index] = news
    assert [names[id(x)] for x in cl] == expected
    assert [x.name for x in cl] == [str(i) for i in range(len(expected))]
    assert [p for p, _ in cl.namedparams()][-1].startswith(f'/{len(expected) - 1}/')


def test_chainlist_delitem_and_iadd():
    a, b, c = _leaves(3)
    cl = ChainList(a, b)
    del cl[0]
    assert list(cl) == [b] and b.name == '0'
    cl += ChainList(c)
    assert list(cl) == [b, c] and c.name == '1'
    with pytest.raises(TypeError):
        cl += 1
