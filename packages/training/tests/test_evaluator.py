import numpy
import pytest
from _training_helpers import make_data, make_model, make_trainer, params

import chainer
import chainer.functions as F
from chainer import training
from chainer.iterators import SerialIterator
from chainer.training import extensions


def reference_metrics(model, data, batch_size):
    losses, accs = [], []
    for start in range(0, len(data), batch_size):
        batch = data[start:start + batch_size]
        x = numpy.stack([b[0] for b in batch])
        t = numpy.array([b[1] for b in batch])
        y = x @ model.predictor.W.array.T + model.predictor.b.array
        y = y - y.max(axis=1, keepdims=True)
        logp = y - numpy.log(numpy.exp(y).sum(axis=1, keepdims=True))
        losses.append(-logp[numpy.arange(len(t)), t].mean())
        accs.append((y.argmax(axis=1) == t).mean())
    return numpy.mean(losses), numpy.mean(accs)


def test_reports_validation_metrics_without_changing_params():
    model = make_model()
    data = make_data(n=30, seed=1)
    it = SerialIterator(data, 10, repeat=False, shuffle=False)
    evaluator = extensions.Evaluator(it, model)
    evaluator.name = 'validation'
    model.cleargrads()
    before = params(model)
    reporter = chainer.Reporter()
    observation = {}
    with reporter.scope(observation):
        result = evaluator()
    loss, acc = reference_metrics(model, data, 10)
    assert set(result) == {'validation/main/loss', 'validation/main/accuracy'}
    numpy.testing.assert_allclose(float(result['validation/main/loss']), loss, rtol=1e-5)
    numpy.testing.assert_allclose(float(result['validation/main/accuracy']), acc, rtol=1e-6)
    assert set(observation) == set(result)
    for name, value in before.items():
        numpy.testing.assert_array_equal(params(model)[name], value)
        assert dict(model.namedparams())[name].grad is None
    # The iterator is reset, so a second evaluation gives the same numbers.
    with reporter.scope({}):
        again = evaluator()
    assert float(again['validation/main/loss']) == float(result['validation/main/loss'])


def test_test_mode_and_no_graph():
    seen = []

    def eval_func(x, t):
        seen.append((chainer.config.train, chainer.config.enable_backprop))
        y = F.sum(chainer.Variable(x))
        assert y.creator is None
        chainer.report({'y': y})

    it = SerialIterator(make_data(n=10), 5, repeat=False, shuffle=False)
    evaluator = extensions.Evaluator(it, make_model(), eval_func=eval_func)
    hooks = []
    evaluator.eval_hook = hooks.append
    with chainer.Reporter().scope({}):
        result = evaluator()
    assert seen == [(False, False), (False, False)]
    assert hooks == [evaluator]
    assert set(result) == {'y'}  # reported without an observer: no prefix
    assert chainer.config.train and chainer.config.enable_backprop


def test_inside_trainer(tmp_path):
    trainer, model, _ = make_trainer(tmp_path, stop=(2, 'epoch'))
    val = make_data(n=20, seed=3)
    trainer.extend(extensions.Evaluator(SerialIterator(val, 20, repeat=False, shuffle=False),
                                        model))
    trainer.extend(extensions.LogReport())
    trainer.run()
    log = trainer.get_extension('LogReport').log
    assert len(log) == 2
    assert {'validation/main/loss', 'validation/main/accuracy'} <= set(log[-1])
    loss, acc = reference_metrics(model, val, 20)
    numpy.testing.assert_allclose(log[-1]['validation/main/loss'], loss, rtol=1e-5)
    numpy.testing.assert_allclose(log[-1]['validation/main/accuracy'], acc)
    assert trainer.get_extension('validation').default_name == 'validation'


def test_repeat_iterator_warns_and_bad_kwargs():
    with pytest.warns(UserWarning, match='repeat'):
        extensions.Evaluator(SerialIterator(make_data(), 5), make_model())
    with pytest.raises(TypeError):
        extensions.Evaluator(SerialIterator(make_data(), 5, repeat=False), make_model(), bad=1)


def test_default_attributes():
    assert extensions.Evaluator.trigger == (1, 'epoch')
    assert extensions.Evaluator.priority == training.PRIORITY_WRITER


def test_progress_bar_shows_the_share_of_the_dataset(capsys):
    model = make_model()
    it = SerialIterator(make_data(n=30, seed=1), 10, repeat=False, shuffle=False)
    evaluator = extensions.Evaluator(it, model, progress_bar=True)
    with chainer.Reporter():
        evaluator()
    out = capsys.readouterr().out
    assert 'validation' in out and '33.33%' in out and '100.00%' in out
    assert 'iters/sec' in out
    quiet = extensions.Evaluator(SerialIterator(make_data(n=10), 5, repeat=False), model)
    with chainer.Reporter():
        quiet()
    assert capsys.readouterr().out == ''
