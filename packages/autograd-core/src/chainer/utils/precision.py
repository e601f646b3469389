"""Mixed-precision helpers for functions that compute half-precision inputs in float32."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy

__all__: list[str] = []

_HALF = numpy.dtype(numpy.float16)
_SINGLE = numpy.dtype(numpy.float32)


def _fp16_mixed_precision_helper(fn: Callable[[Any, tuple[Any, ...]], Any]
                                 ) -> Callable[[Any, tuple[Any, ...]], Any]:
    """Decorate ``forward(self, inputs)`` to compute float16 inputs in float32.

    When some input is float16, the float16 inputs are passed to ``fn`` cast
    to float32 (other inputs as they are) and the float32 outputs are cast
    back to float16; ``None`` outputs stay ``None``. Without float16 inputs
    ``fn`` receives the inputs themselves and its outputs are returned as
    they are.
    """
    @functools.wraps(fn)
    def forward(self: Any, inputs: tuple[Any, ...]) -> Any:
        if not any(x is not None and x.dtype == _HALF for x in inputs):
            return fn(self, inputs)
        cast = tuple(x.astype(_SINGLE) if x is not None and x.dtype == _HALF else x
                     for x in inputs)
        outputs = fn(self, cast)
        return tuple(y.astype(_HALF) if y is not None and y.dtype == _SINGLE else y
                     for y in outputs)

    return forward
