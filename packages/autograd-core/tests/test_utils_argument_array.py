import numpy
import pytest

import chainer
from chainer.utils import argument, array, conv_nd


def test_parse_kwargs():
    kwargs = {'train': True, 'ratio': 0.3}
    with pytest.raises(ValueError, match='use chainer.using_config'):
        argument.parse_kwargs(dict(kwargs), ('ratio', 0.5),
                              train='train argument is not supported anymore. '
                                    'use chainer.using_config')
    assert argument.parse_kwargs({'ratio': 0.3}, ('ratio', 0.5), ('mask', None)) == (0.3, None)
    with pytest.raises(TypeError, match="'foo'"):
        argument.parse_kwargs({'foo': 1}, ('ratio', 0.5))
    argument.assert_kwargs_empty({})


def test_as_vec_as_mat():
    a = numpy.arange(24.0).reshape(2, 3, 4)
    assert array.as_vec(a).shape == (24,)
    assert array.as_mat(a).shape == (2, 12)
    v = chainer.Variable(a)
    m = array.as_mat(v)
    assert isinstance(m, chainer.Variable) and m.shape == (2, 12)
    chainer.functions.sum(m).backward()
    numpy.testing.assert_array_equal(v.grad, numpy.ones_like(a))
    assert array.empty_like(a).shape == a.shape


def test_conv_nd_names():
    img = numpy.arange(16.0).reshape(1, 1, 4, 4)
    col = conv_nd.im2col_nd_cpu(img, (2, 2), (2, 2), (0, 0))
    back = conv_nd.col2im_nd_cpu(col, (2, 2), (0, 0), (4, 4))
    numpy.testing.assert_array_equal(back, img)


def test_unexpected_kwargs_message_names_the_caller():
    def resize(**kwargs):
        return argument.parse_kwargs(kwargs, ('mode', 'linear'))

    with pytest.raises(TypeError, match=r"^resize\(\) got unexpected keyword argument\(s\) "
                                        r"'ham', 'spam'$"):
        resize(spam=1, ham=2)

    def check(**kwargs):
        argument.assert_kwargs_empty(kwargs)

    with pytest.raises(TypeError, match=r"^check\(\) got unexpected .*'x'$"):
        check(x=1)
