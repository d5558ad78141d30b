"""README.md is the map and docs/ the manual: every link of the map leads somewhere real,
and what they say of the code and of results/ is what the code and results/ hold.

`make docs` builds the manual with `mkdocs build --strict`, which fails on a broken link
inside docs/; this checks the links of README.md, which MkDocs does not read. Then the
facts that drift as the code grows: the count of engines against the registry, the extras
tables against pyproject.toml, the README's layout against the tree, every figure quoted
beside a link to results/ against that file, and tdoku's published figures against a named
file and commit of tdoku's (docs/commands.md is checked by tests/test_options.py; the blocks
scripts/docs_facts.py generates, architecture.md's layout among them, by
tests/test_docs_facts.py).
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


# --- facts the docs state, checked against the code and results/ ---------------------------

PAGES = [README, ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").rglob("*.md"))]
NUMBER_WORDS = {word: number for number, word in enumerate(
    ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
     "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
     "nineteen", "twenty"], start=1)}
NUMBER = rf"\d+|{'|'.join(NUMBER_WORDS)}"
# a count of the lab's own engines: 'the eight engines', 'all 8 backends', 'compares eleven
# engines', or a sentence that opens with one ('Eleven engines (...) sit behind ...'); not
# a condition of a method ('three engines or more', 'with k engines', 'by two engines')
ENGINE_COUNT = re.compile(rf"(?:\b(?:the|all|all the|its|our|has|compares|runs)\s+|(?:\A|[.!?]\s+|"
                          rf"\n\s*\n))({NUMBER})\s+(?:solving\s+)?(?:engines|backends)\b",
                          re.IGNORECASE)


FACTS_MARK = re.compile(r"<!-- /?facts:[\w-]+ -->")  # scripts/docs_facts.py's markers


def engine_counts(text: str) -> list[tuple[str, int]]:
    """Every count of the lab's engines a text states ('the eight engines', 'Eleven
    engines (...)'), as (the words, the number); a generated count is read like the rest."""
    text = FACTS_MARK.sub("", text)
    return [(" ".join(found[0].lstrip(".!? \n").split()),
             int(found[1]) if found[1].isdigit() else NUMBER_WORDS[found[1].lower()])
            for found in ENGINE_COUNT.finditer(text)]


def test_every_count_of_engines_in_the_docs_is_the_registrys():
    from sudokulab.backends import BUILTIN

    # the lab's own engines: a plugin installed here is not one the docs describe
    stated = {f"{page.relative_to(ROOT)}: {words}" for page in PAGES
              for words, number in engine_counts(page.read_text(encoding="utf-8"))
              if number != len(BUILTIN)}
    assert stated == set(), f"the registry has {len(BUILTIN)} engines"
    readme = README.read_text(encoding="utf-8")
    assert engine_counts(readme), "the map says how many engines there are"


def test_an_engine_count_is_read_as_a_word_or_a_digit():
    text = ("Eleven engines (a, b) sit here. The eight engines; all 8 backends run. Proved by\n"
            "two engines, with three engines or more. Our 9 solving\nengines. It compares "
            "ten backends.")
    assert engine_counts(text) == [("Eleven engines", 11), ("The eight engines", 8),
                                   ("all 8 backends", 8), ("Our 9 solving engines", 9),
                                   ("compares ten backends", 10)]


def requirement(text: str) -> str:
    """A requirement's name as the docs write it: 'dask[distributed]>=2024.1' ->
    'dask[distributed]', 'opencv-python-headless (4.x)' -> 'opencv-python-headless'."""
    text = re.sub(r"\(.*?\)", "", text).replace("`", "")
    return re.split(r"[<>=!~;\s]", text.strip(), maxsplit=1)[0].lower()


def declared() -> tuple[list[str], dict[str, set[str]]]:
    """pyproject.toml's core requirements and each extra's, by name."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return ([requirement(r) for r in project["dependencies"]],
            {extra: {requirement(r) for r in needs}
             for extra, needs in project["optional-dependencies"].items()})


def cells(line: str) -> list[str]:
    """The cells of a Markdown table row."""
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def table_after(page: Path, heading: str, first: str) -> list[list[str]]:
    """The rows (as cells) of the first table under a heading whose first column is
    titled `first`."""
    lines = page.read_text(encoding="utf-8").splitlines()
    start = lines.index(heading)
    head = next(i for i in range(start, len(lines))
                if lines[i].startswith("|") and cells(lines[i])[0] == first)
    rows = []
    for line in lines[head + 2:]:
        if not line.startswith("|"):
            break
        rows.append(cells(line))
    return rows


def extras_table(rows: list[list[str]]) -> dict[str, set[str]]:
    """{extra: its packages} from rows `| [extra] | a, b | ... |`; 'core' for the row
    `| core |`, and `[all]`'s packages are the extras above it."""
    found: dict[str, set[str]] = {}
    for row in rows:
        name = row[0].strip("`[] ")
        if name == "all":
            assert row[1] == "every extra above", row
            found[name] = {f"sudokulab[{extra}]" for extra in found if extra != "core"}
        else:
            found[name] = {requirement(p) for p in row[1].split(",")}
    return found


def as_declared() -> dict[str, set[str]]:
    """pyproject.toml's extras (and the core) in extras_table's form."""
    core, extras = declared()
    found = {"core": set(core), **extras}
    (everything,) = found["all"]
    inside = re.search(r"\[(.*)\]", everything)[1].split(",")
    found["all"] = {f"sudokulab[{extra}]" for extra in inside}
    return found


def test_the_extras_tables_are_pyprojects():
    for page, heading in ((README, "## Extras"), (ROOT / "docs/index.md", "## Installing")):
        assert extras_table(table_after(page, heading, "extra")) == as_declared(), page.name


def test_a_wrong_extras_table_is_caught():
    rows = [["core", "python-sat, z3-solver, tabulate, lzstring"], ["`[plots]`", "matplotlib"],
            ["`[all]`", "every extra above"]]
    assert extras_table(rows) == {"core": {"python-sat", "z3-solver", "tabulate", "lzstring"},
                                  "plots": {"matplotlib"}, "all": {"sudokulab[plots]"}}
    assert extras_table(rows) != as_declared()


def test_the_dependency_table_names_every_package_in_its_extra():
    core, extras = declared()
    wrong, shown = [], set()
    for row in table_after(ROOT / "docs/architecture.md",
                           "## Dependencies, and why each is there", "package"):
        claimed = row[1].split()[0].strip("`")
        for package in map(requirement, re.sub(r"\(.*?\)", "", row[0]).split(",")):
            shown.add(package)
            homes = {"core"} if package in core else {
                extra for extra, needs in extras.items() if package in needs and extra != "all"}
            if claimed not in (homes or {"none"}):
                wrong.append(f"{package}: {claimed}, pyproject: {sorted(homes) or 'none'}")
    assert wrong == []
    every = set(core).union(*(needs for extra, needs in extras.items() if extra != "all"))
    assert every - shown == set(), "packages the table does not explain"


def layout_names(page: Path, heading: str) -> list[tuple[str, str, list[str]]]:
    """The layout drawn in the first code block under a heading: (its top-level entry,
    what it is under: 'sudokulab' or '', the files and folders the entry's lines name)."""
    lines = page.read_text(encoding="utf-8").splitlines()
    start = lines.index("```", lines.index(heading)) + 1
    end = lines.index("```", start)
    entries: list[tuple[str, str, list[str]]] = []
    under = ""
    for line in lines[start:end]:
        indent = len(line) - len(line.lstrip())
        if not line.strip() or "──" in line:  # the pipeline drawn above the tree
            continue
        if line.startswith("sudokulab/"):
            under = "sudokulab"
            continue
        if indent == 0:
            under = ""
        if indent == 0 or indent == 2 and under:
            entries.append((re.split(r"\s{2,}", line.strip())[0], under, []))
        if entries:
            entries[-1][2].extend(re.findall(r"[\w.-]+\.(?:py|pl|lp|mzn|npz|html|js|css)\b"
                                             r"|(?<![\w./])\w+/(?=[\s,;)]|$)", line))
    return entries


def missing_from_layout(page: Path, heading: str) -> tuple[list[str], list[str]]:
    """The names a page's layout gives that do not exist, and the top-level modules and
    packages of sudokulab/ it does not name. An entry's own names ('cli.py, commands/')
    and those of an entry of files are looked up where the entry is; the files a folder's
    entry names, inside its folders."""
    package = ROOT / "sudokulab"
    named, absent = set(), []
    for entry, under, names in layout_names(page, heading):
        base = package if under else ROOT
        own = re.findall(r"[\w.]+/?", entry)
        folders = [base / name.rstrip("/") for name in own if name.endswith("/")]
        for name in names:
            if name in own or not folders:  # the entry's own, or a module beside it
                found = (base / name.rstrip("/")).exists()
                if found and base == package:
                    named.add(name.rstrip("/"))
            else:
                found = any(next(folder.rglob(name.rstrip("/")), None) is not None
                            for folder in folders or [base]) \
                    or name.endswith("/") and (base / name).is_dir()  # a folder beside it
            if not found:
                absent.append(f"{entry}: {name}")
    top = {p.name for p in package.iterdir() if not p.name.startswith("__")
           and (p.suffix == ".py" or (p / "__init__.py").is_file() or p.name == "data")}
    return absent, sorted(top - named)


def test_the_layout_in_the_readme_names_every_package():
    absent, unnamed = missing_from_layout(README, "## Where the code is")
    assert absent == [], "named in the layout but not in the tree"
    assert [name for name in unnamed if not name.endswith(".py")] == [], \
        "packages the map leaves out"


def test_a_wrong_layout_is_caught(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("## Layout\n\n```\nsudokulab/\n  cli.py       the entry point\n"
                    "  backends/    base.py, norvig.py, gone.py\n  nowhere/    nothing\n"
                    "docs/          this manual\n```\n", encoding="utf-8")
    absent, unnamed = missing_from_layout(page, "## Layout")
    assert absent == ["backends/: gone.py", "nowhere/: nowhere/"]
    assert "harness" in unnamed and "cli.py" not in unnamed and "backends" not in unnamed


RESULTS_LINK = re.compile(r"\]\(([^)\s#]*results/[^)\s#]+)[^)]*\)")
FIGURE = re.compile(r"(?<![\w.])\d+(?:,\d{3})*(?:\.\d+)?(?![\d.,]\d|[A-Za-wyz_])")
NOT_FIGURES = re.compile(r"`[^`]*`|\]\([^)]*\)|\b\d+x\d+\b|\d+\^\d+|\b\d{4}-\d\d-\d\d\b"
                         r"|\b(?:issue|issues|top|sudoku)\s*\d+")


def quoting_sentences(page: Path, root: Path = ROOT):
    """The sentences and table rows of a page that link a file of results/ (outside code
    blocks): (the text, the files it links, under `root`)."""
    fenced, paragraph = False, []

    def linked(texts):
        for text in texts:
            links = RESULTS_LINK.findall(text)
            if links:
                yield text, [root / link[link.index("results/"):] for link in links]

    for line in [*page.read_text(encoding="utf-8").splitlines(), ""]:
        if line.startswith("```"):
            fenced = not fenced
        elif fenced:
            continue
        elif line.startswith(("|", "- ")) or not line.strip():  # a row, an item, a gap
            yield from linked(re.split(r"(?<=[.!?])\s+(?=[A-Z`\[(*])", " ".join(paragraph)))
            paragraph = []
            if line.startswith("|"):
                yield from linked([line])
            else:
                paragraph.append(line.strip())
        else:
            paragraph.append(line.strip())


def holds(text: str, figure: str) -> bool:
    """Whether a results file shows a figure: the same number, or one with more digits
    that rounds to it ('about 6.6' for a load of 6.63)."""
    wanted = figure.replace(",", "")
    places = len(wanted.partition(".")[2])
    for shown in FIGURE.findall(text):
        value = float(shown.replace(",", ""))
        decimals = len(shown.partition(".")[2])
        if value == float(wanted) or decimals > places and f"{value:.{places}f}" == wanted:
            return True
    return False


def unquoted(page: Path, root: Path = ROOT) -> list[str]:
    """The figures, dates and commits a page quotes beside a link to a results/ file (under
    `root`) that the file does not show."""
    wrong = []
    for sentence, files in quoting_sentences(page, root):
        # a picture holds no text: a figure beside it alone is never found, so it fails
        shown = " ".join(f.read_text(encoding="utf-8") for f in files
                         if f.is_file() and f.suffix != ".png")
        marks = re.findall(r"\b\d{4}-\d\d-\d\d\b|(?<=commit )[0-9a-f]{7,40}\b", sentence)
        figures = FIGURE.findall(NOT_FIGURES.sub(" ", sentence))
        wrong += [f"{', '.join(f.name for f in files)}: {mark}" for mark in marks
                  if mark not in shown]
        wrong += [f"{', '.join(f.name for f in files)}: {figure}" for figure in figures
                  if not holds(shown, figure)]
        # a load is the machine's, so only the file's load lines hold it (a figure found
        # anywhere in the file let "load about 2" stand beside a load of 1.17)
        loads = " ".join(_loads(line) for line in shown.splitlines() if "load" in line.lower())
        wrong += [f"{', '.join(f.name for f in files)}: load {figure}"
                  for figure in LOAD.findall(sentence) if not holds(loads, figure)]
    return wrong


def _loads(line: str) -> str:
    """The load figures of a results file's line: the 1-minute average of "(1, 5, 15 min)
    at the end: A, B, C" (A: what a page quotes), else every number but a parenthesis's."""
    if "at the end:" in line:
        return line.partition("at the end:")[2].split(",")[0]
    return re.sub(r"\([^)]*\)", "", line)


LOAD = re.compile(r"\bload(?: average)?(?: of)?(?: about)? ~?(\d+(?:\.\d+)?)", re.IGNORECASE)


def test_every_figure_quoted_from_results_is_in_the_file_it_links():
    wrong = {f"{page.relative_to(ROOT)}: {w}" for page in PAGES for w in unquoted(page)}
    assert wrong == set(), "a figure beside a link to results/ must be in that file"


def test_a_figure_missing_from_its_results_file_is_caught(tmp_path):
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "web.md").write_text("On 2026-01-02, load 3.61: 1.80 ms, then "
                                                 "1.453 ms.\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text("Measured ([`results/web.md`](results/web.md), 2026-01-01, load about 3.6): "
                    "1.80 ms and 9.99 ms for a `4x4` (`--seed 7`). Nothing here: 42.\n\n"
                    "| what | 1.45 ms, 77.7 ms | [web](results/web.md) |\n", encoding="utf-8")
    assert unquoted(page, tmp_path) == ["web.md: 2026-01-01", "web.md: 9.99", "web.md: 77.7"]


def test_a_load_is_held_only_by_the_files_load_lines(tmp_path):
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "x.md").write_text("2 runs, 1.80 ms.\n\n- load average (1, 5, 15 "
                                               "min) at the end: 1.17, 1.33, 1.58\n",
                                               encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text("Measured ([x](results/x.md), load about 1.2): 1.80 ms.\n\n"
                    "Again ([x](results/x.md), load about 2): 2 runs.\n", encoding="utf-8")
    assert unquoted(page, tmp_path) == ["x.md: load 2"]  # 1.58 is the 15-minute average


def tables_quoting_tdoku(page: Path) -> list[tuple[list[str], str]]:
    """Each table of a page that quotes a figure tdoku publishes (a filled column headed
    'published ...' or 'tdoku publishes', or a row '... (published)'), with the first line
    of text after it."""
    lines = [*page.read_text(encoding="utf-8").splitlines(), ""]
    found, start = [], None
    for i, line in enumerate(lines):
        if line.startswith("|") and start is None:
            start = i
        elif not line.startswith("|") and start is not None:
            table, start = lines[start:i], None
            head = cells(table[0])
            columns = [k for k, title in enumerate(head) if "publish" in title]
            rows = [cells(row) for row in table[2:]]
            if any(row[k] for row in rows for k in columns if k < len(row)) \
                    or any("(published)" in row[0] and row[1:] != [""] * (len(row) - 1)
                           for row in rows):
                after = next((text for text in lines[i:] if text.strip()), "")
                found.append((table, after))
    return found


def test_every_figure_of_tdoku_in_the_ladder_report_names_its_file_and_commit():
    from sudokulab.teaching.ladder import TDOKU

    _, path, commit = TDOKU
    quoting = tables_quoting_tdoku(ROOT / "results" / "ladder.md")
    assert len(quoting) >= 4, "the ladder quotes tdoku's % no guess and guesses per puzzle"
    unnamed = [table[0] for table, after in quoting if path not in after or commit not in after]
    assert unnamed == [], "a table of tdoku's figures without its file and commit under it"


def test_a_table_of_tdoku_figures_without_its_source_is_caught(tmp_path):
    page = tmp_path / "ladder.md"
    page.write_text("| level | % | tdoku publishes |\n|---|---|---|\n| a | 1 | 0.0% (MiniSat) |\n"
                    "\nCost: 1 s.\n\n| level | tdoku publishes |\n|---|---|\n| b |  |\n\n"
                    "| engine | 17_clue |\n|---|---|\n| tdoku's norvig (published) | 4.84 |\n"
                    "\ntdoku's figures: x.\n", encoding="utf-8")
    assert [after for _, after in tables_quoting_tdoku(page)] == ["Cost: 1 s.",
                                                                  "tdoku's figures: x."]
