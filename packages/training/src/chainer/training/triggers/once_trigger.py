"""Trigger that fires only once."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from chainer.serializer import AbstractSerializer
    from chainer.training.trainer import Trainer


class OnceTrigger:
    """Fire at the first call only (and again after resuming, if asked).

    Args:
        call_on_resume: Also fire at the first call after the trigger state
            was restored from a snapshot.
    """

    def __init__(self, call_on_resume: bool = False) -> None:
        self._first = True
        self._resumed = call_on_resume

    @property
    def finished(self) -> bool:
        """Whether the trigger will not fire any more."""
        return not (self._first or self._resumed)

    def __call__(self, trainer: Trainer) -> bool:
        """Return ``True`` at the first call, ``False`` afterwards."""
        fire = not self.finished
        self._first = False
        self._resumed = False
        return fire

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Save or load whether the trigger has already fired.

        A snapshot without the flag (written by Chainer before v5) is taken as
        one where the trigger had fired, with a warning.
        """
        try:
            self._first = bool(serializer('_flag_first', self._first))
        except KeyError:
            warnings.warn('OnceTrigger: the snapshot has no _flag_first; the trigger is '
                          'assumed to have fired before it was saved', UserWarning)
            self._first = False
