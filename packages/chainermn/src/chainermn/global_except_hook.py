"""Abort every process of the MPI job when one raises an uncaught exception.

Without it, the other processes of an mpi4py job often wait forever for the one that
died. :func:`add_hook` makes an uncaught exception print its traceback and then call
``MPI_Abort``, which ends the whole job. ``import chainermn`` adds the hook when the
environment variable ``CHAINERMN_FORCE_ABORT_ON_EXCEPTION`` (or v7's documented
``CHAINERMN_FORCE_ABORT_ON_EXCEPTIONS``) is set to a non-empty value.
"""

from __future__ import annotations

import os
import sys
import traceback
from types import TracebackType
from typing import Any

_ENV_VARS = ('CHAINERMN_FORCE_ABORT_ON_EXCEPTION', 'CHAINERMN_FORCE_ABORT_ON_EXCEPTIONS')
_previous_hook: Any = None


def _global_except_hook(exctype: type[BaseException], value: BaseException,
                        tb: TracebackType | None) -> None:
    try:
        from mpi4py import MPI

        rank, size = MPI.COMM_WORLD.rank, MPI.COMM_WORLD.size
        # one write of the whole report: MPI_Abort may tear the job down before an
        # MPI launcher forwards later pieces
        report = ''.join(traceback.format_exception(exctype, value, tb))
        sys.stderr.write(f'\n*** chainermn: uncaught exception on process {rank} of {size}; '
                         f'aborting the MPI job (MPI_Abort)\n{report}\n')
        sys.stderr.flush()
        sys.stdout.flush()
        MPI.COMM_WORLD.Abort(1)
    except BaseException:  # MPI unusable: at least report the original error
        (_previous_hook or sys.__excepthook__)(exctype, value, tb)


def add_hook() -> None:
    """Install the hook as ``sys.excepthook`` (once; later calls do nothing)."""
    global _previous_hook
    if sys.excepthook is _global_except_hook:
        return
    _previous_hook = sys.excepthook
    sys.excepthook = _global_except_hook


def _add_hook_if_enabled() -> None:
    """Add the hook when one of the environment variables asks for it."""
    if any(os.environ.get(name) for name in _ENV_VARS):
        add_hook()
