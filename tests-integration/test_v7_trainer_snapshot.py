"""A trainer snapshot written by Chainer 7.8.1 resumes here to 7.8.1's parameters and log.

``data/v7_trainer_snapshot_10``, ``data/v7_trainer_final.npz`` and
``data/v7_trainer_log.json`` were written by Chainer 7.8.1 running
``data/make_v7_trainer_snapshot.py`` (see its docstring).
"""

import importlib.util
import json
import warnings
from pathlib import Path

import numpy
import pytest

import chainer

DATA = Path(__file__).resolve().parent / 'data'


def _v7_trainer_script():
    spec = importlib.util.spec_from_file_location(
        'make_v7_trainer_snapshot', DATA / 'make_v7_trainer_snapshot.py')
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_v7_trainer_snapshot_resumes_to_v7s_parameters_and_log(tmp_path):
    # a trainer snapshot written by Chainer 7.8.1 at iteration 10 (updater, Adam with
    # weight decay, iterator, LogReport, ExponentialShift, MicroAverage, observe_value,
    # OnceTrigger, MinValueTrigger, ManualScheduleTrigger): training continues to
    # iteration 20 as it did under 7.8.1
    script = _v7_trainer_script()
    trainer, model = script.build(str(tmp_path))
    with warnings.catch_warnings():
        warnings.simplefilter('error')  # every entry of the v7 file is understood
        chainer.serializers.load_npz(str(DATA / 'v7_trainer_snapshot_10'), trainer)
    assert trainer.updater.iteration == 10
    assert trainer.updater.get_optimizer('main').t == 10
    trainer.run()
    with numpy.load(DATA / 'v7_trainer_final.npz') as expected:
        for name, param in model.namedparams():
            numpy.testing.assert_allclose(param.array, expected[name], rtol=1e-6, atol=1e-7)
    log = json.loads((tmp_path / 'log').read_text())
    v7_log = json.loads((DATA / 'v7_trainer_log.json').read_text())
    assert [sorted(e) for e in log] == [sorted(e) for e in v7_log]
    for ours, theirs in zip(log, v7_log):
        for key, value in theirs.items():
            if key != 'elapsed_time':
                assert ours[key] == pytest.approx(value, rel=1e-6), key
