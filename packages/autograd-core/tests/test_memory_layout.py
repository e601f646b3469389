"""Every public function gives the same outputs and gradients whatever the memory
layout of its input arrays: C order, Fortran order, or a negatively strided view.

Fast paths that index a flat view of an array (``a.reshape(-1)[idx] -= v``) or
assume C-contiguous strides silently lose or misplace values on other layouts; this
test runs each function of ``fuzz_specs`` on its valid call three ways and compares.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy
import pytest
from fuzz_specs import base_call, public_functions

import chainer
import chainer.functions as F

LAYOUTS: dict[str, Callable[[numpy.ndarray], numpy.ndarray]] = {
    'fortran': numpy.asfortranarray,
    # the same values read backwards from a reversed copy: negative strides
    'reversed': lambda a: a[(slice(None, None, -1),) * a.ndim].copy()[
        (slice(None, None, -1),) * a.ndim],
}


# functions whose result is defined by the memory layout itself
LAYOUT_DEFINED = {'as_strided'}


def _float_array(value: Any) -> bool:
    return (isinstance(value, numpy.ndarray) and value.dtype.kind == 'f'
            and value.ndim >= 1 and value.size > 1)


def _run(name: str, args: tuple[Any, ...], kwargs: dict[str, Any],
         relayout: Callable[[numpy.ndarray], numpy.ndarray] | None
         ) -> tuple[list[numpy.ndarray], list[numpy.ndarray | None]] | None:
    """Outputs and input gradients of ``F.<name>`` (float arrays become Variables);
    None when the call does not give float Variables to differentiate."""
    variables = []

    def wrap(value: Any) -> Any:
        if _float_array(value):
            array = value if relayout is None else relayout(value)
            assert numpy.array_equal(array, value)
            v = chainer.Variable(array)
            variables.append(v)
            return v
        return value

    call_args = tuple(wrap(a) for a in args)
    call_kwargs = {k: wrap(v) for k, v in kwargs.items()}
    if not variables:
        return None
    with numpy.errstate(all='ignore'):
        result = getattr(F, name)(*call_args, **call_kwargs)
        outs = result if isinstance(result, (tuple, list)) else (result,)
        outs = [o for o in outs if isinstance(o, chainer.Variable)
                and o.dtype.kind == 'f' and o.size]
        if not outs:
            return None
        # a fixed, position-dependent weighting so that misplaced gradients show
        loss = sum(F.sum(o * numpy.linspace(0.5, 1.5, o.size, dtype=o.dtype).reshape(o.shape))
                   for o in outs)
        loss.backward()
    return [o.array for o in outs], [v.grad for v in variables]


def _same(a: list[Any], b: list[Any]) -> bool:
    return all((x is None and y is None) or (
        x is not None and y is not None
        and numpy.allclose(x, y, rtol=1e-5, atol=1e-6, equal_nan=True))
        for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize('layout', sorted(LAYOUTS))
@pytest.mark.parametrize('name', public_functions())
def test_layout_does_not_change_results(name: str, layout: str) -> None:
    if name in LAYOUT_DEFINED:
        pytest.skip('the result is defined by the memory layout')
    args, kwargs = base_call(name)
    reference = _run(name, args, kwargs, None)
    if reference is None:
        pytest.skip('no float array input and output to compare')
    again = _run(name, args, kwargs, None)
    if not (_same(reference[0], again[0]) and _same(reference[1], again[1])):
        pytest.skip('a random function: no fixed result to compare')
    outs, grads = _run(name, args, kwargs, LAYOUTS[layout])
    assert _same(reference[0], outs), f'F.{name}: outputs differ on {layout} inputs'
    assert _same(reference[1], grads), f'F.{name}: gradients differ on {layout} inputs'
