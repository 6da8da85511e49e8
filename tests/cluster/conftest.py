"""One local Ray cluster at a time: the Ray tests of this folder hold a lock shared by the
pytest-xdist workers, because two Ray clusters starting at once on a loaded 2-core machine can
time out in Ray's own start-up (a raylet that does not register in time)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from filelock import FileLock


@pytest.fixture(scope="module")
def one_ray_cluster_at_a_time(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    with FileLock(str(tmp_path_factory.getbasetemp().parent / "mars2-ray.lock")):
        yield
