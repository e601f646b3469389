"""The README's table of what exports is the converters' own."""

from pathlib import Path

import pytest

from onnx_chainer.functions import _support_table, converters

README = Path(__file__).resolve().parents[1] / 'README.md'


@pytest.mark.skipif(not README.is_file(), reason='needs the source checkout')
def test_readme_table_is_current():
    assert _support_table.current(README.read_text()), (
        'the README table is stale: run python -m onnx_chainer.functions._support_table '
        'packages/onnx-chainer/README.md')


def test_table_lists_every_converter():
    table = _support_table.markdown_table()
    for name in converters:
        assert f'`{name}`' in table
