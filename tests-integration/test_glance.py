"""The glance example end to end: accuracy, log and plots."""

import json
import shutil
import subprocess
import sys


def test_glance_reaches_99_percent_and_leaves_log_and_plots(examples_dir, tmp_path):
    work = tmp_path / 'glance'
    shutil.copytree(examples_dir / 'glance', work, ignore=shutil.ignore_patterns('result'))
    out = tmp_path / 'result'
    proc = subprocess.run([sys.executable, str(work / 'glance.py'), '--out', str(out)],
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    lines = proc.stdout.strip().splitlines()
    accuracy = float(lines[-3].rsplit(' ', 1)[1])
    assert lines[-3].startswith('Final validation accuracy: ') and accuracy >= 0.99
    assert lines[-2].startswith('Predicted ')
    assert lines[-1] == f'final validation/main/accuracy: {accuracy:.4f}'  # nox -s examples
    assert 'validation/main/accuracy' in proc.stdout
    log = json.loads((out / 'log').read_text())
    assert len(log) == 50
    assert log[-1]['epoch'] == 50
    assert log[-1]['validation/main/accuracy'] >= 0.99
    assert log[-1]['main/loss'] < log[0]['main/loss']
    for name in ('loss.png', 'accuracy.png'):
        data = (out / name).read_bytes()
        assert data[:8] == b'\x89PNG\r\n\x1a\n' and len(data) > 5000
    assert sorted(p.name for p in out.glob('snapshot_iter_*')) == [
        'snapshot_iter_1138', 'snapshot_iter_2275']
