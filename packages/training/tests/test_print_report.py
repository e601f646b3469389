import io

import pytest
from _training_helpers import FakeUpdater

from chainer import training
from chainer.training import extensions


def run(tmp_path, entries, log_report='LogReport', register=True):
    trainer = training.Trainer(FakeUpdater(per_epoch=2), (2, 'epoch'), out=str(tmp_path))
    out = io.StringIO()
    lr = extensions.LogReport(log_name=None)
    if register:
        trainer.extend(lr)
    trainer.extend(extensions.PrintReport(entries, log_report=lr if not register else log_report,
                                          out=out))
    trainer.run()
    return out.getvalue()


def test_table_output(tmp_path):
    text = run(tmp_path, ['epoch', 'iteration', 'value', 'a_rather_long_entry_name'])
    lines = text.split('\n')
    assert lines[0] == 'epoch       iteration   value       a_rather_long_entry_name'
    assert lines[1] == '\x1b[J1           2           1.5'
    assert lines[2] == '\x1b[J2           4           3.5'
    assert lines[3] == ''
    assert len(lines) == 4


def test_log_report_instance_not_registered(tmp_path):
    text = run(tmp_path, ['epoch', 'value'], register=False)
    assert text.split('\n')[1:3] == ['\x1b[J1           1.5', '\x1b[J2           3.5']


def test_missing_log_report(tmp_path):
    trainer = training.Trainer(FakeUpdater(), (1, 'iteration'), out=str(tmp_path))
    trainer.extend(extensions.PrintReport(['epoch'], out=io.StringIO()))
    with pytest.raises(ValueError, match='LogReport'):
        trainer.run(show_loop_exception_msg=False)
