"""FunctionTestCase / LinkTestCase on existing functions and links, and on broken ones."""

import unittest

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import FunctionNode, testing

BACKENDS = [{}, {'use_cuda': True}]
DTYPES = [{'dtype': numpy.float16}, {'dtype': numpy.float32}, {'dtype': numpy.float64}]


def _tolerances(case):
    if case.dtype == numpy.float16:
        case.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
        case.check_backward_options = {'atol': 5e-3, 'rtol': 5e-3, 'dtype': numpy.float64}
        case.check_double_backward_options = {'atol': 5e-3, 'rtol': 5e-3,
                                              'dtype': numpy.float64}
    else:
        case.check_backward_options = {'atol': 1e-4, 'rtol': 1e-4, 'dtype': numpy.float64}
        case.check_double_backward_options = {'atol': 1e-4, 'rtol': 1e-4,
                                              'dtype': numpy.float64}


@testing.parameterize(*testing.product_dict(DTYPES, [{'contiguous': None},
                                                     {'contiguous': 'C'}]))
@testing.inject_backend_tests(None, BACKENDS)
class TestReLU(testing.FunctionTestCase):
    dodge_nondifferentiable = True

    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, (3, 4)).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.relu(x),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (numpy.maximum(x, 0).astype(self.dtype),)


@testing.parameterize(*DTYPES)
@testing.inject_backend_tests(None, BACKENDS)
class TestSigmoid(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        return (numpy.random.uniform(-2, 2, (2, 3)).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.sigmoid(inputs[0]),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return ((1 / (1 + numpy.exp(-x.astype(numpy.float64)))).astype(self.dtype),)


@testing.parameterize(*testing.product({'nobias': [True, False]}))
@testing.inject_backend_tests(['test_forward', 'test_backward', 'test_double_backward'],
                              BACKENDS)
class TestLinear(testing.FunctionTestCase):
    dtype = numpy.float32

    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, (4, 3)).astype(self.dtype)
        W = numpy.random.uniform(-1, 1, (2, 3)).astype(self.dtype)
        if self.nobias:
            return x, W
        return x, W, numpy.random.uniform(-1, 1, (2,)).astype(self.dtype)

    def forward(self, inputs, device):
        return (F.linear(*inputs),)

    def forward_expected(self, inputs):
        x, W, *b = inputs
        y = x.dot(W.T)
        if b:
            y = y + b[0]
        return (y.astype(self.dtype),)


@testing.parameterize({'axis': None}, {'axis': 1}, {'axis': (0, 2)})
@testing.inject_backend_tests(None, BACKENDS)
class TestSum(testing.FunctionTestCase):
    skip_double_backward_test = True  # linear: nothing more to learn

    def setUp(self):
        self.dtype = numpy.float64

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, (2, 3, 4)),)

    def forward(self, inputs, device):
        return (F.sum(inputs[0], axis=self.axis),)

    def forward_expected(self, inputs):
        return (numpy.asarray(inputs[0].sum(axis=self.axis)),)


def test_generated_classes_and_gpu_marks():
    # parameterize over inject_backend_tests: 6 parameter sets x 2 backends.
    generated = [c for c, _, _ in TestReLU.cases]
    assert len(generated) == 12
    cpu, gpu = generated[0], generated[6]  # each backend's classes, then the next
    assert 'use_cuda_false' in cpu.__name__ and 'use_cuda_true' in gpu.__name__
    assert cpu.__name__.endswith('_param_0_{contiguous=None, dtype=float16}')
    marks = [m.name for m in getattr(gpu.test_forward, 'pytestmark', [])]
    assert marks == ['gpu']
    assert not getattr(cpu.test_forward, 'pytestmark', [])


# -- broken functions: the generated tests must fail ---------------------------------
class _Cube(FunctionNode):
    """y = x ** 3; ``wrong`` gives it a wrong backward (2x^2 instead of 3x^2)."""

    def __init__(self, wrong_backward=False, wrong_double=False):
        self.wrong_backward = wrong_backward
        self.wrong_double = wrong_double

    def forward(self, inputs):
        self.retain_inputs((0,))
        return (inputs[0] ** 3,)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        (gy,) = grad_outputs
        if self.wrong_double:
            return (chainer.Variable(3 * x.array ** 2 * gy.array),)
        return ((2 if self.wrong_backward else 3) * x * x * gy,)


def _cube_case(**kw):
    @testing.inject_backend_tests(None, [{}])
    class Case(testing.FunctionTestCase):
        def generate_inputs(self):
            return (numpy.random.uniform(-1, 1, (3, 2)),)

        def forward(self, inputs, device):
            return (_Cube(**kw).apply(inputs)[0],)

        def forward_expected(self, inputs):
            return (inputs[0] ** 3,)
    return Case


def _run(cls, name, index=0):
    """Run test ``name`` of the class generated for ``cls``'s ``index``-th backend."""
    result = unittest.TestResult()
    cls.cases[index][0](name).run(result)
    return result


def test_wrong_backward_makes_the_generated_test_fail():
    Case = _cube_case(wrong_backward=True)
    assert _run(Case, 'test_forward').wasSuccessful()
    result = _run(Case, 'test_backward')
    assert len(result.failures) == 1
    text = result.failures[0][1]
    assert 'FunctionTestError' in text and 'backward on' in text
    assert 'check_backward failed' in text


def test_wrong_double_backward_makes_the_generated_test_fail():
    Case = _cube_case(wrong_double=True)
    assert _run(Case, 'test_backward').wasSuccessful()
    result = _run(Case, 'test_double_backward')
    assert len(result.failures) == 1 and 'double backward' in result.failures[0][1]


def test_correct_cube_passes_everything():
    Case = _cube_case()
    for name in ('test_forward', 'test_backward', 'test_double_backward'):
        assert _run(Case, name).wasSuccessful(), name


def test_wrong_forward_is_reported():
    @testing.inject_backend_tests(['test_forward'], [{}])
    class Case(testing.FunctionTestCase):
        def generate_inputs(self):
            return (numpy.ones((2, 2), numpy.float32),)

        def forward(self, inputs, device):
            return (inputs[0] * 2,)

        def forward_expected(self, inputs):
            return (inputs[0] * 3,)

    result = _run(Case, 'test_forward')
    assert len(result.failures) == 1 and 'differs from the expected' in result.failures[0][1]


def test_forward_expected_dtype_is_checked():
    @testing.inject_backend_tests(['test_forward'], [{}])
    class Case(testing.FunctionTestCase):
        def generate_inputs(self):
            return (numpy.ones((2,), numpy.float32),)

        def forward(self, inputs, device):
            return (inputs[0] * 1,)

        def forward_expected(self, inputs):
            return (inputs[0].astype(numpy.float64),)

    result = _run(Case, 'test_forward')
    assert 'dtype' in result.failures[0][1]


def test_forward_modifying_its_input_is_reported():
    @testing.inject_backend_tests(['test_forward'], [{}])
    class Case(testing.FunctionTestCase):
        def generate_inputs(self):
            return (numpy.ones((2,), numpy.float32),)

        def forward(self, inputs, device):
            inputs[0].array[...] = 5
            return (inputs[0] * 1,)

        def forward_expected(self, inputs):
            return (inputs[0],)

    result = _run(Case, 'test_forward')
    assert 'modified input 0' in result.failures[0][1]


def test_bad_generate_inputs_is_reported():
    @testing.inject_backend_tests(['test_forward'], [{}])
    class Case(testing.FunctionTestCase):
        def generate_inputs(self):
            return ([1.0, 2.0],)

    result = _run(Case, 'test_forward')
    assert 'numpy.ndarray' in result.failures[0][1]


def test_skip_flags_and_before_test():
    @testing.inject_backend_tests(None, [{}])
    class Case(testing.FunctionTestCase):
        skip_backward_test = True

        def before_test(self, test_name):
            if test_name == 'test_double_backward':
                raise unittest.SkipTest('no double backward here')

        def generate_inputs(self):
            return (numpy.ones((2,)),)

        def forward(self, inputs, device):
            return (inputs[0] * 2,)

        def forward_expected(self, inputs):
            return (inputs[0] * 2,)

    assert _run(Case, 'test_forward').wasSuccessful()
    backward = _run(Case, 'test_backward')
    assert backward.skipped and 'skip_backward_test' in backward.skipped[0][1]
    double = _run(Case, 'test_double_backward')
    assert double.skipped[0][1] == 'no double backward here'


def test_test_name_is_set_before_generate_inputs():
    seen = []

    @testing.inject_backend_tests(None, [{}])
    class Case(testing.FunctionTestCase):
        def generate_inputs(self):
            seen.append(self.test_name)     # v7 suites read it here
            return (numpy.ones((2,)),)

        def forward(self, inputs, device):
            return (inputs[0] * 2,)

        def forward_expected(self, inputs):
            return (inputs[0] * 2,)

    for name in ('test_forward', 'test_backward', 'test_double_backward'):
        assert _run(Case, name).wasSuccessful()
        assert seen and set(seen) == {name}
        seen.clear()


def test_nondifferentiable_inputs_without_dodging_fail():
    @testing.inject_backend_tests(['test_backward'], [{}])
    class Case(testing.FunctionTestCase):
        def generate_inputs(self):
            return (numpy.array([0.0, 0.5, -0.5]),)

        def forward(self, inputs, device):
            return (F.relu(inputs[0]),)

        def forward_expected(self, inputs):
            return (numpy.maximum(inputs[0], 0),)

        def generate_grad_outputs(self, outputs_template):
            return (numpy.ones_like(outputs_template[0]),)

    result = _run(Case, 'test_backward')
    assert len(result.failures) == 1

    Case.cases[0][0].dodge_nondifferentiable = True
    result = _run(Case, 'test_backward')
    # The inputs never change: dodging gives up with a clear message.
    assert 'no differentiable point' in result.failures[0][1]


@pytest.mark.parametrize('contiguous', [None, 'C'])
def test_contiguous_option(contiguous):
    seen = []

    @testing.inject_backend_tests(['test_forward', 'test_backward'], [{}])
    class Case(testing.FunctionTestCase):
        def generate_inputs(self):
            return (numpy.ones((3, 2)), numpy.ones(()))

        def forward(self, inputs, device):
            seen.append([x.array.flags.c_contiguous for x in inputs])
            return (inputs[0] * inputs[1],)

        def forward_expected(self, inputs):
            return (inputs[0] * inputs[1],)

        def generate_grad_outputs(self, outputs_template):
            seen.append([g.flags.c_contiguous for g in outputs_template])
            return (numpy.ones((3, 2)),)

    Case.cases[0][0].contiguous = contiguous
    assert _run(Case, 'test_forward').wasSuccessful()
    # A 0-dim array is always contiguous; the (3, 2) one follows the option.
    assert seen[0] == [contiguous == 'C', True]
    assert _run(Case, 'test_backward').wasSuccessful()


def test_unsupported_backends_are_skipped_with_reason():
    @testing.inject_backend_tests(['test_forward'], [
        {'use_ideep': 'always'}, {'use_chainerx': True, 'chainerx_device': 'cuda:9'}])
    class Case(testing.FunctionTestCase):
        pass

    ideep = _run(Case, 'test_forward', 0)
    assert 'iDeep is not provided' in ideep.skipped[0][1]
    chx = _run(Case, 'test_forward', 1)  # no such GPU here, or no chainerx at all
    assert 'ChainerX' in chx.skipped[0][1] and 'not available' in chx.skipped[0][1]


@pytest.mark.parametrize('override', [None, numpy.float32])
def test_numerical_gradients_in_float64_by_default(monkeypatch, override):
    seen = []
    real_backward = chainer.gradient_check.check_backward
    real_double = chainer.gradient_check.check_double_backward

    def spy_backward(*args, **kwargs):
        seen.append(('backward', kwargs.get('dtype')))
        return real_backward(*args, **kwargs)

    def spy_double(*args, **kwargs):
        seen.append(('double', kwargs.get('dtype')))
        return real_double(*args, **kwargs)

    monkeypatch.setattr(chainer.gradient_check, 'check_backward', spy_backward)
    monkeypatch.setattr(chainer.gradient_check, 'check_double_backward', spy_double)
    Case = _cube_case()
    if override is not None:
        Case.cases[0][0].numerical_grad_dtype = override
    assert _run(Case, 'test_backward').wasSuccessful()
    assert _run(Case, 'test_double_backward').wasSuccessful()
    want = numpy.float64 if override is None else override
    assert ('backward', want) in seen and ('double', want) in seen


class _ProductGrad(FunctionNode):
    """Gradients of (x1 * x2, x1 + x2) given (x1, x2, gy1, gy2); a None gy counts as 0."""

    def forward(self, inputs):
        x1, x2, gy1, gy2 = inputs
        self.retain_inputs((0, 1, 2, 3))
        gy1 = 0 if gy1 is None else gy1
        gy2 = 0 if gy2 is None else gy2
        return (numpy.asarray(gy1 * x2 + gy2, x1.dtype), numpy.asarray(gy1 * x1 + gy2, x1.dtype))

    def backward(self, indexes, grad_outputs):
        x1, x2, gy1, gy2 = self.get_retained_inputs()
        ga, gb = grad_outputs
        ga = 0 if ga is None else ga
        gb = 0 if gb is None else gb
        zero = chainer.Variable(numpy.zeros_like(x1.array))
        g_gy1 = None if gy1 is None else ga * x2 + gb * x1
        g_gy2 = None if gy2 is None else ga + gb
        return (zero + (0 if gy1 is None else gb * gy1), zero + (0 if gy1 is None else ga * gy1),
                g_gy1, g_gy2)


class _ProductAndSum(FunctionNode):
    def forward(self, inputs):
        x1, x2 = inputs
        self.retain_inputs((0, 1))
        return x1 * x2, x1 + x2

    def backward(self, indexes, grad_outputs):
        x1, x2 = self.get_retained_inputs()
        # A None output gradient is passed on as an input of the next function (as v7 allows).
        return _ProductGrad().apply((x1, x2) + tuple(grad_outputs))


@testing.inject_backend_tests(None, [{}])
class TestNoneOutputGradientIsPassedOn(testing.FunctionTestCase):
    check_backward_options = {'atol': 1e-4, 'rtol': 1e-4, 'dtype': numpy.float64}
    check_double_backward_options = {'atol': 1e-4, 'rtol': 1e-4, 'dtype': numpy.float64}

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, (3, 2)).astype(numpy.float32) for _ in '12')

    def generate_grad_outputs(self, outputs_template):
        return None, numpy.random.uniform(-1, 1, (3, 2)).astype(numpy.float32)

    def forward(self, inputs, device):
        return _ProductAndSum().apply(inputs)

    def forward_expected(self, inputs):
        x1, x2 = inputs
        return x1 * x2, x1 + x2


def test_function_node_takes_none_inputs():
    x = numpy.arange(3, dtype=numpy.float32)
    f = _ProductGrad()
    ga, gb = f.apply((chainer.Variable(x, requires_grad=True), x, None, x))
    numpy.testing.assert_array_equal(ga.array, x)
    numpy.testing.assert_array_equal(gb.array, x)
    retained = f.get_retained_inputs()
    assert retained[2] is None
    assert all(isinstance(v, chainer.Variable) for i, v in enumerate(retained) if i != 2)
    with pytest.raises(TypeError, match='inputs must be Variables or arrays'):
        _ProductGrad().apply((x, x, 'gy', x))


def test_forward_always_runs_with_backprop_enabled():
    # forward may inspect the graph it builds (v7's own tests read y.creator),
    # also where the gradient checks run it for their output template
    seen = []

    @testing.inject_backend_tests(None, [{}])
    class Case(testing.FunctionTestCase):
        def generate_inputs(self):
            return (numpy.random.uniform(-1, 1, (3, 2)),)

        def forward(self, inputs, device):
            y = _Cube().apply(inputs)[0]
            seen.append(y.creator is not None)
            return (y,)

        def forward_expected(self, inputs):
            return (inputs[0] ** 3,)

    for name in ('test_forward', 'test_backward', 'test_double_backward'):
        assert _run(Case, name).wasSuccessful(), name
    assert seen and all(seen)


def test_check_forward_outputs_can_be_overridden():
    seen = []

    @testing.inject_backend_tests(None, [{}])
    class Case(testing.FunctionTestCase):
        skip_backward_test = skip_double_backward_test = True

        def generate_inputs(self):
            return (numpy.arange(6.).reshape(3, 2),)

        def forward(self, inputs, device):
            return (inputs[0] * 2,)

        def forward_expected(self, inputs):
            return (inputs[0] * 2 + 1,)  # wrong: the default check would fail

        def check_forward_outputs(self, outputs, expected_outputs):
            # the output arrays (not Variables) and the expected arrays
            seen.append((type(outputs[0]), type(expected_outputs[0])))
            numpy.testing.assert_array_equal(outputs[0] + 1, expected_outputs[0])

    assert _run(Case, 'test_forward').wasSuccessful()
    assert seen == [(numpy.ndarray, numpy.ndarray)]


@pytest.mark.parametrize('contiguous', [None, 'C'])
def test_forward_expected_gets_inputs_laid_out_as_the_tested_ones(contiguous):
    seen = {}

    @testing.inject_backend_tests(None, [{}])
    class Case(testing.FunctionTestCase):
        skip_backward_test = skip_double_backward_test = True

        def generate_inputs(self):
            return (numpy.arange(12.).reshape(3, 4),)

        def forward(self, inputs, device):
            seen['tested'] = inputs[0].array.strides
            return (F.transpose(inputs[0]),)

        def forward_expected(self, inputs):
            seen['expected'] = inputs[0].strides
            return (inputs[0].T,)

    Case.cases[0][0].contiguous = contiguous
    assert _run(Case, 'test_forward').wasSuccessful()
    assert seen['tested'] == seen['expected']
    # v7's layout: every axis of a twice larger array, stepped by 2
    assert seen['expected'] == ((32, 8) if contiguous == 'C' else (128, 16))
