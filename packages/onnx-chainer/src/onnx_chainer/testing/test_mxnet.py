"""Chainer 7.8.1 could check exports in MXNet; MXNet is retired (Apache attic, 2023)."""

from __future__ import annotations

from collections.abc import Sequence


def check_model_expect(test_path: str, input_names: Sequence[str] | None = None) -> None:
    """Not available: MXNet is retired and does not install on today's Python.

    Raises:
        RuntimeError: always; use ``onnx_chainer.testing.test_onnxruntime``.
    """
    raise RuntimeError('MXNet is retired and cannot run here: check exports with '
                       'onnx_chainer.testing.test_onnxruntime.check_model_expect')
