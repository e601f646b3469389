"""Iterator over an NVIDIA DALI pipeline (needs the ``nvidia-dali`` package)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer.dataset.iterator import Iterator

if TYPE_CHECKING:
    import nvidia.dali

    from chainer.serializer import AbstractSerializer


__all__ = ['DaliIterator']


def _dali_available() -> bool:
    try:
        import nvidia.dali  # noqa: F401  # layout: optional
    except ImportError:
        return False
    return True


class DaliIterator(Iterator):
    """Iterator that returns the batches an NVIDIA DALI pipeline produces.

    Each ``next`` runs the pipeline once and returns a list of ``batch_size``
    examples, each a tuple of NumPy arrays (one per pipeline output); GPU outputs are
    copied to the host. ``epoch_detail`` counts examples against the size of the
    pipeline's reader.

    Args:
        pipeline: A ``nvidia.dali.pipeline.Pipeline`` (built here if needed).
        repeat: Whether to loop over the pipeline's data indefinitely.

    Raises:
        RuntimeError: NVIDIA DALI is not installed (``pip install nvidia-dali-cuda120``
            from NVIDIA's package index).
    """

    batch_size: int
    epoch: int
    is_new_epoch: bool

    def __init__(self, pipeline: nvidia.dali.Pipeline, repeat: bool = True) -> None:
        if not _dali_available():
            raise RuntimeError(
                'DaliIterator needs NVIDIA DALI, which is not installed; see '
                'https://docs.nvidia.com/deeplearning/dali/ for how to install it')
        self.pipeline = pipeline
        self._repeat = repeat
        pipeline.build()
        self.batch_size = int(pipeline.max_batch_size)
        sizes = pipeline.epoch_size()
        self._epoch_size = int(next(iter(sizes.values())) if isinstance(sizes, dict)
                               else sizes)
        self.reset()

    def reset(self) -> None:
        """Rewind the counters to the beginning (the pipeline itself is not rewound)."""
        self.epoch = 0
        self.current_position = 0
        self.is_new_epoch = False
        self._previous_epoch_detail = -1.0

    @property
    def repeat(self) -> bool:
        """Whether the iterator loops indefinitely."""
        return self._repeat

    @property
    def epoch_detail(self) -> float:
        """Epoch count as a float."""
        return self.epoch + self.current_position / self._epoch_size

    @property
    def previous_epoch_detail(self) -> float | None:
        """``epoch_detail`` before the last batch, or ``None`` before the first one."""
        return None if self._previous_epoch_detail < 0 else self._previous_epoch_detail

    def __next__(self) -> list[tuple[Any, ...]]:
        """Run the pipeline once and return its batch as a list of examples.

        Raises:
            StopIteration: with ``repeat=False``, after one epoch.
        """
        if not self._repeat and self.epoch > 0:
            raise StopIteration
        self._previous_epoch_detail = self.epoch_detail
        outputs = self.pipeline.run()
        columns = []
        for output in outputs:
            if hasattr(output, 'as_cpu'):
                output = output.as_cpu()
            columns.append([output.at(i) for i in range(len(output))])
        batch = list(zip(*columns, strict=True))
        self.current_position += len(batch)
        self.is_new_epoch = self.current_position >= self._epoch_size
        if self.is_new_epoch:
            self.epoch += 1
            self.current_position -= self._epoch_size
        return batch

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Save or restore the counters (v7's keys)."""
        self.current_position = int(serializer('current_position', self.current_position))
        self.epoch = int(serializer('epoch', self.epoch))
        self.is_new_epoch = bool(serializer('is_new_epoch', self.is_new_epoch))
        try:
            self._previous_epoch_detail = float(
                serializer('previous_epoch_detail', self._previous_epoch_detail))
        except KeyError:
            self._previous_epoch_detail = -1.0
