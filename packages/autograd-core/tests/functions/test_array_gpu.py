"""GPU variants of the array function checks: each function runs on CuPy arrays,
matches its NumPy result, and passes the numerical gradient checks."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import gradient_check

pytestmark = pytest.mark.gpu


def _outputs(y):
    return y if isinstance(y, tuple) else (y,)


def _compare(fn, xs, double=True, rtol=1e-5, atol=1e-6):
    """``fn`` on CuPy inputs: forward and gradients match NumPy, numerical checks pass."""
    cupy = pytest.importorskip('cupy')
    rng = numpy.random.RandomState(3)
    cpu_vars = [chainer.Variable(x, requires_grad=x.dtype.kind == 'f') for x in xs]
    gpu_vars = [chainer.Variable(cupy.asarray(x), requires_grad=x.dtype.kind == 'f')
                for x in xs]
    ys_cpu = _outputs(fn(*cpu_vars))
    ys_gpu = _outputs(fn(*gpu_vars))
    assert len(ys_cpu) == len(ys_gpu)
    for yc, yg in zip(ys_cpu, ys_gpu):
        assert isinstance(yg.array, cupy.ndarray)
        assert yg.dtype == yc.dtype and yg.shape == yc.shape
        numpy.testing.assert_allclose(cupy.asnumpy(yg.array), yc.array, rtol=rtol, atol=atol)
    gys = [rng.uniform(-1, 1, y.shape).astype(y.dtype) for y in ys_cpu]
    targets_c = [v for v in cpu_vars if v.requires_grad]
    targets_g = [v for v in gpu_vars if v.requires_grad]
    gc = chainer.grad(list(ys_cpu), targets_c, [chainer.Variable(g) for g in gys])
    gg = chainer.grad(list(ys_gpu), targets_g,
                      [chainer.Variable(cupy.asarray(g)) for g in gys])
    for a, b in zip(gc, gg):
        if a is None:
            assert b is None
            continue
        assert isinstance(b.array, cupy.ndarray)
        numpy.testing.assert_allclose(cupy.asnumpy(b.array), a.array, rtol=rtol, atol=atol)
    xs_g = tuple(cupy.asarray(x) for x in xs)
    gys_g = tuple(cupy.asarray(g) for g in gys)
    gradient_check.check_backward(fn, xs_g, gys_g, dtype=numpy.float64, atol=1e-4, rtol=1e-4)
    if double:
        ggs = tuple(cupy.asarray(rng.uniform(-1, 1, x.shape).astype(x.dtype)) for x in xs
                    if x.dtype.kind == 'f')
        gradient_check.check_double_backward(fn, xs_g, gys_g, ggs, dtype=numpy.float64,
                                             atol=1e-4, rtol=1e-4)


def _u(*shape, dtype=numpy.float64, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


CASES = {
    'concat': (lambda a, b: F.concat((a, b), 1), (_u(2, 3), _u(2, 2))),
    'split_axis': (lambda x: F.split_axis(x, [1, 3], 1), (_u(2, 4),)),
    'split_axis_unused': (lambda x: F.split_axis(x, 2, 1)[0], (_u(2, 4),)),
    'stack': (lambda a, b: F.stack((a, b), 1), (_u(2, 3), _u(2, 3))),
    'separate': (lambda x: F.separate(x, 1), (_u(2, 3),)),
    'hvd_stack': (lambda a, b: (F.hstack((a, b)), F.vstack((a, b)), F.dstack((a, b))),
                  (_u(2, 3), _u(2, 3))),
    'expand_squeeze': (lambda x: F.squeeze(F.expand_dims(x, 1)), (_u(2, 3),)),
    'swap_move_roll': (lambda x: (F.swapaxes(x, 0, 2), F.moveaxis(x, 0, -1),
                                  F.rollaxis(x, 2)), (_u(2, 3, 4),)),
    'flip': (lambda x: (F.flip(x, 1), F.fliplr(x), F.flipud(x)), (_u(2, 3),)),
    'flatten_reshape': (lambda x: (F.flatten(x), F.reshape(x, (3, 2))), (_u(2, 3),)),
    'broadcast': (lambda a, b: F.broadcast(a, b), (_u(2, 1), _u(3))),
    'broadcast_to': (lambda x: F.broadcast_to(x, (2, 3)), (_u(3),)),
    'as_strided': (lambda x: F.as_strided(x, (3, 2), (1, 1)), (_u(4),)),
    'diagonal': (lambda x: F.diagonal(x, 1, 0, 2), (_u(3, 2, 4),)),
    'tile': (lambda x: F.tile(x, (2, 1, 2)), (_u(2, 3),)),
    'repeat': (lambda x: (F.repeat(x, 2, 1), F.repeat(x, (1, 0, 2), 1)), (_u(2, 3),)),
    'cast': (lambda x: F.cast(x, numpy.float32), (_u(2, 3),)),
    'get_item': (lambda x: (x[1:, ::2], x[[0, 0, 1]], x[numpy.array([True, False])],
                            x[:, [2, 2]]), (_u(2, 3),)),
    'scatter_add': (lambda a, b: F.scatter_add(a, ([0, 0, 1], [1, 1, 2]), b), (_u(2, 3),
                                                                                 _u(3))),
    'select_item': (F.select_item, (_u(3, 4), numpy.array([0, 3, 1], numpy.int32))),
    'permutate': (lambda x: F.permutate(x, numpy.array([2, 0, 1], numpy.int32), 1, True),
                  (_u(2, 3),)),
    'where': (lambda x, y: F.where(numpy.array([True, False, True]), x, y), (_u(2, 3),
                                                                            _u(3))),
    'pad': (lambda x: (F.pad(x, 1, 'constant', constant_values=2.0), F.pad(x, 2, 'reflect')),
            (_u(2, 3),)),
    'pad_sequence': (lambda a, b: F.pad_sequence((a, b), 4, -1.0), (_u(3, 2), _u(1, 2))),
    'transpose_sequence': (lambda a, b: F.transpose_sequence((a, b)), (_u(3, 2), _u(2, 2))),
    'depth2space': (lambda x: F.space2depth(F.depth2space(x, 2), 2), (_u(1, 8, 2, 3),)),
    'im2col': (lambda x: F.im2col(x, 3, 2, 1, True, 1), (_u(1, 2, 5, 4),)),
    'resize_images': (lambda x: (F.resize_images(x, (5, 3)),
                                 F.resize_images(x, (4, 5), mode='nearest'),
                                 F.resize_images(x, (2, 3), align_corners=False)),
                      (_u(2, 1, 3, 4),)),
    'spatial_transformer_grid': (lambda t: F.spatial_transformer_grid(t, (3, 4)),
                                 (_u(2, 2, 3),)),
    'spatial_transformer_sampler': (F.spatial_transformer_sampler,
                                    (_u(1, 2, 3, 4), _u(1, 2, 2, 3, seed=1) * 0.9)),
}


@pytest.mark.parametrize('name', sorted(CASES))
def test_gpu(name):
    fn, xs = CASES[name]
    _compare(fn, xs)


def test_gpu_copy_between_devices():
    cupy = pytest.importorskip('cupy')
    x = chainer.Variable(_u(2, 3))
    y = F.copy(x, 0)
    assert isinstance(y.array, cupy.ndarray)
    z = F.copy(y, -1)
    assert isinstance(z.array, numpy.ndarray)
    F.sum(z * z).backward()
    numpy.testing.assert_allclose(x.grad, 2 * x.array)
    g = chainer.Variable(cupy.asarray(_u(2)))
    h = F.copy(g, '@cupy:0')
    assert h.array.data.ptr != g.array.data.ptr


def test_gpu_get_item_float16_scatter():
    cupy = pytest.importorskip('cupy')
    x = chainer.Variable(cupy.asarray(_u(3, 2, dtype=numpy.float16)))
    y = x[[0, 0, 2]]
    F.sum(y).backward()
    numpy.testing.assert_array_equal(cupy.asnumpy(x.grad), [[2, 2], [0, 0], [1, 1]])


def test_gpu_im2col_helper_is_a_view():
    cupy = pytest.importorskip('cupy')
    from chainer.utils import conv

    img = cupy.asarray(_u(2, 3, 5, 5))
    col = conv.im2col_gpu(img, 3, 3, 1, 1, 0, 0)
    assert col.shape == (2, 3, 3, 3, 3, 3)
    assert col.data.ptr == img.data.ptr
    ref = conv.im2col_cpu(cupy.asnumpy(img), 3, 3, 1, 1, 0, 0)
    numpy.testing.assert_array_equal(cupy.asnumpy(col), ref)
    back = conv.col2im_gpu(col, 1, 1, 0, 0, 5, 5)
    numpy.testing.assert_allclose(cupy.asnumpy(back),
                                  conv.col2im_cpu(ref, 1, 1, 0, 0, 5, 5))
