"""The repository explains itself: the README is an entry, its documents are where it says, and
every document the code cites, with the section, row or decision it names, is in the repository,
and so is every file of it named in code quotes.

The README links to the documents under docs/ (a link or a `#section` that leads nowhere fails
here); `.env.example` and the code name a document's section by its title in quotes, or cite
`docs/architecture.md §N`, `docs/rules-book.md §N` (and its "§3 row N") and decision ids such as
D-29 (docs/decisions.md) and worked examples such as KT-01 (docs/rules-book.md §5).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README_LINES = 200
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
SECTION = re.compile(r"(README\.md|README|docs/[\w/-]+\.md),?\s+\"([^\"]+)\"")
CITED = re.compile(r"docs/(architecture|rules-book)\.md(?:'s)? §(\d+(?:\.\d+)*)")
ROW = re.compile(r"docs/rules-book\.md §3 rows? (\d+)")
DECISION = re.compile(r"\bD-\d\d\b")
EXAMPLE = re.compile(r"\b(?:KT|TD|TG|UA|DN|TS|DH)-\d\d[a-z]?\b")
NAMED = re.compile(r"`((?:bot|games|faces|rendering|storage|words|tests|benchmarks|docs)/"
                   r"[\w./-]*\w)`")
"""A file or folder of the repository named in code quotes (`tests/test_docs.py`)."""
OUTSIDE = re.compile(r"DESIGN\.md|RULES\.md|shared\sfolder|\.\./shared|\b[Ii]ssues?\s\d+\b")
"""Documents outside the repository, and the numbered issues of a tracker it does not hold."""


def tracked(root: Path) -> list[Path]:
    """The repository's text files: those git tracks, or every file when `root` is no checkout."""
    try:
        names = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True,
                               check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        names = [str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()]
    return [root / n for n in names if (root / n).is_file()
            and (Path(n).suffix in {".py", ".md", ".toml", ".example", ".yaml", ".html", ".js"}
                 or Path(n).name == "Dockerfile")]


def slug(title: str) -> str:
    """A heading's anchor as GitHub makes it."""
    return re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")


def headings(path: Path) -> list[str]:
    text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.M | re.S)
    return [line.lstrip("#").strip() for line in text.splitlines() if line.startswith("#")]


def broken_links(root: Path) -> list[str]:
    """Every link of the README and docs/ whose file or section is not there."""
    found = []
    for page in [root / "README.md", *sorted((root / "docs").rglob("*.md"))]:
        if not page.is_file():
            continue
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target):
                continue
            name, _, anchor = target.partition("#")
            where = (page.parent / name).resolve() if name else page
            if not where.exists() or (anchor and where.suffix == ".md"
                                      and anchor not in map(slug, headings(where))):
                found.append(f"{page.relative_to(root)}: {target}")
    return found


def wrong_citations(root: Path) -> list[str]:
    """Every citation in the repository of a document, a section of one, a row, a decision or
    a worked example that the repository does not hold."""
    docs = root / "docs"
    numbered = {name: {m.group(1) for h in headings(docs / f"{name}.md")
                       if (m := re.match(r"§(\d+(?:\.\d+)*)\b", h))}
                for name in ("architecture", "rules-book") if (docs / f"{name}.md").is_file()}
    book = (docs / "rules-book.md").read_text(encoding="utf-8") if "rules-book" in numbered \
        else ""
    decisions = (docs / "decisions.md").read_text(encoding="utf-8") \
        if (docs / "decisions.md").is_file() else ""
    rows = set(re.findall(r"^\| (\d+) \|", book[book.find("## §3"):], flags=re.M))
    found = []
    for path in tracked(root):
        text = path.read_text(encoding="utf-8", errors="replace")
        where = str(path.relative_to(root))
        if where.startswith("docs/") or path.resolve() == Path(__file__).resolve():
            continue  # the documents themselves, and the examples this file plants
        found += [f"{where}: {m.group(0)}" for m in OUTSIDE.finditer(text)]
        flat = re.sub(r"\s*\n\s*(?:#|\*)?\s*", " ", text)
        for name, number in CITED.findall(flat):
            if number not in numbered.get(name, set()):
                found.append(f"{where}: docs/{name}.md §{number}")
        found += [f"{where}: §3 row {row}" for row in ROW.findall(flat) if row not in rows]
        for document, title in SECTION.findall(flat):
            target = root / ("README.md" if document == "README" else document)
            if not target.is_file() or title not in headings(target):
                found.append(f'{where}: {document} "{title}"')
        found += [f"{where}: {d}" for d in set(DECISION.findall(text))
                  if f"| {d} |" not in decisions]
        found += [f"{where}: {e}" for e in set(EXAMPLE.findall(text)) if f"**{e}**" not in book]
    return sorted(found)


def test_the_readme_is_an_entry() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) < README_LINES
    text = "\n".join(lines)
    for document in ("docs/playing.md", "docs/hosting.md", "docs/simulator.md",
                     "docs/pictures.md", "docs/architecture.md", "docs/rules-book.md",
                     "docs/decisions.md", "docs/rules/README.md", "docs/testing.md"):
        assert f"]({document}" in text, document


def test_the_readme_and_the_documents_link_to_what_is_there() -> None:
    assert broken_links(ROOT) == []


def test_every_citation_is_of_something_in_the_repository() -> None:
    assert wrong_citations(ROOT) == []


def test_the_checks_catch_a_link_and_a_citation_that_lead_nowhere(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "architecture.md").write_text("# A\n\n## §1 Invariants\n\n### §1.2 One\n",
                                          encoding="utf-8")
    (docs / "rules-book.md").write_text("## §2 Games\n\n## §3 Sources\n\n| 4 | x |\n\n"
                                        "16. **KT-01** — a hand\n", encoding="utf-8")
    (docs / "decisions.md").write_text("| D-01 | one |\n", encoding="utf-8")
    (docs / "hosting.md").write_text("# Hosting\n\n## Webhooks\n", encoding="utf-8")
    (tmp_path / "README.md").write_text(
        "[h](docs/hosting.md#webhooks) [i](docs/architecture.md#1-invariants)\n",
        encoding="utf-8")
    (tmp_path / "game.py").write_text(
        '"""docs/architecture.md §1.2, docs/rules-book.md §3 row 4, D-01, KT-01;\n'
        'docs/hosting.md, "Webhooks"."""\n', encoding="utf-8")
    assert broken_links(tmp_path) == [] and wrong_citations(tmp_path) == []
    (tmp_path / "README.md").write_text("[h](docs/hosting.md#polling) [g](docs/gone.md)\n",
                                        encoding="utf-8")
    (tmp_path / "game.py").write_text(
        '"""docs/architecture.md §1.3, docs/rules-book.md §3 row 5, D-02, KT-02, RULES' '.md;\n'
        'issue' ' 9; docs/hosting.md, "Polling"."""\n', encoding="utf-8")
    assert broken_links(tmp_path) == ["README.md: docs/hosting.md#polling",
                                      "README.md: docs/gone.md"]
    assert wrong_citations(tmp_path) == [
        "game.py: D-02", "game.py: KT-02", "game.py: RULES" ".md",
        "game.py: docs/architecture.md §1.3", 'game.py: docs/hosting.md "Polling"',
        "game.py: issue" " 9", "game.py: §3 row 5"]


def missing_files(root: Path) -> list[str]:
    """Every file or folder of the repository named in code quotes that is not there (a line
    that cites another repository, on github.com, names that one's files)."""
    found = []
    for path in tracked(root):
        if path.resolve() == Path(__file__).resolve():
            continue  # the examples this file plants
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            if "github.com/" in line:
                continue
            found += [f"{path.relative_to(root)}: {name}" for name in NAMED.findall(line)
                      if "*" not in name and not (root / name).exists()]
    return sorted(found)


def test_every_file_named_is_there() -> None:
    assert missing_files(ROOT) == []


def test_the_check_catches_a_file_that_is_not_there(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_here.py").write_text("", encoding="utf-8")
    (tmp_path / "game.py").write_text(
        '"""Held by `tests/test_here.py` and `tests/test_gone.py`; `tests/*.py` are tests;\n'
        'github.com/someone/else `docs/Readme.md`."""\n', encoding="utf-8")
    assert missing_files(tmp_path) == ["game.py: tests/test_gone.py"]


def table_rows(text: str, header: str) -> list[list[str]]:
    """The cells of the table whose header row starts with `header`, its header and rule left
    out."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_the_games_table_names_every_game_its_players_and_presets() -> None:
    from games import GAMES

    rows = table_rows((ROOT / "README.md").read_text(encoding="utf-8"), "| game | id |")
    shown = {row[1].strip("`"): (row[2], [word.strip("`") for word in row[3].split(", ")])
             for row in rows}
    assert shown == {game: (f"{rules.min_players}" if rules.min_players == rules.max_players
                            else f"{rules.min_players}–{rules.max_players}", list(rules.presets))
                     for game, rules in GAMES.items()}


def test_the_computer_levels_listed_are_the_ones_each_game_offers() -> None:
    from games import GAMES

    rows = table_rows((ROOT / "docs" / "playing.md").read_text(encoding="utf-8"),
                      "| game | levels |")
    shown = {}
    for row in rows:
        game = re.search(r"\(`(\w+)`\)", row[0])
        assert game, row
        shown[game[1]] = tuple(row[1].split(", "))
    assert shown == {game: tuple(rules.levels) for game, rules in GAMES.items()}
