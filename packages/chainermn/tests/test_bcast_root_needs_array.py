"""bcast: the root process must give the array it broadcasts."""

import pytest

import chainermn


@pytest.mark.parametrize('name', ['naive', 'flat'])
def test_root_passing_none_is_a_value_error(name):
    comm = chainermn.create_communicator(name)
    with pytest.raises(ValueError, match='root process must give'):
        comm.bcast(None, root=comm.rank)
