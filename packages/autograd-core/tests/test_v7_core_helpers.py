"""Behaviour of the v7 helpers autograd-core provides at v7's module paths."""

import math
import unittest
import warnings

import numpy
import pytest

import chainer
from chainer import gradient_check, memory_layouts, testing
from chainer._backprop_utils import GradTable
from chainer.distributions import gumbel, laplace, log_normal, multivariate_normal, normal
from chainer.graph_optimizations import static_graph, static_graph_utilities
from chainer.utils import conv_nd_kernel
from chainer.variable import variable_repr, variable_str


# -- GradTable --------------------------------------------------------------------
def test_grad_table_sums_what_it_gathers():
    x = chainer.Variable(numpy.zeros(3, numpy.float32))
    table = GradTable()
    assert table.pop(x.node) is None
    table.accumulate(x.node, chainer.Variable(numpy.ones(3, numpy.float32)))
    table.get_as_list(x.node).append(chainer.Variable(numpy.full(3, 2, numpy.float32)))
    table.accumulate(x.node, None)
    with pytest.raises(AssertionError):
        table.assert_no_grad()
    numpy.testing.assert_array_equal(table.pop(x.node).array, [3, 3, 3])
    table.assert_no_grad()
    table[x.node] = chainer.Variable(numpy.ones(3, numpy.float32))
    numpy.testing.assert_array_equal(table.pop(x.node).array, [1, 1, 1])
    with pytest.raises(ValueError):
        table[None] = None


def test_grad_table_loads_the_current_gradient_of_a_leaf():
    x = chainer.Variable(numpy.zeros(2, numpy.float32))
    x.grad = numpy.array([1, 2], numpy.float32)
    y = x * 2  # not a leaf: its gradient is never loaded
    y.grad = numpy.array([5, 5], numpy.float32)
    table = GradTable(accumulate_grad_inputs=True)
    table.accumulate(x.node, chainer.Variable(numpy.array([10, 10], numpy.float32)))
    numpy.testing.assert_array_equal(table.pop(x.node).array, [11, 12])
    assert table.get_as_list(y.node) == []
    assert GradTable().get_as_list(x.node) == []


def test_backprop_module_backward_is_chainer_backward():
    from chainer import _backprop
    x = chainer.Variable(numpy.array([1., 2.], numpy.float32))
    y = chainer.functions.sum(x * x)
    y.grad = numpy.ones((), numpy.float32)
    _backprop.backward([y])
    numpy.testing.assert_allclose(x.grad, [2., 4.])


# -- variable printing --------------------------------------------------------------
def test_variable_repr_and_str():
    v = chainer.Variable(numpy.array([1., 2.], numpy.float32), name='w')
    assert variable_repr(v) == repr(v) == 'variable w([1., 2.])'
    assert variable_str(v) == str(v) == 'variable w([1. 2.])'
    assert variable_repr(chainer.Variable()) == 'variable(None)'


# -- distributions' constants against their formulas -----------------------------------
def test_distribution_constants():
    assert math.isclose(normal.ENTROPYC, 0.5 + 0.5 * math.log(2 * math.pi))
    assert math.isclose(normal.LOGPROBC, -0.5 * math.log(2 * math.pi))
    assert math.isclose(normal.PROBC, 1 / math.sqrt(2 * math.pi))
    assert math.isclose(math.exp(normal.LOGPROBC), normal.PROBC)
    assert math.isclose(log_normal.LOGPROBC, normal.LOGPROBC)
    assert math.isclose(multivariate_normal.ENTROPYC, normal.ENTROPYC)
    assert math.isclose(multivariate_normal.LOGPROBC, normal.LOGPROBC)
    assert math.isclose(gumbel.EULER, 0.5772156649015329)


def test_distribution_constants_match_the_distributions():
    loc, scale = numpy.float64(0.3), numpy.float64(1.7)
    d = chainer.distributions.Normal(numpy.array(loc), numpy.array(scale))
    assert math.isclose(float(d.entropy.array), math.log(scale) + normal.ENTROPYC)
    x = 1.1
    z = (x - loc) / scale
    assert float(d.log_prob(numpy.array(x)).array) == pytest.approx(
        normal.LOGPROBC - math.log(scale) - z * z / 2)
    g = chainer.distributions.Gumbel(numpy.array(loc), numpy.array(scale))
    assert math.isclose(float(g.mean.array), loc + gumbel.EULER * scale)
    mv = chainer.distributions.MultivariateNormal(numpy.zeros(3), scale_tril=numpy.eye(3) * 2)
    assert float(mv.entropy.array) == pytest.approx(3 * multivariate_normal.ENTROPYC
                                                    + 3 * math.log(2))


# -- distributions' function nodes ----------------------------------------------------
def _laplace_cdf_reference(x):
    return numpy.where(x < 0, 0.5 * numpy.exp(x), 1 - 0.5 * numpy.exp(-x))


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_laplace_cdf_and_icdf_nodes(dtype):
    rng = numpy.random.RandomState(0)
    x = rng.normal(size=(2, 3)).astype(dtype)
    y, = laplace.LaplaceCDF().apply((x,))
    assert y.dtype == dtype
    numpy.testing.assert_allclose(y.array, _laplace_cdf_reference(x), rtol=1e-5)
    p = rng.uniform(0.05, 0.95, (2, 3)).astype(dtype)
    q, = laplace.LaplaceICDF().apply((p,))
    numpy.testing.assert_allclose(_laplace_cdf_reference(q.array), p, rtol=1e-5)
    gy = rng.normal(size=(2, 3)).astype(dtype)
    options = {'atol': 1e-3, 'rtol': 1e-3, 'dtype': numpy.float64}
    gradient_check.check_backward(lambda a: laplace.LaplaceCDF().apply((a,)), x, gy,
                                  **options)
    gradient_check.check_backward(lambda a: laplace.LaplaceICDF().apply((a,)), p, gy,
                                  **options)


@pytest.mark.parametrize('lower', [True, False])
def test_triangular_inv_node(lower):
    rng = numpy.random.RandomState(1)
    m = numpy.tril(rng.normal(size=(3, 3))) + 3 * numpy.eye(3)
    if not lower:
        m = m.T.copy()
    noisy = m + (numpy.triu(rng.normal(size=(3, 3)), 1) if lower
                 else numpy.tril(rng.normal(size=(3, 3)), -1))

    def f(a):
        return multivariate_normal.TriangularInv(lower).apply((a,))

    # only the triangle is read
    numpy.testing.assert_allclose(f(noisy)[0].array, numpy.linalg.inv(m), rtol=1e-10)
    gy, ggx = rng.normal(size=(2, 3, 3))
    gradient_check.check_backward(f, m, gy)
    gradient_check.check_double_backward(f, m, gy, ggx)
    x = chainer.Variable(noisy)
    f(x)[0].grad = gy
    chainer.functions.sum(f(x)[0] * gy).backward()
    off = numpy.triu(numpy.ones((3, 3)), 1) if lower else numpy.tril(numpy.ones((3, 3)), -1)
    assert (x.grad[off == 1] == 0).all()
    with pytest.raises(ValueError):
        f(numpy.ones((2, 3)))


# -- memory layouts ---------------------------------------------------------------------
def test_memory_layout_shapes_and_as_layout():
    x = numpy.arange(120.).reshape(2, 3, 4, 5)
    y, = memory_layouts.AsLayout(memory_layouts.CUDNN_CHANNEL_LAST_X).apply((x,))
    numpy.testing.assert_array_equal(y.array, x.transpose(0, 2, 3, 1))
    assert memory_layouts.get_raw_shape(y) == (2, 4, 5, 3)
    assert memory_layouts.get_semantic_shape(
        y.array, memory_layouts.CUDNN_CHANNEL_LAST_X) == (2, 3, 4, 5)
    assert memory_layouts.get_semantic_shape(chainer.Variable(x)) == (2, 3, 4, 5)
    same, = memory_layouts.AsLayout(None).apply((x,))
    numpy.testing.assert_array_equal(same.array, x)
    gy = numpy.random.RandomState(2).normal(size=(2, 4, 5, 3))
    gradient_check.check_backward(
        lambda a: memory_layouts.AsLayout(memory_layouts.CUDNN_CHANNEL_LAST_W).apply((a,)),
        x, gy)
    with pytest.raises(ValueError):
        memory_layouts.AsLayout('NHWC')


# -- conv_nd_kernel's source helpers ------------------------------------------------------
def test_conv_nd_kernel_expression_helpers():
    lengths, index = (3, 4, 5), (2, 1, 3)
    exp = conv_nd_kernel.muladdexp([str(n) for n in lengths], [str(i) for i in index])
    assert eval(exp) == numpy.ravel_multi_index(index, lengths)
    # with the plane index as init: plane * 3 + 2 ...
    exp = conv_nd_kernel.muladdexp([str(n) for n in lengths], [str(i) for i in index], '7')
    assert eval(exp) == numpy.ravel_multi_index((7,) + index, (8,) + lengths)
    assert conv_nd_kernel.mulexp(['a', 'b'], 'c') == 'c * a * b'
    assert eval(conv_nd_kernel.mulexp(['2', '3', '4'])) == 24
    assert conv_nd_kernel.andexp(['a', 'b']) == 'a && b'
    assert conv_nd_kernel.succ_sublists([1, 2, 3]) == [[2, 3], [3], []]
    strides = [int(numpy.prod(t)) for t in conv_nd_kernel.succ_sublists(lengths)]
    assert strides == [s // 8 for s in numpy.zeros(lengths).strides]
    assert conv_nd_kernel.vars('k', 3) == ['k_0', 'k_1', 'k_2']
    assert conv_nd_kernel.map_(lambda a, b: a + b, [1, 2], [3, 4]) == [4, 6]
    with pytest.raises(ValueError):
        conv_nd_kernel.muladdexp(['1'], ['1', '2'])
    with pytest.raises(ValueError):
        conv_nd_kernel.mulexp([])


def test_conv_nd_kernel_writer_indents():
    w = conv_nd_kernel.Writer()
    w.write('for (;;) {', 'inc')
    w.write('if (a) {', 'inc')
    w.write('x;')
    w.write('} else {', 'decinc')
    w.write('y;')
    w.write('}', 'dec')
    w.write('}', 'dec')
    assert w.get() == 'for (;;) {\n  if (a) {\n    x;\n  } else {\n    y;\n  }\n}'
    with pytest.raises(ValueError):
        w.write('}', 'dec')
    with pytest.raises(ValueError):
        w.write('x', 'up')


# -- static graph names -------------------------------------------------------------------
def test_static_graph_names():
    info = static_graph.ArrayInfo(numpy.zeros((2, 3), numpy.float32))
    assert (info.shape, info.dtype, info.ndim) == ((2, 3), numpy.float32, 2)
    assert info.matches(chainer.Variable(numpy.ones((2, 3), numpy.float32)))
    assert not info.matches(numpy.ones((2, 3), numpy.float64))
    assert static_graph.ScheduleInfo is static_graph.StaticSchedule
    assert static_graph_utilities.static_forward_optimizations(
        chainer.functions.math.exponential.Exp(), ()) is None
    with pytest.raises(TypeError):
        static_graph_utilities.static_forward_optimizations(object(), ())


# -- function hooks -------------------------------------------------------------------------
def test_cupy_memory_cumulative_hook_counts():
    from chainer.function_hooks.cupy_memory_profile import CupyMemoryCumulativeHook
    hook = CupyMemoryCumulativeHook()
    hook.malloc_preprocess(device_id=0, size=100, mem_size=512)
    hook.malloc_preprocess(device_id=0, size=10, mem_size=512)
    hook.alloc_preprocess(device_id=0, mem_size=1024)
    hook.free_preprocess(device_id=0, mem_size=512)
    assert (hook.used_bytes, hook.acquired_bytes) == (1024, 1024)
    if not chainer.backends.cuda.available:
        with pytest.raises(RuntimeError):
            hook.__enter__()


# -- environment check and nondeterministic --------------------------------------------------
def test_environment_check_warns_on_old_numpy(monkeypatch):
    from chainer import _environment_check
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        _environment_check.check()  # this environment is supported
    monkeypatch.setattr(numpy, '__version__', '1.21.0')
    with pytest.warns(UserWarning, match='NumPy 1.21.0 is not supported'):
        _environment_check.check()


def test_nondeterministic_warns_only_when_asked():
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        chainer.utils.nondeterministic('f')
    with chainer.using_config('warn_nondeterministic', True), \
            pytest.warns(UserWarning, match='Source: f'):
        chainer.utils.nondeterministic('f')


# -- testing helpers -------------------------------------------------------------------------
def test_quiet_test_runner_returns_the_result(capsys):
    class T(unittest.TestCase):
        def test_ok(self):
            pass

        def test_bad(self):
            self.fail('no')

    suite = unittest.defaultTestLoader.loadTestsFromTestCase(T)
    result = testing.condition.QuietTestRunner().run(suite)
    assert (result.testsRun, len(result.failures)) == (2, 1)
    assert capsys.readouterr().out == ''


def test_do_setup_and_do_teardown_seed_and_restore():
    numpy.random.seed(123)
    before = numpy.random.get_state()[1].copy()
    testing.random.do_setup()
    first = numpy.random.rand(3)
    testing.random.do_teardown()
    numpy.testing.assert_array_equal(numpy.random.get_state()[1], before)
    testing.random.do_setup()
    numpy.testing.assert_array_equal(numpy.random.rand(3), first)
    testing.random.do_teardown()
    with pytest.raises(RuntimeError):
        testing.random.do_teardown()


def test_function_test_base_runs_the_checks_by_hand():
    base = testing.function_link.FunctionTestBase
    assert base.test_forward is None and base.test_backward is None

    class Square(base):
        def generate_inputs(self):
            return numpy.random.uniform(-1, 1, (3,)).astype(numpy.float64),

        def forward(self, inputs, device):
            x, = inputs
            return x * x,

        def forward_expected(self, inputs):
            x, = inputs
            return x * x,

        def test_checks(self):
            config = testing.BackendConfig({})
            self.run_test_forward(config)
            self.run_test_backward(config)
            self.run_test_double_backward(config)

    names = unittest.defaultTestLoader.getTestCaseNames(Square)
    assert list(names) == ['test_checks']
    result = unittest.TestResult()
    Square('test_checks').run(result)
    assert result.wasSuccessful() and result.testsRun == 1

    class Wrong(Square):
        def forward_expected(self, inputs):
            x, = inputs
            return x * x + 1,

    result = unittest.TestResult()
    Wrong('test_checks').run(result)
    assert len(result.failures) == 1


def test_make_decorator_generates_classes():
    from chainer.testing._bundle import make_decorator

    def cases(base):
        for i, value in enumerate((2, 3)):
            yield (f'{base.__name__}_v{i}', {'value': value},
                   lambda method: (lambda self: method(self) * 10))

    ns = {}

    class Template(unittest.TestCase):
        def test_value(self):
            return self.value

    Template.__module__ = __name__
    bundle = make_decorator(cases)(Template)
    generated = [c for c, _, _ in bundle.cases]
    ns.update({c.__name__: c for c in generated})
    assert sorted(ns) == ['Template_v0', 'Template_v1']
    assert ns['Template_v1']('test_value').test_value() == 30
    globals().pop('Template_v0', None)
    globals().pop('Template_v1', None)


def test_skip_not_in_test_target():
    from chainer.testing._distribution_test import skip_not_in_test_target

    class T(unittest.TestCase):
        test_targets = {'mean'}

        @skip_not_in_test_target('mean')
        def test_mean(self):
            pass

        @skip_not_in_test_target('cdf')
        def test_cdf(self):
            pass

    result = unittest.TestResult()
    unittest.defaultTestLoader.loadTestsFromTestCase(T).run(result)
    assert [t.id().rsplit('.', 1)[1] for t, _ in result.skipped] == ['test_cdf']
    assert result.wasSuccessful()


def test_doctest_helper(monkeypatch):
    from chainer.testing import doctest_helper
    monkeypatch.delenv('READTHEDOCS', raising=False)
    assert doctest_helper.skipif(True) and not doctest_helper.skipif(False)
    assert not doctest_helper.skipif_requires_satisfied('numpy')
    assert doctest_helper.skipif_requires_satisfied('numpy<1')
    assert doctest_helper.skipif_requires_satisfied('no-such-package-at-all')
    assert not doctest_helper.skipif_not_enough_cuda_devices(0)
    assert doctest_helper.skipif_not_enough_cuda_devices(10 ** 6)
    monkeypatch.setenv('READTHEDOCS', 'True')
    assert not doctest_helper.skipif(True)


def test_testing_training_availability():
    from chainer.testing import training
    try:
        import chainer.training  # noqa: F401
        installed = True
    except ImportError:
        installed = False
    assert training.is_available() is installed
    assert (training.get_error() is None) is installed
    if installed:
        training.check_available()
    else:
        with pytest.raises(RuntimeError):
            training.check_available()
