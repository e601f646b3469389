"""Warning categories of Chainer (``chainer.warnings``)."""


class PerformanceWarning(RuntimeWarning):
    """A configuration or call that works but is likely slow."""
