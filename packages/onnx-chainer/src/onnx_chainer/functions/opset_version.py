"""The ``support`` decorator: which opsets a converter has a form for."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from onnx import NodeProto

from onnx_chainer.context import Context

ConverterFunc = Callable[..., Any]


class UnsupportedOpsetError(ValueError):
    """The function cannot be exported at the requested opset."""


def support(opset_versions: Sequence[int]) -> Callable[[ConverterFunc], ConverterFunc]:
    """Declare the opsets at which a converter's output changes.

    The decorated converter ``convert(func, opset_version, input_names, output_names,
    context)`` is called with the newest declared version that is not above the
    requested one, so it only branches on the versions it lists. A request below the
    first declared version raises :class:`UnsupportedOpsetError` (a ``ValueError``)
    naming the function and the opsets.

    Args:
        opset_versions: ascending opset numbers, the first being the lowest opset the
            converter supports.
    """
    versions = sorted(opset_versions)

    def decorator(converter: ConverterFunc) -> ConverterFunc:
        @functools.wraps(converter)
        def wrapped(func: Any, opset_version: int, input_names: list[str],
                    output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
            usable = [v for v in versions if v <= opset_version]
            if not usable:
                name = getattr(context, 'func_name', None) or type(func).__name__
                raise UnsupportedOpsetError(
                    f'{name} cannot be exported at opset {opset_version}: its converter '
                    f'needs opset {versions[0]} or newer')
            return converter(func, usable[-1], input_names, output_names, context)
        wrapped.opset_versions = tuple(versions)  # type: ignore[attr-defined]
        return wrapped
    return decorator
