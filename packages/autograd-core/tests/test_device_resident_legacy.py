"""v7's legacy device methods: to_cpu/to_gpu/to_intel64 are deprecated, to_device is final,
and overrides of the legacy methods written for v7 are still honoured by to_device."""

import numpy
import pytest

import chainer
from chainer.device_resident import DeviceResident


class Leaf(DeviceResident):
    def __init__(self):
        super().__init__()
        self.p = chainer.Parameter(numpy.ones(2, numpy.float32))

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        visitor.visit_variable(self.p)


@pytest.mark.parametrize('name', ['to_device', 'to_chx', 'from_chx'])
def test_final_methods_cannot_be_overridden(name):
    with pytest.raises(TypeError, match=name):
        type('Bad', (Leaf,), {name: lambda self, *a: None})


@pytest.mark.parametrize('name', ['to_cpu', 'to_gpu', 'to_intel64'])
def test_overriding_a_legacy_method_warns_at_class_definition(name):
    with pytest.warns(DeprecationWarning, match=name):
        cls = type('Legacy', (Leaf,), {name: lambda self, *a: self})
    assert name in cls._overridden_to_methods
    assert Leaf._overridden_to_methods == frozenset()


def test_to_device_calls_an_overridden_to_cpu_once():
    calls = []

    with pytest.warns(DeprecationWarning):
        class Legacy(Leaf):
            def to_cpu(self):
                calls.append(self)
                with pytest.warns(DeprecationWarning):
                    return super().to_cpu()

    leaf = Legacy()
    assert leaf.to_device('@numpy') is leaf
    assert calls == [leaf]
    # Calling the override directly runs it once (the visit it starts does not recurse).
    leaf.to_cpu()
    assert calls == [leaf, leaf]
    assert isinstance(leaf.p.array, numpy.ndarray)


def test_legacy_methods_warn_and_to_device_does_not(recwarn):
    leaf = Leaf()
    leaf.to_device('@numpy')
    assert not [w for w in recwarn if w.category is DeprecationWarning]
    with pytest.warns(DeprecationWarning, match=r"to_device\('@numpy'\)"):
        leaf.to_cpu()
