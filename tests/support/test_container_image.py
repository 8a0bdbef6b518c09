"""What the container test's preparation reads: the Debian mirror of this machine's apt sources,
and the image of each stage of a build from what `podman build` printed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.container_image import MIRROR, apt_mirror, platforms, stage_images

DEB822 = """Types: deb
# http://snapshot.debian.org/archive/debian-security/20250520T000000Z
URIs: http://security.example/debian-security
Suites: bookworm-security
Components: main

Types: deb-src deb
URIs: http://mirror.example/debian
  http://second.example/debian
Suites: bookworm bookworm-updates
Components: main
"""


@pytest.fixture(autouse=True)
def no_mirror_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GUPAI_TEST_DEBIAN_MIRROR", raising=False)


def test_the_mirror_is_the_one_apt_takes_bookworm_from(tmp_path: Path) -> None:
    (tmp_path / "sources.list.d").mkdir()
    assert apt_mirror(tmp_path) == MIRROR  # no sources: Debian's own
    (tmp_path / "sources.list.d" / "debian.sources").write_text(DEB822, encoding="utf-8")
    assert apt_mirror(tmp_path) == "http://mirror.example/debian"
    (tmp_path / "sources.list.d" / "debian.sources").write_text(
        DEB822.replace("Types: deb-src deb", "Enabled: no\nTypes: deb"), encoding="utf-8")
    assert apt_mirror(tmp_path) == MIRROR
    (tmp_path / "sources.list").write_text(
        "# deb http://old.example/debian bookworm main\n"
        "deb-src http://src.example/debian bookworm main\n"
        "deb [arch=amd64 signed-by=/k.gpg] http://one.example/debian bookworm main\n",
        encoding="utf-8")
    assert apt_mirror(tmp_path) == "http://one.example/debian"


def test_a_mirror_set_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GUPAI_TEST_DEBIAN_MIRROR", "http://chosen.example/debian")
    assert apt_mirror(tmp_path) == "http://chosen.example/debian"


def test_each_stage_ends_with_the_image_of_its_last_step() -> None:
    printed = """[1/2] STEP 1/3: FROM localhost/base AS build
[1/2] STEP 2/3: RUN true
--> Using cache 7de0a41e3e3ef5d9e6a6c3b4a434ee6b0b51b4917c85a15cc0c3e8b9004f068e
--> 7de0a41e3e3
[1/2] STEP 3/3: COPY a a
--> ba56e8a7366
[2/2] STEP 1/2: FROM localhost/base
[2/2] STEP 2/2: CMD ["gupai", "run"]
[2/2] COMMIT localhost/gupai-bot:test
--> 9dbc289d863
Successfully tagged localhost/gupai-bot:test
9dbc289d863b2c7c9e6d8d6d7fe1b1b5f1b0a4e0c4d0b0a0c0d0e0f0a0b0c0d0e
"""
    assert stage_images(printed) == [(1, "ba56e8a7366"), (2, "9dbc289d863")]


def test_the_wheels_are_those_bookworms_glibc_runs() -> None:
    tags = platforms()
    assert "manylinux_2_36_x86_64" in tags and "manylinux_2_17_x86_64" in tags
    assert "manylinux_2_37_x86_64" not in tags and "manylinux2014_x86_64" in tags
