"""The opsets onnx_chainer exports to."""

from __future__ import annotations

import onnx.defs

from onnx_chainer.functions.opset_version import UnsupportedOpsetError

# The lowest opset (Chainer 7.8.1's lowest too).
MINIMUM_OPSET_VERSION = 7
# The newest opset the converters were written and tested for; the usable maximum is
# this or the installed onnx's newest, whichever is lower.
NEWEST_KNOWN_OPSET_VERSION = 28
MAXIMUM_OPSET_VERSION = min(NEWEST_KNOWN_OPSET_VERSION, onnx.defs.onnx_opset_version())
# The default: the newest opset that every onnxruntime this package supports (1.17 and
# newer) runs, so that an exported model loads in today's deployed runtimes.
DEFAULT_OPSET_VERSION = min(20, MAXIMUM_OPSET_VERSION)


def resolve(opset_version: int | None) -> int:
    """The opset to export to: ``opset_version``, or the default when None.

    Raises:
        ValueError: when ``opset_version`` is outside the supported range.
    """
    if opset_version is None:
        return DEFAULT_OPSET_VERSION
    if isinstance(opset_version, bool):
        raise TypeError(f'opset_version must be an int, not {opset_version!r}')
    if not isinstance(opset_version, int):
        try:
            as_int = int(opset_version)
        except (TypeError, ValueError):
            raise TypeError(f'opset_version must be an int, not {opset_version!r}') from None
        if as_int != opset_version:
            raise TypeError(f'opset_version must be an int, not {opset_version!r}')
        opset_version = as_int
    if not MINIMUM_OPSET_VERSION <= opset_version <= MAXIMUM_OPSET_VERSION:
        raise UnsupportedOpsetError(
            f'opset_version {opset_version} is not supported: onnx_chainer exports opsets '
            f'{MINIMUM_OPSET_VERSION} to {MAXIMUM_OPSET_VERSION} (the newest the installed '
            f'onnx {onnx.__version__} and onnx_chainer both know)')
    return opset_version
