import pytest

from . import world


@pytest.fixture(scope="session")
def base(tmp_path_factory):
    """The valid inputs every hostile case starts from (see ``world.build``)."""
    return world.build(tmp_path_factory.mktemp("hostile-base"))
