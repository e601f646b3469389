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
    # every cell keeps its padding (width + 2), as Chainer v7 prints it; a missing value
    # is a blank cell
    blank = ' ' * (len('a_rather_long_entry_name') + 2)
    assert lines[1] == '\x1b[J' + '1'.ljust(12) + '2'.ljust(12) + '1.5'.ljust(12) + blank
    assert lines[2] == '\x1b[J' + '2'.ljust(12) + '4'.ljust(12) + '3.5'.ljust(12) + blank
    assert lines[3] == ''
    assert len(lines) == 4


def test_log_report_instance_not_registered(tmp_path):
    text = run(tmp_path, ['epoch', 'value'], register=False)
    assert text.split('\n')[1:3] == ['\x1b[J' + '1'.ljust(12) + '1.5'.ljust(12),
                                      '\x1b[J' + '2'.ljust(12) + '3.5'.ljust(12)]


def test_missing_log_report(tmp_path):
    trainer = training.Trainer(FakeUpdater(), (1, 'iteration'), out=str(tmp_path))
    trainer.extend(extensions.PrintReport(['epoch'], out=io.StringIO()))
    with pytest.raises(ValueError, match='LogReport'):
        trainer.run(show_loop_exception_msg=False)


class _WriteOnly:
    """A stream with ``write`` and nothing else, as some user loggers are."""

    def __init__(self):
        self.parts = []

    def write(self, text):
        self.parts.append(text)


def test_stream_without_flush(tmp_path):
    trainer = training.Trainer(FakeUpdater(per_epoch=2), (1, 'epoch'), out=str(tmp_path))
    out = _WriteOnly()
    trainer.extend(extensions.LogReport(log_name=None))
    trainer.extend(extensions.PrintReport(['epoch', 'value'], out=out))
    trainer.run()
    assert ''.join(out.parts).split('\n')[1] == '\x1b[J' + '1'.ljust(12) + '1.5'.ljust(12)
