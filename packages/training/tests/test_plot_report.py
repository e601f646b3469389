import sys
import warnings

import pytest
from _training_helpers import FakeUpdater

from chainer import training
from chainer.training import extensions


def run(tmp_path, **kwargs):
    trainer = training.Trainer(FakeUpdater(per_epoch=2), (3, 'epoch'), out=str(tmp_path))
    plot = extensions.PlotReport(['value'], **kwargs)
    trainer.extend(plot)
    trainer.run()
    return plot


def test_writes_png(tmp_path):
    pytest.importorskip('matplotlib')
    assert extensions.PlotReport.available()
    calls = []

    def post(figure, axes, summary):
        calls.append(axes.get_xlabel())

    plot = run(tmp_path, x_key='epoch', filename='value.png', postprocess=post)
    with open(tmp_path / 'value.png', 'rb') as f:
        assert f.read(8) == b'\x89PNG\r\n\x1a\n'
    assert plot._data == {'value': [(1, 1.5), (2, 3.5), (3, 5.5)]}
    assert calls == ['epoch'] * 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ['value.png']


def test_deprecated_file_name_and_default(tmp_path):
    pytest.importorskip('matplotlib')
    run(tmp_path / 'a', file_name='old.png')
    assert (tmp_path / 'a' / 'old.png').exists()
    run(tmp_path / 'b', trigger=(1, 'iteration'))
    assert (tmp_path / 'b' / 'plot.png').exists()


def test_missing_matplotlib(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, 'matplotlib', None)  # makes `import matplotlib` fail
    with pytest.warns(UserWarning, match='pip install matplotlib') as record:
        assert extensions.PlotReport.available() is False
    assert 'chainer-training[plot]' in str(record[0].message)
    with pytest.warns(UserWarning, match='matplotlib is not installed'):
        run(tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_bad_arguments():
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        with pytest.raises(ValueError):
            extensions.PlotReport(['a'], x_key='time')
        with pytest.raises(TypeError):
            extensions.PlotReport(['a'], bad=1)


def test_format_follows_extension(tmp_path):
    pytest.importorskip('matplotlib')
    run(tmp_path, filename='value.svg')
    assert (tmp_path / 'value.svg').read_text().lstrip().startswith('<?xml')
