"""Chainer v7's node classes and helpers under chainer.functions, at their v7 paths."""

import importlib
import math
import subprocess
import sys

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import gradient_check

rng = numpy.random.RandomState(7)


def _mod(path):
    return importlib.import_module('chainer.functions.' + path)


@pytest.mark.parametrize('path', [
    'array.fliplr', 'array.flipud', 'pooling.pooling_nd_kernel',
    'pooling.average_pooling_nd_kernel', 'pooling.max_pooling_nd_kernel', 'theano',
    'theano.theano_function'])
def test_submodules_reachable_after_bare_import(path):
    code = f'import chainer; chainer.functions.{path}'
    subprocess.run([sys.executable, '-c', code], check=True)


@pytest.mark.parametrize('path,alias,target', [
    ('activation.relu', 'ReLUGrad2', 'ReLUGrad'),
    ('activation.relu', 'ReLUGradCudnn', 'ReLUGrad'),
    ('activation.elu', 'ELUGrad', '_ELUGrad'),
    ('activation.softplus', 'SoftplusGrad', '_SoftplusGrad'),
    ('activation.log_softmax', 'LogSoftmaxGrad', '_LogSoftmaxGrad'),
    ('activation.clipped_relu', 'ClippedReLUGrad3', 'ClippedReLUGrad2'),
    ('noise.dropout', 'DropoutGradCuDNN', 'DropoutGrad'),
    ('math.minmax', 'SelectorBase', '_SelectorReduction'),
    ('math.minmax', 'IndexSelectorBase', '_IndexSelector'),
    ('array.resize_images', 'interpolate_bilinear_gpu', 'interpolate_bilinear_cpu'),
])
def test_aliases_are_the_project_classes(path, alias, target):
    m = _mod(path)
    assert getattr(m, alias) is getattr(m, target)


def test_subclasses_of_the_project_nodes():
    from chainer.functions.math import det, exponential, inv
    assert issubclass(det.BatchDet, det.Det) and det.BatchDet().batched
    assert issubclass(inv.BatchInv, inv.Inv) and inv.BatchInv().batched
    assert issubclass(exponential.Log2, exponential.Log)


# ---- helpers with NumPy references


def test_logsumexp_and_log_softmax_arrays():
    from chainer.functions.activation import log_softmax as m
    x = rng.randn(3, 5).astype(numpy.float32) * 30
    ref = numpy.log(numpy.exp(x.astype(numpy.float64)).sum(axis=1, keepdims=True))
    got = m.logsumexp(x, 1)
    assert got.shape == (3, 1) and got.dtype == numpy.float32
    numpy.testing.assert_allclose(got, ref, rtol=1e-5)
    numpy.testing.assert_allclose(m._log_softmax(x), x - ref, rtol=1e-4, atol=1e-4)
    numpy.testing.assert_allclose(m._log_softmax(x, axis=0),
                                  F.log_softmax(x, axis=0).array, rtol=1e-6)


def test_relu6_and_clipped_relu_grad_nodes():
    from chainer.functions.activation import clipped_relu as m
    x = numpy.array([-1., 0.5, 3., 6.5, 7.], numpy.float32)
    numpy.testing.assert_array_equal(m.relu6(x).array, numpy.clip(x, 0, 6))
    gy = numpy.arange(5, dtype=numpy.float32)
    g = m.ClippedReLUGrad2(x, 6.0).apply((gy,))[0].array
    numpy.testing.assert_array_equal(g, gy * ((x > 0) & (x < 6)))


def test_hard_sigmoid_grad():
    from chainer.functions.activation.hard_sigmoid import HardSigmoidGrad
    x = numpy.array([-3., -1., 0., 2., 3.], numpy.float32)
    gy = numpy.ones(5, numpy.float32)
    numpy.testing.assert_allclose(HardSigmoidGrad(x).apply((gy,))[0].array,
                                  [0, .2, .2, .2, 0])


def test_squared_difference_in_squared_error():
    from chainer.functions.loss import squared_error as m
    a, b = rng.randn(4, 3), rng.randn(4, 3)
    numpy.testing.assert_allclose(m.squared_difference(a, b).array, (a - b) ** 2)


@pytest.mark.parametrize('name,ref', [
    ('sub', lambda a, b: a - b), ('rsub', lambda a, b: b - a),
    ('mul', lambda a, b: a * b), ('div', lambda a, b: a / b),
    ('rdiv', lambda a, b: b / a), ('floordiv', lambda a, b: numpy.floor(a / b)),
    ('rfloordiv', lambda a, b: numpy.floor(b / a)), ('pow', lambda a, b: a ** b),
    ('rpow', lambda a, b: b ** a),
])
def test_basic_math_operator_functions(name, ref):
    from chainer.functions.math import basic_math as m
    a = rng.uniform(.5, 2, (3, 4))
    b = rng.uniform(.5, 2, (3, 4))
    f = getattr(m, name)
    numpy.testing.assert_allclose(f(chainer.Variable(a), b).array, ref(a, b))
    numpy.testing.assert_allclose(f(chainer.Variable(a), 1.5).array, ref(a, 1.5))


def test_basic_math_neg_matmul_multiadd():
    from chainer.functions.math import basic_math as m
    a, b, c = rng.randn(3, 4), rng.randn(4, 2), rng.randn(3, 4)
    numpy.testing.assert_allclose(m.neg(chainer.Variable(a)).array, -a)
    numpy.testing.assert_allclose(m.matmul(chainer.Variable(a), b).array, a @ b)
    numpy.testing.assert_allclose(m.rmatmul(chainer.Variable(b), a).array, a @ b)
    numpy.testing.assert_allclose(m.MultiAdd().apply((a, c, a))[0].array, 2 * a + c)
    gradient_check.check_backward(lambda x, y: m.MultiAdd().apply((x, y)), (a, c), a)


def test_squeeze_argone_and_install_get_item():
    from chainer.functions.array import get_item, squeeze
    assert squeeze.argone((1, 3, 1, 2)) == [0, 2]
    get_item.install_variable_get_item()
    x = chainer.Variable(numpy.arange(6.).reshape(2, 3))
    numpy.testing.assert_array_equal(x[1, ::-1].array, [5., 4., 3.])


def test_fliplr_flipud_modules():
    from chainer.functions.array import fliplr, flipud
    x = numpy.arange(12.).reshape(3, 4)
    numpy.testing.assert_array_equal(fliplr.fliplr(x).array, numpy.fliplr(x))
    numpy.testing.assert_array_equal(flipud.flipud(x).array, numpy.flipud(x))
    assert F.fliplr is fliplr.fliplr and fliplr.FlipLR().label == 'FlipLR'
    with pytest.raises(chainer.utils.type_check.InvalidType):
        fliplr.fliplr(numpy.arange(3.))
    gradient_check.check_backward(flipud.flipud, x, rng.randn(3, 4))


@pytest.mark.parametrize('mode,align', [('bilinear', True), ('bilinear', False),
                                        ('nearest', True)])
def test_resize_images_helpers(mode, align):
    from chainer.functions.array import resize_images as m
    x = rng.randn(2, 3, 5, 7).astype(numpy.float32)
    v, u, vw, uw = m.compute_indices_and_weights((4, 9), (5, 7), mode, align, numpy)
    assert v.shape == (4,) and u.shape == (9,) and ((vw >= 0) & (vw < 1)).all()
    y = m.interpolate_bilinear_cpu(x, v, u, vw, uw)
    ref = F.resize_images(x, (4, 9), mode=mode, align_corners=align).array
    numpy.testing.assert_allclose(y, ref, atol=1e-5)
    # the grad helper is the adjoint: <A x, gy> == <x, A^T gy>
    gy = rng.randn(2, 3, 4, 9).astype(numpy.float32)
    gx = m.interpolate_grad_bilinear_cpu(gy, v, u, vw, uw, 5, 7)
    assert math.isclose(float((y * gy).sum()), float((x * gx).sum()), rel_tol=1e-4)
    if mode == 'bilinear':
        node = m.ResizeImagesGrad(x.shape, (4, 9), mode, align)
        numpy.testing.assert_allclose(node.apply((gy,))[0].array, gx, atol=1e-5)


def test_tensor_geometry_and_as_strided_grad():
    from chainer.functions.array import as_strided as m
    x = numpy.arange(12.).reshape(3, 4)
    geo = m.TensorGeometry(x)
    assert geo.shape == (3, 4) and geo.strides == (4, 1) and geo.storage_offset == 0
    assert geo.ndim == 2 and geo.size == 12
    xv = chainer.Variable(x)
    y = F.as_strided(xv, (2, 2), (1, 1), 1)
    gy = rng.randn(2, 2)
    y.grad = gy
    y.backward()
    gx = m.AsStridedGrad(geo, (2, 2), (1, 1), 1).apply((gy,))[0].array
    numpy.testing.assert_allclose(gx, xv.grad)


def test_stack_nodes_match_functions():
    from chainer.functions.array import dstack, hstack, vstack
    xs = [rng.randn(2, 3), rng.randn(2, 3)]
    for node, fn in ((dstack.Dstack, numpy.dstack), (hstack.Hstack, numpy.hstack),
                     (vstack.Vstack, numpy.vstack)):
        numpy.testing.assert_array_equal(node().apply(xs)[0].array, fn(xs))
        gradient_check.check_backward(lambda a, b, n=node: n().apply((a, b)), xs,
                                      rng.randn(*fn(xs).shape))


def test_assign_and_im2col_grad():
    from chainer.functions.array import im2col, select_item
    t = numpy.array([2, 0], numpy.int32)
    g = select_item.Assign((2, 3), numpy.float64, t).apply((numpy.array([5., 7.]),))[0]
    numpy.testing.assert_array_equal(g.array, [[0, 0, 5], [7, 0, 0]])
    x = rng.randn(1, 2, 4, 4)
    col = F.im2col(x, 2)
    node = im2col.Im2ColGrad(2, 1, 0, False, 1, x.shape)
    gcol = rng.randn(*col.shape)
    gx = node.apply((gcol,))[0].array
    assert math.isclose(float((col.array * gcol).sum()), float((x * gx).sum()), rel_tol=1e-9)


def _grad_of(fn, xs, gy):
    vs = [chainer.Variable(x) for x in xs]
    y = fn(*vs)
    y.grad = gy
    y.backward()
    return [v.grad for v in vs]


@pytest.mark.parametrize('path,cls,fn,n_in', [
    ('math.trigonometric', 'SinGrad', F.sin, 1),
    ('math.trigonometric', 'CosGrad', F.cos, 1),
    ('math.trigonometric', 'ArctanGrad', F.arctan, 1),
    ('math.trigonometric', 'Arctan2Grad', F.arctan2, 2),
    ('math.basic_math', 'DivGrad', lambda a, b: a / b, 2),
    ('math.basic_math', 'PowVarVarGrad', lambda a, b: a ** b, 2),
    ('math.basic_math', 'AbsoluteGrad', F.absolute, 1),
    ('math.maximum', 'MaximumGrad', F.maximum, 2),
    ('math.linear_interpolate', 'LinearInterpolateGrad', F.linear_interpolate, 3),
    ('math.batch_l2_norm_squared', 'BatchL2NormSquaredGrad', F.batch_l2_norm_squared, 1),
    ('activation.prelu', 'PReLUFunctionGrad', None, 2),
    ('activation.swish', 'SwishGrad', None, 2),
])
def test_gradient_nodes_match_backward_and_are_differentiable(path, cls, fn, n_in):
    node_cls = getattr(_mod(path), cls)
    if fn is None:  # weight-taking activations: W over axis 1
        fn = F.prelu if cls.startswith('PReLU') else F.swish
        xs = [rng.uniform(-1, 1, (3, 4)), rng.uniform(.5, 1, (4,))]
    else:
        xs = [rng.uniform(.5, 1.5, (3, 4)) for _ in range(n_in)]
    gy = rng.randn(*fn(*xs).shape)
    got = node_cls().apply(tuple(xs) + (gy,))
    for g, ref in zip(got, _grad_of(fn, xs, gy)):
        numpy.testing.assert_allclose(g.array, ref, rtol=1e-6, atol=1e-8)
    ggs = [rng.randn(*x.shape) for x in xs]
    gradient_check.check_backward(lambda *a: node_cls().apply(a), tuple(xs) + (gy,),
                                  tuple(ggs), dtype=numpy.float64, atol=1e-4, rtol=1e-4)


def test_clip_grad_and_constant_grads():
    from chainer.functions.math import basic_math, clip
    x = numpy.array([-2., -.5, .3, 1.5])
    gy = numpy.ones(4)
    numpy.testing.assert_array_equal(clip.ClipGrad(-1., 1.).apply((x, gy))[0].array,
                                     [0, 1, 1, 0])
    numpy.testing.assert_allclose(
        basic_math.PowVarConstGrad(3.).apply((x, gy))[0].array, 3 * x ** 2)
    numpy.testing.assert_allclose(
        basic_math.DivFromConstantGrad(2.).apply((x, gy))[0].array, -2 / x ** 2)


def test_log2_log10_rsqrt_and_backword_constants():
    from chainer.functions.math import erfcinv, erfinv, exponential, sqrt
    x = numpy.array([.5, 2., 8.])
    numpy.testing.assert_allclose(exponential.Log2().apply((x,))[0].array, numpy.log2(x))
    numpy.testing.assert_allclose(exponential.Log10().apply((x,))[0].array, numpy.log10(x))
    numpy.testing.assert_allclose(sqrt.RsqrtGPU().apply((x,))[0].array, 1 / numpy.sqrt(x))
    gradient_check.check_backward(lambda a: sqrt.RsqrtGPU().apply((a,)), x, rng.randn(3))
    assert math.isclose(erfinv.BACKWORDC, math.sqrt(math.pi) / 2)
    assert math.isclose(erfcinv.BACKWORDC, -math.sqrt(math.pi) / 2)


def test_cumprodsum_recurrence():
    from chainer.functions.math.cumprod import Cumprodsum
    a, b = rng.randn(3, 4), rng.randn(3, 4)
    y = Cumprodsum(1).apply((a, b))[0].array
    ref = numpy.empty_like(b)
    ref[:, 0] = b[:, 0]
    for i in range(1, 4):
        ref[:, i] = a[:, i] * ref[:, i - 1] + b[:, i]
    numpy.testing.assert_allclose(y, ref)
    gradient_check.check_backward(lambda p, q: Cumprodsum(0).apply((p, q)), (a, b),
                                  rng.randn(3, 4))


def test_loss_nodes():
    from chainer.functions.loss import cross_covariance, decov, negative_sampling
    y, z = rng.randn(5, 3), rng.randn(5, 2)
    numpy.testing.assert_allclose(cross_covariance.CrossCovariance().apply((y, z))[0].array,
                                  F.cross_covariance(y, z).array)
    numpy.testing.assert_allclose(decov.DeCov('no').apply((y,))[0].array,
                                  F.decov(y, 'no').array)
    x, W = rng.randn(4, 3), rng.randn(6, 3)
    t = numpy.array([0, 1, 5, 2], numpy.int32)
    draws = numpy.random.RandomState(0)
    node = negative_sampling.NegativeSamplingFunction(
        lambda s: draws.randint(0, 6, s).astype(numpy.int32), 2)
    loss = node.apply((x, t, W))[0]
    samples = node.samples
    ref = F.negative_sampling(x, t, W, lambda s: samples, 2)
    numpy.testing.assert_allclose(loss.array, ref.array)
    gx, gW = negative_sampling.NegativeSamplingFunctionGrad(samples).apply(
        (x, t, W, numpy.array(1.)))
    rx, rW = _grad_of(lambda a, w: F.negative_sampling(a, t, w, lambda s: samples, 2),
                      [x, W], numpy.array(1.))
    numpy.testing.assert_allclose(gx.array, rx)
    numpy.testing.assert_allclose(gW.array, rW)


def test_pooling_and_normalization_grad_nodes():
    from chainer.functions.normalization import batch_normalization as bn
    from chainer.functions.pooling import average_pooling_2d as ap
    from chainer.functions.pooling import unpooling_2d as up
    x = rng.randn(2, 3, 6, 6)
    node = ap.AveragePooling2D(2)
    y = node.apply((x,))[0]
    gy = rng.randn(*y.shape)
    ref, = _grad_of(lambda a: F.average_pooling_2d(a, 2), [x], gy)
    numpy.testing.assert_allclose(ap.AveragePooling2DGrad(node).apply((gy,))[0].array, ref)
    un = up.Unpooling2D(2, outsize=(12, 12))
    yu = un.apply((x,))[0]
    gyu = rng.randn(*yu.shape)
    ref, = _grad_of(lambda a: F.unpooling_2d(a, 2, outsize=(12, 12)), [x], gyu)
    numpy.testing.assert_allclose(up.Unpooling2DGrad(un).apply((gyu,))[0].array, ref)
    xb, g, b = rng.randn(6, 3), rng.uniform(.5, 1, 3), rng.randn(3)
    gyb = rng.randn(6, 3)
    got = bn.BatchNormalizationGrad().apply((xb, g, b, gyb))
    for a, r in zip(got, _grad_of(F.batch_normalization, [xb, g, b], gyb)):
        numpy.testing.assert_allclose(a.array, r, rtol=1e-6, atol=1e-8)


def test_pooling_nd_kernel_sources_and_memo():
    from unittest import mock

    from chainer.backends import cuda
    from chainer.functions.pooling import average_pooling_nd_kernel as avg
    from chainer.functions.pooling import max_pooling_nd_kernel as mx
    from chainer.functions.pooling import pooling_nd_kernel as pk
    in_params, out_params, op, name = mx.MaxPoolingNDKernelForward.generate(3)
    assert name == 'max_pool_3d_fwd' and out_params == 'T out, S indexes'
    assert 'int32 d_2' in in_params and 'int32 p_2' in in_params
    assert op.count('for (') == 3 and op.count('{') == op.count('}')
    _, out_b, op_b, _ = avg.AveragePoolingNDKernelBackward.generate(2)
    assert out_b == 'T gx' and 'gx = val * coeff;' in op_b
    cuda.clear_memo()
    with mock.patch.object(pk.PoolingNDKernelForward, '_generate') as m:
        pk.PoolingNDKernelForward.generate(4)
        pk.PoolingNDKernelForward.generate(4)
        m.assert_called_once_with(4)
    cuda.clear_memo()


def test_theano_function_with_callables():
    from chainer.functions.theano.theano_function import TheanoFunction, theano_function
    x = chainer.Variable(numpy.array([1., 2., 3.]))
    y = theano_function(lambda a: [a * a], lambda a, g: [2 * a * g], x)
    y.grad = numpy.ones(3)
    y.backward()
    numpy.testing.assert_array_equal(y.array, [1., 4., 9.])
    numpy.testing.assert_array_equal(x.grad, [2., 4., 6.])
    with pytest.raises(TypeError):
        TheanoFunction(None, None)
