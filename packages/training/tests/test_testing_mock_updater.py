"""chainer.testing.get_trainer_with_mock_updater (in autograd-core) with the real Trainer."""

from chainer import testing


def test_trainer_with_mock_updater():
    trainer = testing.get_trainer_with_mock_updater((5, 'iteration'), iter_per_epoch=2)
    trainer.run()
    assert trainer.updater.iteration == 5
    assert trainer.updater.epoch == 2
