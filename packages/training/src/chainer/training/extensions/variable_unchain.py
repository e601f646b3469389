"""The ``unchain_variables`` extension: frees the graphs of reported variables."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import configuration, variable
from chainer.training import extension

if TYPE_CHECKING:
    from chainer.training.trainer import Trainer


class unchain_variables(extension.Extension):
    """Cut the computational graph behind every Variable of the observation.

    With ``chainer.config.keep_graph_on_report`` on, reported Variables keep their
    graph (and its memory) as long as the observation holds them. This extension
    runs after the other extensions (priority 0, above snapshots only) in the
    iterations where the flag was on in the previous iteration, as Chainer v7
    decides, and unchains each reported Variable. Use it as a last resort when an
    extension keeps a graph alive and cannot release it by itself.
    """

    priority = 0

    def __init__(self) -> None:
        self._prev_flag: bool | None = None

    def initialize(self, trainer: Trainer) -> None:
        """Record the current ``keep_graph_on_report`` flag."""
        self._prev_flag = configuration.config.keep_graph_on_report

    def trigger(self, trainer: Trainer) -> bool:
        """Fire when the flag was on at the previous call (or at ``initialize``)."""
        flag = self._prev_flag
        self._prev_flag = configuration.config.keep_graph_on_report
        return bool(flag)

    def __call__(self, trainer: Trainer) -> None:
        """Unchain the graph of each reported Variable."""
        for value in trainer.observation.values():
            if isinstance(value, variable.Variable):
                value.unchain_backward()
