"""Converters of the math functions: export, check, run in onnxruntime, compare."""

import numpy
import onnx
import pytest
from _onnx_check import Apply, check_export, op_types, opsets

import chainer
import chainer.functions as F
import onnx_chainer
from chainer.functions.math.basic_math import MultiAdd
from chainer.functions.math.minmax import ArgMax
from chainer.functions.math.sign import Sign
from chainer.functions.math.sqrt import RsqrtGPU
from onnx_chainer import replace_func


def _uniform(low, high, *shape, dtype=numpy.float32, seed=0):
    return numpy.random.RandomState(seed).uniform(low, high, shape).astype(dtype)


def pos(*shape, seed=0):
    """Values in (0.1, 0.9): inside every domain (log, sqrt, arccos, ...)."""
    return _uniform(0.1, 0.9, *shape, seed=seed)


def sym(*shape, seed=0):
    return _uniform(-0.9, 0.9, *shape, seed=seed)


def wide(*shape, seed=0):
    return _uniform(-3, 3, *shape, seed=seed)


def well_conditioned(*shape):
    return sym(*shape) + 3 * numpy.eye(shape[-1], dtype=numpy.float32)


def node(cls, *args):
    """Apply the FunctionNode ``cls(*args)`` itself (for nodes that no function of
    chainer.functions leaves in the graph, or only while exporting)."""
    return lambda *xs: cls(*args).apply(xs)[0]


# (id, function, inputs, first opset, opsets where the converter's output changes)
CASES = [
    # arithmetic
    ('add', lambda a, b: a + b, [sym(2, 3), sym(2, 3, seed=1)], 7, ()),
    ('add_three', lambda a, b, c: F.add(a, b, c), [sym(2, 3), sym(2, 3, seed=1),
                                                    sym(2, 3, seed=2)], 7, ()),
    ('multi_add', node(MultiAdd), [sym(2, 3), sym(1, 3, seed=1), sym(2, 1, seed=2)], 7, (8,)),
    ('sub', lambda a, b: a - b, [sym(2, 3), sym(2, 3, seed=1)], 7, ()),
    ('mul', lambda a, b: a * b, [sym(2, 3), sym(2, 3, seed=1)], 7, ()),
    ('div', lambda a, b: a / b, [sym(2, 3), pos(2, 3, seed=1)], 7, ()),
    ('div_scalar', lambda a, b: a / b, [numpy.float32(7), numpy.float32(2)], 7, ()),
    ('neg', lambda a: -a, [sym(2, 3)], 7, ()),
    ('absolute', lambda a: abs(a), [sym(2, 3)], 7, ()),
    ('add_constant', lambda a: a + 1, [sym(2, 3)], 7, ()),
    ('add_constant_left', lambda a: 1.5 + a, [sym(2, 3)], 7, ()),
    ('add_constant_f64', lambda a: a - 2, [sym(2, 3).astype(numpy.float64)], 7, ()),
    ('sub_from_constant', lambda a: 1 - a, [sym(2, 3)], 7, ()),
    ('mul_constant', lambda a: a * 2, [sym(2, 3)], 7, ()),
    ('mul_constant_div', lambda a: a / 4, [sym(2, 3)], 7, ()),
    ('div_from_constant', lambda a: 2 / a, [pos(2, 3)], 7, ()),
    ('pow_var_const', lambda a: a ** 2.3, [pos(2, 3)], 7, ()),
    ('pow_const_var', lambda a: 2.3 ** a, [sym(2, 3)], 7, ()),
    ('pow_var_var', lambda a, b: a ** b, [pos(2, 3), sym(2, 3, seed=1)], 7, ()),
    ('maximum', F.maximum, [sym(2, 3), sym(2, 3, seed=1)], 7, ()),
    ('minimum', F.minimum, [sym(2, 3), sym(2, 3, seed=1)], 7, ()),
    ('squared_difference', F.squared_difference, [sym(2, 3), sym(2, 3, seed=1)], 7, ()),
    ('linear_interpolate', F.linear_interpolate,
     [pos(2, 3), sym(2, 3, seed=1), sym(2, 3, seed=2)], 7, ()),
    ('fmod', F.fmod, [wide(2, 3), pos(2, 3, seed=1)], 10, ()),
    ('clip', lambda a: F.clip(a, -0.3, 0.4), [sym(3, 4)], 7, (11,)),
    ('clip_max_only', lambda a: F.clip(a, None, 0.4), [sym(3, 4)], 7, (11,)),
    ('clip_min_only', lambda a: F.clip(a, -0.2, None), [sym(3, 4)], 7, (11,)),
    ('clip_array_bounds', lambda a: F.clip(a, numpy.float32([-0.5, -0.1, 0, 0.2]),
                                           numpy.float32(0.6)), [sym(3, 4)], 7, ()),
    # elementwise functions
    ('arccos', F.arccos, [sym(2, 3)], 7, ()),
    ('arcsin', F.arcsin, [sym(2, 3)], 7, ()),
    ('arctan', F.arctan, [wide(2, 3)], 7, ()),
    ('arctanh', F.arctanh, [sym(2, 3)], 9, ()),
    ('sin', F.sin, [wide(2, 3)], 7, ()),
    ('cos', F.cos, [wide(2, 3)], 7, ()),
    ('tan', F.tan, [sym(2, 3)], 7, ()),
    ('sinh', F.sinh, [wide(2, 3)], 9, ()),
    ('cosh', F.cosh, [wide(2, 3)], 9, ()),
    ('exp', F.exp, [wide(2, 3)], 7, ()),
    ('expm1', F.expm1, [sym(2, 3)], 7, ()),
    ('log', F.log, [pos(2, 3)], 7, ()),
    ('log2', F.log2, [pos(2, 3)], 7, ()),
    ('log10', F.log10, [pos(2, 3)], 7, ()),
    ('log1p', F.log1p, [pos(2, 3)], 7, ()),
    ('sqrt', F.sqrt, [pos(2, 3)], 7, ()),
    ('rsqrt', F.rsqrt, [pos(2, 3)], 7, ()),
    ('rsqrt_node', node(RsqrtGPU), [pos(2, 3)], 7, ()),
    ('sign_node', node(Sign), [wide(2, 3)], 9, ()),
    ('argmax_node', node(ArgMax, 0), [sym(3, 4)], 7, ()),
    ('square', F.square, [sym(2, 3)], 7, ()),
    ('identity', F.identity, [sym(2, 3)], 7, ()),
    ('identity_two', F.identity, [sym(2, 3), sym(3, seed=1)], 7, ()),
    ('erf', F.erf, [wide(2, 3)], 9, ()),
    ('erfc', F.erfc, [sym(2, 3)], 9, ()),
    ('sign', F.sign, [wide(2, 3) * (numpy.arange(6) % 3 != 0).reshape(2, 3)], 9, ()),
    ('floor', F.floor, [wide(2, 3)], 7, ()),
    ('ceil', F.ceil, [wide(2, 3)], 7, ()),
    ('fix', F.fix, [wide(2, 3)], 9, ()),
    # reductions and scans
    ('sum', F.sum, [sym(2, 3, 4)], 7, (13,)),
    ('sum_axis', lambda a: F.sum(a, axis=1), [sym(2, 3, 4)], 7, (13,)),
    ('sum_axes_keepdims', lambda a: F.sum(a, axis=(0, -1), keepdims=True), [sym(2, 3, 4)],
     7, (13,)),
    ('mean', F.mean, [sym(2, 3, 4)], 7, (18,)),
    ('mean_axis_keepdims', lambda a: F.mean(a, axis=-1, keepdims=True), [sym(2, 3, 4)],
     7, (18,)),
    ('average', lambda a: F.average(a, axis=(0, 2)), [sym(2, 3, 4)], 7, (18,)),
    ('prod', F.prod, [pos(2, 3) + 0.5], 7, (18,)),
    ('prod_axis', lambda a: F.prod(a, axis=0, keepdims=True), [pos(2, 3) + 0.5], 7, (18,)),
    ('max', F.max, [sym(2, 3, 4)], 7, (18,)),
    ('max_axes', lambda a: F.max(a, axis=(1, 2)), [sym(2, 3, 4)], 7, (18,)),
    ('min', F.min, [sym(2, 3, 4)], 7, (18,)),
    ('min_axis_keepdims', lambda a: F.min(a, axis=0, keepdims=True), [sym(2, 3, 4)],
     7, (18,)),
    ('logsumexp', F.logsumexp, [wide(2, 3, 4)], 7, (18,)),
    ('logsumexp_axis', lambda a: F.logsumexp(a, axis=(0, 2)), [wide(2, 3, 4)], 7, (18,)),
    ('batch_l2_norm_squared', F.batch_l2_norm_squared, [sym(2, 3, 4)], 7, (18,)),
    ('argmax', F.argmax, [sym(3, 4)], 7, (13,)),
    ('argmax_axis', lambda a: F.argmax(a, axis=1), [sym(3, 4)], 7, ()),
    ('argmin', F.argmin, [sym(3, 4)], 7, (13,)),
    ('argmin_axis', lambda a: F.argmin(a, axis=-2), [sym(3, 4)], 7, ()),
    ('cumsum', lambda a: F.cumsum(a, axis=1), [sym(2, 3, 4)], 11, ()),
    ('cumsum_negative_axis', lambda a: F.cumsum(a, axis=-1), [sym(2, 3, 4)], 11, ()),
    # linear algebra
    ('matmul', F.matmul, [sym(2, 3), sym(3, 4, seed=1)], 7, ()),
    ('matmul_transa', lambda a, b: F.matmul(a, b, transa=True), [sym(3, 2), sym(3, 4, seed=1)],
     7, ()),
    ('matmul_transb', lambda a, b: F.matmul(a, b, transb=True), [sym(2, 3), sym(4, 3, seed=1)],
     7, ()),
    ('matmul_batched_trans', lambda a, b: F.matmul(a, b, transa=True, transb=True),
     [sym(2, 3, 2), sym(2, 4, 3, seed=1)], 7, ()),
    ('matmul_broadcast', F.matmul, [sym(2, 2, 3), sym(3, 4, seed=1)], 7, ()),
    ('matmul_operator', lambda a, b: a @ b, [sym(2, 3), sym(3, 4, seed=1)], 7, ()),
    ('batch_matmul', lambda a, b: F.batch_matmul(a, b, transa=True),
     [sym(2, 3, 2), sym(2, 3, 4, seed=1)], 7, ()),
    ('det', F.det, [well_conditioned(3, 3)], 11, ()),
    ('batch_det', F.batch_det, [well_conditioned(2, 3, 3)], 11, ()),
    ('einsum', lambda a, b: F.einsum('ij,jk->ik', a, b), [sym(2, 3), sym(3, 4, seed=1)],
     12, ()),
    ('einsum_ellipsis', lambda a, b: F.einsum('...k,...k->...', a, b),
     [sym(2, 3, 4), sym(2, 3, 4, seed=1)], 12, ()),
    ('tensordot', lambda a, b: F.tensordot(a, b, axes=([1, 2], [1, 0])),
     [sym(2, 3, 4), sym(4, 3, 5, seed=1)], 12, ()),
    ('tensordot_int_axes', lambda a, b: F.tensordot(a, b, axes=1),
     [sym(2, 3), sym(3, 4, seed=1)], 12, ()),
]

# float32 results where onnxruntime computes through other operations or in another order
TOLERANCES = {
    'det': 1e-4, 'batch_det': 1e-4,  # LU decompositions differ in rounding
}


@pytest.mark.filterwarnings('ignore:batch_matmul is deprecated:DeprecationWarning')
@pytest.mark.parametrize('name, fn, xs, opset', [
    pytest.param(name, fn, xs, opset, id=f'{name}-{opset}')
    for name, fn, xs, first, changes in CASES for opset in opsets(first, changes)])
def test_math(name, fn, xs, opset):
    tol = TOLERANCES.get(name, 1e-5)
    proto = check_export(Apply(fn), [numpy.asarray(x) for x in xs], opset, rtol=tol, atol=tol)
    # constants (of AddConstant, Clip, axes, ...) are Constant nodes, never initializers
    assert len(proto.graph.initializer) == 0


def _export(fn, xs, opset):
    return check_export(Apply(fn), xs, opset)


def _node(proto, op_type):
    found = [n for n in proto.graph.node if n.op_type == op_type]
    assert len(found) == 1, op_types(proto)
    return found[0]


def _attrs(node_proto):
    return {a.name: onnx.helper.get_attribute_value(a) for a in node_proto.attribute}


def _constant(proto, name):
    producer = next(n for n in proto.graph.node if name in n.output)
    assert producer.op_type == 'Constant'
    return onnx.numpy_helper.to_array(producer.attribute[0].t)


@pytest.mark.parametrize('opset', opsets(7))
def test_constant_has_input_dtype(opset):
    for dtype in (numpy.float32, numpy.float64):
        proto = _export(lambda a: a * 3, [sym(2, 3).astype(dtype)], opset)
        mul = _node(proto, 'Mul')
        value = _constant(proto, mul.input[1])
        assert value.dtype == dtype and value.shape == () and value == 3


@pytest.mark.parametrize('opset', opsets(7, (11,)))
def test_clip_bounds(opset):
    proto = _export(lambda a: F.clip(a, -0.3, 0.4), [sym(3, 4)], opset)
    clip = _node(proto, 'Clip')
    if opset >= 11:
        assert len(clip.input) == 3 and not clip.attribute
        assert _constant(proto, clip.input[1]) == numpy.float32(-0.3)
        assert _constant(proto, clip.input[2]) == numpy.float32(0.4)
    else:
        attrs = _attrs(clip)
        assert attrs['min'] == pytest.approx(-0.3) and attrs['max'] == pytest.approx(0.4)


@pytest.mark.parametrize('fn, op_type, axes_input_from', [
    (lambda a: F.sum(a, axis=(0, -1)), 'ReduceSum', 13),
    (lambda a: F.mean(a, axis=(0, -1)), 'ReduceMean', 18),
    (lambda a: F.max(a, axis=(0, -1)), 'ReduceMax', 18),
    (lambda a: F.logsumexp(a, axis=(0, -1)), 'ReduceLogSumExp', 18),
])
@pytest.mark.parametrize('opset', opsets(7, (13, 18)))
def test_reduction_axes(fn, op_type, axes_input_from, opset):
    proto = _export(fn, [sym(2, 3, 4)], opset)
    reduce = _node(proto, op_type)
    if opset >= axes_input_from:
        assert list(_constant(proto, reduce.input[1])) == [0, 2]
        assert 'axes' not in _attrs(reduce)
    else:
        assert len(reduce.input) == 1 and _attrs(reduce)['axes'] == [0, 2]
    assert _attrs(reduce)['keepdims'] == 0


@pytest.mark.parametrize('opset', opsets(7, (13,)))
def test_argmax_of_all_flattens(opset):
    proto = _export(F.argmax, [sym(3, 4)], opset)
    ops = [t for t in op_types(proto) if t != 'Constant']
    assert ops == ['Flatten', 'ArgMax', 'Squeeze', 'Cast']
    assert proto.graph.output[0].type.tensor_type.shape.dim == []
    assert proto.graph.output[0].type.tensor_type.elem_type == onnx.TensorProto.INT32


def test_fmod_is_mod_with_fmod():
    proto = _export(F.fmod, [wide(2, 3), pos(2, 3)], 10)
    assert _attrs(_node(proto, 'Mod')) == {'fmod': 1}


def test_log_base():
    proto = _export(F.log2, [pos(2, 3)], 7)
    div = _node(proto, 'Div')
    assert _constant(proto, div.input[1]) == pytest.approx(numpy.log(2))


@pytest.mark.parametrize('fn, xs, name, first', [
    (F.arctanh, [sym(2, 3)], 'Arctanh', 9),
    (F.sinh, [sym(2, 3)], 'Sinh', 9),
    (F.fmod, [wide(2, 3), pos(2, 3)], 'Fmod', 10),
    (lambda a: F.cumsum(a, axis=0), [sym(2, 3)], 'Cumsum', 11),
    (F.det, [well_conditioned(3, 3)], 'Det', 11),
    (lambda a, b: F.einsum('ij,jk->ik', a, b), [sym(2, 3), sym(3, 4)], 'EinSum', 12),
    (lambda a, b: F.tensordot(a, b, axes=1), [sym(2, 3), sym(3, 4)], 'TensorDot', 12),
])
def test_below_first_opset(fn, xs, name, first):
    with pytest.raises(ValueError, match=f'{name}.*opset {first - 1}'):
        onnx_chainer.export(Apply(fn), xs, opset_version=first - 1)


def test_inv_has_no_converter():
    # ONNX has no matrix inverse
    with pytest.raises(ValueError, match='no converter for Inv'):
        onnx_chainer.export(Apply(F.inv), [well_conditioned(3, 3)])


@pytest.mark.parametrize('opset', opsets(7))
def test_replaced_function_with_value(opset):
    # a user function wrapped as AddConstant / MulConstant: its argument ``value`` is the
    # attribute the converters read
    add = replace_func.fake_as_funcnode(lambda x, value: x + value, 'AddConstant',
                                        experimental_warning=False)
    scale = replace_func.fake_as_funcnode(lambda x, s: x * s, 'MulConstant',
                                          rename_attributes=[('s', 'value')],
                                          experimental_warning=False)
    proto = _export(lambda a: scale(add(a, 0.5), 3.0), [sym(2, 3)], opset)
    assert [t for t in op_types(proto) if t != 'Constant'] == ['Add', 'Mul']
    assert len(proto.graph.initializer) == 0


def test_cut_outputs_only_kept_while_exporting():
    # F.sign, F.floor, F.ceil, F.fix, F.argmax and F.argmin cut their output from the graph;
    # the exporter keeps their node while it traces, and only then
    x = chainer.Variable(sym(2, 3))
    fns = [F.sign, F.floor, F.ceil, F.fix, F.argmax, F.argmin]
    assert all(f(x).creator is None for f in fns)
    proto = onnx_chainer.export(Apply(lambda a: [f(a) for f in fns]), [sym(2, 3)])
    assert len(proto.graph.output) == len(fns) and len(proto.graph.initializer) == 0
    assert all(f(x).creator is None for f in fns)
