"""The image the container test runs, built from this checkout with no network (docs/architecture.md
§11: the image built and run by the project's own checks).

Docker Hub cannot be reached from the test machines and the tests use no network beyond
127.0.0.1, so what the build needs from the network is fetched ahead, into the cache folder
(`tests.support.podman.CACHE`), by `.venv/bin/python -m tests.support.container_image` (which
`.ci/run` runs before the tests):

- `base/bookworm.tar`: a Debian bookworm root file system, `debootstrap --variant=minbase` with
  python3, python3-venv, python-is-python3 and ca-certificates, without apt's package lists,
  downloaded packages, documentation and translations. Docker Hub's `python:3.11-slim-bookworm`,
  the image's base for everyone else, is Debian bookworm with Python 3.11 too. It comes from the
  Debian mirror this machine's apt uses for bookworm (GUPAI_TEST_DEBIAN_MIRROR names another).
- `wheels/`: every package `docker/constraints.txt` pins and what `pyproject.toml` builds the
  project with (setuptools), as wheels for that Python 3.11 on x86_64 (`pip download`).

Each is fetched once, and again only when what it should hold changes. The test then imports
the root file system as the base image (once) and builds the Dockerfile on it as it stands,
with `PYTHON_IMAGE` naming that base, the wheels mounted at /wheels and pip told to look
nowhere else (`PIP_NO_INDEX`, `PIP_FIND_LINKS`), and no network at all in the build.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from tests.support.podman import CACHE, Podman, program

ROOT = Path(__file__).resolve().parents[2]
SUITE = "bookworm"
PACKAGES = ("python3", "python3-venv", "python-is-python3", "ca-certificates")
STRIPPED = ("var/cache/apt/archives/*.deb", "var/cache/apt/*.bin", "var/lib/apt/lists/*",
            "usr/share/doc/*", "usr/share/man/*", "usr/share/info/*", "usr/share/locale/*",
            "var/log/*")
"""What the base keeps no more of than python:3.11-slim does (half of what debootstrap leaves)."""
PYTHON = ("3.11", "cp311")
GLIBC = 36
"""bookworm's glibc, 2.36: the newest manylinux wheels it runs."""
MIRROR = "http://deb.debian.org/debian"
BASE_IMAGE = f"localhost/gupai-test-base:{SUITE}"
IMAGE = "localhost/gupai-bot:test"
PREPARE = ".venv/bin/python -m tests.support.container_image"


def base_tarball(cache: Path = CACHE) -> Path:
    return cache / "base" / f"{SUITE}.tar"


def wheels(cache: Path = CACHE) -> Path:
    return cache / "wheels"


def build_requires() -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return list(project["build-system"]["requires"])


def platforms() -> list[str]:
    """pip's `--platform` for every manylinux wheel bookworm's glibc runs."""
    tags = [f"manylinux_2_{minor}_x86_64" for minor in range(GLIBC, 4, -1)]
    return [*tags, "manylinux2014_x86_64", "manylinux2010_x86_64", "manylinux1_x86_64"]


def wheels_wanted() -> str:
    """What the wheel folder must hold: the pins, the build's requirements, the platform."""
    constraints = (ROOT / "docker" / "constraints.txt").read_text(encoding="utf-8")
    return hashlib.sha256(json.dumps(
        [constraints, build_requires(), PYTHON, GLIBC]).encode()).hexdigest()


def base_wanted() -> str:
    return json.dumps([SUITE, PACKAGES, STRIPPED])


def base_ready(cache: Path = CACHE) -> bool:
    recipe = base_tarball(cache).with_suffix(".recipe")
    return base_tarball(cache).is_file() and recipe.is_file() \
        and recipe.read_text(encoding="utf-8") == base_wanted()


def wheels_ready(cache: Path = CACHE) -> bool:
    key = wheels(cache) / ".wanted"
    return key.is_file() and key.read_text(encoding="utf-8") == wheels_wanted()


def unprepared(cache: Path = CACHE) -> list[str]:
    """What the build lacks of what must be fetched ahead (empty: nothing)."""
    lacking = []
    if not base_ready(cache):
        lacking.append(f"the Debian {SUITE} base ({base_tarball(cache)})")
    if not wheels_ready(cache):
        lacking.append(f"the wheels of docker/constraints.txt ({wheels(cache)})")
    return lacking


def apt_mirror(sources: Path = Path("/etc/apt")) -> str:
    """GUPAI_TEST_DEBIAN_MIRROR, else the first mirror this machine's apt takes bookworm
    itself from (one-line `.list` or deb822 `.sources` files), else deb.debian.org."""
    chosen = os.environ.get("GUPAI_TEST_DEBIAN_MIRROR", "").strip()
    if chosen:
        return chosen
    lists = [sources / "sources.list", *sorted((sources / "sources.list.d").glob("*.list"))]
    for path in lists:
        if path.is_file():
            for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
                found = re.match(r"deb\s+(?:\[[^]]*\]\s+)?(\S+)\s+(\S+)", line.strip())
                if found and found[2] == SUITE:
                    return found[1]
    for path in sorted((sources / "sources.list.d").glob("*.sources")):
        for stanza in re.split(r"\n\s*\n", path.read_text(encoding="utf-8", errors="replace")):
            fields: dict[str, str] = {}
            key = ""
            for line in stanza.splitlines():
                if line.startswith("#"):
                    continue
                if line[:1].isspace() and key:
                    fields[key] += " " + line.strip()
                elif ":" in line:
                    key, _, value = line.partition(":")
                    key = key.strip().lower()
                    fields[key] = value.strip()
            if "deb" in fields.get("types", "").split() \
                    and SUITE in fields.get("suites", "").split() \
                    and fields.get("enabled", "yes").lower() != "no" and fields.get("uris"):
                return fields["uris"].split()[0]
    return MIRROR


def prepare_base(cache: Path = CACHE) -> None:
    if base_ready(cache):
        return
    tarball = base_tarball(cache)
    debootstrap = program("debootstrap")
    if os.geteuid() != 0 or debootstrap is None:
        raise SystemExit(f"making the {SUITE} base needs root and Debian's debootstrap "
                         "(.ci/run installs it as root)")
    rootfs = tarball.parent / "rootfs"
    shutil.rmtree(rootfs, ignore_errors=True)
    # dpkg in the new system skips its flush to disk after every file it unpacks (a minute
    # less here); the whole tree is thrown away if anything fails, so nothing needs it.
    speedup = rootfs / "etc" / "dpkg" / "dpkg.cfg.d" / "unsafe-io"
    speedup.parent.mkdir(parents=True)
    speedup.write_text("force-unsafe-io\n", encoding="utf-8")
    mirror = apt_mirror()
    print(f"debootstrap {SUITE} from {mirror} into {rootfs}", flush=True)
    _run([debootstrap, "--variant=minbase", f"--include={','.join(PACKAGES)}", SUITE,
          str(rootfs), mirror])
    speedup.unlink()
    for pattern in STRIPPED:
        for path in rootfs.glob(pattern):
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink()
    partial = tarball.with_suffix(".part")
    _run(["tar", "--numeric-owner", "-C", str(rootfs), "-cf", str(partial), "."])
    partial.replace(tarball)
    shutil.rmtree(rootfs)
    tarball.with_suffix(".recipe").write_text(base_wanted(), encoding="utf-8")


def prepare_wheels(cache: Path = CACHE) -> None:
    if wheels_ready(cache):
        return
    folder = wheels(cache)
    partial = cache / "wheels.part"
    shutil.rmtree(partial, ignore_errors=True)
    print(f"pip download into {folder}", flush=True)
    version, abi = PYTHON
    _run([sys.executable, "-m", "pip", "download", "--quiet", "--dest", str(partial),
          "--only-binary=:all:", "--python-version", version, "--implementation", "cp",
          "--abi", abi, *(f"--platform={tag}" for tag in platforms()),
          "--requirement", str(ROOT / "docker" / "constraints.txt"), *build_requires()])
    (partial / ".wanted").write_text(wheels_wanted(), encoding="utf-8")
    shutil.rmtree(folder, ignore_errors=True)
    partial.replace(folder)


def base_image(podman: Podman, cache: Path = CACHE) -> None:
    """Import the base root file system as BASE_IMAGE, unless the image there is of it."""
    tarball = base_tarball(cache)
    stat = tarball.stat()
    made = f"{stat.st_size}-{stat.st_mtime_ns}"
    found = podman.call("image", "inspect", "--format", '{{index .Labels "gupai.base"}}',
                        BASE_IMAGE)
    if found.returncode == 0 and found.stdout.strip() == made:
        return
    podman.run("import", "--change", f"LABEL gupai.base={made}", "--change",
               'CMD ["python3"]', str(tarball), BASE_IMAGE, timeout=300)


def build(podman: Podman, cache: Path = CACHE) -> str:
    """Build IMAGE from this checkout's Dockerfile with no network; what the build printed.
    The last layer of each earlier stage is tagged too, so that removing every untagged image
    afterwards keeps the layers the next build reuses and drops those of older builds."""
    base_image(podman, cache)
    output = podman.run(
        "build", "--format", "docker", "--layers", "--isolation", "oci", "--network", "none",
        "--pull=never", "--volume", f"{wheels(cache)}:/wheels:ro",
        "--build-arg", f"PYTHON_IMAGE={BASE_IMAGE}", "--build-arg", "PIP_NO_INDEX=1",
        "--build-arg", "PIP_FIND_LINKS=/wheels", "--tag", IMAGE, str(ROOT), timeout=900)
    for stage, image in stage_images(output)[:-1]:
        podman.run("tag", image, f"{IMAGE}-stage-{stage}")
    podman.run("image", "prune", "--force")
    return output


def stage_images(output: str) -> list[tuple[int, str]]:
    """Each stage of a build and the image of its last step, from what `podman build`
    printed (`[1/2] STEP 3/9: …`, then `--> 1a2b3c…` after each step)."""
    stages: dict[int, str] = {}
    stage = 0
    for line in output.splitlines():
        began = re.match(r"\[(\d+)/\d+\] STEP ", line)
        if began:
            stage = int(began[1])
        made = re.match(r"--> ([0-9a-f]{6,64})$", line.strip())
        if made and stage:
            stages[stage] = made[1]
    return sorted(stages.items())


def _run(command: list[str]) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command[:3])} … failed ({done.returncode}):\n"
                         f"{done.stdout[-3000:]}{done.stderr[-3000:]}")


def main() -> None:
    prepare_base()
    prepare_wheels()
    print(f"the container test's base and wheels are ready in {CACHE}")


if __name__ == "__main__":
    main()
