"""capture/restore: the undo record of a failed load."""

import collections
import threading

import numpy

from chainer.serializers import _rollback


class Node:
    def __init__(self, **kw):
        self.__dict__.update(kw)


class Slots:
    __slots__ = ('a', '__b')

    def __init__(self):
        self.a = 1
        self.__b = 2

    @property
    def b(self):
        return self.__b

    def set_b(self, value):
        self.__b = value


def test_attributes_and_containers_are_restored_in_place():
    arr = numpy.zeros(3)
    child = Node(x=1)
    items = [child, 2]
    table = collections.OrderedDict(a=1, b=child)
    root = Node(items=items, table=table, arr=arr, tags={'x'}, queue=collections.deque([1]),
                pair=(child, Node(y=2)))
    record = _rollback.capture(root)

    child.x = 5
    child.new = 1
    items.append(3)
    items[0] = None
    table['c'] = 3
    table.move_to_end('a')
    root.tags.add('y')
    root.queue.append(2)
    root.pair[1].y = 7
    root.arr = numpy.ones(3)
    root.extra = 1

    record.restore()
    assert root.arr is arr and not hasattr(root, 'extra')
    assert root.items is items and items == [child, 2]
    assert list(table.items()) == [('a', 1), ('b', child)]
    assert child.x == 1 and not hasattr(child, 'new')
    assert root.tags == {'x'} and list(root.queue) == [1]
    assert root.pair[1].y == 2


def test_slots_are_restored_including_private_and_unset_ones():
    obj = Slots()
    del obj.a
    record = _rollback.capture(obj)
    obj.a = 3
    obj.set_b(4)
    record.restore()
    assert not hasattr(obj, 'a') and obj.b == 2


def test_arrays_are_not_copied_and_opaque_objects_are_not_visited():
    arr = numpy.zeros(2)
    lock_owner = threading.Thread(target=lambda: None)
    root = Node(arr=arr, thread=lock_owner)
    record = _rollback.capture(root)
    arr[...] = 1  # loaders never write into arrays before committing
    lock_owner.name = 'renamed'
    record.restore()
    assert root.arr is arr and arr[0] == 1
    assert lock_owner.name == 'renamed'


def test_elements_of_long_sequences_are_data():
    inner = Node(v=1)
    big = [inner] + list(range(_rollback.MAX_ELEMENTS))
    root = Node(data=big)
    record = _rollback.capture(root)
    inner.v = 2
    big.append(0)
    record.restore()
    assert len(big) == _rollback.MAX_ELEMENTS + 1  # the list itself is restored
    assert inner.v == 2  # its elements were not visited


def test_cycles_are_handled():
    a = Node()
    b = Node(a=a)
    a.b = b
    record = _rollback.capture(a)
    b.a = None
    record.restore()
    assert b.a is a
