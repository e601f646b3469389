"""Base classes of function and link tests: forward, backward and double backward.

Subclasses describe inputs and the expected outputs; the base class runs the
checks on every backend injected with
:func:`~chainer.testing.inject_backend_tests`.
"""

from __future__ import annotations

import copy
import unittest
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy

import chainer
from chainer import gradient_check, initializer, initializers
from chainer.testing import array as array_module
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.link import Link
    from chainer.testing.backend import BackendConfig
    from chainer.types import DeviceSpec, InitializerSpec

__all__ = [
    'FunctionTestBase',
    'FunctionTestCase',
    'FunctionTestError',
    'InitializerArgument',
    'LinkInitializersTestCase',
    'LinkTestCase',
    'LinkTestError',
]

# How many fresh inputs ``dodge_nondifferentiable`` draws before giving up.
_MAX_DODGE_ATTEMPTS = 20


class _TestError(AssertionError):
    """A failure of a generated check, with the test case named in the message."""

    @classmethod
    def check(cls, expr: bool, message: str) -> None:
        """Raise with ``message`` unless ``expr`` holds."""
        if not expr:
            raise cls(message)

    @classmethod
    def fail(cls, message: str, exc: BaseException | None = None) -> None:
        """Raise with ``message`` (and the text of ``exc``)."""
        if exc is not None:
            message = f'{message}\n\n{type(exc).__name__}: {exc}'
        raise cls(message)


class FunctionTestError(_TestError):
    """A :class:`FunctionTestCase` check failed."""


class LinkTestError(_TestError):
    """A :class:`LinkTestCase` or :class:`LinkInitializersTestCase` check failed."""


# -- array helpers -------------------------------------------------------------
def _as_tuple(x: Any) -> tuple[Any, ...]:
    # looked up at call time: gradient_check imports chainer.testing while loading
    return gradient_check._as_tuple(x)


def _noncontiguous(a: Any) -> Any:
    """A non-contiguous view equal to ``a`` (``a`` itself when that cannot exist)."""
    return array_module._as_noncontiguous_array(a)


def _to_backend(arrays: Sequence[Any], config: BackendConfig, contiguous: str | None
                ) -> tuple[Any, ...]:
    if contiguous not in (None, 'C'):
        raise ValueError(f"contiguous must be None or 'C', not {contiguous!r}")
    out: list[Any] = []
    for a in arrays:
        if a is None:
            out.append(None)
            continue
        a = config.get_array(a)
        if contiguous == 'C':
            # (ascontiguousarray makes 0-dim arrays 1-dim); ChainerX arrays have no flags
            flags = getattr(a, 'flags', None)
            if not (a.is_contiguous if flags is None else flags.c_contiguous):
                a = config.xp.ascontiguousarray(a)
        else:
            a = _noncontiguous(a)
        out.append(a)
    return tuple(out)


def _check_numpy_arrays(arrays: Any, method: str, error: type[_TestError],
                        allow_none: bool = False) -> tuple[Any, ...]:
    if not isinstance(arrays, (tuple, list)):
        error.fail(f'{method} must return a tuple of numpy.ndarray, not '
                   f'{type(arrays).__name__}')
    for i, a in enumerate(arrays):
        if a is None and allow_none:
            continue
        if not isinstance(a, numpy.ndarray):
            error.fail(f'{method} must return a tuple of numpy.ndarray; element {i} is '
                       f'{type(a).__name__}')
    return tuple(arrays)


def _check_output_variables(outputs: Any, method: str, config: BackendConfig,
                            error: type[_TestError]) -> tuple[Variable, ...]:
    if not isinstance(outputs, (tuple, list)):
        error.fail(f'{method} must return a tuple of Variables, not {type(outputs).__name__}')
    xp = config.xp
    for i, y in enumerate(outputs):
        if not isinstance(y, Variable):
            error.fail(f'{method} must return a tuple of Variables; output {i} is '
                       f'{type(y).__name__}')
        if not isinstance(y.array, xp.ndarray):
            error.fail(f'{method}: output {i} is a {type(y.array).__module__}.'
                       f'{type(y.array).__name__}; the inputs were on {config.device}')
    return tuple(outputs)


def _random_like(templates: Sequence[Any]) -> tuple[Any, ...]:
    out: list[numpy.ndarray | None] = []
    for t in templates:
        if t is None or t.dtype.kind != 'f':
            out.append(None)
        else:
            out.append(numpy.random.uniform(-1, 1, t.shape).astype(t.dtype))
    return tuple(out)


def _compare_outputs(outputs: Sequence[Any], expected: Sequence[Any], options: dict[str, Any],
                     error: type[_TestError], what: str) -> None:
    error.check(len(outputs) == len(expected),
                f'{what}: {len(outputs)} outputs, but forward_expected returned '
                f'{len(expected)}')
    for i, (y, e) in enumerate(zip(outputs, expected)):
        error.check(y.shape == e.shape,
                    f'{what}: output {i} has shape {y.shape}; expected {e.shape}')
        error.check(y.dtype == e.dtype,
                    f'{what}: output {i} has dtype {y.dtype}; expected {e.dtype}')
        try:
            array_module.assert_allclose(y, e, **options)
        except AssertionError as exc:
            error.fail(f'{what}: output {i} differs from the expected values', exc)


class _CaseBase(unittest.TestCase):
    """Shared machinery of the function and link test cases."""

    # The base classes hold test methods that need a backend configuration:
    # they are never collected themselves, but every subclass is.
    __test__ = False
    __unittest_skip__ = True
    __unittest_skip_why__ = 'base class of function/link test cases'

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        base = cls.__module__ == __name__
        if '__test__' not in cls.__dict__:
            cls.__test__ = not base
        if '__unittest_skip__' not in cls.__dict__:
            cls.__unittest_skip__ = base

    _error: type[_TestError] = _TestError
    backend_config: BackendConfig | None = None
    skip_forward_test = False
    skip_backward_test = False
    skip_double_backward_test = False
    dodge_nondifferentiable = False
    numerical_grad_dtype: Any = numpy.float64
    contiguous: str | None = None
    check_forward_options: dict[str, Any] = {}
    check_backward_options: dict[str, Any] = {}
    check_double_backward_options: dict[str, Any] = {}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Per-instance copies, so that setUp may update them freely.
        self.check_forward_options = dict(type(self).check_forward_options)
        self.check_backward_options = dict(type(self).check_backward_options)
        self.check_double_backward_options = dict(type(self).check_double_backward_options)

    def before_test(self, test_name: str) -> None:
        """Called before each test (``'test_forward'``, ...): raise SkipTest to skip it."""

    def check_forward_outputs(self, outputs: tuple[Any, ...],
                              expected_outputs: tuple[numpy.ndarray, ...]) -> None:
        """Compare the output arrays of the forward pass with the expected ones.

        The default checks shapes, dtypes and values (``check_forward_options``);
        override it to check more or otherwise.
        """
        _compare_outputs(outputs, expected_outputs, self.check_forward_options, self._error,
                         f'forward on {self.backend_config!r}')

    def generate_inputs(self) -> tuple[numpy.ndarray, ...]:
        """Return a tuple of input arrays (``numpy.ndarray``)."""
        raise NotImplementedError(f'{type(self).__name__} must implement generate_inputs')

    def generate_grad_outputs(self, outputs_template: tuple[Any, ...]) -> tuple[Any, ...]:
        """Return the output gradients (uniform in [-1, 1); None for non-float outputs)."""
        return _random_like(outputs_template)

    def _start(self, test_name: str, backend_config: BackendConfig, skip: bool) -> None:
        self.backend_config = backend_config
        self.test_name = test_name
        self.before_test(test_name)
        if skip:
            raise unittest.SkipTest(f'{test_name} is skipped by skip_'
                                    f'{test_name[len("test_"):]}_test')
        backend_config.skip_if_unsupported()

    def _inputs(self) -> tuple[numpy.ndarray, ...]:
        return _check_numpy_arrays(self.generate_inputs(), 'generate_inputs', self._error)

    def _dodging(self, run: Callable[[tuple[numpy.ndarray, ...], dict[str, Any]], None],
                 options: dict[str, Any], what: str) -> None:
        """Run a gradient check, drawing new inputs at non-differentiable points if asked."""
        options = {'dtype': self.numerical_grad_dtype, **options}
        if not self.dodge_nondifferentiable:
            run(self._inputs(), options)
            return
        options = {**options, 'detect_nondifferentiable': True}
        for _ in range(_MAX_DODGE_ATTEMPTS):
            try:
                run(self._inputs(), options)
                return
            except gradient_check.NondifferentiableError:
                continue
        self._error.fail(f'{what}: no differentiable point found in {_MAX_DODGE_ATTEMPTS} '
                         'draws of generate_inputs (dodge_nondifferentiable)')


class FunctionTestCase(_CaseBase):
    """Base class of function tests: forward, backward and double backward on each backend.

    Subclasses implement:

    - ``generate_inputs(self)``: a tuple of input ``numpy.ndarray``.
    - ``forward(self, inputs, device)``: the function under test applied to
      ``inputs`` (a tuple of Variables on ``device``); returns a tuple of
      Variables.
    - ``forward_expected(self, inputs)``: the expected outputs computed with
      NumPy from the input arrays; returns a tuple of ``numpy.ndarray``.

    and optionally ``generate_grad_outputs(self, outputs_template)``,
    ``generate_grad_grad_inputs(self, inputs_template)`` and
    ``before_test(self, test_name)``.

    Attributes:
        test_name: the running test (``'test_forward'``, ``'test_backward'``
            or ``'test_double_backward'``), set before ``before_test`` and
            ``generate_inputs`` are called.
        skip_forward_test, skip_backward_test, skip_double_backward_test:
            skip that test.
        dodge_nondifferentiable: draw new inputs while the gradient check
            finds a non-differentiable point.
        numerical_grad_dtype: the dtype in which numerical gradients are
            computed (default ``numpy.float64``; a ``dtype`` in the check
            options wins).
        contiguous: ``'C'`` passes C-contiguous arrays; None (default) passes
            non-contiguous views wherever possible.
        check_forward_options: keyword arguments of
            :func:`~chainer.testing.assert_allclose`.
        check_backward_options, check_double_backward_options: keyword
            arguments of :func:`~chainer.gradient_check.check_backward` /
            :func:`~chainer.gradient_check.check_double_backward`.

    Decorate the subclass with :func:`~chainer.testing.inject_backend_tests`:
    the test methods take the backend configuration as argument.
    """

    _error = FunctionTestError

    def forward(self, inputs: tuple[Variable, ...], device: DeviceSpec) -> tuple[Variable, ...]:
        """Apply the function under test."""
        raise NotImplementedError(f'{type(self).__name__} must implement forward')

    def forward_expected(self, inputs: tuple[numpy.ndarray, ...]) -> tuple[numpy.ndarray, ...]:
        """Compute the expected outputs with NumPy."""
        raise NotImplementedError(f'{type(self).__name__} must implement forward_expected')

    def generate_grad_grad_inputs(self, inputs_template: tuple[Any, ...]) -> tuple[Any, ...]:
        """Return the gradients of the input gradients (None for non-float inputs)."""
        return _random_like(inputs_template)

    def _forward(self, arrays: tuple[Any, ...], config: BackendConfig
                 ) -> tuple[Variable, ...]:
        xs = tuple(Variable(a, requires_grad=a.dtype.kind == 'f') for a in arrays)
        outputs = self.forward(xs, config.device)
        return _check_output_variables(outputs, 'forward', config, self._error)

    def _outputs_template(self, inputs: tuple[numpy.ndarray, ...],
                          config: BackendConfig) -> tuple[numpy.ndarray, ...]:
        # backprop stays on: ``forward`` may inspect the graph it builds
        # (v7's own tests read ``y.creator``)
        with config:
            outputs = self._forward(_to_backend(inputs, config, 'C'), config)
        return tuple(chainer.backends.cuda.to_cpu(y.array) for y in outputs)

    def test_forward(self, backend_config: BackendConfig) -> None:
        """Compare the outputs of ``forward`` with ``forward_expected``."""
        self._start('test_forward', backend_config, self.skip_forward_test)
        inputs = self._inputs()
        saved = tuple(x.copy() for x in inputs)
        arrays = _to_backend(inputs, backend_config, self.contiguous)
        with backend_config:
            outputs = self._forward(arrays, backend_config)
        for i, (x, s) in enumerate(zip(arrays, saved)):
            self._error.check(numpy.array_equal(chainer.backends.cuda.to_cpu(x), s,
                                                equal_nan=s.dtype.kind in 'fc'),
                              f'forward modified input {i} in place')
        # as v7: the expected outputs from inputs laid out as the tested ones (so that
        # views have the same strides): non-contiguous views of the generated arrays
        # (those too small for one stay as generated), or C-contiguous copies
        if self.contiguous is None:
            expected_inputs = tuple(_noncontiguous(x) for x in inputs)
        else:
            expected_inputs = tuple(s.copy() for s in saved)
        expected = self.forward_expected(expected_inputs)
        expected = _check_numpy_arrays(expected, 'forward_expected', self._error)
        self.check_forward_outputs(tuple(y.array for y in outputs), expected)

    def _f(self, config: BackendConfig) -> Callable[..., tuple[Variable, ...]]:
        def f(*xs: Variable) -> tuple[Variable, ...]:
            return _check_output_variables(self.forward(xs, config.device), 'forward',
                                           config, self._error)
        return f

    def test_backward(self, backend_config: BackendConfig) -> None:
        """Check the gradients of ``forward`` numerically."""
        self._start('test_backward', backend_config, self.skip_backward_test)

        def run(inputs: tuple[numpy.ndarray, ...], options: dict[str, Any]) -> None:
            template = self._outputs_template(inputs, backend_config)
            gys = _check_numpy_arrays(self.generate_grad_outputs(template),
                                      'generate_grad_outputs', self._error, allow_none=True)
            xs = _to_backend(inputs, backend_config, self.contiguous)
            gys = _to_backend(gys, backend_config, self.contiguous)
            with backend_config:
                try:
                    gradient_check.check_backward(self._f(backend_config), xs, gys, **options)
                except gradient_check.NondifferentiableError:
                    raise
                except AssertionError as exc:
                    self._error.fail(f'backward on {backend_config!r} is not correct', exc)

        self._dodging(run, self.check_backward_options, 'test_backward')

    def test_double_backward(self, backend_config: BackendConfig) -> None:
        """Check the second-order gradients of ``forward`` numerically."""
        self._start('test_double_backward', backend_config, self.skip_double_backward_test)

        def run(inputs: tuple[numpy.ndarray, ...], options: dict[str, Any]) -> None:
            template = self._outputs_template(inputs, backend_config)
            gys = _check_numpy_arrays(self.generate_grad_outputs(template),
                                      'generate_grad_outputs', self._error, allow_none=True)
            ggxs = _check_numpy_arrays(self.generate_grad_grad_inputs(inputs),
                                       'generate_grad_grad_inputs', self._error,
                                       allow_none=True)
            xs = _to_backend(inputs, backend_config, self.contiguous)
            gys = _to_backend(gys, backend_config, self.contiguous)
            no_grads = options.get('no_grads') or [x.dtype.kind != 'f' for x in inputs]
            ggxs = _to_backend(
                [g for g, ng in zip(ggxs, no_grads) if not ng] if len(ggxs) == len(inputs)
                else ggxs, backend_config, self.contiguous)
            with backend_config:
                try:
                    gradient_check.check_double_backward(self._f(backend_config), xs, gys,
                                                         ggxs, **options)
                except gradient_check.NondifferentiableError:
                    raise
                except AssertionError as exc:
                    self._error.fail(f'double backward on {backend_config!r} is not correct',
                                     exc)

        self._dodging(run, self.check_double_backward_options, 'test_double_backward')



class FunctionTestBase(FunctionTestCase):
    """Chainer v7's base of :class:`FunctionTestCase`: the same checks, called by hand.

    It has no test methods of its own: a subclass runs the checks from its tests with
    ``self.run_test_forward(backend_config)``, ``run_test_backward`` and
    ``run_test_double_backward`` (the bodies of FunctionTestCase's three tests).
    """

    test_forward = None  # type: ignore[assignment]
    test_backward = None  # type: ignore[assignment]
    test_double_backward = None  # type: ignore[assignment]

    def run_test_forward(self, backend_config: BackendConfig) -> None:
        """Compare the outputs of ``forward`` with ``forward_expected`` on ``backend_config``."""
        FunctionTestCase.test_forward(self, backend_config)

    def run_test_backward(self, backend_config: BackendConfig) -> None:
        """Check the gradients of ``forward`` numerically on ``backend_config``."""
        FunctionTestCase.test_backward(self, backend_config)

    def run_test_double_backward(self, backend_config: BackendConfig) -> None:
        """Check the second-order gradients of ``forward`` numerically."""
        FunctionTestCase.test_double_backward(self, backend_config)


# -- links ------------------------------------------------------------------------
def _named_params(link: Any) -> dict[str, Any]:
    return {name.lstrip('/'): p for name, p in link.namedparams()}


def _params_of(link: Any, names: Sequence[str], error: type[_TestError]) -> list[Any]:
    params = _named_params(link)
    out = []
    for name in names:
        key = name.lstrip('/')
        if key not in params:
            error.fail(f'the link has no parameter {name!r}; it has {sorted(params)}')
        out.append(params[key])
    return out


class _LinkCaseBase(_CaseBase):
    _error = LinkTestError
    param_names: Sequence[str] = ()

    def generate_params(self) -> tuple[Any, ...]:
        """Return a tuple of initializer-likes, one per link parameter argument."""
        raise NotImplementedError(f'{type(self).__name__} must implement generate_params')

    def create_link(self, initializers: tuple[Any, ...]) -> Any:
        """Return the link under test, built with the given initializer-likes."""
        raise NotImplementedError(f'{type(self).__name__} must implement create_link')

    def forward(self, link: Any, inputs: tuple[Variable, ...], device: DeviceSpec
                ) -> tuple[Variable, ...]:
        """Apply the link to the inputs (default: ``link(*inputs)``)."""
        return _as_tuple(link(*inputs))

    def _create_link(self, initializers: tuple[Any, ...]) -> Any:
        try:
            from chainer.link import Link  # layout: optional[testing]
        except ImportError as exc:
            raise unittest.SkipTest(f'link tests need chainer-links: {exc}') from None
        link = self.create_link(initializers)
        if not isinstance(link, Link):
            self._error.fail(f'create_link must return a chainer.Link, not '
                             f'{type(link).__name__}')
        return link

    def _forward(self, link: Any, arrays: tuple[Any, ...], config: BackendConfig
                 ) -> tuple[Variable, ...]:
        xs = tuple(Variable(a, requires_grad=a.dtype.kind == 'f') for a in arrays)
        return _check_output_variables(self.forward(link, xs, config.device), 'forward',
                                       config, self._error)


class LinkTestCase(_LinkCaseBase):
    """Base class of link tests: forward and backward (with parameters) on each backend.

    Subclasses implement ``generate_params(self)`` (initializer-likes),
    ``create_link(self, initializers)``, ``generate_inputs(self)`` and
    ``forward_expected(self, link, inputs)`` (NumPy, with the link on the
    CPU), optionally ``forward(self, link, inputs, device)`` (default:
    ``link(*inputs)``), ``generate_grad_outputs`` and ``before_test``.

    Attributes:
        param_names: names of the parameters whose gradients are checked.
        numerical_grad_dtype: dtype of the numerical gradients (float64).
        skip_forward_test, skip_backward_test, dodge_nondifferentiable,
        contiguous, check_forward_options, check_backward_options: as in
            :class:`FunctionTestCase`.

    Needs chainer-links at run time; decorate with
    :func:`~chainer.testing.inject_backend_tests`.
    """

    def forward_expected(self, link: Link, inputs: tuple[numpy.ndarray, ...]
                         ) -> tuple[numpy.ndarray, ...]:
        """Compute the expected outputs with NumPy (``link`` is on the CPU)."""
        raise NotImplementedError(f'{type(self).__name__} must implement forward_expected')

    def _link_on(self, config: BackendConfig) -> Any:
        link = self._create_link(tuple(self.generate_params()))
        link.to_device(config.device)
        return link

    def test_forward(self, backend_config: BackendConfig) -> None:
        """Compare the link's outputs with ``forward_expected``."""
        self._start('test_forward', backend_config, self.skip_forward_test)
        inputs = self._inputs()
        link = self._link_on(backend_config)
        arrays = _to_backend(inputs, backend_config, self.contiguous)
        with backend_config:
            outputs = self._forward(link, arrays, backend_config)
        cpu_link = copy.deepcopy(link)
        cpu_link.to_device('@numpy')
        expected = self.forward_expected(cpu_link, tuple(x.copy() for x in inputs))
        expected = _check_numpy_arrays(expected, 'forward_expected', self._error)
        self.check_forward_outputs(tuple(y.array for y in outputs), expected)

    def generate_grad_outputs(self, outputs_template: tuple[Any, ...]) -> tuple[Any, ...]:
        """Return the output gradients (uniform in [-1, 1); None for non-float outputs)."""
        return _random_like(outputs_template)

    def test_backward(self, backend_config: BackendConfig) -> None:
        """Check the gradients w.r.t. the inputs and ``param_names`` numerically."""
        self._start('test_backward', backend_config, self.skip_backward_test)

        def run(inputs: tuple[numpy.ndarray, ...], options: dict[str, Any]) -> None:
            link = self._link_on(backend_config)
            xs = _to_backend(inputs, backend_config, self.contiguous)
            with backend_config, chainer.no_backprop_mode():
                template = self._forward(link, _to_backend(inputs, backend_config, 'C'),
                                         backend_config)
            template = tuple(chainer.backends.cuda.to_cpu(y.array) for y in template)
            gys = _check_numpy_arrays(self.generate_grad_outputs(template),
                                      'generate_grad_outputs', self._error, allow_none=True)
            gys = _to_backend(gys, backend_config, self.contiguous)
            params = _params_of(link, self.param_names, self._error)

            def f(*args: Variable) -> tuple[Variable, ...]:
                return self._forward_vars(link, args, backend_config)

            with backend_config:
                try:
                    gradient_check.check_backward(f, xs, gys, params=params, **options)
                except gradient_check.NondifferentiableError:
                    raise
                except AssertionError as exc:
                    self._error.fail(f'backward on {backend_config!r} is not correct', exc)

        self._dodging(run, self.check_backward_options, 'test_backward')

    def _forward_vars(self, link: Any, xs: tuple[Variable, ...], config: BackendConfig
                      ) -> tuple[Variable, ...]:
        return _check_output_variables(self.forward(link, xs, config.device), 'forward',
                                       config, self._error)


class InitializerArgument:
    """An initializer argument of a link and the initializer it should amount to.

    Args:
        argument_value: the value passed to the link (e.g. None).
        expected_initializer: what the link should initialize the parameter
            with (an initializer, a scalar or an array).
    """

    def __init__(self, argument_value: InitializerSpec | None,
                 expected_initializer: InitializerSpec) -> None:
        self.argument_value = argument_value
        self.expected_initializer = expected_initializer

    def __repr__(self) -> str:
        return (f'InitializerArgument({self.argument_value!r}, '
                f'{self.expected_initializer!r})')


class _Recording(initializer.Initializer):
    """Wraps an initializer and keeps a copy of what it produced."""

    def __init__(self, inner: Any) -> None:
        super().__init__(getattr(inner, 'dtype', None))
        self.inner = inner
        self.produced: list[Any] = []

    def __call__(self, array: Any) -> None:
        self.inner(array)
        self.produced.append(chainer.backends.cuda.to_cpu(array).copy())


class LinkInitializersTestCase(_LinkCaseBase):
    """Base class checking that a link initializes its parameters as its arguments say.

    Subclasses implement ``generate_params``, ``create_link``,
    ``generate_inputs``, ``forward`` (optional, default ``link(*inputs)``) and
    ``get_initializers(self)``: one sequence per parameter in
    ``param_names``, of initializer-likes (initializers, scalars, arrays) or
    :class:`InitializerArgument` to try for it.

    Each candidate is passed to ``create_link`` in place of that parameter's
    initializer, a forward pass runs (for lazily initialized parameters) and
    the parameter must hold what the initializer produces. For random
    initializers the link must use the very initializer object it was given;
    for an :class:`InitializerArgument` with a random expected initializer,
    the shape, dtype and finiteness are checked.

    Attributes:
        param_names: names of the parameters, in ``generate_params`` order.
        check_initializers_options: keyword arguments of ``assert_allclose``.
    """

    check_initializers_options: dict[str, Any] = {}

    def get_initializers(self) -> Sequence[Sequence[Any]]:
        """Return, per parameter, the initializer-likes to test."""
        raise NotImplementedError(f'{type(self).__name__} must implement get_initializers')

    def test_initializers(self, backend_config: BackendConfig) -> None:
        """Check every initializer candidate of every parameter."""
        self._start('test_initializers', backend_config, False)
        base = tuple(self.generate_params())
        candidates = self.get_initializers()
        self._error.check(len(candidates) == len(self.param_names),
                          f'get_initializers returned {len(candidates)} lists for the '
                          f'{len(self.param_names)} param_names')
        for i, name in enumerate(self.param_names):
            for candidate in candidates[i]:
                self._check_one(backend_config, base, i, name, candidate)

    def _check_one(self, config: BackendConfig, base: tuple[Any, ...], index: int, name: str,
                   candidate: Any) -> None:
        if isinstance(candidate, InitializerArgument):
            argument, expected = candidate.argument_value, candidate.expected_initializer
        else:
            argument, expected = candidate, candidate
        recording = None
        if isinstance(argument, initializer.Initializer):
            recording = _Recording(argument)
            argument = recording
        params = list(base)
        params[index] = argument
        link = self._create_link(tuple(params))
        link.to_device(config.device)
        arrays = _to_backend(self._inputs(), config, 'C')
        with config:
            self._forward(link, arrays, config)
        (param,) = _params_of(link, [name], self._error)
        actual = chainer.backends.cuda.to_cpu(param.array)
        what = f'parameter {name!r} created with {candidate!r} on {config!r}'
        if recording is not None:
            self._error.check(bool(recording.produced),
                              f'{what}: the link did not call the initializer it was given')
            want = recording.produced[-1]
        else:
            want = self._expected_values(expected, actual)
        if want is None:
            self._error.check(bool(numpy.isfinite(actual).all()),
                              f'{what}: values are not finite')
            return
        self._error.check(actual.shape == want.shape,
                          f'{what}: shape {actual.shape}, expected {want.shape}')
        try:
            array_module.assert_allclose(actual, want.astype(actual.dtype),
                                         **self.check_initializers_options)
        except AssertionError as exc:
            self._error.fail(f'{what}: values differ from the initializer', exc)

    @staticmethod
    def _expected_values(expected: Any, actual: numpy.ndarray) -> numpy.ndarray | None:
        """What ``expected`` produces for ``actual``'s shape (None when random)."""
        init = initializers._get_initializer(expected)
        first = numpy.empty(actual.shape, dtype=actual.dtype)
        second = numpy.empty(actual.shape, dtype=actual.dtype)
        init(first)
        init(second)
        if numpy.array_equal(first, second, equal_nan=True):
            return first
        return None
