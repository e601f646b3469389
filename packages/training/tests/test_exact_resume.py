"""What a resumed training needs to continue exactly: the random state, the order in which
extensions initialize, finalizers that all run, converters called as in v7."""

import warnings

import numpy
import pytest
from _training_helpers import FakeUpdater, make_trainer, params

import chainer
from chainer import serializers, training
from chainer.training import extensions


class Drawing(FakeUpdater):
    """Draws from NumPy's global random state at every update (like shuffling, dropout)."""

    def __init__(self):
        super().__init__()
        self.draws = []

    def update(self):
        super().update()
        self.draws.append(numpy.random.randint(1 << 30))


def test_snapshot_restores_numpys_random_state_when_training_starts(tmp_path):
    numpy.random.seed(3)
    full = training.Trainer(Drawing(), (6, 'iteration'), out=str(tmp_path))
    full.extend(extensions.snapshot(), trigger=(3, 'iteration'))
    full.run()

    numpy.random.seed(99)
    updater = Drawing()
    resumed = training.Trainer(updater, (6, 'iteration'), out=str(tmp_path / 'r'))
    serializers.load_npz(str(tmp_path / 'snapshot_iter_3'), resumed)
    numpy.random.rand(5)  # draws between the load and the start do not matter
    resumed.run()
    assert updater.draws == full.updater.draws[3:]


def test_a_failed_load_leaves_the_random_state_to_restore_unchanged(tmp_path):
    numpy.random.seed(3)
    trainer = training.Trainer(Drawing(), (2, 'iteration'), out=str(tmp_path))
    trainer.run()
    serializers.save_npz(str(tmp_path / 'good.npz'), trainer)
    with numpy.load(tmp_path / 'good.npz') as archive:
        entries = dict(archive)
    entries['numpy_random_state/keys'] = entries['numpy_random_state/keys'][:10]
    numpy.savez(tmp_path / 'bad.npz', **entries)
    fresh = training.Trainer(Drawing(), (4, 'iteration'), out=str(tmp_path))
    with pytest.raises(ValueError, match='random state'):
        serializers.load_npz(str(tmp_path / 'bad.npz'), fresh)
    assert fresh._pending_random_state is None and fresh.updater.iteration == 0


def test_a_snapshot_without_random_state_loads(tmp_path):
    # Chainer v7's snapshots hold no random state: nothing is restored
    trainer = training.Trainer(Drawing(), (2, 'iteration'), out=str(tmp_path))
    trainer.run()
    serializers.save_npz(str(tmp_path / 's.npz'), trainer)
    with numpy.load(tmp_path / 's.npz') as archive:
        entries = {k: v for k, v in archive.items() if not k.startswith('numpy_random')}
    numpy.savez(tmp_path / 'v7.npz', **entries)
    fresh = training.Trainer(Drawing(), (3, 'iteration'), out=str(tmp_path))
    serializers.load_npz(str(tmp_path / 'v7.npz'), fresh)
    assert fresh._pending_random_state is None and fresh.updater.iteration == 2


def test_autoloading_snapshot_initializes_before_the_other_extensions(tmp_path):
    lrs = []

    def build(stop):
        trainer, _, optimizer = make_trainer(tmp_path / 'out', stop=(stop, 'iteration'))
        # registered first, with a higher priority than the snapshot: without the
        # autoload going first it would apply its initial value after the resume
        trainer.extend(extensions.ExponentialShift('lr', 0.5), trigger=(1, 'iteration'))
        trainer.extend(extensions.snapshot(autoload=True), trigger=(2, 'iteration'))
        trainer.extend(lambda tr: lrs.append(optimizer.lr), name='spy',
                       trigger=(1, 'iteration'),
                       priority=training.PRIORITY_WRITER + 100)  # the lr of the update
        return trainer

    build(2).run()
    assert lrs == [pytest.approx(0.1), pytest.approx(0.05)]
    build(3).run()
    assert lrs[2:] == [pytest.approx(0.1 * 0.5 ** 2)]


def test_every_finalizer_runs_and_the_first_error_is_raised(tmp_path):
    finalized = []

    def extension(name, fail):
        def ext(trainer):
            pass

        def finalize():
            finalized.append(name)
            if fail:
                raise RuntimeError(f'{name} failed')

        ext.finalize = finalize
        return ext

    trainer = training.Trainer(FakeUpdater(), (1, 'iteration'), out=str(tmp_path))
    trainer.extend(extension('a', True), name='a', priority=3)
    trainer.extend(extension('b', True), name='b', priority=2)
    trainer.extend(extension('c', False), name='c', priority=1)
    with pytest.raises(RuntimeError, match='a failed'):
        trainer.run()
    assert finalized == ['a', 'b', 'c']


def test_old_style_converters_get_none_for_no_device(tmp_path):
    received = []

    def converter(batch, device):  # v7's old style: always two arguments
        received.append(device)
        return chainer.dataset.concat_examples(batch)

    trainer, model, _ = make_trainer(tmp_path, stop=(1, 'iteration'))
    updater = training.StandardUpdater(trainer.updater.get_iterator('main'),
                                       trainer.updater.get_optimizer('main'),
                                       converter=converter)
    updater.update()
    updater_cpu = training.StandardUpdater(trainer.updater.get_iterator('main'),
                                           trainer.updater.get_optimizer('main'),
                                           converter=converter, device='@numpy')
    updater_cpu.update()
    assert received == [None, -1]
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        evaluator = extensions.Evaluator(
            chainer.iterators.SerialIterator(
                trainer.updater.get_iterator('main').dataset, 20, repeat=False), model,
            converter=converter)
    with chainer.Reporter():
        evaluator()
    assert received[2:] == [None, None]
    assert params(model)  # the model was trained and evaluated
