"""What the pretrained vision models share: images, weight files, feature extraction."""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy

import chainer
from chainer import functions
from chainer.link import Chain
from chainer.utils import argument, imgproc
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.link import Link
    from chainer.types import VariableOrArray

try:
    from PIL import Image  # layout: optional
    available = True
    _import_error: Exception | None = None
except ImportError as exc:  # pragma: no cover - Pillow is a test dependency
    # Image stays undefined: prepare() calls check_pillow() before reading it.
    available = False
    _import_error = exc

#: The dataset-cache folder of the converted weights, as in Chainer v7.
MODELS_DIRECTORY = 'pfnet/chainer/models'

_TEST_REMOVED = 'test argument is not supported anymore. Use chainer.using_config'


def check_pillow() -> None:
    """Raise ImportError when Pillow (needed to prepare images) is missing."""
    if not available:
        raise ImportError('PIL cannot be loaded: install Pillow (pip install pillow) to '
                          f'prepare images for the vision models ({_import_error})')


def prepare_image(image: Any, size: tuple[int, int] | None, mean: Sequence[float]) -> Any:
    """Turn an image into a BGR array of shape ``(3, H, W)`` with ``mean`` subtracted.

    Args:
        image: a PIL image or an array of shape ``(H, W)``, ``(H, W, 3)``,
            ``(1, H, W)`` or ``(3, H, W)`` (RGB, values in ``[0, 255]``).
        size: the size the image is resized to (as given to PIL's ``resize``:
            ``(width, height)``), or None to keep it.
        mean: the BGR mean pixel subtracted.

    Returns:
        A NumPy array of ``chainer.get_dtype()``.

    Raises:
        ImportError: when Pillow is not installed.
    """
    check_pillow()
    dtype = chainer.get_dtype()
    if isinstance(image, numpy.ndarray):
        if image.ndim == 3:
            if image.shape[0] == 1:
                image = image[0]
            elif image.shape[0] == 3:
                image = image.transpose(1, 2, 0)
        image = Image.fromarray(image.astype(numpy.uint8))
    image = image.convert('RGB')
    if size:
        image = image.resize(tuple(size))
    array = numpy.asarray(image, dtype=dtype)[:, :, ::-1]
    array = array - numpy.asarray(mean, dtype=dtype)
    return numpy.ascontiguousarray(array.transpose(2, 0, 1))


def _dataset_root() -> str:
    try:
        from chainer.dataset import download  # layout: optional[pretrained]
    except ImportError:
        return os.environ.get('CHAINER_DATASET_ROOT',
                              os.path.join(os.path.expanduser('~'), '.chainer', 'dataset'))
    return download.get_dataset_root()


def pretrained_path(filename: str) -> str:
    """Where ``pretrained_model='auto'`` reads ``filename``: the models folder of the cache."""
    return os.path.join(_dataset_root(), MODELS_DIRECTORY, filename)


def load_weights(link: Link, pretrained_model: str, filename: str, origin: str) -> None:
    """Load the weights named by ``pretrained_model`` into ``link``.

    Args:
        link: the model.
        pretrained_model: ``'auto'`` (the converted file ``filename`` in the
            dataset cache) or the path of an NPZ file.
        filename: the name of the converted weights in the cache (v7's name).
        origin: where the original (Caffe) weights come from, for the message.

    Raises:
        FileNotFoundError: when the file is absent (nothing is downloaded).
        NotImplementedError: for a ``.caffemodel`` (convert it to NPZ first).
        ImportError: when chainer-serializers is not installed.
    """
    name = type(link).__name__
    if pretrained_model.endswith('.caffemodel'):
        raise NotImplementedError(
            f'{name}: a .caffemodel ({pretrained_model}) is not loaded directly; convert '
            f'it with {name}.convert_caffemodel_to_npz and pass the NPZ path')
    path = pretrained_path(filename) if pretrained_model == 'auto' else pretrained_model
    if not os.path.exists(path):
        hint = ''
        if pretrained_model == 'auto':
            hint = (f' This project does not download pretrained weights: convert the '
                    f'original model ({origin}) to NPZ with Chainer 7 and put it at {path} '
                    '(the folder is $CHAINER_DATASET_ROOT/pfnet/chainer/models), or pass '
                    'its path as pretrained_model, or pretrained_model=None for random '
                    'weights.')
        raise FileNotFoundError(f'{name}: the pretrained weights {filename!r} were not '
                                f'found at {path}.{hint}')
    try:
        from chainer.serializers import load_npz  # layout: optional[pretrained]
    except ImportError as exc:
        raise ImportError(f'{name}: loading pretrained weights needs chainer-serializers '
                          '(pip install chainer-serializers)') from exc
    load_npz(path, link)


def global_average_pooling_2d(x: Any) -> Variable:
    """Average over the spatial axes: ``(N, C, H, W)`` to ``(N, C)``."""
    n, channels, rows, cols = x.shape
    h = functions.average_pooling_2d(x, (rows, cols), stride=1)
    return functions.reshape(h, (n, channels))


class PretrainedModel(Chain):
    """A model whose named layers can be computed and extracted (base of the vision models).

    Subclasses define :attr:`functions`: an ordered mapping from the layer
    names to the callables applied in turn, and :func:`prepare` as
    ``_prepare`` (a static function of an image and a size).
    """

    _prepare: Callable[..., Any]

    @classmethod
    def convert_caffemodel_to_npz(cls, path_caffemodel: str, path_npz: str) -> None:
        """Convert the original Caffe weights (a ``.caffemodel``) to this model's NPZ file.

        The Caffe model is read with :class:`chainer.links.caffe.CaffeFunction`, its
        parameters are copied into a new model of this class, which is saved with
        :func:`chainer.serializers.save_npz` (needs protobuf and chainer-serializers: the
        ``caffe`` and ``pretrained`` extras).

        Args:
            path_caffemodel: the ``.caffemodel`` file.
            path_npz: where to write the NPZ file.
        """
        from chainer.links.model.vision import _caffe

        caffemodel = _caffe.load_caffemodel(path_caffemodel)
        model = cls._from_caffemodel(caffemodel)
        _caffe.save_npz(path_npz, model)

    @classmethod
    def _from_caffemodel(cls, caffemodel: Chain) -> Chain:
        """A new model of this class holding the parameters of the Caffe model."""
        raise NotImplementedError(f'{cls.__name__} cannot be converted from a caffemodel')

    @property
    def functions(self) -> OrderedDict[str, list[Callable[[Any], Any]]]:
        """The layers, in order: name -> the callables computing it from the previous one."""
        raise NotImplementedError

    @property
    def available_layers(self) -> list[str]:
        """The names of the layers :meth:`forward` can return."""
        return list(self.functions.keys())

    def _layer_inputs(self, key: str, h: Any, cache: dict[str, Any]) -> Any:
        """The input of layer ``key`` (the previous output; subclasses may branch)."""
        return h

    def forward(self, x: VariableOrArray, layers: Iterable[str] | None = None,
                **kwargs: Any) -> dict[str, Variable]:
        """Compute the feature maps of the layers named in ``layers`` (default ``['prob']``).

        Args:
            x: the input images, of shape ``(N, 3, H, W)``.
            layers: the names of the layers to return.

        Returns:
            A dict from the layer names to their outputs.

        Raises:
            ValueError: for an unknown layer or the removed ``test`` argument.
        """
        argument.parse_kwargs(kwargs, test=_TEST_REMOVED)
        targets = set(['prob'] if layers is None else layers)
        funcs = self.functions
        unknown = targets - set(funcs)
        if unknown:
            raise ValueError(f'{type(self).__name__} has no layer(s) {sorted(unknown)}; '
                             f'available: {list(funcs)}')
        activations: dict[str, Variable] = {}
        cache: dict[str, Any] = {}
        h = x
        for key, steps in funcs.items():
            if not targets:
                break
            h = self._layer_inputs(key, h, cache)
            for step in steps:
                h = step(h)
            cache[key] = h
            if key in targets:
                activations[key] = h
                targets.discard(key)
        return activations

    def extract(self, images: Sequence[Any], layers: Iterable[str] | None = None,
                size: tuple[int, int] | None = (224, 224),
                **kwargs: Any) -> dict[str, Variable]:
        """Prepare ``images`` and compute the layers named in ``layers`` (default ``['pool5']``).

        The configuration (``train``, ``enable_backprop``) is left as it is.

        Args:
            images: PIL images or arrays (see :func:`prepare`).
            layers: the names of the layers to return.
            size: the size images are resized to (None: keep; they must agree).
        """
        argument.parse_kwargs(kwargs, test=_TEST_REMOVED)
        x = numpy.stack([type(self)._prepare(image, size=size) for image in images])
        return self(Variable(self.device.send(x)),
                    layers=['pool5'] if layers is None else layers)

    def predict(self, images: Sequence[Any], oversample: bool = True) -> Variable:
        """Class probabilities of ``images``, of shape ``(len(images), 1000)``.

        Images are resized to 256x256; with ``oversample`` the probabilities
        are averaged over ten 224x224 crops (corners, centre and their
        mirrors), else the centre crop is used. Runs in test mode without
        building a graph.
        """
        x = numpy.stack([type(self)._prepare(image, size=(256, 256)) for image in images])
        if oversample:
            x = imgproc.oversample(x, crop_dims=(224, 224))
        else:
            x = x[:, :, 16:240, 16:240]
        with chainer.no_backprop_mode(), chainer.using_config('train', False):
            y = self(Variable(self.device.send(numpy.ascontiguousarray(x))),
                     layers=['prob'])['prob']
            if oversample:
                y = functions.reshape(y, (len(y) // 10, 10) + y.shape[1:])
                y = functions.sum(y, axis=1) / 10
        return y
