"""Every public function gives the same outputs with and without backprop.

Some functions take a shorter path when no graph is built (``no_backprop_mode``:
evaluation loops), e.g. max pooling computes only the maxima; this test runs each
function of ``fuzz_specs`` on its valid call both ways and compares the outputs.
"""

from __future__ import annotations

from typing import Any

import numpy
import pytest
from fuzz_specs import base_call, public_functions

import chainer
import chainer.functions as F


def _outputs(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
    numpy.random.seed(0)  # the random functions draw the same numbers each time
    with numpy.errstate(all='ignore'):
        result = getattr(F, name)(*args, **kwargs)
    outs = result if isinstance(result, (tuple, list)) else (result,)
    return [o.array if isinstance(o, chainer.Variable) else o for o in outs]


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, numpy.ndarray) and isinstance(b, numpy.ndarray):
        return a.shape == b.shape and a.dtype == b.dtype and numpy.array_equal(
            a, b, equal_nan=a.dtype.kind in 'fc')
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b)


@pytest.mark.parametrize('name', public_functions())
def test_outputs_do_not_depend_on_backprop(name: str) -> None:
    args, kwargs = base_call(name)
    # float arrays as Variables that require a gradient, so that a graph is built
    wrapped = tuple(chainer.Variable(a) if isinstance(a, numpy.ndarray) and a.dtype.kind == 'f'
                    else a for a in args)
    with_graph = _outputs(name, wrapped, kwargs)
    with chainer.no_backprop_mode():
        without = _outputs(name, wrapped, kwargs)
    assert len(with_graph) == len(without)
    for i, (a, b) in enumerate(zip(with_graph, without, strict=True)):
        assert _same(a, b), f'F.{name}: output {i} differs without backprop'
