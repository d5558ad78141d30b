"""README.md is the map and docs/ the manual: every link of the map leads somewhere real.

`make docs` builds the manual with `mkdocs build --strict`, which fails on a broken link
inside docs/; this checks the links of README.md, which MkDocs does not read.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
LINK = re.compile(r"\]\(([^)\s]+)\)")


def slug(heading: str) -> str:
    """The anchor GitHub and MkDocs give a heading: lower case, words joined by hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """The anchors of a Markdown page's headings (outside code blocks)."""
    found, fenced = set(), False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            found.add(slug(line.lstrip("#")))
    return found


def local_links(page: Path) -> list[str]:
    """The relative links of a page: everything but web addresses."""
    return [link for link in LINK.findall(page.read_text(encoding="utf-8"))
            if not re.match(r"[a-z]+:", link)]


def broken_links(page: Path) -> list[str]:
    """The relative links of a page that lead to no file, or to no heading of the file."""
    broken = []
    for link in local_links(page):
        path, _, anchor = link.partition("#")
        target = (page.parent / path) if path else page
        if not target.is_file() or (anchor and anchor not in anchors(target)):
            broken.append(link)
    return broken


def test_every_link_of_the_readme_leads_to_a_file_and_heading_that_exist():
    assert local_links(README), "the map links into docs/"
    assert broken_links(README) == []


def test_the_readme_links_every_page_of_the_manual():
    linked = {link.partition("#")[0] for link in local_links(README)}
    pages = {f"docs/{page.name}" for page in (ROOT / "docs").glob("*.md")}
    assert pages <= linked, f"pages the map does not show: {sorted(pages - linked)}"


def test_the_readme_stays_a_map():
    assert len(README.read_text(encoding="utf-8").splitlines()) < 250, \
        "README.md is the map; the manual's details go in docs/"


def test_a_broken_link_is_caught(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "page.md").write_text("# A page\n\n## Exit codes\n", encoding="utf-8")
    page = tmp_path / "README.md"
    page.write_text("[good](docs/page.md#exit-codes) [anchor](docs/page.md#no-such) "
                    "[file](docs/gone.md) [web](https://example.org/x.md) [here](#a-map)\n"
                    "# A map\n```\n# not a heading\n```\n[code](#not-a-heading)\n",
                    encoding="utf-8")
    assert broken_links(page) == ["docs/page.md#no-such", "docs/gone.md", "#not-a-heading"]
