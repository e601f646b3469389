"""Write a file in an output directory atomically (temp file, then rename)."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator


@contextlib.contextmanager
def atomic_path(outdir: str, filename: str) -> Iterator[str]:
    """Yield a temporary path; on success, move it to ``outdir/filename``.

    The temporary file lives in a fresh directory inside ``outdir`` (same
    file system, so the final rename is atomic) and is removed on error, so
    readers never see a partially written file.
    """
    os.makedirs(outdir, exist_ok=True)
    final_path = os.path.join(outdir, filename)
    final_dir = os.path.dirname(final_path)
    if final_dir:
        os.makedirs(final_dir, exist_ok=True)
    tmpdir = tempfile.mkdtemp(prefix='tmp' + os.path.basename(filename), dir=outdir)
    try:
        tmp_path = os.path.join(tmpdir, os.path.basename(filename))
        yield tmp_path
        os.replace(tmp_path, final_path)
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)
