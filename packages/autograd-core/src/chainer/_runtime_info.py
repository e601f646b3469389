"""``chainer.print_runtime_info``: versions of Python, Chainer, NumPy and CuPy."""

from __future__ import annotations

import platform
import sys
from importlib import metadata
from typing import IO, Any

import numpy

import chainer

# The distributions that make up this Chainer.
_DISTRIBUTIONS = ('chainer', 'chainer-array-backend', 'chainer-autograd-core', 'chainer-links',
                  'chainer-optimizers', 'chainer-datasets', 'chainer-serializers',
                  'chainer-training')


def _version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def _cupy_lines() -> list[str]:
    try:
        from chainer.backends import cuda
    except ImportError:
        return ['CuPy: Not Available']
    if cuda.cupy is None:
        return ['CuPy: Not Available (install chainer[cuda12] or chainer[cuda13])']
    cupy = cuda.cupy
    lines = ['CuPy:', f'  CuPy Version          : {cupy.__version__}']
    try:
        runtime = cupy.cuda.runtime
        lines.append(f'  CUDA Runtime Version  : {runtime.runtimeGetVersion()}')
        lines.append(f'  CUDA Driver Version   : {runtime.driverGetVersion()}')
        lines.append(f'  Device count          : {runtime.getDeviceCount()}')
    except Exception as exc:  # no driver or no device: say so instead of failing
        lines.append(f'  CUDA                  : unavailable ({type(exc).__name__}: {exc})')
    lines.append(f'  cuDNN enabled         : {bool(cuda.cudnn_enabled)}')
    return lines


class _RuntimeInfo:
    """The runtime information, as text."""

    def __init__(self) -> None:
        self.chainer_version = chainer.__version__
        self.numpy_version = numpy.__version__
        self.platform_version = platform.platform()
        self.python_version = sys.version.split()[0]
        self.distributions = {d: _version(d) for d in _DISTRIBUTIONS}
        self.cupy_lines = _cupy_lines()

    def __str__(self) -> str:
        lines = [f'Platform: {self.platform_version}',
                 f'Python: {self.python_version}',
                 f'Chainer: {self.chainer_version}',
                 'Distributions:']
        for dist, version in self.distributions.items():
            lines.append(f'  {dist:<24}: {version or "not installed"}')
        lines += [f'ChainerX: {_chainerx_state()}', f'NumPy: {self.numpy_version}']
        lines += self.cupy_lines
        lines.append('iDeep: Not Available (not provided by this project)')
        return '\n'.join(lines) + '\n'


def _chainerx_state() -> str:
    try:
        import chainerx  # layout: optional[chainerx]
    except ImportError:
        return 'Not Available (install the chainerx distribution)'
    return 'Available' if chainerx.is_available() else 'Not Available'


def _get_runtime_info() -> _RuntimeInfo:
    return _RuntimeInfo()


def print_runtime_info(out: IO[Any] | None = None) -> None:
    """Print the platform and the versions of Python, Chainer, NumPy and CuPy.

    Args:
        out: a text stream (default: ``sys.stdout``).
    """
    if out is None:
        out = sys.stdout
    out.write(str(_get_runtime_info()))
    if hasattr(out, 'flush'):
        out.flush()
