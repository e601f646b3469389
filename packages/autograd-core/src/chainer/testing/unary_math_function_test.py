"""A class decorator testing a unary elementwise math function over shapes and dtypes."""

from __future__ import annotations

import copy
import unittest
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy

import chainer
from chainer import gradient_check
from chainer.backends import cuda
from chainer.testing import array as array_module
from chainer.testing import attr
from chainer.testing._bundle import _ParameterizedTestCaseBundle

# v7's availability check of this helper: it marks GPU tests with attr, which needs pytest.
from chainer.testing.attr import check_available, get_error, is_available  # noqa: F401
from chainer.testing.parameterized import parameterize, product

if TYPE_CHECKING:
    from chainer.function_node import FunctionNode
    from chainer.types import DTypeSpec

__all__ = ['unary_math_function_unittest']

_FORWARD_TOL = {
    numpy.float16: {'atol': 5e-3, 'rtol': 5e-3},
    numpy.float32: {'atol': 1e-5, 'rtol': 1e-4},
    numpy.float64: {'atol': 1e-10, 'rtol': 1e-8},
}
_BACKWARD_TOL = {
    numpy.float16: {'eps': 2 ** -4, 'atol': 5e-2, 'rtol': 5e-2, 'dtype': numpy.float64},
    numpy.float32: {'eps': 1e-3, 'atol': 1e-3, 'rtol': 1e-3, 'dtype': numpy.float64},
    numpy.float64: {},  # the defaults of check_backward
}


def _default_make_data(shape: tuple[int, ...], dtype: DTypeSpec) -> tuple[Any, Any, Any]:
    def u() -> numpy.ndarray:
        return numpy.asarray(numpy.random.uniform(-1, 1, shape)).astype(dtype)
    return u(), u(), u()


def _name_of(func: Any) -> str:
    if isinstance(func, chainer.FunctionNode | chainer.Function):
        return type(func).__name__.lower()
    return getattr(func, '__name__', type(func).__name__)


def _as_callable(func: Any) -> Callable[[Any], Any]:
    if isinstance(func, chainer.FunctionNode):
        # A FunctionNode is applied once: apply a fresh copy each time.
        return lambda x: copy.deepcopy(func).apply((x,))[0]
    return func


def unary_math_function_unittest(func: Callable[..., Any] | FunctionNode,
                                 func_expected: Callable[..., Any] | None = None,
                                 label_expected: str | None = None,
                                 make_data: Callable[..., Any] | None = None,
                                 is_linear: bool | None = None,
                                 forward_options: dict[str, Any] | None = None,
                                 backward_options: dict[str, Any] | None = None,
                                 double_backward_options: dict[str, Any] | None = None
                                 ) -> Callable[[type], _ParameterizedTestCaseBundle]:
    """Decorator adding forward, backward, double backward and label tests of ``func``.

    The decorated class (a ``unittest.TestCase``) is parameterized over shapes
    ``(3, 2)`` and ``()`` and dtypes float16/32/64, and gets
    ``test_forward_cpu``, ``test_backward_cpu``, ``test_double_backward_cpu``
    (and their ``_gpu`` variants, marked ``gpu``) and ``test_label``.

    Args:
        func: the function (a callable, a FunctionNode or an old-style Function).
        func_expected: the reference, called as ``func_expected(x, dtype=dtype)`` with
            the input array (NumPy or CuPy, as tested) and its dtype (default:
            ``numpy.<name of func>``).
        label_expected: the expected label of the function node (default: the
            name of ``func``; checked only for FunctionNode/Function objects
            or when given).
        make_data: ``make_data(shape, dtype)`` returning ``(x, gy)`` or
            ``(x, gy, ggx)`` (default: uniform in [-1, 1]).
        is_linear: the function is linear; its double backward is then checked
            through ``func(x) ** 2``, whose second derivative is not zero.
        forward_options, backward_options, double_backward_options: keyword
            arguments of ``assert_allclose``, ``check_backward`` and
            ``check_double_backward``, over defaults per dtype (float16 and float32
            inputs have their gradients checked in float64).
    """
    name = _name_of(func)
    if func_expected is None:
        numpy_func = getattr(numpy, name, None)
        if numpy_func is None:
            raise ValueError(f'numpy has no function {name!r}: pass func_expected')

        def func_expected(x: Any, dtype: DTypeSpec) -> Any:
            return numpy_func(cuda.to_cpu(x), dtype=dtype)
    check_label = label_expected is not None or isinstance(
        func, chainer.FunctionNode | chainer.Function)
    if label_expected is None:
        label_expected = name
    apply = _as_callable(func)
    make = make_data or _default_make_data

    def double_target(x: Any) -> Any:
        if is_linear:
            return apply(x) ** 2
        return apply(x)

    def decorator(cls: type) -> _ParameterizedTestCaseBundle:
        orig_setup = getattr(cls, 'setUp', None)

        def setUp(self: Any) -> None:
            if orig_setup is not None:
                orig_setup(self)
            data = make(self.shape, self.dtype)
            if len(data) == 2:
                data = (*data, _default_make_data(self.shape, self.dtype)[2])
            self.x, self.gy, self.ggx = (numpy.asarray(a) for a in data)
            t = numpy.dtype(self.dtype).type
            self.forward_options = {**_FORWARD_TOL[t], **(forward_options or {})}
            self.backward_options = {**_BACKWARD_TOL[t], **(backward_options or {})}
            self.double_backward_options = {**_BACKWARD_TOL[t],
                                            **(double_backward_options or {})}

        def check_forward(self: Any, x: Any) -> None:
            y = apply(chainer.Variable(x))
            expected = func_expected(cuda.to_cpu(x), dtype=self.x.dtype)
            expected = numpy.asarray(expected, dtype=self.x.dtype)
            assert y.dtype == self.x.dtype, f'output dtype {y.dtype}, input {self.x.dtype}'
            assert y.shape == self.x.shape, f'output shape {y.shape}, input {self.x.shape}'
            array_module.assert_allclose(y.array, expected, **self.forward_options)

        def check_backward(self: Any, x: Any, gy: Any) -> None:
            gradient_check.check_backward(apply, x, gy, **self.backward_options)

        def check_double_backward(self: Any, x: Any, gy: Any, ggx: Any) -> None:
            gradient_check.check_double_backward(double_target, x, gy, ggx,
                                                 **self.double_backward_options)

        def test_forward_cpu(self: Any) -> None:
            self.check_forward(self.x)

        @attr.gpu
        def test_forward_gpu(self: Any) -> None:
            self.check_forward(cuda.to_gpu(self.x))

        def test_backward_cpu(self: Any) -> None:
            self.check_backward(self.x, self.gy)

        @attr.gpu
        def test_backward_gpu(self: Any) -> None:
            self.check_backward(cuda.to_gpu(self.x), cuda.to_gpu(self.gy))

        def test_double_backward_cpu(self: Any) -> None:
            self.check_double_backward(self.x, self.gy, self.ggx)

        @attr.gpu
        def test_double_backward_gpu(self: Any) -> None:
            self.check_double_backward(cuda.to_gpu(self.x), cuda.to_gpu(self.gy),
                                       cuda.to_gpu(self.ggx))

        def test_label(self: Any) -> None:
            if not check_label:
                raise unittest.SkipTest('the label is checked for FunctionNode/Function '
                                        'objects or when label_expected is given')
            y = apply(chainer.Variable(self.x))
            assert y.creator is not None, 'the output has no creator'
            assert y.creator.label == label_expected, (
                f'label {y.creator.label!r}, expected {label_expected!r}')

        for f in (setUp, check_forward, check_backward, check_double_backward,
                  test_forward_cpu, test_forward_gpu, test_backward_cpu, test_backward_gpu,
                  test_double_backward_cpu, test_double_backward_gpu, test_label):
            f.__qualname__ = f'{cls.__qualname__}.{f.__name__}'
            setattr(cls, f.__name__, f)
        params = product({'shape': [(3, 2), ()],
                          'dtype': [numpy.float16, numpy.float32, numpy.float64]})
        return parameterize(*params)(cls)

    return decorator
