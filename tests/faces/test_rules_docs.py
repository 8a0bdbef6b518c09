"""The players' rules in `docs/rules/`: written from the catalogue, and the committed files are
exactly what the writer produces now (run `python -m faces.rules_docs` after changing a text)."""

from __future__ import annotations

from pathlib import Path

import pytest

import games
from faces import rules_text
from faces.rules_docs import LANGS, ROOT, expected_files, rules_markdown, write

CASES = [(game, lang) for game in games.GAMES for lang in LANGS]


def test_the_files_live_in_the_repository():
    assert Path(__file__).resolve().parents[2] / "docs" / "rules" == ROOT


@pytest.mark.parametrize(("game", "lang"), CASES)
def test_every_game_has_its_page_in_both_languages(game, lang):
    assert (ROOT / lang / f"{game}.md") in expected_files()


def test_the_committed_files_are_current():
    stale = [str(path.relative_to(ROOT)) for path, text in expected_files().items()
             if not path.exists() or path.read_text(encoding="utf-8") != text]
    assert not stale, f"run `python -m faces.rules_docs`: {stale} differ"


def test_no_other_file_lies_among_them():
    on_disk = {path for path in ROOT.rglob("*") if path.is_file()}
    assert on_disk == set(expected_files())


@pytest.mark.parametrize(("game", "lang"), CASES)
def test_a_page_holds_every_line_of_the_text(game, lang):
    page = rules_markdown(game, lang)
    for line in rules_text(game, lang).splitlines():
        if line.strip():
            assert line.removeprefix("• ") in page


def test_the_writer_brings_a_changed_file_back(tmp_path):
    assert len(write(tmp_path)) == len(expected_files(tmp_path))
    page = tmp_path / "en" / "dingniu.md"
    page.write_text("edited by hand\n", encoding="utf-8")
    assert write(tmp_path) == [page]
    assert page.read_text(encoding="utf-8") == rules_markdown("dingniu", "en")
    assert write(tmp_path) == []


def test_the_index_links_every_page():
    index = expected_files()[ROOT / "README.md"]
    for game, lang in CASES:
        assert f"]({lang}/{game}.md)" in index
