"""The container files name only what exists: the files the Dockerfile copies (and that
`.dockerignore` lets through), the `gupai` commands it runs, the settings it and `compose.yaml` set
(each documented in `.env.example`), and a pinned version of every dependency `pyproject.toml` asks
for, inside the range it allows; and `compose.yaml` fills in with the values `.env.example` leaves
(docs/architecture.md §11's container, tried as a new user would). No Docker engine is needed to
check them (`tests/test_container_run.py` builds and runs the image with podman).
"""

from __future__ import annotations

import fnmatch
import re
import shlex
import tomllib
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from bot.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")
COMPOSE = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
VARIABLE = re.compile(r"\$(?:(?P<escaped>\$)|(?P<bare>[A-Za-z_]\w*)"
                      r"|\{(?P<name>[A-Za-z_]\w*)(?:(?P<op>:?[-?+])(?P<word>[^${}]*))?\})")
"""Compose's interpolation: `$$`, `$VAR`, `${VAR}`, and `${VAR` followed by `:-`, `-`, `:?`, `?`,
`:+` or `+` and a word."""
SETTING = re.compile(r"\b((?:GUPAI|TELEGRAM|DISCORD)_[A-Z_]+)\b")
FROM_ENV = re.compile(r"\$\{([A-Z_]+)")
"""A compose setting taken from `.env` (the PostgreSQL image's own, such as POSTGRES_USER,
are set in compose.yaml itself)."""


def instructions() -> list[tuple[str, str]]:
    """The Dockerfile's instructions, continuation lines joined, comments dropped."""
    text = re.sub(r"\\\n", " ", DOCKERFILE)
    found = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            found.append((word.upper(), rest.strip()))
    return found


def documented() -> set[str]:
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    return set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]+)=", example, re.MULTILINE))


def dotenv(path: Path) -> dict[str, str]:
    """The variables a `.env` file sets (a file copied from `.env.example` sets them all)."""
    return dict(re.findall(r"^([A-Za-z_]\w*)=(.*)$", path.read_text(encoding="utf-8"),
                           re.MULTILINE))


class Missing(Exception):
    """A `${VAR:?…}` or `${VAR?…}` whose variable is empty or unset: Compose stops there."""


def interpolated(value: object, env: dict[str, str]) -> object:
    """`value` (compose.yaml as loaded) with every variable filled in as Compose does, before
    it applies any profile: every string of the file, whichever service holds it."""
    if isinstance(value, dict):
        return {key: interpolated(item, env) for key, item in value.items()}
    if isinstance(value, list):
        return [interpolated(item, env) for item in value]
    if not isinstance(value, str):
        return value

    def fill(match: re.Match[str]) -> str:
        if match["escaped"]:
            return "$"
        name = match["bare"] or match["name"]
        op, word = match["op"] or "", match["word"] or ""
        given = env.get(name)
        present = given is not None and (given != "" or not op.startswith(":"))
        if op.endswith("?") and not present:
            raise Missing(f"{name}: {word}")
        if op.endswith("-"):
            return given if present and given is not None else word
        if op.endswith("+"):
            return word if present else ""
        return given or ""
    filled = VARIABLE.sub(fill, value)
    assert "${" not in filled.replace("$$", ""), f"not understood: {value}"
    return filled


def ignored(path: str) -> bool:
    """Whether `.dockerignore` keeps `path` out of the build context (last match wins)."""
    verdict = False
    for rule in (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines():
        rule = rule.strip()
        if not rule or rule.startswith("#"):
            continue
        keep = rule.startswith("!")
        pattern = rule.lstrip("!").rstrip("/").removeprefix("**/")
        parts = path.split("/")
        if any(fnmatch.fnmatch("/".join(parts[:i]), pattern) for i in range(1, len(parts) + 1)) \
                or fnmatch.fnmatch(parts[-1], pattern):
            verdict = not keep
    return verdict


def test_every_file_the_image_copies_exists_and_reaches_the_build() -> None:
    copies = [shlex.split(rest) for word, rest in instructions() if word == "COPY"]
    sources = [src for args in copies if not any(a.startswith("--from") for a in args)
               for src in args[:-1]]
    assert "pyproject.toml" in sources and "bot" in sources
    for source in sources:
        assert (ROOT / source).exists(), source
        assert not ignored(source), f".dockerignore keeps {source} out of the build"
    for package in ("bot", "faces", "games", "rendering", "storage", "words"):
        assert package in sources, f"the image lacks the {package} package"
    assert ignored(".env") and ignored(".venv") and ignored("gupai.sqlite3")


def test_the_image_runs_real_commands_as_a_user_with_its_data_in_a_volume() -> None:
    steps = dict(instructions())  # the last of each kind: the final stage's
    parser = build_parser()
    for word in ("CMD", "HEALTHCHECK"):
        command = steps[word].split("CMD", 1)[-1].strip()
        argv = yaml.safe_load(command)
        assert argv[0] == "gupai", argv
        parser.parse_args(argv[1:])  # a subcommand the CLI has (exits otherwise)
    assert steps["USER"] not in ("root", "0")
    assert steps["VOLUME"] == "/data"
    env = dict(re.findall(r"(\w+)=(\S+)", steps["ENV"]))
    assert env["GUPAI_DB"].startswith("/data/")
    assert steps["STOPSIGNAL"] == "SIGTERM"
    assert instructions()[1][1].startswith("${PYTHON_IMAGE}")
    assert re.search(r"ARG PYTHON_IMAGE=python:3\.1[1-9]-slim", DOCKERFILE)


def test_pip_in_the_build_asks_pypi_unless_told_to_take_a_folder_of_wheels() -> None:
    """The container test builds with no network, pointing pip at its wheels through two build
    arguments; without them (`docker compose build`) pip installs from PyPI as ever."""
    steps = instructions()
    final = max(i for i, (word, _) in enumerate(steps) if word == "FROM")
    arguments = {rest for word, rest in steps[:final] if word == "ARG"}
    assert {"PIP_NO_INDEX", "PIP_FIND_LINKS"} <= arguments  # no default: unset unless given
    environment = " ".join(rest for word, rest in steps if word == "ENV")
    for name in ("PIP_NO_INDEX", "PIP_FIND_LINKS", "PIP_INDEX_URL"):
        assert name not in environment


def test_every_setting_named_is_documented() -> None:
    compose = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    names = set(SETTING.findall(DOCKERFILE)) | set(SETTING.findall(compose)) | set(
        FROM_ENV.findall(compose))
    assert {"GUPAI_DB", "POSTGRES_PASSWORD"} <= names
    assert names - documented() == set()


def test_compose_runs_the_image_with_its_volume_and_an_optional_database() -> None:
    services = COMPOSE["services"]
    bot = services["bot"]
    assert bot["build"] == "." and bot["env_file"] == ".env"
    assert any(v.endswith(":/data") for v in bot["volumes"])
    assert services["postgres"]["profiles"] == ["postgres"]
    assert bot["depends_on"]["postgres"]["required"] is False
    port = str(bot["environment"]["GUPAI_HTTP_PORT"])
    assert any(p.endswith(f":{port}") for p in bot["ports"])
    assert set(COMPOSE["volumes"]) >= {v.split(":")[0] for s in services.values()
                                       for v in s.get("volumes", [])}


def test_compose_starts_with_env_example_values_and_the_database_only_on_its_profile() -> None:
    """Compose fills in the whole file before it applies profiles (docker/compose#11977): a
    `${POSTGRES_PASSWORD:?…}` in the PostgreSQL service stopped a plain `docker compose up`
    with `.env` copied from `.env.example`, which leaves the password empty."""
    example = dotenv(ROOT / ".env.example")
    assert example["POSTGRES_PASSWORD"] == ""
    interpolated(COMPOSE, example)  # raises Missing where Compose would stop
    assert "profiles" not in COMPOSE["services"]["bot"]  # a plain `up` starts it
    chosen = interpolated(COMPOSE, {**example, "POSTGRES_PASSWORD": "chosen-in-env"})
    assert isinstance(chosen, dict)
    assert chosen["services"]["postgres"]["environment"]["POSTGRES_PASSWORD"] == "chosen-in-env"
    with pytest.raises(Missing):  # the check itself sees what Compose would refuse
        interpolated({"x": "${POSTGRES_PASSWORD:?set it}"}, example)


def test_the_image_pins_every_dependency_within_the_projects_ranges() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pins: dict[str, str] = {}
    for line in (ROOT / "docker" / "constraints.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"not pinned: {line}"
            pins[canonicalize_name(name)] = version
    for wanted in project["dependencies"]:
        requirement = Requirement(wanted)
        name = canonicalize_name(requirement.name)
        assert name in pins, f"docker/constraints.txt does not pin {name}"
        assert requirement.specifier.contains(pins[name]), (name, pins[name])
