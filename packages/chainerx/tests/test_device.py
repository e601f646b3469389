import copy
import pickle

import pytest

import chainerx


def test_native_devices_are_cached_and_named():
    d0 = chainerx.get_device('native:0')
    assert d0 is chainerx.get_device('native', 0)
    assert d0.name == 'native:0' and d0.index == 0
    assert d0.backend is chainerx.get_backend('native')
    assert d0.backend.name == 'native'
    assert d0.context is chainerx.get_default_context()
    assert chainerx.get_device('native:1') is not d0


def test_default_device_and_scopes():
    d1 = chainerx.get_device('native:1')
    before = chainerx.get_default_device()
    with chainerx.using_device('native:1') as scope:
        assert scope.device is d1
        assert chainerx.get_default_device() is d1
        assert chainerx.zeros((2,)).device is d1
    assert chainerx.get_default_device() is before
    chainerx.set_default_device(d1)
    try:
        assert chainerx.get_default_device() is d1
    finally:
        chainerx.set_default_device(before)


def test_unknown_backend_and_bad_index():
    with pytest.raises(chainerx.BackendError):
        chainerx.get_device('nothing:0')
    with pytest.raises(chainerx.DeviceError):
        chainerx.get_device('native:99')


def test_device_pickles_and_copies_to_itself():
    d = chainerx.get_device('native:1')
    assert pickle.loads(pickle.dumps(d)) is d
    assert copy.deepcopy(d) is d


def test_context_scope_gives_its_own_devices():
    context = chainerx.Context()
    with chainerx.context_scope(context):
        assert chainerx.get_default_device().context is context
    assert chainerx.get_default_device().context is chainerx.get_global_default_context()


def test_arrays_of_different_devices_do_not_mix():
    a = chainerx.ones((2,), device='native:0')
    b = chainerx.ones((2,), device='native:1')
    with pytest.raises(chainerx.DeviceError):
        a + b
    c = b.to_device('native:0')
    assert c.device.name == 'native:0'
    assert chainerx.to_numpy(a + c).tolist() == [2.0, 2.0]
