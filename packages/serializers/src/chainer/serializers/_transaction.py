"""All-or-nothing loading.

``run(deserializer, obj)`` calls ``obj.serialize(deserializer)`` once, as Chainer v7
does, with three guarantees:

- every entry is read and checked when ``serialize`` asks for it, and the data
  destined for arrays that already exist is only collected; it is written into
  them after ``serialize`` returned, so no existing array changes before every
  entry has been checked;
- everything else ``serialize`` changes (Python scalars such as ``t`` or
  ``epoch``, lazily initialized parameters, optimizer states, rebuilt
  summaries, ...) is recorded beforehand (:mod:`._rollback`) and put back if it
  raises;
- so when loading fails, for a bad file or any other reason, the target is left
  exactly as it was and the error propagates unchanged.
"""

from __future__ import annotations

from typing import Any

from chainer.serializers import _common, _rollback


class Transaction:
    """The array writes collected during one load."""

    def __init__(self) -> None:
        self.fills: list[tuple[Any, Any]] = []
        self.active = True

    def commit(self) -> None:
        """Write every collected array, in the order they were read."""
        self.active = False
        fills, self.fills = self.fills, []
        for target, data in fills:
            _common.copy_into(target, data)

    def abandon(self) -> None:
        """Drop the collected writes."""
        self.active = False
        self.fills = []


def pending(tx: Transaction | None) -> list[Any] | None:
    """The list collecting array writes for ``tx``, or None to write at once."""
    return tx.fills if tx is not None and tx.active else None


def run(deserializer: Any, obj: Any) -> None:
    """Load ``obj`` with ``deserializer`` as one transaction (see the module docstring).

    ``deserializer`` keeps the transaction in its ``_tx`` attribute while
    ``obj.serialize`` runs; the child deserializers it creates share it.
    """
    tx = deserializer._tx
    if tx is not None and tx.active:  # a load nested in a running one joins it
        obj.serialize(deserializer)
        return
    before = _rollback.capture(obj)
    tx = deserializer._tx = Transaction()
    try:
        obj.serialize(deserializer)
    except BaseException:
        tx.abandon()
        before.restore()
        raise
    else:
        tx.commit()
    finally:
        deserializer._tx = None
