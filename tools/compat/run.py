"""Compare this project with Chainer 7.8.1 on the same inputs: outputs and gradients.

Usage: ``python tools/compat/run.py [CASES_FILE ...] [--only NAME ...] [--rtol R]``
(``nox -s compat`` passes its arguments here). Each case file under
tools/compat/cases/ runs in both envs (the project's from its wheels, Chainer
7.8.1's as the benchmark builds it: tools/bench/envs.py); the table lists every
case as ``ok``, ``DIFF`` (with the largest difference), or ``error`` on either side.
This project runs from its source tree (``packages/*/src`` on ``PYTHONPATH``) with the
current interpreter; Chainer 7.8.1 runs in the benchmark's env (``.bench/chainer781``,
built on first use). It is a development tool, not a test: Chainer 7.8.1 builds only
with numpy<2, so it cannot share an env with anything modern.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / 'bench'))

from envs import prepare  # noqa: E402

ROOT = HERE.parent.parent


def _run(python: Path, cases: Path, out: Path, only: list[str],
         pythonpath: str = '') -> dict[str, np.ndarray]:
    env = {'PATH': '/usr/bin:/bin', 'OMP_NUM_THREADS': '1'}
    if pythonpath:
        env['PYTHONPATH'] = pythonpath
    subprocess.run([str(python), str(HERE / 'worker.py'), str(cases), str(out), *only],
                   check=True, env=env)
    with np.load(out, allow_pickle=False) as data:
        return {k: data[k] for k in data.files}


def compare(ours: dict[str, np.ndarray], ref: dict[str, np.ndarray], rtol: float,
            atol: float) -> list[tuple[str, str, str]]:
    """One ``(case, status, detail)`` row per case."""
    names = sorted({k.split('/')[0] for k in list(ours) + list(ref)})
    rows = []
    for name in names:
        a = {k.split('/', 1)[1]: v for k, v in ours.items() if k.startswith(name + '/')}
        b = {k.split('/', 1)[1]: v for k, v in ref.items() if k.startswith(name + '/')}
        if 'error' in a or 'error' in b:
            if 'error' in a and 'error' in b:
                rows.append((name, 'both raise', f'{a["error"]} | {b["error"]}'))
            else:
                side = 'ours' if 'error' in a else 'chainer 7.8.1'
                rows.append((name, f'error ({side})', str(a.get('error', b.get('error')))))
            continue
        problems = []
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                problems.append(f'{key} only in {"ours" if key in a else "chainer 7.8.1"}')
                continue
            x, y = a[key], b[key]
            if x.shape != y.shape:
                problems.append(f'{key} shape {x.shape} vs {y.shape}')
            elif x.dtype != y.dtype:
                problems.append(f'{key} dtype {x.dtype} vs {y.dtype}')
            elif x.dtype.kind in 'fc':
                if not np.allclose(x, y, rtol=rtol, atol=atol, equal_nan=True):
                    problems.append(f'{key} max |diff| {np.nanmax(np.abs(x - y)):.3g}')
            elif not np.array_equal(x, y):
                problems.append(f'{key} values differ')
        rows.append((name, 'DIFF' if problems else 'ok', '; '.join(problems)))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('cases', nargs='*', type=Path)
    parser.add_argument('--only', nargs='*', default=[])
    parser.add_argument('--rtol', type=float, default=1e-4)
    parser.add_argument('--atol', type=float, default=1e-5)
    args = parser.parse_args()
    files = args.cases or sorted((HERE / 'cases').glob('*.py'))
    reference = prepare('chainer781', ROOT / '.bench', ROOT, None)
    sources = ':'.join(str(p) for p in sorted((ROOT / 'packages').glob('*/src')))
    total = {'ok': 0, 'other': 0}
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            ours = _run(Path(sys.executable), path, Path(tmp) / 'ours.npz', args.only,
                        sources)
            ref = _run(reference, path, Path(tmp) / 'ref.npz', args.only)
            print(f'== {path.name}')
            for name, status, detail in compare(ours, ref, args.rtol, args.atol):
                total['ok' if status in ('ok', 'both raise') else 'other'] += 1
                print(f'  {name:40s} {status:22s} {detail}')
    print(f'{total["ok"]} agree, {total["other"]} differ or fail on one side')
    return 0


if __name__ == '__main__':
    sys.exit(main())
