"""Test configuration: the chainermn tests run in one process or in an MPI job.

``nox -s "tests(chainermn)"`` runs them in one process (a communicator of size 1);
``nox -s mpi`` runs them in every process of ``mpiexec -n 2`` and ``-n 3`` jobs, where
every process runs the same tests in the same order. Tests that need more processes
skip on all of them.

In a job, process 0 reports as usual; the others print their failures and a one-line
summary, prefixed with their rank. The processes check in with each other after every
test. A process that failed a test may have left the others waiting in a communication
it never reached: when they do not check in within ``CHAINERMN_TEST_SYNC_TIMEOUT``
seconds (120), the job is aborted with a message, rather than hanging.
"""

from __future__ import annotations

import collections
import os
import sys
import time

import pytest


def _world():
    from mpi4py import MPI

    return MPI.COMM_WORLD


class _RankReporter:
    """The report of a process other than 0: its failures and a summary line."""

    def __init__(self, rank: int) -> None:
        self.rank = rank
        self.counts: collections.Counter[str] = collections.Counter()

    def pytest_runtest_logreport(self, report):
        if report.failed:
            self.counts['failed' if report.when == 'call' else 'error'] += 1
            sys.stderr.write(f'[process {self.rank}] FAILED {report.nodeid} '
                             f'({report.when})\n{report.longreprtext}\n')
        elif report.skipped:
            self.counts['skipped'] += 1
        elif report.when == 'call':
            self.counts['passed'] += 1

    def pytest_sessionfinish(self, session, exitstatus):
        summary = ', '.join(f'{n} {what}' for what, n in sorted(self.counts.items()))
        sys.stdout.write(f'[process {self.rank}] {summary or "no tests"}\n')
        sys.stdout.flush()


@pytest.hookimpl(trylast=True)  # after the terminal reporter is registered
def pytest_configure(config):
    config.addinivalue_line('markers', 'gpu: needs a CUDA device (run with nox -s gpu)')
    config.addinivalue_line('markers', 'slow: slow test')
    world = _world()
    config._chainermn_sync = world.Dup() if world.size > 1 else None
    if world.size > 1 and world.rank != 0:
        terminal = config.pluginmanager.get_plugin('terminalreporter')
        if terminal is not None:
            config.pluginmanager.unregister(terminal)
        config.pluginmanager.register(_RankReporter(world.rank), 'chainermn-rank-reporter')


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    yield
    sync = item.config._chainermn_sync
    if sync is None:
        return
    timeout = float(os.environ.get('CHAINERMN_TEST_SYNC_TIMEOUT', '120'))
    request = sync.Ibarrier()
    deadline = time.monotonic() + timeout
    while not request.Test():
        if time.monotonic() > deadline:
            sys.stderr.write(
                f'\n*** process {sync.rank}: the other processes did not finish '
                f'{item.nodeid} within {timeout:.0f}s (waiting in a communication after a '
                'failure?): aborting the MPI job\n')
            sys.stderr.flush()
            _world().Abort(1)
        time.sleep(0.0005)
