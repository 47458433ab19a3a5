import pytest

from .teacher import make_teacher


@pytest.fixture(scope="session")
def tiny_teacher(tmp_path_factory):
    """A randomly initialised BERT sentence-transformers directory (``teacher.make_teacher``)."""
    return make_teacher(tmp_path_factory.mktemp("teacher") / "tiny")


@pytest.fixture(scope="session")
def distilled(tiny_teacher):
    from wordvec.models.static.model import StaticModel

    return StaticModel.distill(tiny_teacher, dims=16)
