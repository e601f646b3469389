import io

import pytest
from _training_helpers import FakeUpdater

from chainer import training
from chainer.training import extensions


def test_output(tmp_path):
    trainer = training.Trainer(FakeUpdater(per_epoch=4), (2, 'epoch'), out=str(tmp_path))
    out = io.StringIO()
    trainer.extend(extensions.ProgressBar(update_interval=2, bar_length=8, out=out))
    trainer.run()
    frames = out.getvalue().split('\x1b[4A')
    assert len(frames) == 5  # updates at iterations 2, 4, 6, 8, then the final erase
    assert frames[-1] == '\x1b[J'
    first = frames[0].split('\n')
    assert first[0] == '\x1b[J     total [##......]  25.00%'
    assert first[1] == 'this epoch [####....]  50.00%'
    assert first[2] == '         2 iter, 0 epoch / 2 epochs'
    assert 'iters/sec. Estimated time to finish: ' in first[3]
    last = frames[3].split('\n')
    assert last[0] == '\x1b[J     total [########] 100.00%'
    assert last[1] == 'this epoch [........]   0.00%'
    assert last[2] == '         8 iter, 2 epoch / 2 epochs'
    assert last[3].endswith('Estimated time to finish: 0:00:00.')


def test_training_length_from_argument(tmp_path):
    trainer = training.Trainer(FakeUpdater(), lambda tr: tr.updater.iteration >= 3,
                               out=str(tmp_path))
    out = io.StringIO()
    trainer.extend(extensions.ProgressBar((3, 'iteration'), update_interval=3, bar_length=3,
                                          out=out))
    trainer.run()
    assert out.getvalue().startswith('\x1b[J     total [###] 100.00%\n')
    assert '         3 iter, 0 epoch / 3 iterations\n' in out.getvalue()


def test_unknown_training_length(tmp_path):
    trainer = training.Trainer(FakeUpdater(), lambda tr: tr.updater.iteration >= 3,
                               out=str(tmp_path))
    trainer.extend(extensions.ProgressBar(out=io.StringIO()))
    with pytest.raises(TypeError, match='training_length'):
        trainer.run(show_loop_exception_msg=False)


def test_bad_arguments():
    with pytest.raises(ValueError):
        extensions.ProgressBar(update_interval=0)
    with pytest.raises(ValueError):
        extensions.ProgressBar(bar_length=0)
