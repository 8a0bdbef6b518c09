"""Each game's rules for players as Markdown files in `docs/rules/<lang>/<game>.md`.

The files are written from the same catalogue text `/rules` sends and the terminal's `?` shows
(`faces.rules_text`), so the rules have one source: a change to the catalogue changes the files
when this module runs again (`python -m faces.rules_docs`), and a test fails while a committed
file differs from what it writes. Sources: docs/architecture.md §2 (the homes own the rules
text) and each game's own document in docs/rules/.
"""

from __future__ import annotations

import sys
from pathlib import Path

from faces import rules_text
from faces.presets import game_title
from games import GAMES

LANGS = ("en", "uk")
"""The languages the catalogue writes every game's rules in."""
ROOT = Path(__file__).resolve().parent.parent / "docs" / "rules"
"""Where the files live in the repository."""


def rules_markdown(game: str, lang: str) -> str:
    """The rules of `game` in `lang` as a Markdown page: the title, then the catalogue text with
    its "•" lines as a list."""
    lines = [f"# {game_title(game, None, lang)}", "",
             f"<!-- Written by `python -m faces.rules_docs` from the catalogue key "
             f"`rules.{game}` ({lang}); change the catalogue, not this file. -->", ""]
    for line in rules_text(game, lang).splitlines():
        if line.startswith("• "):
            lines.append("- " + line[2:])
        elif line.strip():
            # A line of its own stays a paragraph of its own.
            if lines[-1]:
                lines.append("")
            lines.extend([line, ""])
        elif lines[-1]:
            lines.append("")
    while not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n"


def index_markdown() -> str:
    """The page that lists every game with its rules in each language."""
    lines = ["# The rules of the games", "",
             "<!-- Written by `python -m faces.rules_docs`; change the catalogue, not this "
             "file. -->", "",
             "Each game's rules as `/rules GAME` sends them in a chat and `gupai rules GAME` "
             "prints them in the terminal.", "",
             "| game | English | Українською |", "|---|---|---|"]
    for game in GAMES:
        links = " | ".join(f"[{game_title(game, None, lang)}]({lang}/{game}.md)"
                           for lang in LANGS)
        lines.append(f"| `{game}` | {links} |")
    return "\n".join(lines) + "\n"


def expected_files(root: Path = ROOT) -> dict[Path, str]:
    """Every file this module writes under `root`, with its text."""
    files = {root / "README.md": index_markdown()}
    for lang in LANGS:
        for game in GAMES:
            files[root / lang / f"{game}.md"] = rules_markdown(game, lang)
    return files


def write(root: Path = ROOT) -> list[Path]:
    """Write the files that differ from what they should hold; return those it wrote."""
    written = []
    for path, text in expected_files(root).items():
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            written.append(path)
    return written


def main() -> int:
    for path in write():
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
