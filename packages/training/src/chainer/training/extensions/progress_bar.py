"""The ``ProgressBar`` extension: a progress display of the training on a terminal."""

from __future__ import annotations

import datetime
import sys
from typing import IO, TYPE_CHECKING

from chainer.training import extension
from chainer.training.extensions import util

if TYPE_CHECKING:
    from chainer.training.trainer import Trainer


class _TrainerProgressBar(util.ProgressBar):
    def __init__(
        self, trainer: Trainer, training_length: tuple[float, str], bar_length: int, out: IO[str]
    ) -> None:
        super().__init__(out)
        self.trainer = trainer
        self.training_length = training_length
        self.bar_length = bar_length
        updater = trainer.updater
        self.start(updater.iteration, updater.epoch_detail)

    def get_lines(self) -> list[str]:
        updater = self.trainer.updater
        iteration = updater.iteration
        epoch_detail = updater.epoch_detail
        length, unit = self.training_length
        done = iteration if unit == 'iteration' else epoch_detail
        lines = [
            util.format_bar('total', done / length, self.bar_length),
            util.format_bar('this epoch', epoch_detail - int(epoch_detail), self.bar_length),
            f'{iteration:10} iter, {updater.epoch} epoch / {length} {unit}s\n',
        ]
        speed_iter, speed_epoch = self.update_speed(iteration, epoch_detail)
        speed = speed_iter if unit == 'iteration' else speed_epoch
        seconds = util.estimate_seconds(length - done, speed)
        if seconds == float('inf'):
            eta = 'unknown'
        else:
            eta = str(datetime.timedelta(seconds=seconds))
        lines.append(f'{speed_iter:10.5g} iters/sec. Estimated time to finish: {eta}.\n')
        return lines


class ProgressBar(extension.Extension):
    """Show the progress of training on a terminal.

    Every ``update_interval`` iterations it redraws four lines: the total
    progress bar, the progress within the current epoch, the iteration and
    epoch counts, and the speed with the estimated time to finish. The
    display is erased when training ends.

    Args:
        training_length: ``(length, unit)`` of the whole training; read from
            the trainer's stop trigger (an interval trigger) when ``None``.
        update_interval: Number of iterations between redraws.
        bar_length: Number of characters of each bar.
        out: Stream to draw on (``sys.stdout`` by default).

    Raises:
        ValueError: for a non-positive ``update_interval`` or ``bar_length``.
    """

    def __init__(
        self,
        training_length: tuple[float, str] | None = None,
        update_interval: int = 100,
        bar_length: int = 50,
        out: IO[str] = sys.stdout,
    ) -> None:
        if update_interval <= 0:
            raise ValueError(f'update_interval must be positive, got {update_interval}')
        if bar_length <= 0:
            raise ValueError(f'bar_length must be positive, got {bar_length}')
        self._training_length = training_length
        self._update_interval = update_interval
        self._bar_length = bar_length
        self._out = out
        self._pbar: _TrainerProgressBar | None = None

    def __call__(self, trainer: Trainer) -> None:
        """Redraw the display every ``update_interval`` iterations.

        Raises:
            TypeError: if no ``training_length`` was given and the stop trigger
                cannot tell it (it has no ``get_training_length``).
        """
        if self._pbar is None:
            length = self._training_length
            if length is None:
                getter = getattr(trainer.stop_trigger, 'get_training_length', None)
                if getter is None:
                    raise TypeError(
                        'ProgressBar cannot read the training length from the stop trigger '
                        f'{trainer.stop_trigger!r}: pass training_length=(length, unit)'
                    )
                length = getter()
            self._pbar = _TrainerProgressBar(trainer, length, self._bar_length, self._out)
        if trainer.updater.iteration % self._update_interval == 0:
            self._pbar.update()

    def finalize(self) -> None:
        """Erase the display."""
        if self._pbar is not None:
            self._pbar.close()
