import numpy
import pytest
from _training_helpers import FakeUpdater, make_trainer

from chainer import training
from chainer.training import extensions


class Opt:
    lr = 0.1


def run(ext, n=6, attr='lr'):
    """Run ``n`` iterations with ``ext`` every iteration; return the values seen after each."""
    opt = ext._optimizer
    trainer = training.Trainer(FakeUpdater(), (n, 'iteration'), out='unused')
    values = []
    trainer.extend(ext)
    trainer.extend(lambda tr: values.append(getattr(opt, attr)), name='spy',
                   priority=training.PRIORITY_READER - 1)
    trainer.run()
    return values


@pytest.fixture(autouse=True)
def _chdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def test_exponential_shift():
    opt = Opt()
    values = run(extensions.ExponentialShift('lr', 0.5, optimizer=opt), n=4)
    numpy.testing.assert_allclose(values, [0.05, 0.025, 0.0125, 0.00625])
    opt = Opt()
    values = run(extensions.ExponentialShift('lr', 0.5, init=1.0, target=0.3, optimizer=opt), n=3)
    numpy.testing.assert_allclose(values, [0.5, 0.3, 0.3])
    opt = Opt()
    values = run(extensions.ExponentialShift('lr', 2, target=0.5, optimizer=opt), n=4)
    numpy.testing.assert_allclose(values, [0.2, 0.4, 0.5, 0.5])
    with pytest.raises(ValueError):
        extensions.ExponentialShift('lr', -1)


def test_linear_shift():
    opt = Opt()
    values = run(extensions.LinearShift('lr', (1.0, 0.0), (2, 6), optimizer=opt), n=7)
    numpy.testing.assert_allclose(values, [1.0, 1.0, 0.75, 0.5, 0.25, 0.0, 0.0])
    with pytest.raises(ValueError):
        extensions.LinearShift('lr', (1, 0), (3, 3))


def test_step_multistep_inverse_polynomial_warmup():
    numpy.testing.assert_allclose(
        run(extensions.StepShift('lr', 0.1, 2, init=1.0, optimizer=Opt()), n=5),
        [1.0, 0.1, 0.1, 0.01, 0.01])
    numpy.testing.assert_allclose(
        run(extensions.MultistepShift('lr', 0.5, [2, 4], 1.0, optimizer=Opt()), n=5),
        [1.0, 0.5, 0.5, 0.25, 0.25])
    numpy.testing.assert_allclose(
        run(extensions.InverseShift('lr', 1.0, 1.0, init=1.0, optimizer=Opt()), n=3),
        [1 / 2, 1 / 3, 1 / 4])
    numpy.testing.assert_allclose(
        run(extensions.PolynomialShift('lr', 2, 4, init=1.0, optimizer=Opt()), n=5),
        [0.5625, 0.25, 0.0625, 0.0, 0.0])
    numpy.testing.assert_allclose(
        run(extensions.WarmupShift('lr', 0.0, 4, 1.0, optimizer=Opt()), n=5),
        [0.25, 0.5, 0.75, 1.0, 1.0])


def test_initial_value_applied_at_start():
    opt = Opt()
    ext = extensions.LinearShift('lr', (2.0, 1.0), (0, 10), optimizer=opt)
    trainer = training.Trainer(FakeUpdater(), (0.5, 'epoch'), out='unused')
    trainer.extend(ext, trigger=(100, 'iteration'))
    trainer.run()
    assert opt.lr == 2.0


def test_shift_state_resumes(tmp_path):
    from chainer import serializers

    def build():
        trainer, _, opt = make_trainer(tmp_path, stop=(6, 'iteration'), lr=1.0)
        trainer.extend(extensions.ExponentialShift('lr', 0.5), trigger=(2, 'iteration'))
        return trainer, opt

    trainer, opt = build()
    trainer.run()
    assert opt.lr == pytest.approx(0.125)
    serializers.save_npz(str(tmp_path / 's.npz'), trainer)
    trainer2, opt2 = build()
    serializers.load_npz(str(tmp_path / 's.npz'), trainer2)
    trainer2.stop_trigger = training.get_trigger((8, 'iteration'))
    trainer2.run()
    assert opt2.lr == pytest.approx(0.0625)


def test_fail_on_nonnumber(tmp_path):
    trainer, model, _ = make_trainer(tmp_path, stop=(3, 'iteration'))
    trainer.extend(extensions.FailOnNonNumber())
    trainer.run()  # finite parameters: nothing happens

    trainer, model, _ = make_trainer(tmp_path, stop=(3, 'iteration'))

    def poison(tr):
        model.predictor.W.array[0, 0] = numpy.nan

    trainer.extend(poison, priority=training.PRIORITY_WRITER)
    trainer.extend(extensions.FailOnNonNumber())
    with pytest.raises(RuntimeError, match='predictor/W.*diverged'):
        trainer.run(show_loop_exception_msg=False)
