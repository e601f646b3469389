"""Function modules import what they use at module level (issue 31, item 3).

The pairs whose nodes are each other's backward (sum/broadcast_to, concat/split_axis,
stack/separate, depth2space/space2depth, convolution_nd/deconvolution_nd) hold the
partner module as a module object; these tests check that no import hides in a function
body again and that each backward still builds the partner's node with the right values.
"""

from __future__ import annotations

import ast
import pathlib
from collections.abc import Callable

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions import _util
from chainer.functions.math import _util as math_util
from chainer.functions.pooling import max_pooling_nd

_ROOT = pathlib.Path(chainer.__file__).parent


def _local_chainer_imports(source: str) -> list[int]:
    """The lines of the imports of chainer modules inside function bodies of ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for inner in ast.walk(node):
            if isinstance(inner, ast.ImportFrom):
                names = [inner.module or '']
            elif isinstance(inner, ast.Import):
                names = [alias.name for alias in inner.names]
            else:
                continue
            if any(n == 'chainer' or n.startswith('chainer.') for n in names):
                found.append(inner.lineno)
    return found


@pytest.mark.parametrize('package', ['functions', 'distributions'])
def test_no_function_local_chainer_imports(package: str) -> None:
    files = sorted((_ROOT / package).rglob('*.py'))
    assert files
    found = sorted(f'{f.relative_to(_ROOT)}:{line}' for f in files
                   for line in set(_local_chainer_imports(f.read_text())))
    assert found == []


def test_scanner_sees_local_imports_only() -> None:
    # the check above must be able to fail
    source = ('from chainer import utils\n'
              'def f():\n'
              '    from chainer.functions.math import sum\n'
              '    import numpy\n'
              'class C:\n'
              '    def g(self):\n'
              '        import chainer.functions\n')
    assert sorted(set(_local_chainer_imports(source))) == [3, 7]


def test_check_axis_arg_is_one_function() -> None:
    assert math_util.check_axis_arg is _util.check_axis_arg
    assert _util.check_axis_arg(numpy.int64(1)) == 1
    assert type(_util.check_axis_arg(numpy.int64(1))) is int
    assert _util.check_axis_arg((numpy.int32(0), 2)) == (0, 2)
    with pytest.raises(ValueError, match='duplicate'):
        _util.check_axis_arg((1, 1))
    with pytest.raises(TypeError, match='None or an int'):
        _util.check_axis_arg((0,), allow_tuple=False)
    x = numpy.arange(6.0).reshape(2, 3)
    numpy.testing.assert_array_equal(F.sum(x, axis=numpy.int64(1)).array, x.sum(axis=1))
    with pytest.raises(TypeError, match='axis'):
        F.sum(x, axis=1.0)


def test_max_pooling_2d_alias_of_max_pooling_nd() -> None:
    # Chainer 7.8.1's path of max_pooling_2d
    assert max_pooling_nd.max_pooling_2d is F.max_pooling_2d
    with pytest.raises(AttributeError, match='no_such_name'):
        max_pooling_nd.no_such_name


def _grad_creator_label(y: chainer.Variable, x: chainer.Variable) -> tuple[str, numpy.ndarray]:
    """The label of the node that made ``x``'s gradient of ``sum(y * w)``, and its value."""
    w = numpy.random.default_rng(0).uniform(-1, 1, y.shape).astype(y.dtype)
    (gx,) = chainer.grad([y], [x], grad_outputs=[chainer.Variable(w)], enable_double_backprop=True)
    return gx.creator.label, gx.array


def test_sum_and_broadcast_to_are_each_others_backward() -> None:
    x = chainer.Variable(numpy.arange(6.0, dtype='f').reshape(2, 3))
    label, g = _grad_creator_label(F.sum(x, axis=1), x)
    assert label == 'BroadcastTo'
    w = numpy.random.default_rng(0).uniform(-1, 1, (2,)).astype('f')
    numpy.testing.assert_allclose(g, numpy.broadcast_to(w[:, None], (2, 3)))
    b = chainer.Variable(numpy.ones(3, 'f'))
    label, g = _grad_creator_label(F.broadcast_to(b, (2, 3)), b)
    assert label == 'SumTo'
    w = numpy.random.default_rng(0).uniform(-1, 1, (2, 3)).astype('f')
    numpy.testing.assert_allclose(g, w.sum(axis=0), rtol=1e-6)


@pytest.mark.parametrize(('forward', 'partner'), [
    (lambda xs: F.concat(xs, axis=1), 'SplitAxis'),
    (lambda xs: F.stack(xs, axis=0), 'Separate'),
])
def test_joining_backward_splits(
        forward: Callable[[list[chainer.Variable]], chainer.Variable], partner: str) -> None:
    xs = [chainer.Variable(numpy.arange(6.0, dtype='f').reshape(2, 3) + i) for i in range(2)]
    y = forward(xs)
    w = numpy.random.default_rng(1).uniform(-1, 1, y.shape).astype('f')
    gxs = chainer.grad([y], xs, grad_outputs=[chainer.Variable(w)],
                       enable_double_backprop=True)
    assert gxs[0].creator.label == partner
    expected = numpy.split(w, 2, axis=1) if partner == 'SplitAxis' else list(w)
    for g, e in zip(gxs, expected):
        numpy.testing.assert_array_equal(g.array, e)


def test_splitting_backward_joins() -> None:
    x = chainer.Variable(numpy.arange(12.0, dtype='f').reshape(2, 6))
    ys = F.split_axis(x, 3, axis=1)
    (gx,) = chainer.grad([ys[1]], [x], grad_outputs=[chainer.Variable(numpy.ones((2, 2), 'f'))],
                         enable_double_backprop=True)
    assert gx.creator.label == 'Concat'
    expected = numpy.zeros((2, 6), 'f')
    expected[:, 2:4] = 1
    numpy.testing.assert_array_equal(gx.array, expected)
    ys = F.separate(x, axis=0)
    (gx,) = chainer.grad([ys[0]], [x], grad_outputs=[chainer.Variable(numpy.ones(6, 'f'))],
                         enable_double_backprop=True)
    assert gx.creator.label == 'Stack'
    numpy.testing.assert_array_equal(gx.array, numpy.array([[1] * 6, [0] * 6], 'f'))


def test_depth2space_and_space2depth_are_each_others_backward() -> None:
    x = chainer.Variable(numpy.arange(32.0, dtype='f').reshape(1, 8, 2, 2))
    y = F.depth2space(x, 2)
    label, g = _grad_creator_label(y, x)
    assert label == 'Space2Depth'
    w = numpy.random.default_rng(0).uniform(-1, 1, y.shape).astype('f')
    numpy.testing.assert_array_equal(g, F.space2depth(w, 2).array)
    z = chainer.Variable(y.array)
    label, g = _grad_creator_label(F.space2depth(z, 2), z)
    assert label == 'Depth2Space'
    w = numpy.random.default_rng(0).uniform(-1, 1, x.shape).astype('f')
    numpy.testing.assert_array_equal(g, F.depth2space(w, 2).array)
    with pytest.raises(ValueError, match='positive'):
        F.space2depth(z, 0)


def test_convolution_nd_and_deconvolution_nd_are_each_others_backward() -> None:
    rng = numpy.random.default_rng(2)
    x = chainer.Variable(rng.uniform(-1, 1, (1, 2, 5)).astype('f'))
    W = rng.uniform(-1, 1, (3, 2, 2)).astype('f')
    y = F.convolution_nd(x, W)
    label, g = _grad_creator_label(y, x)
    assert label == 'DeconvolutionND'
    w = numpy.random.default_rng(0).uniform(-1, 1, y.shape).astype('f')
    # the input gradient of a 1-d convolution: each output's weight times its window
    expected = numpy.zeros(x.shape, 'f')
    for t in range(y.shape[2]):
        expected[0, :, t:t + 2] += numpy.einsum('o,oik->ik', w[0, :, t], W)
    numpy.testing.assert_allclose(g, expected, rtol=1e-5, atol=1e-6)
    gy = chainer.Variable(rng.uniform(-1, 1, (1, 3, 4)).astype('f'))
    Wt = rng.uniform(-1, 1, (3, 2, 2)).astype('f')
    label, _ = _grad_creator_label(F.deconvolution_nd(gy, Wt), gy)
    assert label in ('ConvolutionND', 'Convolution1D')
    with pytest.raises(ValueError):
        F.deconvolution_1d(numpy.zeros((1, 3, 4, 4), 'f'), Wt)
