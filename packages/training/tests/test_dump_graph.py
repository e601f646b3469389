
import pytest
from _training_helpers import FakeUpdater, make_trainer

import chainer
from chainer import training
from chainer.training import extensions


def test_writes_dot_file_once(tmp_path):
    trainer, _, _ = make_trainer(tmp_path, stop=(3, 'iteration'))
    trainer.extend(extensions.DumpGraph('main/loss'))
    trainer.run()
    text = (tmp_path / 'cg.dot').read_text()
    assert text.startswith('digraph')
    assert 'octagon' in text and 'record' in text
    assert chainer.config.keep_graph_on_report is False
    assert trainer.get_extension('dump_graph')._flag_called


def test_keeps_graph_only_until_the_dump(tmp_path):
    seen = []
    trainer, _, _ = make_trainer(tmp_path, stop=(2, 'iteration'))
    ext = extensions.DumpGraph('absent')
    trainer.extend(ext)
    trainer.extend(lambda tr: seen.append(chainer.config.keep_graph_on_report), name='spy',
                   priority=training.PRIORITY_WRITER + 10)
    with pytest.raises(KeyError, match='absent'):
        trainer.run(show_loop_exception_msg=False)
    assert seen == [True]
    assert chainer.config.keep_graph_on_report is False


def test_root_must_be_a_variable(tmp_path):
    trainer = training.Trainer(FakeUpdater(), (1, 'iteration'), out=str(tmp_path))
    trainer.extend(extensions.dump_graph('value'))
    with pytest.raises(TypeError, match='not a Variable'):
        trainer.run(show_loop_exception_msg=False)


def test_bad_kwargs_and_deprecated_name():
    assert extensions.DumpGraph('x', out_name='a.dot')._filename == 'a.dot'
    with pytest.raises(TypeError):
        extensions.DumpGraph('x', bad=1)


def test_renders_png_with_graphviz_when_available(tmp_path, monkeypatch):
    from chainer.training.extensions import computational_graph as cg

    calls = []

    def fake_run(args, check, stdout):
        calls.append(args)
        with open(args[args.index('-o') + 1], 'wb') as f:
            f.write(b'\x89PNG')

    monkeypatch.setattr(cg.shutil, 'which', lambda name: '/usr/bin/dot')
    monkeypatch.setattr(cg.subprocess, 'run', fake_run)
    assert cg.is_graphviz_available()
    trainer, _, _ = make_trainer(tmp_path, stop=(1, 'iteration'))
    trainer.extend(extensions.DumpGraph('main/loss', filename='graph.dot'))
    trainer.run()
    assert (tmp_path / 'graph.png').read_bytes() == b'\x89PNG'
    assert calls[0][:3] == ['dot', '-Tpng', str(tmp_path / 'graph.dot')]
    monkeypatch.setattr(cg.shutil, 'which', lambda name: None)
    assert not cg.is_graphviz_available()
