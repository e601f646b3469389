"""Parameterized test classes: one generated class per parameter set.

``@parameterize({'a': 1}, {'a': 2})`` on ``class TestFoo`` creates
``TestFoo_param_0_{a=1}`` and ``TestFoo_param_1_{a=2}``, subclasses of
``TestFoo`` with the parameters as class attributes, and puts them in the
module of ``TestFoo``. As in Chainer v7, the name ``TestFoo`` is then bound to
a bundle listing the generated classes (``TestFoo.cases``), which pytest and
unittest do not collect. The decorators stack, with each other and with
:func:`~chainer.testing.inject_backend_tests`.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy

from chainer.testing._bundle import (
    Variant,
    _ParameterizedTestCaseBundle,
    as_bundle,
    generate_classes,
)

__all__ = [
    'from_pytest_parameterize',
    'parameterize',
    'parameterize_pytest',
    'product',
    'product_dict',
]

_NUMPY2 = int(numpy.__version__.split('.')[0]) >= 2


def _repr(value: Any) -> str:
    if _NUMPY2:
        # NumPy 2 writes scalars as np.float32(1.5); names stay those of NumPy 1 (1.5)
        with numpy.printoptions(legacy='1.25'):
            return repr(value)
    return repr(value)


def _format_value(value: Any) -> str:
    """How a parameter value reads in a generated class name (as v7 names them)."""
    if value is numpy.bool_:
        return 'bool_'  # NumPy 2 renamed it 'bool'; test names stay as under NumPy 1
    name = getattr(value, '__name__', None)
    text = name if isinstance(name, str) else _repr(value)
    # Long values keep their head and tail, as v7 shortens them.
    return text if len(text) <= 100 else text[:48] + '...' + text[-49:]


def _suffix(index: int, params: Mapping[str, Any]) -> str:
    body = ', '.join(f'{k}={_format_value(v)}' for k, v in sorted(params.items()))
    return f'_param_{index}_{{{body}}}'


def parameterize(*params: Mapping[str, Any]
                 ) -> Callable[[type | _ParameterizedTestCaseBundle],
                               _ParameterizedTestCaseBundle]:
    """Class decorator generating one test class per parameter dict.

    Each dict's items become class attributes of a generated subclass named
    ``<Class>_param_<i>_{key=value, ...}``; the subclasses are added to the
    module of the decorated class (pytest and unittest both find them). The
    decorator returns a bundle of them (its ``cases`` are ``(class, module name,
    name)`` tuples, as in v7), so the decorated name is no longer collected.

    Args:
        *params: dicts mapping attribute names to values (e.g. from
            :func:`product`).

    Example:
        >>> import unittest
        >>> from chainer import testing
        >>> def make_tests():
        ...     @testing.parameterize(*testing.product({'n': [1, 2], 'sign': [-1]}))
        ...     class TestNegate(unittest.TestCase):
        ...         def test_negative(self):
        ...             self.assertLess(self.sign * self.n, 0)
        ...     return TestNegate.cases
        >>> [(cls.n, cls.sign) for cls, module, name in make_tests()]
        [(1, -1), (2, -1)]
    """
    variants: list[Variant] = []
    for i, p in enumerate(params):
        if not isinstance(p, Mapping):
            raise TypeError(f'parameterize takes dicts, not {type(p).__name__} (argument {i})')
        variants.append((_suffix(i, p), dict(p), None))

    def decorator(target: type | _ParameterizedTestCaseBundle
                  ) -> _ParameterizedTestCaseBundle:
        return generate_classes(as_bundle(target, 'parameterize'), variants)

    return decorator


def _split_names(names: str) -> list[str]:
    """``'a, b'`` -> ``['a', 'b']``: the names of a (possibly joint) parameter."""
    return [n.strip() for n in names.split(',') if n.strip()]


def _values_to_dicts(names: str, values: Iterable[Any]) -> list[dict[str, Any]]:
    """The choices of one (possibly joint) parameter as a list of dicts.

    ``names`` is one name or several joined by commas; with several, each
    value is a tuple holding one value per name.
    """
    if not isinstance(names, str):
        raise TypeError(f'parameter names must be a str, not {type(names).__name__}')
    keys = _split_names(names)
    if not keys:
        raise ValueError(f'no parameter name in {names!r}')
    result = []
    for v in values:
        if len(keys) == 1:
            result.append({keys[0]: v})
            continue
        if not isinstance(v, (tuple, list)) or len(v) != len(keys):
            raise ValueError(f'{v!r} must hold one value per name of {names!r}')
        result.append(dict(zip(keys, v)))
    return result


def product(parameter: Mapping[str, Iterable[Any]] | Sequence[Sequence[Mapping[str, Any]]]
            ) -> list[dict[str, Any]]:
    """The cartesian product of parameter choices, as a list of dicts.

    Args:
        parameter: either a dict mapping each name to its list of values, or a
            list of lists of dicts (each product element merges one dict
            from each list). A dict key may join several names with commas
            (``'shape,dtype'``): its values are then tuples, one value per
            name, so that the names vary together.

    The keys are taken in sorted order and the last one varies fastest, so
    the generated classes are numbered as in Chainer v7.

    Example:
        >>> product({'a': [1, 2], 'b': [3]})
        [{'a': 1, 'b': 3}, {'a': 2, 'b': 3}]
        >>> product({'a,b': [(1, 2), (3, 4)]})
        [{'a': 1, 'b': 2}, {'a': 3, 'b': 4}]
        >>> product([[{'a': 1}, {'a': 2}], [{'b': 3, 'c': 4}]])
        [{'a': 1, 'b': 3, 'c': 4}, {'a': 2, 'b': 3, 'c': 4}]
    """
    # product_dict is looked up at call time: pairwise testing replaces it.
    module = sys.modules[__name__]
    if isinstance(parameter, Mapping):
        return module.product_dict(*[_values_to_dicts(names, values)
                                     for names, values in sorted(parameter.items())])
    if isinstance(parameter, Sequence) and not isinstance(parameter, str):
        if not all(isinstance(group, Sequence) and not isinstance(group, str)
                   for group in parameter):
            raise TypeError('product takes a list of lists of dicts')
        return module.product_dict(*parameter)
    raise TypeError('product takes a dict of lists or a list of lists of dicts, not '
                    f'{type(parameter).__name__}')


def _merge(dicts: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for d in dicts:
        if not isinstance(d, Mapping):
            raise TypeError(f'product_dict takes lists of dicts, not {type(d).__name__}')
        merged.update(d)
    return merged


def product_dict(*parameters: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The cartesian product of lists of dicts, each element merging one dict per list.

    Example:
        >>> product_dict([{'a': 1}, {'a': 2}], [{'b': 3}])
        [{'a': 1, 'b': 3}, {'a': 2, 'b': 3}]
    """
    return [_merge(combo) for combo in itertools.product(*parameters)]


# The full product, kept under this name while pairwise testing swaps product_dict.
_product_dict_orig = product_dict


def _pairwise_product_dict(*parameters: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Like :func:`product_dict`, but only enough combinations to cover every pair.

    Every pair of choices taken from two different lists appears in at least
    one combination (a covering array of strength 2, built greedily in
    parameter order). With fewer than three lists this is the full product.
    The result is deterministic.
    """
    groups = [list(p) for p in parameters]
    if len(groups) < 3 or any(not g for g in groups):
        return product_dict(*groups)
    rows = _pairwise_rows([len(g) for g in groups])
    return [_merge(groups[k][i] for k, i in enumerate(row)) for row in rows]


def _pairwise_rows(sizes: Sequence[int]) -> list[list[int]]:
    """Index rows covering every pair of values of every two columns (IPO strategy)."""
    rows: list[list[int | None]] = [[a, b] for a in range(sizes[0]) for b in range(sizes[1])]
    for k in range(2, len(sizes)):
        # Pairs (column j, value a) x (column k, value c) still to cover.
        missing = {(j, a, c) for j in range(k) for a in range(sizes[j]) for c in range(sizes[k])}
        # Horizontal growth: give each row the value of column k covering most pairs.
        for row in rows:
            best = max(range(sizes[k]), key=lambda c: (
                sum((j, row[j], c) in missing for j in range(k) if row[j] is not None), -c))
            row.append(best)
            missing -= {(j, row[j], best) for j in range(k) if row[j] is not None}
        # Vertical growth: fill free slots of rows added here, or add rows.
        added: list[list[int | None]] = []
        for j, a, c in sorted(missing):
            for row in added:
                if row[k] == c and row[j] is None:
                    row[j] = a
                    break
            else:
                row = [None] * (k + 1)
                row[j], row[k] = a, c
                added.append(row)
        rows.extend(added)
    return [[0 if v is None else v for v in row] for row in rows]


def from_pytest_parameterize(names: str | Sequence[str],
                             values: Iterable[Any]) -> list[dict[str, Any]]:
    """Turn ``pytest.mark.parametrize``-style arguments into a list of dicts.

    Args:
        names: comma-separated names (``'a,b'``) or a sequence of names.
        values: one value per entry for a single name, else one tuple per entry.
    """
    names = _split_names(names) if isinstance(names, str) else list(names)
    result = []
    for v in values:
        if len(names) == 1:
            v = (v,)
        v = tuple(v)
        if len(v) != len(names):
            raise ValueError(f'{v!r} has {len(v)} values for the {len(names)} names {names}')
        result.append(dict(zip(names, v)))
    return result


def parameterize_pytest(names: str | Sequence[str], values: Iterable[Any]
                        ) -> Callable[[type | _ParameterizedTestCaseBundle],
                                      _ParameterizedTestCaseBundle]:
    """:func:`parameterize` taking ``pytest.mark.parametrize``-style arguments."""
    return parameterize(*from_pytest_parameterize(names, values))
