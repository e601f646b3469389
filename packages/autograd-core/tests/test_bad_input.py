"""Bad input to chainer.functions: clean errors that name the argument (issue 16).

Each case here was found by probing or fuzzing; ``test_fuzz_functions.py`` covers
every function with generated arguments.
"""

import signal

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions import _guard
from chainer.utils.type_check import InvalidType

ALLOWED = (TypeError, ValueError, IndexError, InvalidType)


@pytest.fixture
def x():
    return numpy.arange(6, dtype=numpy.float32).reshape(2, 3)


@pytest.fixture(autouse=True)
def _time_limit():
    """Every call here must return within 10 s (a hang fails instead of blocking)."""

    def alarm(signum, frame):
        raise TimeoutError('the call hung')

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(10)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def _raises(exc, name, func, *args, **kwargs):
    with pytest.raises(exc) as info:
        func(*args, **kwargs)
    names = [name] if isinstance(name, str) else name
    # an InvalidType carries the argument in a note (its str is v7's text)
    text = '\n'.join([str(info.value), getattr(info.value, '_note', '')])
    assert _guard.names_argument(text, names), text
    return info.value


def test_cast_of_a_list():
    _raises(TypeError, 'x', F.cast, [1, 2], 'float64')


def test_linear_of_none(x):
    w, b = numpy.ones((4, 3), 'f'), numpy.ones(4, 'f')
    _raises(TypeError, 'x', F.linear, None, w, b)


def test_matmul_of_none():
    _raises(TypeError, 'a', F.matmul, None, numpy.ones((3, 3), 'f'))


def test_einsum_with_a_none_operand():
    a = numpy.ones((3, 3), 'f')
    _raises(TypeError, 'operands[2]', F.einsum, 'ij,jk->ik', a, None)


def test_hstack_of_a_string():
    _raises(TypeError, 'xs', F.hstack, 'a')


def test_vstack_of_a_ragged_list():
    a = numpy.ones((3, 3), 'f')
    _raises(TypeError, 'xs[0]', F.vstack, [[[1.0, 2.0], [3.0]], a])


def test_resize_images_of_a_list():
    x = numpy.ones((1, 2, 4, 4), 'f')
    _raises(TypeError, 'x', F.resize_images, x.tolist(), (8, 8))


def test_maxout_of_a_float():
    _raises(TypeError, ('x', 'axis'), F.maxout, 1.5, 2, axis=1.5)
    _raises(TypeError, 'axis', F.maxout, numpy.ones((2, 4), 'f'), 2, axis=1.5)


def test_scale_by_none(x):
    _raises(TypeError, 'y', F.scale, x, None, axis=1)


def test_mean_of_none():
    _raises(TypeError, 'x', F.mean, None, axis=1)


def test_split_axis_of_an_empty_axis_into_absurdly_many_sections():
    empty = numpy.ones((0, 0), 'f')
    _raises(ValueError, 'indices_or_sections', F.split_axis, empty, 2**100, 0)
    _raises(ValueError, 'indices_or_sections', F.split_axis, empty, 2**62, 0)
    assert len(F.split_axis(empty, 3, 0)) == 3  # a few empty pieces, as NumPy


def test_reshape_to_an_absurd_negative_size(x):
    _raises(ValueError, 'shape', F.reshape, x, -1000000000)
    _raises(ValueError, 'shape', F.reshape, x, (-1, -1))
    assert F.reshape(x, -1).shape == (6,)


def test_where_and_im2col_refuse_strings():
    c = numpy.array([True, False])
    s = numpy.array(['a', 'b'])
    _raises(TypeError, 'x', F.where, c, s, s)
    _raises(TypeError, 'x', F.im2col, numpy.full((1, 1, 3, 3), 'a'), 2)
    _raises(TypeError, 'inputs[0]', F.identity, s)


def test_clipped_relu_refuses_a_cap_beyond_float_range(x):
    _raises(ValueError, 'z', F.clipped_relu, x, z=2**63)
    _raises(ValueError, 'z', F.clipped_relu, x, z=float('nan'))
    assert F.clipped_relu(x, z=2).array.max() == 2  # an int cap, as before


@pytest.mark.parametrize('name', ['sign', 'floor', 'ceil', 'fix'])
def test_rounding_of_integers_as_in_v7(name):
    ints = numpy.array([-3, 0, 4], numpy.int32)
    y = getattr(F, name)(ints)
    assert y.dtype == numpy.int32
    numpy.testing.assert_array_equal(y.array, getattr(numpy, name)(ints))


def test_identity_of_none_as_in_v7():
    assert F.identity(None).array is None


def test_expand_dims_refuses_a_float_axis(x):
    # v7 truncated 1.5 to 1 silently; a float axis is refused like in NumPy
    _raises(TypeError, 'axis', F.expand_dims, x, 1.5)


def test_unsupported_values_keep_v7_exception_classes(x):
    t = numpy.zeros(2, numpy.int32)
    err = _raises(NotImplementedError, 'norm', F.hinge, x, t, norm='L3')
    assert isinstance(err, ValueError)
    err = _raises(NotImplementedError, 'sample_weight', F.r2_score, x, x, sample_weight=x)
    assert isinstance(err, ValueError)
    err = _raises(RuntimeError, 'func', F.forget, lambda v: None, x)
    assert isinstance(err, TypeError)


def test_guard_keeps_identity_and_signature():
    from chainer.functions.connection import linear

    assert F.linear is linear.linear
    assert list(__import__('inspect').signature(F.linear).parameters)[:2] == ['x', 'W']


def test_guard_keeps_the_exception_type():
    axis_error = numpy.exceptions.AxisError if hasattr(numpy, 'exceptions') else numpy.AxisError

    def func(x, y):
        raise axis_error('out of bounds')

    with pytest.raises(axis_error) as info:
        _guard.guard(func, 'F.func')(1, None)
    assert _guard.names_argument(str(info.value), ['y'])


def test_guarded_variable_input_still_works(x):
    v = chainer.Variable(x)
    y = F.sum(F.linear(v, numpy.ones((4, 3), 'f')))
    y.backward()
    assert v.grad.shape == x.shape


def test_out_of_memory_from_an_absurd_size_names_it():
    def func(x, ksize, pad=0):
        raise MemoryError('Unable to allocate 160. GiB')

    guarded = _guard.guard(func, 'F.func')
    err = _raises(ValueError, 'pad', guarded, numpy.ones(3), 2, pad=2**31)
    assert isinstance(err.__cause__, MemoryError)
    with pytest.raises(MemoryError):  # no absurd number: a genuine shortage stays one
        guarded(numpy.ones(3), 2, pad=1)


def test_invalid_type_without_names_gets_the_arguments():
    def func(x, axis=0):
        raise InvalidType('in_types[0].ndim == 2', 'in_types[0].ndim = 3')

    with pytest.raises(InvalidType) as info:
        _guard.guard(func, 'F.func')(numpy.ones((1, 1, 1)), axis=4)
    # in a note (shown in the traceback), not in str(e), which stays v7's text
    assert str(info.value) == '\nExpect: in_types[0].ndim == 2\nActual: in_types[0].ndim = 3'
    notes = getattr(info.value, '__notes__', None) or [info.value._note]  # Python 3.10
    assert len(notes) == 1
    assert notes[0] == ('F.func() was called with x=ndarray of dtype float64 and shape '
                        '(1, 1, 1), axis=4 (int)')
