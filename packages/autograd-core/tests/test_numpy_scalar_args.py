"""NumPy scalars and 0-d arrays are accepted wherever a Python number is (as in v7).

A v7 program computes sizes with NumPy (``n_vocab = numpy.max(train) + 1``) and passes
them on. Each check here calls an entry point once with Python numbers and once with
their NumPy twins (every integer dtype that holds the value, float16/32/64, 0-d
arrays) and expects the very same result; what v7 refuses (a ``bool`` or a float
where an integer is required) stays refused.
"""

from __future__ import annotations

import os
from typing import Any

import hypothesis
import hypothesis.strategies as st
import numpy
import pytest
from fuzz_specs import base_call, public_functions

import chainer
import chainer.functions as F
from chainer import initializers
from chainer.utils import numeric_args

SETTINGS = hypothesis.settings(
    max_examples=int(os.environ.get('CHAINER_NUMPY_ARGS_EXAMPLES', '60')), deadline=None,
    derandomize=True, database=None)

INT_DTYPES = [numpy.int8, numpy.int16, numpy.int32, numpy.int64,
              numpy.uint8, numpy.uint16, numpy.uint32, numpy.uint64]
FLOAT_DTYPES = [numpy.float16, numpy.float32, numpy.float64]


def int_twins(n: int) -> list[Any]:
    """``n`` as a scalar of every integer dtype that holds it, and as 0-d arrays."""
    out: list[Any] = []
    for dt in INT_DTYPES:
        info = numpy.iinfo(dt)
        if info.min <= n <= info.max:
            out += [dt(n), numpy.array(n, dtype=dt)]
    return out


# -- the helpers ---------------------------------------------------------------------

@SETTINGS
@hypothesis.given(st.integers(-2**63, 2**64 - 1))
def test_as_int_takes_every_integer_twin(n):
    for twin in int_twins(n):
        got = numeric_args.as_int(twin, 'size')
        assert type(got) is int and got == n
        assert numeric_args.is_int(twin)


@SETTINGS
@hypothesis.given(st.floats(allow_nan=False, allow_infinity=False, width=16))
def test_as_int_refuses_floats_and_bools(v):
    for bad in [v, *(dt(v) for dt in FLOAT_DTYPES), numpy.array(v), True, numpy.bool_(False),
                numpy.array(True), ' 3', None, [3]]:
        assert not numeric_args.is_int(bad)
        with pytest.raises(TypeError, match='size must be an int'):
            numeric_args.as_int(bad, 'size')


@SETTINGS
@hypothesis.given(st.lists(st.integers(0, 2**31 - 1), max_size=5), st.data())
def test_as_shape_of_numpy_twins_is_the_python_shape(dims, data):
    twins = [data.draw(st.sampled_from(int_twins(d)), label=f'dim {d}') for d in dims]
    for form in (tuple(twins), list(twins), numpy.array(dims, dtype=numpy.int64)):
        got = numeric_args.as_shape(form)
        assert got == tuple(dims) and all(type(d) is int for d in got)
    if dims:
        got = numeric_args.as_shape(twins[0])
        assert got == (dims[0],) and type(got[0]) is int


@pytest.mark.parametrize('bad', [(2.0, 3), 2.5, (True, 3), numpy.bool_(True), 'ab', None,
                                 (numpy.float32(2), 3), numpy.array(2.0)])
def test_as_shape_refuses_floats_and_bools(bad):
    with pytest.raises(TypeError, match='shape must be an int or a sequence of ints'):
        numeric_args.as_shape(bad)


@SETTINGS
@hypothesis.given(st.integers(-5, 5), st.data())
def test_as_axis(axis, data):
    twin = data.draw(st.sampled_from(int_twins(axis)))
    assert numeric_args.as_axis(twin) == axis and type(numeric_args.as_axis(twin)) is int
    got = numeric_args.as_axis((twin, axis))
    assert got == (axis, axis) and all(type(a) is int for a in got)
    assert numeric_args.as_axis([twin]) == (axis,)
    assert numeric_args.as_axis(None) is None


@pytest.mark.parametrize('bad', [1.0, True, (0, 1.0), (numpy.bool_(False),), 'x'])
def test_as_axis_refuses(bad):
    with pytest.raises(TypeError, match='axis must be None, an int or a tuple of ints'):
        numeric_args.as_axis(bad)


@SETTINGS
@hypothesis.given(st.floats(allow_nan=False, width=32))
def test_py_number_and_as_real_give_the_equal_python_float(v):
    for dt in FLOAT_DTYPES:
        with numpy.errstate(over='ignore'):
            twin = dt(v)  # float16 may overflow to inf: still a number
        for form in (twin, numpy.array(twin)):
            got = numeric_args.py_number(form)
            assert type(got) is float and got == float(twin)
            assert numeric_args.is_real(form)
            assert numeric_args.as_real(form) == float(twin)


def test_py_number_leaves_other_values_alone():
    arr = numpy.ones(2)
    for value in (arr, 'lr', None, [1, 2], 3, 0.5):
        assert numeric_args.py_number(value) is value
    assert type(numeric_args.py_number(numpy.int16(3))) is int
    assert numeric_args.py_number(numpy.bool_(True)) is True
    assert numeric_args.py_numbers((numpy.int64(1), numpy.float32(0.5))) == (1, 0.5)
    assert type(numeric_args.py_numbers([numpy.int64(1)])[0]) is int
    for bad in (True, numpy.bool_(True), 'x', numpy.ones(1), 1j):
        assert not numeric_args.is_real(bad)
        with pytest.raises(TypeError, match='must be a real number'):
            numeric_args.as_real(bad, 'lr')


# -- every function of chainer.functions ----------------------------------------------

def _twin(value: Any, kind: str) -> Any:
    """``value`` with its Python ints and floats (also inside lists and tuples) turned
    into NumPy numbers of ``kind``."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        if kind == 'float32':
            return value
        if kind == '0-d':
            return numpy.array(value)
        dt = numpy.dtype(kind)
        return dt.type(value) if numpy.can_cast(numpy.min_scalar_type(value), dt) \
            else numpy.int64(value)
    if isinstance(value, float):
        if kind == 'float32':
            return numpy.float32(value)
        return numpy.array(value) if kind == '0-d' else numpy.float64(value)
    if type(value) in (list, tuple):
        return type(value)(_twin(v, kind) for v in value)
    return value


def _as_float32(value: Any) -> Any:
    """``value`` with its Python floats rounded to float32 (still Python floats)."""
    if isinstance(value, float):
        return float(numpy.float32(value))
    if type(value) in (list, tuple):
        return type(value)(_as_float32(v) for v in value)
    return value


def _outputs(result: Any) -> list[Any]:
    if isinstance(result, (tuple, list)):
        return [o for r in result for o in _outputs(r)]
    return [result.array if isinstance(result, chainer.Variable) else result]


def _call(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
    numpy.random.seed(3)  # the same draws for the stochastic functions
    with chainer.using_config('train', True):
        return _outputs(getattr(F, name)(*args, **kwargs))


# 'copy' takes a device: NumPy integers are device ids, a 0-d array is not one.
_NOT_NUMBERS = {'copy'}
KINDS = ['int64', 'int32', 'uint8', 'int16', '0-d', 'float32']


def _twinned_call(name: str, kind: str) -> tuple[Any, Any, Any, Any]:
    """The Python-number call of ``F.<name>`` and its NumPy twin of ``kind``."""
    args, kwargs = base_call(name)
    if kind == 'float32':  # the Python call gets the float32 value, as a Python float
        args, kwargs = _as_float32(args), _as_float32(kwargs)
    return args, kwargs, _twin(args, kind), {k: _twin(v, kind) for k, v in kwargs.items()}


def _number_calls() -> list[tuple[str, str]]:
    """``(name, kind)`` of every function whose valid call has a number to twin."""
    out = []
    for name in public_functions():
        if name in _NOT_NUMBERS:
            continue
        for kind in KINDS:
            args, kwargs, targs, tkwargs = _twinned_call(name, kind)
            if repr((targs, tkwargs)) != repr((args, kwargs)):
                out.append((name, kind))
    return out


@pytest.mark.parametrize('name, kind', _number_calls())
def test_function_with_numpy_numbers_equals_python_numbers(name, kind):
    args, kwargs, twin_args, twin_kwargs = _twinned_call(name, kind)
    expected = _call(name, args, kwargs)
    got = _call(name, twin_args, twin_kwargs)
    assert len(got) == len(expected)
    for e, g in zip(expected, got):
        if hasattr(e, 'dtype'):
            assert g.dtype == e.dtype and g.shape == e.shape
            numpy.testing.assert_array_equal(g, e)
        else:
            assert g == e or (e != e and g != g)


X = numpy.arange(24, dtype=numpy.float32).reshape(2, 3, 4) / 10


@pytest.mark.parametrize('call', [
    lambda n: F.reshape(X, (n(4), n(6))),
    lambda n: F.reshape(X, n(24)),
    lambda n: F.sum(X, axis=n(1)),
    lambda n: F.sum(X, axis=(n(0), n(2))),
    lambda n: F.mean(X, axis=n(-1)),
    lambda n: F.max(X, axis=n(2)),
    lambda n: F.argmax(X, axis=n(1)),
    lambda n: F.logsumexp(X, axis=n(1)),
    lambda n: F.cumsum(X, axis=n(1)),
    lambda n: F.softmax(X, axis=n(2)),
    lambda n: F.log_softmax(X, axis=n(2)),
    lambda n: F.transpose(X, (n(2), n(0), 1)),
    lambda n: F.swapaxes(X, n(0), n(2)),
    lambda n: F.expand_dims(X, n(1)),
    lambda n: F.broadcast_to(X[0], (n(5), 3, n(4))),
    lambda n: F.tile(X, (n(2), 1, n(1))),
    lambda n: F.repeat(X, n(2), axis=n(1)),
    lambda n: F.split_axis(X, n(2), n(2)),
    lambda n: F.split_axis(X, [n(1)], n(1)),
    lambda n: F.pad(X, n(1), 'constant'),
    lambda n: F.flip(X, n(1)),
    lambda n: F.get_item(X, (n(1), slice(n(0), n(2)))),
    lambda n: F.max_pooling_2d(X[None], n(2), stride=n(1), pad=n(0)),
    lambda n: F.average_pooling_2d(X[None], (n(2), n(2))),
    lambda n: F.spatial_pyramid_pooling_2d(X[None], n(2), pooling='max'),
    lambda n: F.linear(X, numpy.ones((5, 4), numpy.float32), n_batch_axes=n(2)),
    lambda n: F.scale(X, numpy.ones(3, numpy.float32), axis=n(1)),
    lambda n: F.bias(X, numpy.ones(3, numpy.float32), axis=n(1)),
    lambda n: F.crelu(X, axis=n(1)),
    lambda n: F.tensordot(X, X.transpose(2, 1, 0), axes=n(1)),
    lambda n: F.group_normalization(X, n(3), numpy.ones(3, numpy.float32),
                                    numpy.zeros(3, numpy.float32)),
    lambda n: F.normalize(X, axis=n(2)),
    lambda n: F.batch_normalization(X, numpy.ones((3, 4), numpy.float32),
                                    numpy.zeros((3, 4), numpy.float32), axis=n(0)),
    lambda n: F.batch_normalization(X, numpy.ones(4, numpy.float32),
                                    numpy.zeros(4, numpy.float32), axis=(n(0), n(1))),
    lambda n: F.fixed_batch_normalization(X, numpy.ones(3, numpy.float32),
                                          numpy.zeros(3, numpy.float32),
                                          numpy.zeros(3, numpy.float32),
                                          numpy.ones(3, numpy.float32), axis=(n(0), n(2))),
    lambda n: F.polygamma(n(1), X + 1),
    lambda n: chainer.Variable(X).reshape(n(6), n(4)),
    lambda n: chainer.Variable(X).transpose(n(2), 0, 1),
    lambda n: chainer.Variable(X)[n(1), n(2)],
    lambda n: chainer.Variable(X) ** n(2),
    lambda n: chainer.Variable(X) * n(3),
    lambda n: n(3) - chainer.Variable(X),
])
@pytest.mark.parametrize('twin', [numpy.int64, numpy.int32, numpy.uint16, numpy.array],
                         ids=['int64', 'int32', 'uint16', '0-d'])
def test_integer_arguments(call, twin):
    def python(v):
        return v

    expected, got = call(python), call(lambda v: twin(v) if v >= 0 else numpy.int64(v))
    for e, g in zip(_outputs(expected), _outputs(got)):
        assert g.dtype == e.dtype and g.shape == e.shape
        assert all(type(s) is int for s in g.shape)
        numpy.testing.assert_array_equal(g, e)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32])
@pytest.mark.parametrize('twin', [numpy.float16, numpy.float32, numpy.float64, numpy.array])
@pytest.mark.parametrize('call', [
    lambda x, r: F.leaky_relu(x - 0.4, slope=r(0.25)),
    lambda x, r: F.elu(x - 0.4, alpha=r(0.75)),
    lambda x, r: F.clipped_relu(x, z=r(0.5)),
    lambda x, r: F.clip(x, r(0.25), r(0.5)),
    lambda x, r: F.softplus(x, beta=r(2.0)),
    lambda x, r: F.huber_loss(x, x * 2, delta=r(0.25)),
    lambda x, r: F.contrastive(x, x * 3, numpy.array([0, 1], numpy.int32), margin=r(2.0)),
    lambda x, r: F.triplet(x, x * 2, x * 0.5, margin=r(0.75)),
    lambda x, r: F.normalize(x, eps=r(0.25)),
    lambda x, r: F.layer_normalization(x, numpy.ones(3, x.dtype), numpy.zeros(3, x.dtype),
                                       eps=r(0.25)),
    lambda x, r: F.pad(x, 1, 'constant', constant_values=r(0.5)),
    lambda x, r: chainer.Variable(x) * r(0.75),
    lambda x, r: r(0.75) / chainer.Variable(x),
    lambda x, r: chainer.Variable(x) ** r(2.0),
])
def test_real_arguments_keep_the_input_dtype(call, twin, dtype):
    x = (numpy.arange(6, dtype=numpy.float64).reshape(2, 3) / 7 + 0.05).astype(dtype)
    expected = _outputs(call(x, lambda v: v))
    got = _outputs(call(x, twin))
    for e, g in zip(expected, got):
        assert g.dtype == e.dtype == dtype
        numpy.testing.assert_array_equal(g, e)


@pytest.mark.parametrize('call, error', [
    (lambda: F.reshape(X, (4.0, 6)), TypeError),
    (lambda: F.reshape(X, (True, 24)), TypeError),
    (lambda: F.reshape(X, numpy.array(24.0)), TypeError),
    (lambda: F.sum(X, axis=1.0), TypeError),
    (lambda: F.sum(X, axis=True), TypeError),
    (lambda: F.sum(X, axis=[0, 1]), TypeError),
    (lambda: F.softmax(X, axis=1.0), TypeError),
    (lambda: F.split_axis(X, 2.0, 2), TypeError),
    (lambda: F.max_pooling_2d(X[None], 2.0), TypeError),
    (lambda: F.max_pooling_2d(X[None], numpy.float32(2)), TypeError),
    (lambda: F.spatial_pyramid_pooling_2d(X[None], 2.0, pooling='max'), ValueError),
    (lambda: F.group_normalization(X, numpy.float64(3), numpy.ones(3, numpy.float32),
                                   numpy.zeros(3, numpy.float32)), TypeError),
    (lambda: F.scale(X, numpy.ones(3, numpy.float32), axis=numpy.float32(1)), TypeError),
    (lambda: F.crelu(X, axis=True), TypeError),
])
def test_non_integers_stay_refused(call, error):
    with pytest.raises(error):
        call()


# -- parameters and initializers --------------------------------------------------------

@pytest.mark.parametrize('twin', [numpy.int64, numpy.int32, numpy.uint8, numpy.array])
def test_parameter_shapes(twin):
    p = chainer.Parameter(initializers.Constant(2.0), shape=twin(3))
    assert p.shape == (3,) and type(p.shape[0]) is int
    q = chainer.Parameter(initializers.Constant(2.0))
    q.initialize((twin(2), twin(3)))
    assert q.shape == (2, 3)
    r = chainer.Parameter(initializers.Constant(2.0))
    r.initialize(twin(4))
    assert r.shape == (4,) and r.dtype == numpy.float32
    for bad in (3.0, (2, 3.0), True, numpy.float32(3)):
        with pytest.raises(TypeError):
            chainer.Parameter(initializers.Constant(2.0)).initialize(bad)


@pytest.mark.parametrize('make', [
    lambda v: initializers.Normal(v), lambda v: initializers.Uniform(v),
    lambda v: initializers.Constant(v), lambda v: initializers.GlorotNormal(v),
    lambda v: initializers.GlorotUniform(v), lambda v: initializers.HeNormal(v),
    lambda v: initializers.HeUniform(v), lambda v: initializers.LeCunNormal(v),
    lambda v: initializers.LeCunUniform(v), lambda v: initializers.Orthogonal(v),
    lambda v: initializers.Identity(v),
])
@pytest.mark.parametrize('twin', [numpy.float16, numpy.float32, numpy.float64, numpy.array])
def test_initializer_scales(make, twin):
    value = float(twin(0.375))
    shape = (numpy.int64(3), numpy.int32(3))
    numpy.random.seed(5)
    expected = initializers.generate_array(make(value), (3, 3), numpy)
    numpy.random.seed(5)
    got = initializers.generate_array(make(twin(0.375)), shape, numpy)
    assert got.dtype == expected.dtype == numpy.float32 and got.shape == (3, 3)
    numpy.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize('twin', [numpy.int64, numpy.array])
def test_distribution_sample_shape(twin):
    from chainer import distributions

    d = distributions.Normal(numpy.zeros(2, numpy.float32), numpy.ones(2, numpy.float32))
    assert d.sample(twin(3)).shape == (3, 2)
    assert d.sample((twin(4), 1)).shape == (4, 1, 2)
