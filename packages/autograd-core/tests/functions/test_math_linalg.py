"""Products and linear algebra: matmul, batch_matmul, tensordot, einsum, bias, scale,
det, batch_det, inv, batch_inv, cholesky, fft/ifft and sparse_matmul."""

import warnings

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType

F64 = numpy.float64


def _mm(a, b):
    return numpy.matmul(a.astype(F64), b.astype(F64))


# -- matmul / batch_matmul ------------------------------------------------------------

@pytest.mark.parametrize('sa,sb', [((2, 3), (3, 4)), ((3,), (3, 2)), ((2, 3), (3,)),
                                   ((3,), (3,)), ((2, 2, 3), (3, 4)), ((1, 2, 3), (4, 3, 2))])
def test_matmul(fc, dtype, sa, sb):
    a, b = fc.uniform(sa, dtype), fc.uniform(sb, dtype)
    fc.check_forward(F.matmul, (a, b), _mm(a, b).astype(dtype), dtype)
    if dtype == F64:
        fc.check_backward(F.matmul, (a, b), dtype)
        fc.check_double_backward(F.matmul, (a, b), dtype)


@pytest.mark.parametrize('ta,tb', [(False, True), (True, False), (True, True)])
def test_matmul_transpose(fc, ta, tb):
    a = fc.uniform((3, 2) if ta else (2, 3), F64)
    b = fc.uniform((4, 3) if tb else (3, 4), F64)
    f = lambda a, b: F.matmul(a, b, transa=ta, transb=tb)  # noqa: E731
    fc.check_forward(f, (a, b), _mm(a.T if ta else a, b.T if tb else b), F64)
    fc.check_backward(f, (a, b), F64)


def test_matmul_edges_and_errors(fc):
    a, b = fc.uniform((2, 3), numpy.float32), fc.uniform((3, 4), numpy.float32)
    fc.check_forward(F.matmul, (fc.noncontiguous(a), b), a @ b)
    assert F.matmul(numpy.zeros((0, 3), numpy.float32), b).shape == (0, 4)
    numpy.testing.assert_array_equal(
        F.matmul(numpy.zeros((2, 0), numpy.float32), numpy.zeros((0, 4), numpy.float32)).array,
        numpy.zeros((2, 4)))
    with pytest.raises(InvalidType):
        F.matmul(a, a)
    with pytest.raises(InvalidType):
        F.matmul(a.astype(numpy.int32), b.astype(numpy.int32))
    with pytest.raises(InvalidType):  # batch shapes that do not broadcast
        F.matmul(numpy.zeros((2, 3, 4), numpy.float32), numpy.zeros((3, 4, 3), numpy.float32))
    assert F.matmul(numpy.zeros((2, 1, 3, 4), numpy.float32),
                    numpy.zeros((5, 4, 2), numpy.float32)).shape == (2, 5, 3, 2)


@pytest.mark.parametrize('sa,sb,ta,tb', [
    ((2, 3, 4), (2, 4, 5), False, False), ((2, 4, 3), (2, 4, 5), True, False),
    ((2, 3, 4), (2, 5, 4), False, True), ((2, 3), (2, 3), True, False),
    ((2, 3), (2, 1, 4), False, False),
])
def test_batch_matmul(fc, dtype, sa, sb, ta, tb):
    a, b = fc.uniform(sa, dtype), fc.uniform(sb, dtype)

    def ref(a, b):
        a = a.reshape(a.shape + (1,)) if a.ndim == 2 else a
        b = b.reshape(b.shape + (1,)) if b.ndim == 2 else b
        return _mm(a.swapaxes(1, 2) if ta else a, b.swapaxes(1, 2) if tb else b)

    def f(a, b):
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', DeprecationWarning)
            return F.batch_matmul(a, b, ta, tb)

    fc.check_forward(f, (a, b), ref(a, b).astype(dtype), dtype)
    if dtype == F64:
        fc.check_backward(f, (a, b), dtype)
        fc.check_double_backward(f, (a, b), dtype)


def test_batch_matmul_warns_and_checks(fc):
    a = fc.uniform((2, 3, 4), numpy.float32)
    with pytest.warns(DeprecationWarning):
        F.batch_matmul(a, fc.uniform((2, 4, 2), numpy.float32))
    with pytest.warns(DeprecationWarning), pytest.raises(InvalidType):
        F.batch_matmul(a, fc.uniform((3, 4, 2), numpy.float32))
    with pytest.warns(DeprecationWarning), pytest.raises(InvalidType):
        F.batch_matmul(a, fc.uniform((2, 3, 2), numpy.float32))
    with pytest.warns(DeprecationWarning), pytest.raises(InvalidType):
        F.batch_matmul(a, fc.uniform((2, 4, 2), F64))


# -- tensordot / einsum ------------------------------------------------------------------

@pytest.mark.parametrize('sa,sb,axes', [
    ((3, 4, 5), (4, 5, 2), 2), ((3, 4), (4, 2), 1), ((2, 3), (4,), 0),
    ((3, 4, 5), (5, 3, 2), ([0, 2], [1, 0])), ((3, 4), (2, 3), (0, 1)),
    ((2, 3, 4), (2, 3, 4), 3),
])
def test_tensordot(fc, dtype, sa, sb, axes):
    a, b = fc.uniform(sa, dtype), fc.uniform(sb, dtype)
    f = lambda a, b: F.tensordot(a, b, axes)  # noqa: E731
    expected = numpy.tensordot(a.astype(F64), b.astype(F64), axes).astype(dtype)
    fc.check_forward(f, (a, b), expected, dtype)
    if dtype == F64:
        fc.check_backward(f, (a, b), dtype)
        fc.check_double_backward(f, (a, b), dtype)


def test_tensordot_edges_and_errors(fc):
    a, b = fc.uniform((3, 4), numpy.float32), fc.uniform((4, 2), numpy.float32)
    fc.check_forward(lambda a, b: F.tensordot(a, b, 1), (fc.noncontiguous(a), b), a @ b)
    assert F.tensordot(numpy.zeros((0, 4), numpy.float32), b, 1).shape == (0, 2)
    with pytest.raises(ValueError):  # paired axes of different lengths, as in v7
        F.tensordot(a, b, ([0], [0]))
    with pytest.raises(ValueError):
        F.tensordot(a, b, 2)
    with pytest.raises(TypeError):
        F.tensordot(a, b, 1.0)
    with pytest.raises(ValueError):
        F.tensordot(a, b, ((), (), ()))
    with pytest.raises(ValueError):
        F.tensordot(a, b, 3)
    with pytest.raises(ValueError):
        F.tensordot(a, b, ([0, 1], [0]))
    with pytest.raises(ValueError):
        F.tensordot(a, b, ([5], [0]))
    with pytest.raises(InvalidType):
        F.tensordot(a, b.astype(numpy.int32), 1)


EINSUM_CASES = [
    ('ij,jk->ik', [(2, 3), (3, 4)]),
    ('ij,jk', [(2, 3), (3, 4)]),
    ('ij->ji', [(2, 3)]),
    ('ij->', [(2, 3)]),
    ('ii->i', [(3, 3)]),
    ('ii', [(3, 3)]),
    ('i,i->', [(3,), (3,)]),
    ('i,j->ij', [(2,), (3,)]),
    ('bij,bjk->bik', [(2, 2, 3), (2, 3, 2)]),
    ('...ij,...jk->...ik', [(2, 2, 3), (2, 3, 2)]),
    ('i...j,jk...->k...i', [(4, 2, 3), (3, 5, 2)]),
    ('ii...,...jj', [(2, 2, 4), (4, 3, 3)]),
    (',ij->i', [(), (3, 4)]),
    ('ij,jk,kl->il', [(2, 3), (3, 2), (2, 2)]),
    ('ijk->k', [(2, 3, 2)]),
    ('iij,j->ij', [(2, 2, 3), (3,)]),
    ('ij,ij->i', [(2, 3), (2, 3)]),
    ('i,ji,i', [(3,), (2, 3), (3,)]),
]


@pytest.mark.parametrize('subs,shapes', EINSUM_CASES, ids=[c[0] for c in EINSUM_CASES])
def test_einsum(fc, dtype, subs, shapes):
    xs = [fc.uniform(s, dtype) for s in shapes]
    f = lambda *xs: F.einsum(subs, *xs)  # noqa: E731
    expected = numpy.einsum(subs, *[x.astype(F64) for x in xs]).astype(dtype)
    fc.check_forward(f, xs, expected, dtype)
    if dtype == F64:
        fc.check_backward(f, xs, dtype)
        fc.check_double_backward(f, xs, dtype)


def test_einsum_edges_and_errors(fc):
    a, b = fc.uniform((2, 3), numpy.float32), fc.uniform((3, 4), numpy.float32)
    fc.check_forward(lambda a, b: F.einsum('ij,jk->ik', a, b), (fc.noncontiguous(a), b), a @ b)
    assert F.einsum('ij,jk->ik', numpy.zeros((0, 3), numpy.float32), b).shape == (0, 4)
    s = numpy.asarray(numpy.float32(2))
    assert F.einsum(',->', s, s).array == 4
    for bad in ['ij,jk->ix', 'ij->ii', 'ij,jk,kl->il', 'ij,j#->i', 'i...j->ij']:
        with pytest.raises(ValueError):
            F.einsum(bad, a, b)
    with pytest.raises(InvalidType):  # an operand of fewer dimensions than letters
        F.einsum('ijk,jk->ik', a, b)
    with pytest.raises(InvalidType):
        F.einsum('ij,jk->ik', a, a)
    with pytest.raises(TypeError):
        F.einsum(a, b)
    with pytest.raises(InvalidType):
        F.einsum('ij,jk->ik', a, b.astype(numpy.int32))



@pytest.mark.parametrize('subs,shapes', [
    ('i,i', [(2,), (3,)]), ('ii', [(2, 3)]), ('...i,...i', [(2, 2), (3, 2)]),
    ('...i,j...', [(2, 3), (2, 3)]), ('...i,...i', [(2, 2), (1, 2)]),
    ('...i,...i', [(2,), (1, 2)]), ('ij,ij->i', [(1, 3), (2, 3)]),
])
def test_einsum_does_not_broadcast(subs, shapes):
    # as in v7, each letter and each "..." has one length in every operand
    with pytest.raises(InvalidType):
        F.einsum(subs, *[numpy.zeros(s, numpy.float32) for s in shapes])


@pytest.mark.parametrize('subs,shapes', [
    ('i,i', [(2,), (2,), (2,)]), ('i,i->j', [(2,), (2,)]), ('i,i->...', [(2,), (2,)]),
    ('...->', [(2,)]), ('j...i->ij', [(2, 1, 3)]), ('i,...i->', [(2,), (3, 2)]),
])
def test_einsum_subscript_errors(subs, shapes):
    # a "..." with dimensions must reach the output: summing it is undefined in v7
    with pytest.raises(ValueError):
        F.einsum(subs, *[numpy.zeros(s, numpy.float32) for s in shapes])


def test_einsum_sublist_form(fc):
    a, b = fc.uniform((2, 2, 3), F64), fc.uniform((2, 3, 4), F64)
    y = F.einsum(a, [Ellipsis, 0, 1], b, [Ellipsis, 1, 2], [Ellipsis, 0, 2])
    numpy.testing.assert_allclose(y.array, a @ b)
    # implicit output: the labels used once, in increasing order
    y = F.einsum(a[0], [30, 4], b[0], [4, 2])
    numpy.testing.assert_allclose(y.array, numpy.einsum(a[0], [30, 4], b[0], [4, 2]))
    assert y.shape == (4, 2)
    fc.check_backward(lambda x, y: F.einsum(x, [0, 1], y, [1, 2]), (a[0], b[0]), F64)
    with pytest.raises(ValueError):
        F.einsum(a, [0, 99, 1])


@pytest.mark.parametrize('ins,out,in_shapes,out_shape', [
    ('i', 'ij', [(3,)], (3, 4)), ('', 'i', [()], (3,)), (',i', 'ij', [(), (2,)], (2, 3)),
    (',ij', 'i', [(), (3, 4)], (3,)), ('i', 'ii', [(3,)], (3, 3)),
    ('ij,j', 'iij', [(2, 3), (3,)], (2, 2, 3)),
])
def test_diag_einsum(fc, ins, out, in_shapes, out_shape):
    # the output may repeat a letter (values on that diagonal) or hold a new one (repeated)
    from chainer.functions.math.einsum import DiagEinSum

    xs = [fc.uniform(s, F64) for s in in_shapes]

    def f(*xs):
        return DiagEinSum(ins, out, out_shape).apply(xs)[0]

    uniq = ''.join(dict.fromkeys(out))
    core = numpy.einsum(ins + '->' + ''.join(c for c in uniq if c in ins), *xs)
    sizes = dict(zip(out, out_shape))
    core = core.reshape([sizes[c] if c in ins else 1 for c in uniq])
    core = numpy.broadcast_to(core, [sizes[c] for c in uniq])
    expected = numpy.zeros(out_shape)
    index = numpy.indices(out_shape)
    on_diag = numpy.ones(out_shape, bool)
    for k, c in enumerate(out):
        on_diag &= index[k] == index[out.index(c)]
    expected[on_diag] = core[tuple(index[out.index(c)][on_diag] for c in uniq)]
    fc.check_forward(f, xs, expected, F64)
    fc.check_backward(f, xs, F64)
    fc.check_double_backward(f, xs, F64)


@pytest.mark.parametrize('fn', [
    lambda a, b: F.matmul(a, b), lambda a, b: F.matmul(a.T, b, transa=True),
    lambda a, b: F.tensordot(a, b, 1), lambda a, b: F.einsum('ij,jk->ik', a, b),
], ids=['matmul', 'matmul_transa', 'tensordot', 'einsum'])
@pytest.mark.parametrize('da,db', [(numpy.float32, F64), (numpy.float16, numpy.float32),
                                   (F64, numpy.float16)])
def test_products_of_mixed_dtypes(fc, fn, da, db):
    # v7 multiplies operands of different float dtypes in the promoted dtype; each
    # gradient comes back in its operand's dtype.
    a, b = fc.uniform((2, 3), da), fc.uniform((3, 4), db)
    va, vb = chainer.Variable(a), chainer.Variable(b)
    y = fn(va, vb)
    assert y.dtype == numpy.result_type(da, db)
    numpy.testing.assert_allclose(y.array, _mm(a, b), rtol=1e-2)
    gy = fc.uniform((2, 4), y.dtype)
    y.grad = gy
    y.backward()
    assert va.grad.dtype == da and vb.grad.dtype == db
    numpy.testing.assert_allclose(va.grad, _mm(gy, b.T), rtol=1e-2, atol=1e-2)
    numpy.testing.assert_allclose(vb.grad, _mm(a.T, gy), rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize('fn', [
    lambda a, b: F.tensordot(a, b, 0), lambda a, b: F.einsum(',ij->ij', a, b),
], ids=['tensordot', 'einsum'])
@pytest.mark.parametrize('da,db', [(numpy.float32, numpy.float16), (F64, numpy.float32)])
def test_products_with_a_0dim_operand_promote_dtypes(fc, fn, da, db):
    # NumPy 1.x casts by value with 0-dim arrays; the product still has the promoted dtype
    a, b = numpy.asarray(fc.uniform((), da)), fc.uniform((2, 3), db)
    y = fn(a, b)
    assert y.dtype == numpy.result_type(da, db)
    numpy.testing.assert_allclose(y.array, a.astype(F64) * b, rtol=1e-3)


# -- bias / scale ------------------------------------------------------------------------

@pytest.mark.parametrize('fn,op', [(F.bias, numpy.add), (F.scale, numpy.multiply)],
                         ids=['bias', 'scale'])
@pytest.mark.parametrize('sx,sy,axis', [((2, 3, 4, 5), (3, 4), 1), ((2, 3), (3,), 1),
                                        ((2, 3, 4), (2,), 0), ((2, 3, 4), (4,), -1)])
def test_bias_scale(fc, dtype, fn, op, sx, sy, axis):
    x, y = fc.uniform(sx, dtype), fc.uniform(sy, dtype)
    a = axis % len(sx)
    shape = (1,) * a + sy + (1,) * (len(sx) - a - len(sy))
    f = lambda x, y: fn(x, y, axis)  # noqa: E731
    fc.check_forward(f, (x, y), op(x.astype(F64), y.astype(F64).reshape(shape)).astype(dtype),
                     dtype)
    if dtype == F64:
        fc.check_backward(f, (x, y), dtype)
        fc.check_double_backward(f, (x, y), dtype)


@pytest.mark.parametrize('fn', [F.bias, F.scale], ids=['bias', 'scale'])
def test_bias_scale_errors(fc, fn):
    x = fc.uniform((2, 3, 4), numpy.float32)
    assert fn(numpy.zeros((0, 3), numpy.float32), numpy.ones(3, numpy.float32)).shape == (0, 3)
    fc.check_forward(lambda x, y: fn(x, y), (fc.noncontiguous(x), numpy.ones(3, numpy.float32)),
                     x + 1 if fn is F.bias else x)
    with pytest.raises(ValueError):
        fn(x, numpy.ones(4, numpy.float32))
    with pytest.raises(AssertionError):  # what v7 raises in debug mode
        fn(x, numpy.ones(2, numpy.float32), 1)
    with pytest.raises(ValueError):
        fn(x, numpy.ones((3, 4, 1), numpy.float32))
    with pytest.raises(InvalidType):
        fn(x, numpy.ones(3, F64))


# -- det / inv / cholesky -----------------------------------------------------------------

def _well_conditioned(fc, shape, dtype):
    n = shape[-1]
    a = fc.uniform(shape, numpy.float64) * 0.5 + numpy.eye(n) * 2
    return a.astype(dtype)


def _tol(dtype):
    return {'rtol': 2e-2, 'atol': 2e-2} if dtype == numpy.float16 else {}


@pytest.mark.parametrize('fn,ref,shape', [
    (F.det, numpy.linalg.det, (3, 3)), (F.batch_det, numpy.linalg.det, (2, 3, 3)),
    (F.inv, numpy.linalg.inv, (3, 3)), (F.batch_inv, numpy.linalg.inv, (2, 3, 3)),
], ids=['det', 'batch_det', 'inv', 'batch_inv'])
def test_det_inv(fc, dtype, fn, ref, shape):
    a = _well_conditioned(fc, shape, dtype)
    fc.check_forward(fn, (a,), ref(a.astype(F64)).astype(dtype), dtype, **_tol(dtype))
    if dtype != numpy.float16:
        fc.check_backward(fn, (a,), dtype)
    if dtype == F64:
        fc.check_double_backward(fn, (a,), dtype)


@pytest.mark.parametrize('fn,batched', [(F.det, False), (F.batch_det, True), (F.inv, False),
                                        (F.batch_inv, True)],
                         ids=['det', 'batch_det', 'inv', 'batch_inv'])
def test_det_inv_edges_and_errors(fc, fn, batched):
    a = _well_conditioned(fc, (2, 3, 3) if batched else (3, 3), numpy.float32)
    ref = numpy.linalg.inv if fn in (F.inv, F.batch_inv) else numpy.linalg.det
    fc.check_forward(fn, (fc.noncontiguous(a),), ref(a), rtol=1e-4, atol=1e-4)
    if batched:
        assert fn(numpy.zeros((0, 2, 2), numpy.float32)).shape[0] == 0
    with pytest.raises(InvalidType):
        fn(numpy.zeros((2, 3, 4) if batched else (3, 4), numpy.float32))
    with pytest.raises(InvalidType):
        fn(numpy.zeros((3, 3) if batched else (2, 3, 3), numpy.float32))
    with pytest.raises(InvalidType):
        fn(numpy.zeros((2, 3, 3) if batched else (3, 3), numpy.int32))


def test_inv_singular():
    with pytest.raises(ValueError, match='singular'):
        F.inv(numpy.zeros((2, 2), numpy.float32))


def test_det_1x1_and_value():
    a = numpy.array([[2.0, 1.0], [1.0, 3.0]], F64)
    assert abs(float(F.det(a).array) - 5.0) < 1e-12
    assert F.det(a).shape == ()
    assert F.det(numpy.array([[4.0]])).array == 4.0


def _spd(fc, n, dtype):
    a = fc.uniform((n, n), numpy.float64)
    return (a @ a.T + n * numpy.eye(n)).astype(dtype)


def test_cholesky(fc, dtype):
    a = _spd(fc, 3, dtype)
    fc.check_forward(F.cholesky, (a,), numpy.linalg.cholesky(a.astype(F64)).astype(dtype),
                     dtype, **_tol(dtype))
    if dtype == numpy.float16:
        return
    # the gradient is the symmetric one: check it through a symmetric parametrization
    f = lambda a: F.cholesky((a + a.T) * 0.5)  # noqa: E731
    fc.check_backward(f, (a,), dtype)
    if dtype == F64:
        fc.check_double_backward(f, (a,), dtype)


def test_cholesky_edges_and_errors(fc):
    a = _spd(fc, 3, numpy.float32)
    fc.check_forward(F.cholesky, (fc.noncontiguous(a),), numpy.linalg.cholesky(a))
    with pytest.raises(ValueError, match='positive definite'):
        F.cholesky(-numpy.eye(2, dtype=numpy.float32))
    with pytest.raises(InvalidType):
        F.cholesky(numpy.zeros((2, 3), numpy.float32))
    with pytest.raises(InvalidType):
        F.cholesky(numpy.eye(2, dtype=numpy.int32))


# -- fft / ifft -----------------------------------------------------------------------------

@pytest.mark.parametrize('method', ['fft', 'ifft'])
@pytest.mark.parametrize('shape', [(4,), (2, 5)])
def test_fft(fc, dtype, method, shape):
    fn = getattr(F, method)
    r, i = fc.uniform(shape, dtype), fc.uniform(shape, dtype)
    z = getattr(numpy.fft, method)(r.astype(F64) + 1j * i.astype(F64))
    f = lambda r, i: fn((r, i))  # noqa: E731
    yr, yi = fc.check_forward(f, (r, i), (z.real.astype(dtype), z.imag.astype(dtype)), dtype,
                              **_tol(dtype))
    assert yr.dtype == dtype and yi.dtype == dtype
    if dtype != numpy.float16:
        fc.check_backward(f, (r, i), dtype)
    if dtype == F64:
        fc.check_double_backward(f, (r, i), dtype)


def test_fft_roundtrip_edges_and_errors(fc):
    r, i = fc.uniform((3, 4), numpy.float32), fc.uniform((3, 4), numpy.float32)
    yr, yi = F.ifft(F.fft((fc.noncontiguous(r), i)))
    numpy.testing.assert_allclose(yr.array, r, atol=1e-5)
    numpy.testing.assert_allclose(yi.array, i, atol=1e-5)
    # a gradient on one output only
    vr, vi = chainer.Variable(r), chainer.Variable(i)
    yr, _ = F.fft((vr, vi))
    F.sum(yr).backward()
    assert vr.grad.shape == (3, 4) and vi.grad.shape == (3, 4)
    assert F.fft((r[:0], i[:0]))[0].shape == (0, 4)
    with pytest.raises(TypeError):
        F.fft(r)
    with pytest.raises(InvalidType):
        F.fft((r, i[:2]))
    with pytest.raises(InvalidType):
        F.fft((r, i.astype(F64)))
    with pytest.raises(InvalidType):
        F.fft((r[:, :0], i[:, :0]))


# -- sparse_matmul ----------------------------------------------------------------------------

def _sparse(fc, shape, dtype):
    x = fc.uniform(shape, dtype)
    x[fc.rng.uniform(size=shape) < 0.5] = 0
    return x


@pytest.mark.parametrize('sparse_left', [True, False])
@pytest.mark.parametrize('ta,tb', [(False, False), (True, False), (False, True), (True, True)])
@pytest.mark.parametrize('batched', [False, True])
def test_sparse_matmul(fc, dtype, sparse_left, ta, tb, batched):
    from chainer.utils import to_coo

    lead = (2,) if batched else ()
    sa = lead + ((4, 3) if ta else (3, 4))
    sb = lead + ((2, 4) if tb else (4, 2))
    a = _sparse(fc, sa, dtype) if sparse_left else fc.uniform(sa, dtype)
    b = fc.uniform(sb, dtype) if sparse_left else _sparse(fc, sb, dtype)
    expected = _mm(a.swapaxes(-1, -2) if ta else a,
                   b.swapaxes(-1, -2) if tb else b).astype(dtype)
    dense_in = b if sparse_left else a
    sp_src = a if sparse_left else b
    sp = to_coo(sp_src, ldnz=int(numpy.max((sp_src != 0).reshape(
        len(sp_src) if batched else 1, -1).sum(-1))) + 1 if batched else None)
    numpy.testing.assert_array_equal(sp.to_dense(), sp_src)

    def f(data, dn):
        from chainer.utils import CooMatrix

        data = chainer.as_variable(data)
        s = CooMatrix(data.array, sp.row, sp.col, sp.shape)
        s.data = data
        return F.sparse_matmul(s, dn, ta, tb) if sparse_left else F.sparse_matmul(dn, s, ta, tb)

    fc.check_forward(f, (sp.data.array, dense_in), expected, dtype)
    if dtype == F64:
        fc.check_backward(f, (sp.data.array, dense_in), dtype)
        fc.check_double_backward(f, (sp.data.array, dense_in), dtype)


def test_sparse_matmul_edges_and_errors(fc):
    from chainer.utils import CooMatrix, to_coo

    a = _sparse(fc, (3, 4), numpy.float32)
    b = fc.uniform((4, 2), numpy.float32)
    sp = to_coo(a, requires_grad=True)
    assert sp.data.requires_grad
    fc.check_forward(lambda b: F.sparse_matmul(sp, b), (fc.noncontiguous(b),), a @ b)
    empty = CooMatrix(numpy.zeros(0, numpy.float32), numpy.zeros(0, numpy.int32),
                      numpy.zeros(0, numpy.int32), (3, 4))
    numpy.testing.assert_array_equal(F.sparse_matmul(empty, b).array, numpy.zeros((3, 2)))
    with pytest.raises(InvalidType):
        F.sparse_matmul(sp, fc.uniform((3, 2), numpy.float32))
    with pytest.raises(ValueError):
        F.sparse_matmul(b, b)
    with pytest.raises(ValueError):
        F.sparse_matmul(sp, sp)
    with pytest.raises(InvalidType):
        F.sparse_matmul(sp, fc.uniform((2, 4, 2), numpy.float32))
    batch = to_coo(_sparse(fc, (2, 3, 4), numpy.float32))
    with pytest.raises(InvalidType):  # batch sizes differ
        F.sparse_matmul(batch, fc.uniform((3, 4, 2), numpy.float32))
    with pytest.raises(InvalidType):  # a batch needs a 3-D dense operand
        F.sparse_matmul(fc.uniform((2, 3), numpy.float32), batch)
    with pytest.raises(InvalidType):
        F.sparse_matmul(sp, b.astype(numpy.int32))
    # operands of different float dtypes give a product of both together
    y = F.sparse_matmul(sp, b.astype(F64))
    assert y.dtype == F64
    numpy.testing.assert_allclose(y.array, a.astype(F64) @ b.astype(F64), rtol=1e-6)
    with pytest.raises(ValueError):
        CooMatrix(numpy.zeros(2), numpy.zeros(3, numpy.int32), numpy.zeros(2, numpy.int32),
                  (2, 2))
    with pytest.raises(ValueError):
        to_coo(numpy.zeros((2, 2, 2, 2)))
    # the stored size is max(nnz, ldnz), as documented
    assert to_coo(numpy.ones((2, 2, 2)), ldnz=2).data.shape == (2, 4)


@pytest.mark.parametrize('ta,tb,tc', [(False, False, False), (True, False, True),
                                      (False, True, True), (True, True, False)])
@pytest.mark.parametrize('batched', [False, True])
def test_coo_matmul_node(fc, ta, tb, tc, batched):
    """CooMatMul computes op(op(S) @ op(D)) for every transpose, with mixed dtypes, and
    one node may be applied again (v7 code reuses it for a fixed pattern)."""
    from chainer.functions.math.sparse_matmul import CooMatMul
    from chainer.utils import to_coo

    lead = (2,) if batched else ()
    s_dense = _sparse(fc, lead + ((4, 3) if ta else (3, 4)), F64)
    d = fc.uniform(lead + ((2, 4) if tb else (4, 2)), numpy.float32)
    sp = to_coo(s_dense, ldnz=13)  # with padding
    node = CooMatMul(sp.row, sp.col, sp.shape, sp.order, transa=ta, transb=tb, transc=tc)
    expected = _mm(s_dense.swapaxes(-1, -2) if ta else s_dense,
                   (d.swapaxes(-1, -2) if tb else d).astype(F64))
    expected = expected.swapaxes(-1, -2) if tc else expected
    y = node.apply((sp.data.array, d))[0]
    assert y.dtype == F64
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-6)

    def f(data, dense):
        return node.apply((data, dense))[0]

    fc.check_backward(f, (sp.data.array, d.astype(F64)), F64)
    fc.check_double_backward(f, (sp.data.array, d.astype(F64)), F64)
    # gradients keep the dtype of each input
    data_v, d_v = chainer.Variable(sp.data.array), chainer.Variable(d)
    F.sum(node.apply((data_v, d_v))[0]).backward()
    assert data_v.grad.dtype == F64 and d_v.grad.dtype == numpy.float32
    assert (data_v.grad[sp.row < 0] == 0).all()
