"""State handling shared by the stateful recurrent links."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import chainer
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.device_resident import DeviceResidentsVisitor
    from chainer.link import Link
    from chainer.types import DTypeSpec


class StatefulMixin:
    """Keeps recurrent state Variables (named in ``_state_names``) on the link's device.

    The states are moved with the link by ``to_device`` (and the deprecated
    ``to_cpu`` / ``to_gpu``); :meth:`reset_state` sets them all to None.
    """

    _state_names: tuple[str, ...] = ()

    def device_resident_accept(self, visitor: DeviceResidentsVisitor) -> None:
        """Let ``visitor`` visit the link, its children and its state Variables."""
        super().device_resident_accept(visitor)  # type: ignore[misc]
        for name in self._state_names:
            state = getattr(self, name, None)
            if state is not None:
                visitor.visit_variable(state)

    def reset_state(self) -> None:
        """Forget the state (the next call starts from zeros)."""
        for name in self._state_names:
            setattr(self, name, None)

    def _adopt_state(self, value: Any, name: str) -> Variable:
        """``value`` (a Variable) moved to this link's device, to become a state."""
        if not isinstance(value, Variable):
            raise TypeError(f'the state {name} must be a chainer.Variable, not '
                            f'{type(value).__name__}')
        value.to_device(self.device)  # type: ignore[attr-defined]
        return value


def zeros_state(link: Link, batch: int, size: int, dtype: DTypeSpec) -> Variable:
    """A Variable of zeros of shape ``(batch, size)`` on ``link``'s device."""
    with chainer.using_device(link.device):
        return Variable(link.xp.zeros((batch, size), dtype=dtype))
