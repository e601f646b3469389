import json

import pytest
from _training_helpers import FakeUpdater, make_trainer

from chainer import training
from chainer.training import extensions


def run_fake(tmp_path, stop, **log_kwargs):
    trainer = training.Trainer(FakeUpdater(per_epoch=4), stop, out=str(tmp_path))
    log_report = extensions.LogReport(**log_kwargs)
    trainer.extend(log_report)
    trainer.run()
    return trainer, log_report


def strip_time(entries):
    for e in entries:
        assert isinstance(e['elapsed_time'], float) and e['elapsed_time'] >= 0
    return [{k: v for k, v in e.items() if k != 'elapsed_time'} for e in entries]


def test_epoch_means_written_as_json(tmp_path):
    _, log_report = run_fake(tmp_path, (2, 'epoch'))
    with open(tmp_path / 'log') as f:
        written = json.load(f)
    assert written == log_report.log
    assert strip_time(written) == [
        {'value': 2.5, 'epoch': 1, 'iteration': 4},  # mean of 1, 2, 3, 4
        {'value': 6.5, 'epoch': 2, 'iteration': 8},  # mean of 5, 6, 7, 8
    ]
    assert written[0]['elapsed_time'] <= written[1]['elapsed_time']
    assert [p.name for p in tmp_path.iterdir()] == ['log']  # no temporary files left


def test_iteration_trigger_keys_postprocess_and_filename(tmp_path):
    def post(entry):
        entry['twice'] = entry['value'] * 2

    _, log_report = run_fake(
        tmp_path, (6, 'iteration'), keys=['value', 'absent'], trigger=(3, 'iteration'),
        postprocess=post, filename='log_{iteration}.json')
    assert strip_time(log_report.log) == [
        {'value': 2.0, 'epoch': 0, 'iteration': 3, 'twice': 4.0},
        {'value': 5.0, 'epoch': 1, 'iteration': 6, 'twice': 10.0},
    ]
    assert (tmp_path / 'log_3.json').exists()
    with open(tmp_path / 'log_6.json') as f:
        assert len(json.load(f)) == 2


def test_keys_filter_out_other_values(tmp_path):
    _, log_report = run_fake(tmp_path, (1, 'epoch'), keys=['other'])
    assert strip_time(log_report.log) == [{'epoch': 1, 'iteration': 4}]


def test_log_name_none_disables_writing(tmp_path):
    _, log_report = run_fake(tmp_path, (1, 'epoch'), log_name=None)
    assert len(log_report.log) == 1
    assert list(tmp_path.iterdir()) == []


def test_unknown_kwarg():
    with pytest.raises(TypeError):
        extensions.LogReport(unknown=1)


def test_with_real_model(tmp_path):
    trainer, _, _ = make_trainer(tmp_path, stop=(2, 'epoch'))
    trainer.extend(extensions.LogReport())
    trainer.run()
    log = trainer.get_extension('LogReport').log
    assert [e['epoch'] for e in log] == [1, 2]
    assert set(log[0]) == {'main/loss', 'main/accuracy', 'epoch', 'iteration', 'elapsed_time'}
    assert 0 <= log[1]['main/accuracy'] <= 1
