"""The data-parallel updater over several devices of one process."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import chainer
from chainer import backend, function
from chainer import serializer as serializer_module
from chainer.dataset import convert
from chainer.training._converter import call_converter, call_with_arrays
from chainer.training.updaters.standard_updater import StandardUpdater
from chainer.training.util import _optimizer_target

if TYPE_CHECKING:
    from chainer.dataset.iterator import Iterator
    from chainer.link import Link
    from chainer.optimizer import Optimizer
    from chainer.serializer import AbstractSerializer
    from chainer.training.trainer import Trainer
    from chainer.types import DeviceSpec


class ParallelUpdater(StandardUpdater):
    """Updater that splits every batch over several copies of the model, one per device.

    Each iteration takes one batch from the ``'main'`` iterator and deals it out to
    the models in turn (the ``i``-th of ``n`` models gets examples ``i, i + n,
    i + 2n, ...``); each model computes the loss of its share on its own device, the
    gradients of all models are added into the main model's, the main optimizer
    updates it and the other models copy its parameters. The devices may be GPUs
    or CPUs (several ``'@numpy'`` devices work, e.g. to test a setup).

    Since every model's loss is the mean over its share, the gradient is the sum of
    ``n`` per-share means (``n`` times the gradient of the full batch's mean when the
    shares are equal); a loss that sums over examples gives exactly the gradient of
    the full batch.

    Args:
        iterator: A dataset iterator, or a dict of them with a ``'main'`` entry.
        optimizer: An optimizer, or a dict of them with a ``'main'`` entry; its
            target is the main model.
        converter: Batch converter (:func:`chainer.dataset.concat_examples`); it
            receives each share and the device of its model.
        models: A dict of models by name with a ``'main'`` entry (the optimizer's
            target); when ``None`` they are made from ``devices`` by deep copies of
            the optimizer's target.
        devices: A dict of devices (anything :func:`chainer.get_device` takes, or
            GPU ids) by name with a ``'main'`` entry; the main model is sent to
            ``devices['main']``. With ``models`` given it may be omitted: each model
            then runs where it is.
        loss_func: Loss function called on each share instead of the models.
        loss_scale: Loss scaling factor of the backward passes.
        auto_new_epoch: Call ``optimizer.new_epoch(auto=True)`` whenever the main
            iterator completes an epoch.

    Raises:
        ValueError: if neither ``models`` nor ``devices`` is given.
        KeyError: if ``devices`` or ``models`` has no ``'main'`` entry, or they name
            different models.
    """

    def __init__(
        self,
        iterator: Iterator | dict[str, Iterator],
        optimizer: Optimizer | dict[str, Optimizer],
        converter: Callable[..., Any] = convert.concat_examples,
        models: dict[str, Link] | None = None,
        devices: dict[str, DeviceSpec] | None = None,
        loss_func: Callable[..., Any] | None = None,
        loss_scale: float | None = None,
        auto_new_epoch: bool = True,
    ) -> None:
        super().__init__(iterator=iterator, optimizer=optimizer, converter=converter,
                         loss_func=loss_func, loss_scale=loss_scale,
                         auto_new_epoch=auto_new_epoch)
        main_model = _optimizer_target(self.get_optimizer('main'))
        if models is None:
            if devices is None:
                raise ValueError('ParallelUpdater needs either models or devices')
            if 'main' not in devices:
                raise KeyError("ParallelUpdater: devices must have a 'main' entry")
            models = {'main': main_model}
            for name, device in devices.items():
                if name != 'main':
                    model = copy.deepcopy(main_model)
                    model.to_device(_device(device))
                    models[name] = model
            main_model.to_device(_device(devices['main']))
        else:
            models = dict(models)
            if 'main' not in models:
                raise KeyError("ParallelUpdater: models must have a 'main' entry")
        if devices is None:
            devices = {name: model.device for name, model in models.items()}
        if set(devices) != set(models):
            raise KeyError(f'ParallelUpdater: devices {sorted(devices)} and models '
                           f'{sorted(models)} name different models')
        self._models = models
        self._devices = {name: _device(devices[name]) for name in models}
        self._stale_copies = False

    def connect_trainer(self, trainer: Trainer) -> None:
        """Register the models other than the main one as observers under their names."""
        main_model = _optimizer_target(self.get_optimizer('main'))
        for name, model in self._models.items():
            if model is not main_model:
                trainer.reporter.add_observer(name, model)

    def update_core(self) -> None:
        """Split a batch over the models, add their gradients and update the main model."""
        optimizer = self.get_optimizer('main')
        main_model = _optimizer_target(optimizer)
        others = [m for m in self._models.values() if m is not main_model]
        if self._stale_copies:  # the main model was loaded from a snapshot
            for model in others:
                model.copyparams(main_model)
            self._stale_copies = False

        iterator = self.get_iterator('main')
        batch = iterator.next()
        n = len(self._models)
        shares = {
            name: call_converter(self.converter, batch[i::n], self._devices[name])
            for i, name in enumerate(self._models)
        }
        for model in self._models.values():
            model.cleargrads()
        losses = []
        for name, model in self._models.items():
            loss_func = self.loss_func if self.loss_func is not None else model
            with function.force_backprop_mode(), chainer.using_device(self._devices[name]):
                losses.append(call_with_arrays(loss_func, shares[name]))
        for model in self._models.values():
            model.cleargrads()  # parameters initialized by the forward pass get gradients
        for loss in losses:
            loss.backward(loss_scale=self.loss_scale)
        for model in others:
            main_model.addgrads(model)
        optimizer.update()
        for model in others:
            model.copyparams(main_model)
        if self.auto_new_epoch and iterator.is_new_epoch:
            optimizer.new_epoch(auto=True)

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Save or load as :class:`StandardUpdater` (the main model holds the parameters).

        After a load, the other models copy the main model's parameters before the
        next update.
        """
        super().serialize(serializer)
        if not isinstance(serializer, serializer_module.Serializer):
            self._stale_copies = True


def _device(spec: Any) -> Any:
    if isinstance(spec, backend.Device):
        return spec
    return backend.get_device(spec)
