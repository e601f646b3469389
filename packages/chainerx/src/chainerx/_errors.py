"""ChainerX's exception types: every one derives from :class:`ChainerxError`."""

from __future__ import annotations


class ChainerxError(Exception):
    """Base class of the errors ChainerX raises."""


class ContextError(ChainerxError):
    """No default context is set, or a context is used where it is not valid."""


class BackendError(ChainerxError):
    """A backend name is unknown or the backend cannot be used."""


class DeviceError(ChainerxError):
    """A device is unknown, or arrays of different devices meet in one operation."""


class DimensionError(ChainerxError):
    """Shapes or numbers of dimensions do not fit the operation."""


class DtypeError(ChainerxError):
    """A dtype is not accepted by the operation."""


class GradientError(ChainerxError):
    """A gradient does not match its array, or backprop cannot proceed."""


class GradientCheckError(ChainerxError):
    """``check_backward`` / ``check_double_backward`` found a gradient that differs from
    the numerical one."""


__all__ = ['BackendError', 'ChainerxError', 'ContextError', 'DeviceError', 'DimensionError',
           'DtypeError', 'GradientCheckError', 'GradientError']
