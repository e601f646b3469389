"""The comparison of tools/compat/run.py: agreement, differences, one-sided errors."""

import importlib.util
import sys
from pathlib import Path

import numpy as np

_RUN = Path(__file__).resolve().parents[1] / 'compat' / 'run.py'
# loaded under its own name: tools/bench also has a run.py
_spec = importlib.util.spec_from_file_location('compat_run', _RUN)
_module = importlib.util.module_from_spec(_spec)
sys.path.insert(0, str(_RUN.parents[1] / 'bench'))
_spec.loader.exec_module(_module)
compare = _module.compare


def test_agreeing_and_differing_cases():
    ours = {'a/y0': np.ones(3), 'b/y0': np.ones(3), 'c/y0': np.arange(3),
            'd/gx0': np.ones(2, np.float32)}
    ref = {'a/y0': np.ones(3) + 1e-9, 'b/y0': np.ones(3) * 2, 'c/y0': np.arange(3),
           'd/gx0': np.ones(2, np.float64)}
    rows = {name: (status, detail) for name, status, detail in compare(ours, ref, 1e-4, 1e-5)}
    assert rows['a'][0] == 'ok' and rows['c'][0] == 'ok'
    assert rows['b'][0] == 'DIFF' and 'max |diff| 1' in rows['b'][1]
    assert rows['d'][0] == 'DIFF' and 'dtype' in rows['d'][1]


def test_errors_and_missing_keys():
    ours = {'e/error': np.array('ValueError: x'), 'f/y0': np.ones(1), 'g/error': np.array('E')}
    ref = {'e/y0': np.ones(1), 'f/y0': np.ones(1), 'f/gx0': np.ones(1), 'g/error': np.array('E')}
    rows = {name: (status, detail) for name, status, detail in compare(ours, ref, 1e-4, 1e-5)}
    assert rows['e'][0] == 'error (ours)'
    assert rows['f'][0] == 'DIFF' and 'gx0 only in chainer 7.8.1' in rows['f'][1]
    assert rows['g'][0] == 'both raise'
