"""Chainer: a define-by-run deep learning framework (v7-compatible API).

This ``chainer`` package spans several distributions. This file belongs to
chainer-autograd-core; names provided by the other distributions
(``chainer.links``, ``chainer.Optimizer``, ``chainer.training``, ...) are
imported on first access, and a clear error names the package to install
when they are missing.
"""

from __future__ import annotations

import os
import sys
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import numpy

# Several distributions install into ``chainer``; with editable installs each
# has its own ``src/chainer`` directory, so extend the package path over them.
__path__ = __import__('pkgutil').extend_path(__path__, __name__)

__version__ = '8.0.0'

from chainer import _lazy

_lazy.install_finder()

from chainer.configuration import config, global_config, using_config  # noqa: E402

if TYPE_CHECKING:
    from collections.abc import Iterable

    from chainer.types import DTypeSpec, NdArray


def _env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value not in ('0', '', 'false', 'False')


def _env_dtype() -> Any:
    value = os.environ.get('CHAINER_DTYPE', 'float32')
    if value == 'mixed16':
        return 'mixed16'
    try:
        dtype = numpy.dtype(value)
    except TypeError:
        raise ValueError(f'CHAINER_DTYPE={value!r} is not a dtype: use float16, float32, '
                         'float64 or mixed16') from None
    if dtype.kind != 'f' or dtype.itemsize not in (2, 4, 8):
        raise ValueError(f'CHAINER_DTYPE={value!r}: use float16, float32, float64 or mixed16')
    return dtype


global_config.debug = _env_bool('CHAINER_DEBUG', False)
global_config.cudnn_deterministic = _env_bool('CHAINER_CUDNN_DETERMINISTIC', False)
global_config.warn_nondeterministic = _env_bool('CHAINER_WARN_NONDETERMINISTIC', False)
global_config.enable_backprop = True
global_config.keep_graph_on_report = _env_bool('CHAINER_KEEP_GRAPH_ON_REPORT', False)
global_config.train = True
global_config.type_check = _env_bool('CHAINER_TYPE_CHECK', True)
global_config.use_cudnn = os.environ.get('CHAINER_USE_CUDNN', 'auto')
global_config.use_cudnn_tensor_core = 'auto'
global_config.autotune = False
global_config.schedule_func = None
global_config.use_ideep = os.environ.get('CHAINER_USE_IDEEP', 'never')
# compiled CPU kernels through Numba (chainer._jit): 'auto', 'never' or 'always'
global_config.use_numba = os.environ.get('CHAINER_USE_NUMBA', 'auto')
global_config.lazy_grad_sum = _env_bool('CHAINER_LAZY_GRAD_SUM', False)
global_config.cudnn_fast_batch_normalization = _env_bool(
    'CHAINER_CUDNN_FAST_BATCH_NORMALIZATION', False)
global_config.dtype = _env_dtype()
global_config.in_recomputing = False
global_config.use_static_graph = True
global_config._will_recompute = False
global_config.compute_mode = None

from chainer import (  # noqa: E402  # noqa: E402
    backend,
    backends,
    device_resident,
    function,
    function_hook,
    function_node,
    initializer,
    initializers,
    reporter,
    serializer,
    utils,
    variable,
)
from chainer.backend import get_device, using_device  # noqa: E402
from chainer.backends import cuda, intel64  # noqa: E402

# v7's alias: ``import chainer.cuda`` and ``from chainer import cuda``
sys.modules['chainer.cuda'] = cuda
from chainer.device_resident import DeviceResident  # noqa: E402
from chainer.function import (  # noqa: E402
    Function,
    FunctionAdapter,
    force_backprop_mode,
    no_backprop_mode,
)
from chainer.function_hook import FunctionHook  # noqa: E402
from chainer.function_node import FunctionNode, backward, grad  # noqa: E402
from chainer.initializer import Initializer  # noqa: E402
from chainer.reporter import (  # noqa: E402
    DictSummary,
    Reporter,
    Summary,
    get_current_reporter,
    report,
    report_scope,
)
from chainer.serializer import AbstractSerializer, Deserializer, Serializer  # noqa: E402
from chainer.utils import type_check  # noqa: E402
from chainer.variable import Parameter, Variable, VariableNode, as_array, as_variable  # noqa: E402

_thread_local = threading.local()
# Hooks registered in any thread; while it is zero, apply() skips the look-up entirely.
_n_function_hooks = 0
_no_hooks: OrderedDict[str, Any] = OrderedDict()


class _HookDict(OrderedDict):
    """The per-thread hook registry; keeps the process-wide count of hooks up to date."""

    def __setitem__(self, key: str, value: Any) -> None:
        global _n_function_hooks
        if key not in self:
            _n_function_hooks += 1
        super().__setitem__(key, value)

    def __delitem__(self, key: str) -> None:
        global _n_function_hooks
        super().__delitem__(key)
        _n_function_hooks -= 1

    def pop(self, key: str, *default: Any) -> Any:
        if key in self:
            value = self[key]
            del self[key]
            return value
        return super().pop(key, *default)

    def clear(self) -> None:
        for key in list(self):
            del self[key]


def get_function_hooks() -> OrderedDict[str, Any]:
    """Return the ordered dict of function hooks registered globally in this thread."""
    try:
        return _thread_local.function_hooks
    except AttributeError:
        hooks = _thread_local.function_hooks = _HookDict()
        return hooks


def _get_global_function_hooks() -> OrderedDict[str, Any]:
    if not _n_function_hooks:
        return _no_hooks
    return get_function_hooks()


def get_dtype(dtype: DTypeSpec | None = None, map_mixed16: DTypeSpec | None = None) -> numpy.dtype:
    """Resolve ``dtype`` (default ``config.dtype``); ``'mixed16'`` maps to float16.

    Args:
        dtype: a dtype, ``'mixed16'`` or None.
        map_mixed16: the dtype ``'mixed16'`` maps to (default float16).
    """
    if dtype is None:
        dtype = config.dtype
    if dtype is mixed16 or isinstance(dtype, str) and dtype == 'mixed16':
        return numpy.dtype(numpy.float16 if map_mixed16 is None else map_mixed16)
    return numpy.dtype(dtype)


def is_debug() -> bool:
    """Whether debug mode is on (``config.debug``)."""
    return bool(config.debug)


def set_debug(debug: bool) -> None:
    """Turn debug mode on or off for this thread."""
    config.debug = debug


class DebugMode:
    """Context manager that sets ``config.debug`` inside the block."""

    def __init__(self, debug: bool) -> None:
        self._using = using_config('debug', debug)

    def __enter__(self) -> None:
        self._using.__enter__()

    def __exit__(self, *args: Any) -> None:
        self._using.__exit__(*args)


def get_array_types() -> tuple[type, ...]:
    """The array types a Variable may hold (``chainerx.ndarray`` once chainerx is
    imported: no ChainerX array exists before)."""
    chx = sys.modules.get('chainerx')
    cls = getattr(chx, 'ndarray', None)
    if isinstance(cls, type):
        return (*variable._array_types, cls)
    return variable._array_types


def get_cpu_array_types() -> tuple[type, ...]:
    """The CPU array types."""
    return (numpy.ndarray,)


def is_arrays_compatible(arrays: Iterable[NdArray | None]) -> bool:
    """Whether all (non-None) arrays are of one backend."""
    return type_check.same_types(*arrays)


def get_compute_mode() -> Any:
    """ChainerX compute modes are not provided: always None."""
    return None


class _FallbackType:
    """The value ``forward_chainerx`` returns to ask for the NumPy/CuPy path."""

    def __repr__(self) -> str:
        return 'Fallback'


Fallback = _FallbackType()


class _Mixed16:
    """The ``'mixed16'`` dtype setting (float16 compute, float32 master weights).

    Its ``dtype`` attribute (float16, the dtype of the computation) lets NumPy
    read it as a dtype, as in v7: ``array.astype(chainer.mixed16)``.
    """

    dtype = numpy.dtype(numpy.float16)

    def __eq__(self, other: object) -> bool:
        return other is self or other == 'mixed16'

    def __hash__(self) -> int:
        return hash('mixed16')

    def __repr__(self) -> str:
        return "dtype('mixed16')"


mixed16 = _Mixed16()
should_use_cudnn = cuda.should_use_cudnn
should_use_cudnn_tensor_core = cuda.should_use_cudnn_tensor_core


disable_experimental_feature_warning = _env_bool(
    'CHAINER_DISABLE_EXPERIMENTAL_FEATURE_WARNING', False)

from chainer import functions  # noqa: E402
from chainer.functions.math import basic_math  # noqa: E402

basic_math.install_variable_arithmetics()

# chainer.warnings (PerformanceWarning, ...) shadows the stdlib name from here on.
# Probability distributions: the interface and the KL registry (chainer.distribution) are
# light and imported here; chainer.distributions is imported on first use (_lazy).
from chainer import (  # noqa: E402
    computational_graph,
    distribution,
    function_hooks,
    gradient_check,
    warnings,
)
from chainer._runtime_info import print_runtime_info  # noqa: E402
from chainer.distribution import (  # noqa: E402
    Distribution,
    cross_entropy,
    kl_divergence,
    register_kl,
)
from chainer.graph_optimizations.static_graph import static_graph  # noqa: E402
from chainer.graph_optimizations.static_graph_utilities import static_code  # noqa: E402


def __getattr__(name: str) -> Any:
    if name in _lazy.LAZY_ATTRS:
        value = _lazy.resolve(name)
        return value
    raise AttributeError(f"module 'chainer' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_lazy.LAZY_ATTRS))


