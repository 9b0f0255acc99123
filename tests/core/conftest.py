import pytest

from ..toys import registered


@pytest.fixture
def toys():
    with registered() as specs:
        yield specs
