"""The rooms of bot/ import one another in one direction only (bot/__init__.py names them).

`service` is the floor; the session layer (`session`, `present`, `deals`) stands on it; each surface
(`telegram`, `discord`, `web`, `console`) uses the session layer and never another surface; the
run loop that wires the surfaces (`launch`) and the command line (`commandline`, `cli.py`) are on
top. Below bot/, the games, words, rendering, faces and storage never import `bot`. Every import
counts, at a module's top or inside a function, where one is easy to miss.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.support import sources

ROOT = Path(__file__).resolve().parents[2]
FLOOR = {"service": 0, "session": 1, "present": 1, "deals": 1,
         "telegram": 2, "discord": 2, "web": 2, "console": 2,
         "launch": 3, "commandline": 3, "cli": 3}
"""Each room's floor: a room imports its own modules and those of the floors below it."""
SESSION_LAYER = {"session", "present", "deals"}
"""The one floor whose rooms may import each other: the session layer, the screens it shows and
the deals it keeps."""
TOP = 3
BELOW_BOT = ("games", "words", "rendering", "faces", "storage")
MOST_MODULES = 15


def imported(path: Path, module: str) -> list[str]:
    """Every module `path` (module `module`) imports, at its top or anywhere inside; relative ones
    made absolute, and `from bot import x` as `bot.x`."""
    names = []
    for node in sources.nodes(path):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            source = node.module or ""
            if node.level:
                package = module.split(".")[:-node.level] if path.stem != "__init__" else \
                    module.split(".")[:len(module.split(".")) - node.level + 1]
                source = ".".join([*package, *([source] if source else [])])
            names += [f"{source}.{alias.name}" for alias in node.names]
    return names


def room(module: str) -> str | None:
    """`bot.web.webapp` -> "web", `bot.cli` -> "cli"; `bot` itself has none."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "bot" else None


def allowed(importer: str, imported_room: str) -> bool:
    if importer == imported_room or FLOOR[importer] == TOP:
        return True
    if importer in SESSION_LAYER and imported_room in SESSION_LAYER:
        return True
    return FLOOR[imported_room] < FLOOR[importer]


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def wrong_ways(root: Path) -> list[str]:
    """Every import of bot/ against the direction of its rooms, as "file imports module"."""
    found = []
    for path in sorted((root / "bot").rglob("*.py")):
        module = module_name(path, root)
        here = room(module)
        for name in imported(path, module):
            there = room(name)
            if there is None:
                continue
            if here is None or here not in FLOOR or there not in FLOOR \
                    or not allowed(here, there):
                found.append(f"{path.relative_to(root)} imports {name}")
    return found


def test_the_rooms_of_bot_import_one_way_only():
    assert not wrong_ways(ROOT), wrong_ways(ROOT)


def test_every_room_has_a_floor_and_says_what_it_may_import():
    rooms = {p.name for p in (ROOT / "bot").iterdir() if (p / "__init__.py").is_file()}
    assert rooms == set(FLOOR) - {"cli"}
    for name in rooms:
        doc = ast.get_docstring(sources.tree(ROOT / "bot" / name / "__init__.py"))
        assert doc and "import" in doc, name


def test_no_room_of_bot_is_crowded():
    for folder in [ROOT / "bot", *(p for p in (ROOT / "bot").rglob("*") if p.is_dir())]:
        modules = [p for p in folder.glob("*.py") if p.stem != "__init__"]
        assert len(modules) <= MOST_MODULES, folder


def test_nothing_below_bot_imports_it():
    reaching_up = [f"{path.relative_to(ROOT)} imports {name}"
                   for package in BELOW_BOT for path in sorted((ROOT / package).rglob("*.py"))
                   for name in imported(path, module_name(path, ROOT))
                   if name.split(".")[0] == "bot"]
    assert not reaching_up, reaching_up


def test_the_room_check_catches_sideways_and_upward_imports(tmp_path):
    def write(relative: str, text: str = "") -> None:
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")

    write("bot/__init__.py")
    for name in ("service", "session", "present", "telegram", "discord", "web", "launch"):
        write(f"bot/{name}/__init__.py")
    write("bot/discord/hands.py", "def f():\n    from bot.telegram import messages\n")
    write("bot/session/turns.py", "import bot.web.webapp\nfrom bot.present import payload\n")
    write("bot/service/logs.py", "from ..session import turns\n")
    write("bot/present/screens.py", "from . import keyboards\nfrom bot.session import seating\n")
    write("bot/launch/run.py", "from bot.telegram import adapter\nfrom bot.discord import hands\n")
    assert wrong_ways(tmp_path) == [
        "bot/discord/hands.py imports bot.telegram.messages",
        "bot/service/logs.py imports bot.session.turns",
        "bot/session/turns.py imports bot.web.webapp",
    ]
