"""An optimizer given to the trainer or an updater without setup() is named in the error."""

import numpy
import pytest

from chainer import iterators, links, optimizers, training
from chainer.training import updaters


def _iterator():
    data = [(numpy.zeros(3, numpy.float32), numpy.int32(0))] * 4
    return iterators.SerialIterator(data, 2)


def test_trainer_refuses_optimizer_without_target():
    updater = updaters.StandardUpdater(_iterator(), optimizers.SGD())
    with pytest.raises(RuntimeError, match='SGD has no target'):
        training.Trainer(updater, (1, 'iteration'))


def test_standard_updater_with_device_refuses_optimizer_without_target():
    with pytest.raises(RuntimeError, match='has no target'):
        updaters.StandardUpdater(_iterator(), optimizers.SGD(), device='@numpy')


def test_parallel_updater_refuses_optimizer_without_target():
    with pytest.raises(RuntimeError, match='has no target'):
        updaters.ParallelUpdater(_iterator(), optimizers.SGD(), devices={'main': '@numpy'})


def test_set_up_optimizer_trains():
    model = links.Classifier(links.Linear(3, 2))
    opt = optimizers.SGD()
    opt.setup(model)
    trainer = training.Trainer(updaters.StandardUpdater(_iterator(), opt), (2, 'iteration'))
    trainer.run()
    assert trainer.updater.iteration == 2
