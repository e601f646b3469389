"""The README's first-model example runs and learns its task."""

import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[1] / 'README.md'


def test_readme_python_example_runs(tmp_path):
    blocks = re.findall(r'```python\n(.*?)```', README.read_text(), re.S)
    assert len(blocks) == 1
    script = tmp_path / 'first_model.py'
    script.write_text(blocks[0])
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    accuracy = float(re.fullmatch(r'variable\(([\d.]+)\)', proc.stdout.strip()).group(1))
    assert accuracy >= 0.95
