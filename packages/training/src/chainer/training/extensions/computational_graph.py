"""The ``DumpGraph`` extension: writes the computational graph of a reported loss."""

from __future__ import annotations

import os
import shutil
import subprocess
from typing import TYPE_CHECKING, Any

from chainer import computational_graph, configuration, variable
from chainer.backends import files
from chainer.training import extension

if TYPE_CHECKING:
    from chainer.serializer import AbstractSerializer
    from chainer.training.trainer import Trainer

_VARIABLE_STYLE = {'shape': 'octagon', 'fillcolor': '#E0E0E0', 'style': 'filled'}
_FUNCTION_STYLE = {'shape': 'record', 'fillcolor': '#6495ED', 'style': 'filled'}


def _build_graph(root: Any, variable_style: Any, function_style: Any) -> str:
    graph = computational_graph.build_computational_graph(
        [root], variable_style=variable_style, function_style=function_style
    )
    return graph.dump()


def is_return_code_zero(args: list[str]) -> bool:
    """Whether the command ``args`` runs and exits with status 0 (its output is discarded).

    A command that cannot be started (not found, not executable) counts as failing.
    """
    try:
        result = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                check=False)
    except OSError:
        return False
    return result.returncode == 0


def is_graphviz_available() -> bool:
    """Whether Graphviz's ``dot`` command can be run (to render the graph as PNG)."""
    return shutil.which('dot') is not None


def _render_png(dot_path: str, out: str) -> None:
    png_name = os.path.splitext(os.path.relpath(dot_path, out))[0] + '.png'
    with files.atomic_path(os.path.join(out, png_name)) as png_path:
        subprocess.run(['dot', '-Tpng', dot_path, '-o', png_path], check=True,
                       stdout=subprocess.DEVNULL)


class DumpGraph(extension.Extension):
    """Dump the computational graph of a reported variable, once, in Graphviz dot format.

    At the start of training it turns on ``chainer.config.keep_graph_on_report``
    so that reported Variables keep their graph; after the first iteration it
    writes the graph of ``trainer.observation[root_name]`` to
    ``trainer.out/filename`` and restores the flag. When Graphviz is installed
    (:func:`is_graphviz_available`), the graph is also rendered next to it as a PNG
    image (``cg.png``).

    Args:
        root_name: Observation key of the root variable (e.g. ``'main/loss'``).
        filename: Output file name (``'cg.dot'``); the deprecated keyword
            ``out_name`` is accepted too.
        variable_style: Dot attributes of variable nodes (grey octagons).
        function_style: Dot attributes of function nodes (blue records).

    Raises:
        TypeError: for an unknown keyword argument.
    """

    default_name = 'dump_graph'
    priority = extension.PRIORITY_WRITER + 1

    def __init__(
        self,
        root_name: str,
        filename: str | None = None,
        variable_style: dict[str, str] | None = None,
        function_style: dict[str, str] | None = None,
        **kwargs: Any,
    ) -> None:
        out_name = kwargs.pop('out_name', 'cg.dot')
        if kwargs:
            raise TypeError(f'DumpGraph got unexpected keyword arguments: {sorted(kwargs)}')
        self._root_name = root_name
        self._filename = filename if filename is not None else out_name
        self._variable_style = dict(_VARIABLE_STYLE if variable_style is None else variable_style)
        self._function_style = dict(_FUNCTION_STYLE if function_style is None else function_style)
        self._original_flag: bool | None = None
        self._flag_called = False

    def initialize(self, trainer: Trainer) -> None:
        """Keep the graph of reported variables until the dump is written."""
        if not self._flag_called:
            self._original_flag = configuration.config.keep_graph_on_report
            configuration.config.keep_graph_on_report = True

    def trigger(self, trainer: Trainer) -> bool:
        """Fire only once (the default trigger of this extension)."""
        return not self._flag_called

    def _restore_flag(self) -> None:
        if self._original_flag is not None:
            configuration.config.keep_graph_on_report = self._original_flag
            self._original_flag = None

    def __call__(self, trainer: Trainer) -> None:
        """Write the graph of the root variable.

        Raises:
            KeyError: if ``root_name`` was not reported.
            TypeError: if the reported value is not a Variable.
        """
        self._flag_called = True
        try:
            if self._root_name not in trainer.observation:
                raise KeyError(f'DumpGraph: {self._root_name!r} was not reported')
            root = trainer.observation[self._root_name]
            if not isinstance(root, variable.Variable):
                raise TypeError(
                    f'DumpGraph: {self._root_name!r} is a {type(root).__name__}, not a Variable'
                )
            dot = _build_graph(root, self._variable_style, self._function_style)
            with files.atomic_open(os.path.join(trainer.out, self._filename), 'w') as f:
                f.write(dot)
            if is_graphviz_available():
                _render_png(os.path.join(trainer.out, self._filename), trainer.out)
        finally:
            self._restore_flag()

    def finalize(self) -> None:
        """Restore ``keep_graph_on_report`` if the dump never happened."""
        self._restore_flag()

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Save or load whether the graph was already dumped."""
        self._flag_called = bool(serializer('_flag_called', self._flag_called))


dump_graph = DumpGraph
"""Alias of :class:`DumpGraph` (the Chainer v7 name of the same extension)."""

