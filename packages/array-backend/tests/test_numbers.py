"""chainer.backends.numbers: the integers programs pass as sizes and indexes."""

import numpy
import pytest

from chainer.backends import numbers


@pytest.mark.parametrize('value,expected', [
    (3, 3), (numpy.int64(3), 3), (numpy.uint8(200), 200), (numpy.array(4), 4),
    (-2, -2), (0, 0),
    (True, None), (numpy.bool_(False), None), (2.0, None), (numpy.float32(1), None),
    (numpy.array([1]), None), ('3', None), (None, None),
])
def test_to_int_and_is_int(value, expected):
    got = numbers.to_int(value)
    assert got == expected and (got is None or type(got) is int)
    assert numbers.is_int(value) is (expected is not None)


def test_reachable_from_the_package():
    import chainer.backends
    assert chainer.backends.numbers is numbers
