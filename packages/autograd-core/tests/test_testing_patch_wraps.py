"""chainer.testing.patch calls through to the patched function (v7), keeping its signature."""

import os.path

import pytest

from chainer import testing


def test_patch_calls_through_and_records():
    with testing.patch('os.path.join') as join:
        assert os.path.join('a', 'b') == os.path.sep.join(['a', 'b'])
        with pytest.raises(TypeError):
            os.path.join()
    join.assert_called_once_with('a', 'b')


def test_patch_wraps_a_replacement():
    def fake(*parts):
        return '+'.join(parts)

    with testing.patch('os.path.join', wraps=fake) as join:
        assert os.path.join('a', 'b') == 'a+b'
    assert join.call_count == 1


def test_patch_with_new_object_is_plain():
    with testing.patch('os.path.join', new=lambda *p: 'x', autospec=False):
        assert os.path.join('a') == 'x'
