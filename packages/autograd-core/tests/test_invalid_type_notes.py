"""InvalidType carries notes on every supported Python (add_note is 3.11+ in builtins)."""

from chainer.utils import type_check


def test_add_note_keeps_notes_in_order():
    err = type_check.InvalidType('x.ndim == 2', 'x.ndim = 3')
    err.add_note('first')
    err.add_note('second')
    assert err.__notes__ == ['first', 'second']


def test_add_note_leaves_the_message_alone():
    err = type_check.InvalidType('x.ndim == 2', 'x.ndim = 3')
    before = str(err)
    err.add_note('a note')
    assert str(err) == before
    assert 'x.ndim == 2' in before
