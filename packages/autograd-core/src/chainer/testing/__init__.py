"""Testing utilities (``chainer.testing``): parameterized tests, backends, checks.

``parameterize``/``product``/``product_dict`` generate test classes,
``inject_backend_tests`` runs tests on each backend, ``FunctionTestCase``,
``LinkTestCase`` and ``LinkInitializersTestCase`` check forward and backward
against NumPy and numerical gradients, ``attr`` marks GPU and slow tests,
``condition`` repeats flaky tests, ``fix_random`` fixes random numbers and
``distribution_unittest`` checks a distribution against SciPy.
"""

from chainer.testing import (
    _bundle,
    array,
    attr,
    backend,
    condition,
    distribution_test,
    function_link,
    helper,
    matrix,
    parameterized,
    random,
    serializer,
    training,
    unary_math_function_test,
)
from chainer.testing.array import assert_allclose
from chainer.testing.backend import BackendConfig, inject_backend_tests
from chainer.testing.distribution_test import distribution_unittest
from chainer.testing.function_link import (
    FunctionTestCase,
    FunctionTestError,
    InitializerArgument,
    LinkInitializersTestCase,
    LinkTestCase,
    LinkTestError,
)
from chainer.testing.helper import (
    assert_warns,
    patch,
    run_module,
    with_requires,
    without_requires,
)
from chainer.testing.matrix import generate_matrix
from chainer.testing.parameterized import (
    from_pytest_parameterize,
    parameterize,
    parameterize_pytest,
    product,
    product_dict,
)
from chainer.testing.random import fix_random, generate_seed, get_random_state
from chainer.testing.serializer import save_and_load, save_and_load_hdf5, save_and_load_npz
from chainer.testing.training import get_trainer_with_mock_updater
from chainer.testing.unary_math_function_test import unary_math_function_unittest
