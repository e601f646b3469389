"""``FailOnNonNumber``: stop training when a parameter becomes NaN or infinite."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend
from chainer.training import extension
from chainer.training.util import _optimizer_target

if TYPE_CHECKING:
    from chainer.training.trainer import Trainer


class FailOnNonNumber(extension.Extension):
    """Raise when any parameter of any optimizer's target is not finite.

    Runs every iteration by default; NaN and infinity in parameters mean the
    training diverged, so continuing would only waste time.
    """

    def __call__(self, trainer: Trainer) -> None:
        """Check every parameter.

        Raises:
            RuntimeError: naming the optimizer and the parameter that diverged.
        """
        for name, optimizer in trainer.updater.get_all_optimizers().items():
            for path, param in _optimizer_target(optimizer).namedparams():
                array = param.array
                if array is None:
                    continue
                xp = backend.get_array_module(array)
                if not bool(xp.isfinite(array).all()):
                    raise RuntimeError(
                        f'parameter {path} of the target of optimizer {name!r} is NaN or '
                        'infinite: the training diverged'
                    )
