"""Backend configurations for tests and the decorator that injects them.

A :class:`BackendConfig` describes one backend a test runs on (NumPy, CuPy on a
device with the cuDNN and autotune settings, or a ChainerX device). iDeep
configurations are accepted so that v7 test suites import unchanged, but iDeep is not
provided: their tests are skipped with that reason, as are ChainerX ones without the
chainerx distribution and ``cuda:N`` ones without that GPU.
"""

from __future__ import annotations

import functools
import re
import unittest
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any

import chainer
from chainer import backend
from chainer.backends import cuda
from chainer.testing import _bundle

if TYPE_CHECKING:
    import numpy

    from chainer.types import Xp

__all__ = ['BackendConfig', 'inject_backend_tests']

_DEFAULTS: dict[str, Any] = {
    'use_chainerx': False,
    'chainerx_device': None,
    'use_cuda': False,
    'cuda_device': None,
    'use_cudnn': 'never',
    'cudnn_deterministic': False,
    'autotune': False,
    'cudnn_fast_batch_normalization': False,
    'use_ideep': 'never',
}
_CONFIG_KEYS = ('use_cudnn', 'cudnn_deterministic', 'autotune',
                'cudnn_fast_batch_normalization', 'use_ideep')
_CUDNN_VALUES = ('always', 'auto', 'never')


class BackendConfig:
    """One backend configuration of a test.

    Args:
        params: a dict with any of the keys ``use_cuda``, ``cuda_device``,
            ``use_cudnn`` (``'always'``, ``'auto'``, ``'never'``),
            ``cudnn_deterministic``, ``autotune``,
            ``cudnn_fast_batch_normalization``, ``use_ideep`` (as
            ``use_cudnn``, or a bool: False is ``'never'``),
            ``use_chainerx`` and ``chainerx_device``; missing keys take the
            CPU defaults.

    Used as a context manager, it sets the corresponding ``chainer.config``
    entries and makes its device current.

    Raises:
        ValueError: for an unknown key or inconsistent values.
    """

    # The settings, set by __init__ from ``params`` and the defaults (one per key).
    use_chainerx: bool
    chainerx_device: str | None
    use_cuda: bool
    cuda_device: int | None  # an int whenever use_cuda is set (0 by default)
    use_cudnn: str
    cudnn_deterministic: bool
    autotune: bool
    cudnn_fast_batch_normalization: bool
    use_ideep: object  # 'never' (or False), else unsupported; v7 suites pass odd values

    def __init__(self, params: Mapping[str, Any]) -> None:
        if not isinstance(params, Mapping):
            raise TypeError(f'BackendConfig takes a dict, not {type(params).__name__}')
        unknown = sorted(set(params) - set(_DEFAULTS))
        if unknown:
            raise ValueError(f'unknown backend config keys {unknown}; known keys: '
                             f'{sorted(_DEFAULTS)}')
        values = {**_DEFAULTS, **params}
        if values['use_cudnn'] not in _CUDNN_VALUES:
            raise ValueError(f'use_cudnn must be one of {_CUDNN_VALUES}, not '
                             f'{values["use_cudnn"]!r}')
        if values['use_ideep'] is False:
            values['use_ideep'] = 'never'
        # use_ideep is not validated (as in v7, whose own suites pass odd values such
        # as a list): iDeep is not provided, so any value but 'never' is unsupported
        if values['use_chainerx']:
            if values['chainerx_device'] is None:
                raise ValueError('use_chainerx=True needs chainerx_device (e.g. "native:0")')
        elif values['chainerx_device'] is not None:
            raise ValueError('chainerx_device is given but use_chainerx is False')
        if values['use_cuda']:
            if values['cuda_device'] is None:
                values['cuda_device'] = 0
        elif values['cuda_device'] is not None:
            raise ValueError('cuda_device is given but use_cuda is False')
        elif values['use_cudnn'] != 'never' and not values['use_chainerx']:
            raise ValueError('use_cudnn needs use_cuda=True')
        self._params = dict(params)
        for key, value in values.items():
            setattr(self, key, value)
        self._contexts: list[ExitStack] = []

    # -- description ---------------------------------------------------------
    @property
    def unsupported_reason(self) -> str | None:
        """Why this configuration cannot run here (None when it can)."""
        if self.use_chainerx:
            return _chainerx_unsupported_reason(str(self.chainerx_device))
        if self.use_ideep != 'never':
            return 'iDeep is not provided by this project (use NumPy or CuPy)'
        if self.use_cuda:
            if not cuda.available:
                return ('CUDA is not available: install CuPy (chainer[cuda12] or '
                        'chainer[cuda13]) and run on a machine with a CUDA device')
            try:
                count = cuda.cupy.cuda.runtime.getDeviceCount()
            except Exception:
                count = 0
            assert self.cuda_device is not None  # __init__ sets 0 when use_cuda has none
            if self.cuda_device >= count:
                return f'CUDA device {self.cuda_device} is not present ({count} device(s))'
            if self.use_cudnn == 'always' and not cuda.cudnn_enabled:
                return 'cuDNN is not available (CuPy 14 ships without it)'
        return None

    @property
    def is_gpu(self) -> bool:
        """Whether this configuration runs on a CUDA device."""
        return bool(self.use_cuda)

    @property
    def label(self) -> str:
        """A short identifier used in generated test names (``cpu``, ``gpu0``, ...)."""
        if self.use_chainerx:
            base = 'chainerx_' + re.sub(r'\W', '', str(self.chainerx_device))
        elif self.use_cuda:
            base = f'gpu{self.cuda_device}'
        else:
            base = 'cpu'
        extras = []
        for key in _CONFIG_KEYS:
            value = getattr(self, key)
            if value != _DEFAULTS[key]:
                short = {'use_cudnn': 'cudnn', 'use_ideep': 'ideep'}.get(key, key)
                extras.append(short if value is True else f'{short}_{value}')
        return '_'.join([base, *extras])

    def get_func_str(self) -> str:
        """The non-default settings as ``key=value`` pairs (for messages)."""
        items = [f'{k}={getattr(self, k)!r}' for k in _DEFAULTS
                 if getattr(self, k) != _DEFAULTS[k]]
        return ','.join(items) or 'cpu'

    def get_pytest_marks(self) -> list[Any]:
        """The pytest marks of tests run with this configuration (``gpu`` for CUDA)."""
        try:
            import pytest
        except ImportError:
            return []
        marks = []
        if self.use_chainerx:
            marks.append(pytest.mark.chainerx)
        if self.use_cuda or str(self.chainerx_device).startswith('cuda'):
            marks.append(pytest.mark.gpu)
        return marks

    def __repr__(self) -> str:
        return f'<BackendConfig {self.get_func_str()}>'

    # -- arrays and devices ------------------------------------------------------
    @property
    def xp(self) -> Xp:
        """The array module of this backend (``numpy``, ``cupy`` or ``chainerx``)."""
        return self.device.xp

    @property
    def device(self) -> backend.Device:
        """The :class:`chainer.backend.Device` of this configuration.

        Raises:
            RuntimeError: for a configuration that cannot run here.
        """
        reason = self.unsupported_reason
        if reason is not None:
            raise RuntimeError(f'{self!r}: {reason}')
        if self.use_chainerx:
            return backend.get_device(self.chainerx_device)
        if self.use_cuda:
            return backend.get_device(f'@cupy:{self.cuda_device}')
        return backend.get_device('@numpy')

    def get_array(self, np_array: numpy.ndarray | Sequence[Any]) -> Any:
        """Send a NumPy array (or a nested tuple/list of them) to this backend."""
        return self.device.send(np_array)

    def skip_if_unsupported(self) -> None:
        """Raise ``unittest.SkipTest`` naming the reason when this configuration cannot run."""
        reason = self.unsupported_reason
        if reason is not None:
            raise unittest.SkipTest(reason)

    def __enter__(self) -> BackendConfig:
        with ExitStack() as stack:
            for key in _CONFIG_KEYS:
                stack.enter_context(chainer.using_config(key, getattr(self, key)))
            stack.enter_context(chainer.using_device(self.device))
            self._contexts.append(stack.pop_all())
        return self

    def __exit__(self, *args: Any) -> None:
        self._contexts.pop().__exit__(*args)


def _chainerx_unsupported_reason(name: str) -> str | None:
    """Why the ChainerX device ``name`` cannot be used here (None when it can)."""
    try:
        backend.get_device(name)
    except ImportError:
        return 'ChainerX is not available: install the chainerx distribution'
    except (RuntimeError, ValueError) as e:
        return f'ChainerX device {name} is not available: {e}'
    return None


# What inject_backend_tests takes: one configuration (a dict or a BackendConfig) or several.
_ConfigSpec = (Mapping[str, Any] | BackendConfig
               | Iterable[Mapping[str, Any] | BackendConfig])


def _configs(params: _ConfigSpec) -> list[BackendConfig]:
    items = [params] if isinstance(params, (Mapping, BackendConfig)) else list(params)
    configs = [p if isinstance(p, BackendConfig) else BackendConfig(p) for p in items]
    if not configs:
        raise ValueError('inject_backend_tests needs at least one backend config')
    return configs


def _name_value(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _suffix(config: BackendConfig) -> str:
    """The class-name suffix of ``config``: every setting, in v7's order and spelling."""
    return '_' + '__'.join(f'{key}_{_name_value(getattr(config, key))}' for key in _DEFAULTS)


def _backend_test(method: Callable[..., Any], config: BackendConfig) -> Callable[..., Any]:
    """``method`` as a test taking no argument that runs with ``config``."""
    @functools.wraps(method)
    def test(self: Any, *args: Any, **kwargs: Any) -> Any:
        config.skip_if_unsupported()
        # positional, as v7: stacked decorators pass one config each, the innermost first
        return method(self, config, *args, **kwargs)

    # pytest follows __wrapped__ to the signature: it must not see backend_config.
    del test.__wrapped__
    for mark in config.get_pytest_marks():
        test = mark(test)
    return test


def _test_names(cls: type) -> list[str]:
    return [n for n in dir(cls) if n.startswith('test') and callable(getattr(cls, n, None))]


def inject_backend_tests(method_names: Iterable[str] | None, params: _ConfigSpec
                         ) -> Callable[[type | _bundle._ParameterizedTestCaseBundle],
                                       _bundle._ParameterizedTestCaseBundle]:
    """Class decorator running the tests of a class once per backend configuration.

    A subclass is generated per configuration, named
    ``<Class>_use_chainerx_false__chainerx_device_None__...`` (every setting
    of :class:`BackendConfig`, as Chainer v7 names them), in which each test
    method named in ``method_names`` (None: every method whose name starts
    with ``test``) is called with the configuration as its first argument
    (``backend_config``). Test methods not named are not run, unless an
    outer :func:`~chainer.testing.parameterize` generates classes with them
    (as in v7). Like :func:`~chainer.testing.parameterize`, the decorator returns
    a bundle of the generated classes and stacks with it (each adds its suffix to
    the names) and with itself (the method then takes one configuration per
    decorator, the innermost first). CUDA variants carry the pytest mark
    ``gpu``; variants that cannot run here (no CUDA, ChainerX, iDeep) are
    skipped with the reason.

    Args:
        method_names: names of the test methods, or None for all.
        params: a dict or a list of dicts (see :class:`BackendConfig`).

    Raises:
        ValueError: no configuration, or a named method the class lacks.
    """
    configs = _configs(params)
    wanted = None if method_names is None else list(method_names)

    def members_for(config: BackendConfig) -> Callable[[type], dict[str, Any]]:
        def members(source: type) -> dict[str, Any]:
            out: dict[str, Any] = {}
            for name in _test_names(source):
                if wanted is None or name in wanted:
                    out[name] = _backend_test(getattr(source, name), config)
                else:
                    out[name] = None
            return out
        return members

    variants: list[_bundle.Variant] = [(_suffix(c), {}, members_for(c)) for c in configs]

    def decorator(target: type | _bundle._ParameterizedTestCaseBundle
                  ) -> _bundle._ParameterizedTestCaseBundle:
        sources = [c for c, _, _ in _bundle.as_bundle(target, 'inject_backend_tests').cases]
        if wanted is not None:
            for source in sources:
                # (an inner decorator's hidden copy holds its methods as None)
                missing = [n for n in wanted if not hasattr(source, n)]
                if missing:
                    raise ValueError(f'{source.__name__} has no test method {missing[0]!r}')
        result = _bundle.generate_classes(target, variants)
        if wanted is not None:
            # As in v7, the test methods not named stay on a hidden copy of each class:
            # in no module, it is expanded by an outer parameterize.
            for source in sources:
                carrier = type(source)(source.__name__, (source,), {
                    **{name: None for name in wanted},
                    '__module__': source.__module__, '__qualname__': source.__qualname__})
                _bundle.hide(carrier)
                result.cases.append((carrier, None, None))
        return result

    return decorator
