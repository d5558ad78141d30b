"""The facts README.md and docs/ state about the code (the engine table, the extras, the
package tree, the counts) are made from the code by scripts/docs_facts.py; these hold the
committed pages to what it makes, and the script to what it promises."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _load():
    """scripts/docs_facts.py as a module (scripts/ is no package)."""
    spec = importlib.util.spec_from_file_location("docs_facts", ROOT / "scripts/docs_facts.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


facts = _load()


def blocks(page: Path) -> list[str]:
    """The names of a page's facts blocks, in order."""
    return [found["name"] for found in facts.BLOCK.finditer(page.read_text(encoding="utf-8"))]


def test_every_block_in_the_docs_is_what_the_code_makes(capsys):
    assert facts.main(["--check"]) == 0, capsys.readouterr().err


@pytest.mark.parametrize(("page", "names"), [
    ("README.md", {"count-engines", "count-rules", "count-commands", "count-datasets",
                   "engines", "samurai-engines", "extras"}),
    ("docs/index.md", {"extras", "count-engines"}),
    ("docs/backends.md", {"engines", "count-engines", "samurai-engines"}),
    ("docs/architecture.md", {"package-tree"}),
    ("docs/usage.md", {"commands", "count-commands"}),
])
def test_the_pages_hold_their_generated_facts(page, names):
    assert names <= set(blocks(ROOT / page))


def test_a_stale_block_is_caught_and_made_anew(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("The <!-- facts:count-engines -->three<!-- /facts:count-engines --> engines"
                    " and <!-- facts:count-commands -->2<!-- /facts:count-commands --> commands.\n",
                    encoding="utf-8")
    make = facts.makers()
    assert facts.stale(page, make) == ["count-engines", "count-commands"]
    page.write_text(facts.rewrite(page.read_text(encoding="utf-8"), make), encoding="utf-8")
    assert facts.stale(page, make) == []
    from sudokulab.backends import BUILTIN
    from sudokulab.commands import COMMANDS

    text = page.read_text(encoding="utf-8")
    assert f">{facts.WORDS[len(BUILTIN)]}<" in text and f">{len(COMMANDS)}<" in text


def test_an_unknown_block_is_refused():
    with pytest.raises(SystemExit, match="unknown facts block 'nothing'"):
        facts.rewrite("<!-- facts:nothing -->x<!-- /facts:nothing -->", facts.makers())


def test_a_count_keeps_its_form():
    assert facts.count_in_form(11, "eight") == "eleven"
    assert facts.count_in_form(11, "Eight") == "Eleven"
    assert facts.count_in_form(11, "8") == "11"
    assert facts.count_in_form(23, "two") == "23"  # past the words: digits


def test_a_table_keeps_its_hand_written_columns_by_row():
    old = "\n| name | n | why |\n|---|---|---|\n| a | 1 | because |\n| gone | 9 | old |\n"
    new = facts.table(["name", "n"], [["a", "2"], ["b", "3"]], old)
    rows = [facts.cells(line) for line in new.strip().splitlines()]
    assert rows[0] == ["name", "n", "why"]
    assert rows[2:] == [["a", "2", "because"], ["b", "3", ""]]


def hand_cells(page: str, name: str, generated: int) -> dict[str, list[str]]:
    """The hand-written cells of a page's table block, by row."""
    text = (ROOT / page).read_text(encoding="utf-8")
    body = next(found["body"] for found in facts.BLOCK.finditer(text) if found["name"] == name)
    return facts.kept_columns(body, generated)[1]


@pytest.mark.parametrize(("page", "name", "generated"), [
    ("README.md", "engines", len(facts.ENGINE_TITLES)),
    ("docs/backends.md", "engines", len(facts.ENGINE_TITLES)),
    ("README.md", "extras", 2),
    ("docs/index.md", "extras", 2),
])
def test_every_generated_row_has_its_hand_written_cells(page, name, generated):
    empty = {row for row, kept in hand_cells(page, name, generated).items()
             if not all(kept) and row != "`[all]`"}
    assert empty == set(), "a new backend or extra: say what it is for in its row"


def test_the_engine_table_is_the_registrys():
    from sudokulab.backends import BUILTIN, with_capability

    rows = hand_cells("README.md", "engines", len(facts.ENGINE_TITLES))
    assert list(rows) == [f"`{name}`" for name in BUILTIN]
    samurai = {row[0] for row in facts.engine_rows() if row[3] == facts.YES}
    assert samurai == {f"`{name}`" for name in with_capability("multi_grid")}


def test_the_extras_table_is_pyprojects():
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"]["optional-dependencies"]
    rows = dict(facts.extra_rows())
    assert set(rows) == {"core"} | {f"`[{extra}]`" for extra in extras}
    assert rows["`[cpmpy]`"].split(", ") == [facts.requirement_name(r) for r in extras["cpmpy"]]


def test_the_package_tree_names_every_module_and_package():
    tree = facts.package_tree("")
    package = ROOT / "sudokulab"
    for path in package.rglob("*.py"):
        if path.name.startswith("__") or "__pycache__" in path.parts:
            continue
        assert re.search(rf"^\s+{re.escape(path.name)}(\s|$)", tree, re.MULTILINE), path
    for folder in package.rglob("__init__.py"):
        if folder.parent != package:
            assert re.search(rf"^\s+{folder.parent.name}/(\s|$)", tree, re.MULTILINE), folder


def test_every_module_has_a_docstring_for_the_package_tree():
    assert facts.undocumented() == []


def test_a_long_summary_stops_at_a_clause_break():
    sentence = "The mzn backend: " + "a model, " * 20 + "the end"
    cut = facts.headline(sentence)
    assert len(cut) <= facts.LONG and sentence.startswith(cut) and cut.endswith("a model")
    assert facts.headline("No break here " * 20) == "No break here " * 20
