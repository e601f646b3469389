"""A training process killed with SIGKILL at any moment resumes from its newest complete
snapshot (``snapshot(autoload=True)``) and ends with exactly the parameters of an
uninterrupted run.

The run (``_resume_worker.py``: shuffled batches over unaligned epochs, dropout, Adam with
weight decay and a decaying step size, a log and snapshots) is killed at chosen points
(mid-forward, mid-optimizer-update, mid-snapshot-write, before and after a snapshot's
rename, before the log's rename) and after random delays, restarted each time, and its
final parameters and log are compared with an uninterrupted run's, exactly. After every
kill each snapshot file on disk must be complete; writers' temporary files left by a kill
must be gone once training restarts. ``CHAINER_KILL_SOAK=N`` runs N random kills instead
of 2 (``pytest -s`` prints the figures).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import numpy
import pytest

WORKER = Path(__file__).with_name('_resume_worker.py')
# (kill point, iteration training restarts from after it): each kill point in turn, the
# restart from the newest complete snapshot of the previous kills
POINTS = [('snapshot-write:4', 0), ('rule:6', 0), ('snapshot-rename:8', 4),
          ('after-snapshot:12', 4), ('log-rename:15', 12), ('forward:17', 12),
          ('snapshot-write:24', 16), ('rule:30', 20)]

pytestmark = pytest.mark.skipif(os.name != 'posix', reason='SIGKILL is POSIX only')


@pytest.fixture(scope='module')
def reference(tmp_path_factory) -> tuple[dict[str, numpy.ndarray], list[dict], float]:
    """Final parameters, log and duration (s) of the uninterrupted run (in this process)."""
    tmp_path = tmp_path_factory.mktemp('reference')
    sys.path.insert(0, str(WORKER.parent))
    try:
        import _resume_worker
    finally:
        sys.path.remove(str(WORKER.parent))
    out = tmp_path / 'uninterrupted'
    state = numpy.random.get_state()
    start = time.perf_counter()
    try:
        params = _resume_worker.main(str(out))
    finally:
        numpy.random.set_state(state)
    return params, _log(out), time.perf_counter() - start


def _log(out: Path) -> list[dict]:
    entries = json.loads((out / 'log').read_text())
    for entry in entries:
        entry.pop('elapsed_time')
    return entries


def _start(out: Path, kill: str = 'none') -> subprocess.Popen:
    env = dict(os.environ, OMP_NUM_THREADS='1', PYTHONHASHSEED='0')
    return subprocess.Popen([sys.executable, str(WORKER), str(out), kill], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _started_at(stdout: str) -> int | None:
    for line in stdout.splitlines():
        if line.startswith('start '):
            return int(line.split()[1])
    return None


class Figures:
    def __init__(self) -> None:
        self.killed = 0
        self.resumed = 0
        self.snapshots_checked = 0
        self.corrupt = 0
        self.leftovers_after_kill = 0

    def after_kill(self, out: Path) -> None:
        self.killed += 1
        for path in out.glob('snapshot_iter_*'):
            self.snapshots_checked += 1
            try:
                with numpy.load(path, allow_pickle=False) as archive:
                    for key in archive.files:
                        archive[key]
            except (OSError, ValueError, zipfile.BadZipFile, EOFError):
                self.corrupt += 1
        self.leftovers_after_kill += len(list(out.glob('tmp*.ctmp-*')))

    def after_start(self, stdout: str) -> int | None:
        started = _started_at(stdout)
        if started:
            self.resumed += 1
        return started


def _finish(proc: subprocess.Popen, figures: Figures, out: Path) -> tuple[int, int | None]:
    """Wait for the worker; return its exit code and the iteration it started from."""
    stdout, stderr = proc.communicate(timeout=120)
    started = figures.after_start(stdout)
    if proc.returncode == -signal.SIGKILL:
        figures.after_kill(out)
    elif proc.returncode != 0:
        raise AssertionError(f'worker failed ({proc.returncode}):\n{stderr}')
    return proc.returncode, started


def _compare(out: Path, reference: dict[str, numpy.ndarray], log: list[dict]) -> float:
    with numpy.load(out / 'final.npz') as final:
        assert sorted(final.files) == sorted(reference)
        diff = max(float(numpy.abs(final[k] - reference[k]).max()) for k in reference)
        for key, value in reference.items():
            numpy.testing.assert_array_equal(final[key], value, err_msg=key)
    assert _log(out) == log
    assert not list(out.glob('tmp*.ctmp-*')), 'temporary files left behind'
    return diff


def test_killed_at_chosen_points_resumes_to_the_same_parameters(tmp_path, reference):
    params, log, _ = reference
    out = tmp_path / 'killed'
    figures = Figures()
    for point, restart in POINTS:
        code, started = _finish(_start(out, point), figures, out)
        assert code == -signal.SIGKILL, f'the worker was not killed at {point}'
        assert started == restart, f'the run killed at {point} started at {started}'
    code, started = _finish(_start(out), figures, out)
    assert code == 0 and started == 28  # the newest complete snapshot before rule:30
    diff = _compare(out, params, log)
    print(f'\nchosen points: killed {figures.killed}, resumed {figures.resumed} runs, '
          f'snapshot files checked {figures.snapshots_checked}, corrupt {figures.corrupt}, '
          f'temporary files left by kills {figures.leftovers_after_kill} (all removed), '
          f'final parameter difference {diff}')
    assert figures.killed == len(POINTS)
    assert figures.resumed == len(POINTS) + 1 - 2
    assert figures.corrupt == 0
    assert figures.leftovers_after_kill >= 2  # the mid-write and before-rename kills
    assert diff == 0.0


def test_killed_after_random_delays_resumes_to_the_same_parameters(tmp_path, reference):
    params, log, duration = reference
    out = tmp_path / 'random'
    figures = Figures()
    rng = numpy.random.RandomState(7)
    kills = int(os.environ.get('CHAINER_KILL_SOAK', '2'))
    completed = 0
    diff = 0.0
    while figures.killed < kills or not (out / 'final.npz').exists():
        if (out / 'final.npz').exists():  # a training completed: check it, start another
            diff = max(diff, _compare(out, params, log))
            completed += 1
            shutil.rmtree(out)
        proc = _start(out)
        if figures.killed < kills:
            # once training has started, kill it at a random moment of its duration
            figures.after_start(proc.stdout.readline())
            time.sleep(rng.uniform(0.0, 1.2 * duration))
            proc.send_signal(signal.SIGKILL)
            proc.communicate(timeout=120)
            if proc.returncode == -signal.SIGKILL:
                figures.after_kill(out)
            else:
                assert proc.returncode == 0
        else:
            _finish(proc, figures, out)
    diff = max(diff, _compare(out, params, log))
    completed += 1
    print(f'\nrandom delays: killed {figures.killed}, resumed {figures.resumed} runs, '
          f'trainings completed {completed}, snapshot files checked '
          f'{figures.snapshots_checked}, corrupt {figures.corrupt}, final parameter '
          f'difference {diff}')
    assert figures.corrupt == 0
    assert diff == 0.0
