"""concat, split_axis, stack, separate, hstack, vstack, dstack."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType


@pytest.mark.parametrize('axis', [0, 1, -1])
def test_concat(fc, dtype, axis):
    a = fc.uniform((2, 3, 4), dtype)
    b = fc.uniform((2, 3, 4), dtype)[:, :, :]
    shape_c = [2, 3, 4]
    shape_c[axis] = 1
    c = fc.uniform(tuple(shape_c), dtype)
    f = lambda a, b, c: F.concat((a, b, c), axis)  # noqa: E731
    fc.check_forward(f, (a, b, c), numpy.concatenate((a, b, c), axis), dtype)
    if dtype != numpy.float16:
        fc.check_backward(f, (a, b, c), dtype)
        fc.check_double_backward(f, (a, b, c), dtype)


def test_concat_edge_cases(fc):
    x = fc.uniform((3, 4), numpy.float32)
    y = F.concat([x], axis=0)
    numpy.testing.assert_array_equal(y.array, x)
    assert y.array is not x
    e = numpy.zeros((3, 0), numpy.float32)
    fc.check_forward(lambda x, e: F.concat([x, e], 1), (x, e), x)
    nc = fc.noncontiguous(x)
    fc.check_forward(lambda a, b: F.concat([a, b]), (nc, x), numpy.concatenate([nc, x], 1))
    fc.check_backward(lambda a, b: F.concat([a, b], 1), (nc, e), numpy.float32)


def test_concat_errors():
    a = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(InvalidType, match='Concat'):
        F.concat([a, numpy.zeros((3, 3), numpy.float32)], axis=1)
    with pytest.raises(InvalidType):
        F.concat([a, a.astype(numpy.float64)])
    with pytest.raises(InvalidType):
        F.concat([a, a], axis=2)
    with pytest.raises(InvalidType):
        F.concat([])
    with pytest.raises(TypeError):
        F.concat([a, a], axis=1.5)


@pytest.mark.parametrize('spec,axis', [(3, 1), ([1, 4], 1), ([2, 2, 5], -1), ([], 0),
                                       (numpy.array([1, 2]), 0)])
def test_split_axis(fc, dtype, spec, axis):
    x = fc.uniform((3, 6, 2), dtype) if axis != -1 else fc.uniform((2, 3, 6), dtype)
    ys = F.split_axis(x, spec, axis)
    expected = numpy.split(x, spec if isinstance(spec, int) else list(spec), axis)
    assert isinstance(ys, tuple) and len(ys) == len(expected)
    for y, e in zip(ys, expected):
        assert y.dtype == dtype
        numpy.testing.assert_array_equal(y.array, e)
    f = lambda x: F.split_axis(x, spec, axis)  # noqa: E731
    if dtype != numpy.float16:
        fc.check_backward(f, (x,), dtype)
        fc.check_double_backward(f, (x,), dtype)


def test_split_axis_unused_outputs(fc):
    x = fc.uniform((2, 6), numpy.float64)
    fc.check_backward(lambda x: F.split_axis(x, 3, 1)[1], (x,), numpy.float64)
    fc.check_double_backward(lambda x: F.split_axis(x, [1, 4], 1)[2], (x,), numpy.float64)
    v = chainer.Variable(x)
    a, b, c = F.split_axis(v, 3, 1)
    F.sum(b).backward()
    numpy.testing.assert_array_equal(v.grad, [[0, 0, 1, 1, 0, 0]] * 2)


def test_split_axis_force_tuple_and_views(fc):
    x = fc.uniform((2, 4), numpy.float32)
    y = F.split_axis(x, 1, 0, force_tuple=False)
    assert isinstance(y, chainer.Variable)
    assert F.split_axis(x, 1, 0)[0].shape == (2, 4)
    assert F.split_axis(x, 2, 1, force_tuple=False)[0].shape == (2, 2)
    e = numpy.zeros((0, 4), numpy.float32)
    assert [y.shape for y in F.split_axis(e, 2, 1)] == [(0, 2), (0, 2)]


def test_split_axis_errors():
    x = numpy.zeros((2, 5), numpy.float32)
    with pytest.raises(InvalidType, match='SplitAxis'):
        F.split_axis(x, 2, 1)
    with pytest.raises(InvalidType):
        F.split_axis(x, [1, 6], 1)
    with pytest.raises(InvalidType):
        F.split_axis(x, 2, 2)
    with pytest.raises(ValueError):
        F.split_axis(x, 0, 1)
    with pytest.raises(ValueError):
        F.split_axis(x, [3, 1], 1)


@pytest.mark.parametrize('axis', [0, 1, 2, -1, -3])
def test_stack(fc, dtype, axis):
    xs = [fc.uniform((2, 3), dtype) for _ in range(3)]
    f = lambda *xs: F.stack(xs, axis)  # noqa: E731
    fc.check_forward(f, xs, numpy.stack(xs, axis), dtype)
    if dtype != numpy.float16:
        fc.check_backward(f, xs, dtype)
        fc.check_double_backward(f, xs, dtype)


def test_stack_edge_and_errors(fc):
    s = [numpy.array(1.0, numpy.float32), numpy.zeros((), numpy.float32)]
    fc.check_forward(lambda a, b: F.stack([a, b]), s, numpy.stack(s))
    e = [numpy.zeros((0, 2), numpy.float32)] * 2
    assert F.stack(e, 1).shape == (0, 2, 2)
    nc = fc.noncontiguous(fc.uniform((2, 3), numpy.float64))
    fc.check_backward(lambda a: F.stack([a, a * 2], 2), (nc,), numpy.float64)
    with pytest.raises(InvalidType, match='Stack'):
        F.stack([numpy.zeros((2, 3)), numpy.zeros((3, 2))])
    with pytest.raises(InvalidType):
        F.stack([numpy.zeros((2, 3))], axis=3)
    with pytest.raises(InvalidType):
        F.stack([numpy.zeros(2, 'f'), numpy.zeros(2, 'd')])


@pytest.mark.parametrize('axis', [0, 1, -1])
def test_separate(fc, dtype, axis):
    x = fc.uniform((2, 3, 4), dtype)
    ys = F.separate(x, axis)
    assert len(ys) == x.shape[axis]
    for i, y in enumerate(ys):
        numpy.testing.assert_array_equal(y.array, numpy.take(x, i, axis))
    if dtype != numpy.float16:
        fc.check_backward(lambda x: F.separate(x, axis), (x,), dtype)
        fc.check_double_backward(lambda x: F.separate(x, axis), (x,), dtype)


def test_separate_unused_outputs_and_edges(fc):
    x = fc.uniform((3, 2), numpy.float64)
    fc.check_backward(lambda x: F.separate(x, 0)[1], (x,), numpy.float64)
    fc.check_double_backward(lambda x: F.separate(x, 1)[0], (x,), numpy.float64)
    ys = F.separate(numpy.arange(3.0))
    assert [y.shape for y in ys] == [(), (), ()]
    assert F.separate(numpy.zeros((0, 3))) == ()
    with pytest.raises(InvalidType, match='Separate'):
        F.separate(numpy.zeros(()))
    with pytest.raises(InvalidType):
        F.separate(numpy.zeros((2, 3)), 2)


@pytest.mark.parametrize('fn,ref,shapes', [
    (F.hstack, numpy.hstack, [(3,), (2,)]),
    (F.hstack, numpy.hstack, [(2, 3), (2, 1)]),
    (F.hstack, numpy.hstack, [(), ()]),
    (F.vstack, numpy.vstack, [(3,), (3,)]),
    (F.vstack, numpy.vstack, [(2, 3), (1, 3)]),
    (F.vstack, numpy.vstack, [(2, 2, 3), (1, 2, 3)]),
    (F.dstack, numpy.dstack, [(3,), (3,)]),
    (F.dstack, numpy.dstack, [(2, 3), (2, 3)]),
    (F.dstack, numpy.dstack, [(2, 3, 1), (2, 3, 2)]),
    (F.dstack, numpy.dstack, [(), ()]),
])
def test_stacks(fc, dtype, fn, ref, shapes):
    xs = [fc.uniform(s, dtype) for s in shapes]
    f = lambda *xs: fn(xs)  # noqa: E731
    fc.check_forward(f, xs, ref(xs), dtype)
    if dtype == numpy.float64:
        fc.check_backward(f, xs, dtype)
        fc.check_double_backward(f, xs, dtype)


def test_stacks_errors():
    for fn in (F.hstack, F.vstack, F.dstack):
        with pytest.raises(ValueError):
            fn([])
        with pytest.raises(InvalidType):
            fn([numpy.zeros((2, 3, 2)), numpy.zeros((3, 4, 3))])
        # inputs of different ndim are rejected, as in Chainer 7 (NumPy would promote them)
        for shapes in ([(3,), (3, 3)], [(), (1,)], [(2, 3), (2, 3, 1)]):
            with pytest.raises(InvalidType, match=fn.__name__.capitalize()):
                fn([numpy.zeros(s, numpy.float32) for s in shapes])
