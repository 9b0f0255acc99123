import pytest

from qipan.core import registry

from .toys import TOY_SPECS


@pytest.fixture
def toys():
    registry.specs()
    registry.register(*TOY_SPECS)
    yield {s.id: s for s in TOY_SPECS}
    for s in TOY_SPECS:
        registry.unregister(s.id)
