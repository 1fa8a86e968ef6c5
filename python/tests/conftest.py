import pathlib

import pytest

import parad

PROGRAMS = pathlib.Path(__file__).parent / "programs"


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("parad-cache")


@pytest.fixture(scope="session", params=["multicore", "c", "interp"])
def backend(request):
    return request.param


@pytest.fixture(scope="session")
def model(cache_dir):
    return parad.load(PROGRAMS / "model.fut", cache_dir=cache_dir)


@pytest.fixture(scope="session")
def model_on(cache_dir, backend):
    return parad.load(PROGRAMS / "model.fut", backend=backend, cache_dir=cache_dir)
