"""The default updater: one batch, one optimizer step per iteration."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend, device_resident
from chainer.dataset import convert
from chainer.training._converter import call_converter, call_with_arrays
from chainer.training.updater import Updater
from chainer.training.util import _optimizer_target

if TYPE_CHECKING:
    from chainer.backend import Device
    from chainer.dataset.iterator import Iterator
    from chainer.link import Link
    from chainer.optimizer import Optimizer
    from chainer.serializer import AbstractSerializer
    from chainer.types import DeviceSpec


class StandardUpdater(Updater):
    """Updater that takes one batch from the ``'main'`` iterator per iteration.

    Each :meth:`update` reads a batch, converts it with ``converter`` to arrays
    on ``input_device`` and calls ``optimizer.update(loss_func, *arrays)``
    (``**arrays`` for a dict, ``arrays`` for a single array). ``loss_func``
    defaults to the optimizer's target link.

    Args:
        iterator: A dataset iterator, or a dict of them by name. The default
            :meth:`update_core` and the epoch properties read the ``'main'`` one; a
            subclass that overrides :meth:`update_core` may use any names, as in v7.
        optimizer: An optimizer, or a dict of them by name (e.g. ``{'gen': ...,
            'dis': ...}`` for a GAN); the default :meth:`update_core` steps the
            ``'main'`` one.
        converter: Batch converter (:func:`chainer.dataset.concat_examples` by
            default); a :class:`chainer.dataset.Converter` gets a
            :class:`chainer.backend.Device`, a plain callable an integer id.
        device: If given, the target links are sent to this device (for a GPU,
            parts already on another GPU stay there, with a ``FutureWarning``, as in
            v7) and it is also the default ``input_device``.
        loss_func: Loss function; defaults to ``optimizer.target``.
        loss_scale: Loss scaling factor passed to the optimizers.
        auto_new_epoch: If true, call ``optimizer.new_epoch(auto=True)``
            whenever the main iterator completes an epoch.
        input_device (keyword only): Device the converted inputs are sent to.

    Attributes:
        iteration (int): Number of completed updates.
        converter: The batch converter.
        loss_func: The loss function or ``None``.

    Raises:
        TypeError: for an unknown keyword argument.
        KeyError: from :meth:`update_core` or the epoch properties when they need a
            ``'main'`` entry that the dicts lack.
    """

    iteration: int

    def __init__(
        self,
        iterator: Iterator | dict[str, Iterator],
        optimizer: Optimizer | dict[str, Optimizer],
        converter: Callable[..., Any] = convert.concat_examples,
        device: DeviceSpec | None = None,
        loss_func: Callable[..., Any] | None = None,
        loss_scale: float | None = None,
        auto_new_epoch: bool = True,
        **kwargs: Any,
    ) -> None:
        input_device = kwargs.pop('input_device', None)
        if kwargs:
            raise TypeError(f'StandardUpdater got unexpected keyword arguments: {sorted(kwargs)}')
        if device is not None:
            device = backend.get_device(device)
        input_device = device if input_device is None else backend.get_device(input_device)

        iterators = iterator if isinstance(iterator, dict) else {'main': iterator}
        optimizers = optimizer if isinstance(optimizer, dict) else {'main': optimizer}
        self._iterators = iterators
        self._optimizers = optimizers

        if device is not None:
            for opt in optimizers.values():
                _send_model(_optimizer_target(opt), device)

        self.converter = converter
        self.loss_func = loss_func
        self.iteration = 0
        self._device = device
        self._input_device = input_device
        self.loss_scale = loss_scale
        if loss_scale is not None:
            for opt in optimizers.values():
                opt.set_loss_scale(loss_scale)
        self.auto_new_epoch = auto_new_epoch
        if auto_new_epoch:
            for opt in optimizers.values():
                opt.use_auto_new_epoch = True

    @property
    def device(self) -> Device | None:
        """The :class:`chainer.backend.Device` of the model, or ``None``."""
        return self._device

    @property
    def input_device(self) -> Device | None:
        """The :class:`chainer.backend.Device` inputs are sent to, or ``None``."""
        return self._input_device

    @property
    def epoch(self) -> int:
        """Epoch count of the main iterator."""
        return self.get_iterator('main').epoch

    @property
    def epoch_detail(self) -> float:
        """Fractional epoch count of the main iterator."""
        return self.get_iterator('main').epoch_detail

    @property
    def previous_epoch_detail(self) -> float | None:
        """``epoch_detail`` of the main iterator before its last batch."""
        return self.get_iterator('main').previous_epoch_detail

    @property
    def is_new_epoch(self) -> bool:
        """Whether the last update completed an epoch."""
        return self.get_iterator('main').is_new_epoch

    def finalize(self) -> None:
        """Finalize every iterator."""
        for it in self._iterators.values():
            it.finalize()

    def get_optimizer(self, name: str) -> Optimizer:
        """Return the optimizer named ``name`` (``'main'`` for the default one).

        Raises:
            KeyError: if there is no such optimizer.
        """
        try:
            return self._optimizers[name]
        except KeyError:
            raise KeyError(f'{type(self).__name__} has no optimizer named {name!r} '
                           f'(it has {sorted(self._optimizers)})') from None

    def get_all_optimizers(self) -> dict[str, Optimizer]:
        """Return a new dict of all optimizers by name."""
        return dict(self._optimizers)

    def get_iterator(self, name: str) -> Iterator:
        """Return the iterator named ``name`` (``'main'`` for the default one).

        Raises:
            KeyError: if there is no such iterator.
        """
        try:
            return self._iterators[name]
        except KeyError:
            raise KeyError(f'{type(self).__name__} has no iterator named {name!r} '
                           f'(it has {sorted(self._iterators)})') from None

    def update(self) -> None:
        """Run one iteration (:meth:`update_core`) and count it."""
        self.update_core()
        self.iteration += 1

    def update_core(self) -> None:
        """Read a batch, convert it and let the main optimizer take a step."""
        it = self.get_iterator('main')
        batch = it.next()
        in_arrays = call_converter(self.converter, batch, self._input_device)
        optimizer = self.get_optimizer('main')
        loss_func = optimizer.target if self.loss_func is None else self.loss_func
        call_with_arrays(optimizer.update, in_arrays, loss_func)
        if self.auto_new_epoch and it.is_new_epoch:
            optimizer.new_epoch(auto=True)

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Save or load iterators, optimizers, their target links and the iteration."""
        for name, it in self._iterators.items():
            it.serialize(serializer['iterator:' + name])
        for name, opt in self._optimizers.items():
            opt.serialize(serializer['optimizer:' + name])
            _optimizer_target(opt).serialize(serializer['model:' + name])
        self.iteration = serializer('iteration', self.iteration)


_GPU_TO_GPU = (
    'Transfer between @cupy devices was detected and skipped: StandardUpdater sends the '
    'model to the given device, except the parts already on another GPU, which stay where '
    'they are (as in Chainer v7; this is planned to change). To keep the model where it is '
    "and only send the inputs to a device, give 'input_device' and leave 'device' out.")


class _SendSkippingOtherGpus(device_resident.ToDeviceVisitor):
    """Send a model to a device, leaving the arrays already on another GPU in place."""

    def __init__(self, device: backend.GpuDevice) -> None:
        super().__init__(device)
        self._target_id = device.device.id
        self.skipped = False

    def _on_other_gpu(self, array: Any) -> bool:
        gpu = getattr(array, 'device', None)
        if array is None or isinstance(array, numpy.ndarray) or gpu is None:
            return False
        other = getattr(gpu, 'id', self._target_id) != self._target_id
        self.skipped = self.skipped or other
        return other

    def visit_array(self, arr: Any) -> Any:
        if self._on_other_gpu(arr):
            return arr
        return super().visit_array(arr)

    def visit_variable(self, param: Any) -> None:
        if not self._on_other_gpu(param.array):
            super().visit_variable(param)


def _send_model(model: Link, device: Device) -> None:
    """``model.to_device(device)``, except that a GPU device leaves parts on other GPUs."""
    if device.xp is numpy or not isinstance(device, backend.GpuDevice):
        model.to_device(device)
        return
    visitor = _SendSkippingOtherGpus(device)
    model.device_resident_accept(visitor)
    if visitor.skipped:
        warnings.warn(_GPU_TO_GPU, FutureWarning, stacklevel=3)
