"""Run compatibility cases in one framework's env and write their results (npz).

Invoked by run.py as ``python worker.py CASES_FILE OUT.npz [NAME ...]`` with the
interpreter of the env under test (this project, or Chainer 7.8.1).

A case file defines functions ``case_<name>(F, np, rng)`` returning
``(function, inputs, kwargs)`` or ``(function, inputs, kwargs, options)``: the
function is applied to Variables made from ``inputs`` (arrays; ``None`` entries
and non-float arrays are passed as they are, without gradient) with ``kwargs``.
Options: ``backward`` (default True), ``outputs`` (indexes of outputs that get a
gradient, default all float outputs).
"""

from __future__ import annotations

import importlib.util
import sys
import traceback

import numpy as np


def _load(path: str):
    spec = importlib.util.spec_from_file_location('compat_cases', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _array(y):
    y = getattr(y, 'array', y)
    if hasattr(y, 'get'):
        y = y.get()
    return np.asarray(y)


def run_case(chainer, F, case) -> dict[str, np.ndarray]:
    rng = np.random.RandomState(0)
    spec = case(F, np, rng)
    fn, inputs, kwargs = spec[:3]
    options = spec[3] if len(spec) > 3 else {}
    xs = []
    for x in inputs:
        if isinstance(x, np.ndarray) and x.dtype.kind == 'f':
            xs.append(chainer.Variable(x.copy()))
        else:
            xs.append(x)
    ys = fn(*xs, **kwargs)
    ys = ys if isinstance(ys, (tuple, list)) else (ys,)
    result = {}
    for i, y in enumerate(ys):
        result[f'y{i}'] = _array(y)
    if options.get('backward', True):
        grng = np.random.RandomState(1)
        targets = options.get('outputs')
        pairs = []
        for i, y in enumerate(ys):
            if not isinstance(y, chainer.Variable) or y.array.dtype.kind != 'f':
                continue
            if targets is not None and i not in targets:
                continue
            pairs.append((y, grng.uniform(-1, 1, y.shape).astype(y.dtype)))
        if pairs:
            for y, gy in pairs:
                y.grad = gy
            chainer.backward([y for y, _ in pairs], [chainer.Variable(g) for _, g in pairs])
        for i, x in enumerate(xs):
            if isinstance(x, chainer.Variable) and x.grad is not None:
                result[f'gx{i}'] = _array(x.grad)
    return result


def main() -> None:
    cases_file, out = sys.argv[1], sys.argv[2]
    names = sys.argv[3:]
    import chainer
    import chainer.functions as F

    module = _load(cases_file)
    results: dict[str, np.ndarray] = {}
    for attr in sorted(dir(module)):
        if not attr.startswith('case_'):
            continue
        name = attr[5:]
        if names and name not in names:
            continue
        try:
            for key, value in run_case(chainer, F, getattr(module, attr)).items():
                results[f'{name}/{key}'] = value
        except Exception as e:  # reported, compared as an outcome
            msg = ''.join(traceback.format_exception_only(type(e), e)).strip()
            results[f'{name}/error'] = np.array(f'{type(e).__name__}: {msg[:300]}')
    np.savez(out, **results)


if __name__ == '__main__':
    main()
