#!/usr/bin/env python3
"""Write the facts the docs state about the code from the code itself, between marker
comments: `<!-- facts:NAME -->` ... `<!-- /facts:NAME -->` in README.md, CONTRIBUTING.md
and docs/*.md. tests/test_docs_facts.py checks that every block is current.

    .venv/bin/python scripts/docs_facts.py          # rewrite every block
    .venv/bin/python scripts/docs_facts.py --check  # exit 1, naming each stale block

The blocks: `engines` (the registry's backends and what each declares it can do),
`extras` (pyproject.toml's optional dependencies), `package-tree` (the package's folders
and modules, each with the first sentence of its docstring), `commands` (every command and its
summary), `samurai-engines`, and the counts `count-engines`, `count-rules`,
`count-commands`, `count-datasets`. A table keeps, row by row, the columns written by hand
after the generated ones (why a dependency, what an extra is for); a count keeps its form
(a word or digits, capitalised or not).
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "sudokulab"
BLOCK = re.compile(r"(<!-- facts:(?P<name>[\w-]+) -->)(?P<body>.*?)(<!-- /facts:(?P=name) -->)",
                   re.DOTALL)
WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
         "eighteen", "nineteen", "twenty"]
WIDTH = 92  # the package tree's width: a code block read on GitHub without scrolling
NAME_COLUMN = 22  # where the tree's descriptions start
LONG = 150  # a module's summary longer than this stops at a clause break before it
YES = "✓"


def pages() -> list[Path]:
    """The pages that may hold blocks: the map, the contributing guide, the manual
    (docs/commands.md is scripts/commands_doc.py's)."""
    manual = sorted(p for p in (ROOT / "docs").glob("*.md") if p.name != "commands.md")
    return [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *manual]


# --- counts ----------------------------------------------------------------------------

def count_in_form(number: int, old: str) -> str:
    """A number written as the old text was: 'eleven', 'Eleven' or '11'."""
    old = old.strip()
    if old.isdigit() or number >= len(WORDS):
        return str(number)
    word = WORDS[number]
    return word.capitalize() if old[:1].isupper() else word


def counts() -> dict[str, int]:
    """The counts the docs quote: engines, rule types, commands, datasets."""
    from sudokulab import datasets, rules
    from sudokulab.backends import BUILTIN
    from sudokulab.commands import COMMANDS

    return {"engines": len(BUILTIN), "rules": len(rules.RULE_TYPES),
            "commands": len(COMMANDS), "datasets": len(datasets.names())}


# --- tables ----------------------------------------------------------------------------

def cells(line: str) -> list[str]:
    """The cells of a Markdown table row."""
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def kept_columns(old: str, generated: int) -> tuple[list[str], dict[str, list[str]]]:
    """The hand-written columns of an old table (those after the first `generated`): their
    titles, and their cells by the row's first cell."""
    rows = [cells(line) for line in old.strip().splitlines() if line.startswith("|")]
    if not rows:
        return [], {}
    titles = rows[0][generated:]
    return titles, {row[0]: row[generated:] for row in rows[2:]}


def table(titles: list[str], rows: list[list[str]], old: str) -> str:
    """A Markdown table of generated rows, keeping the old table's hand-written columns
    by row (empty for a row that is new)."""
    kept_titles, kept = kept_columns(old, len(titles))
    head = titles + kept_titles
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        extra = (kept.get(row[0], []) + [""] * len(kept_titles))[:len(kept_titles)]
        lines.append("| " + " | ".join(row + extra) + " |")
    # blank lines around it: MkDocs' Markdown would read a table touching a comment as HTML
    return "\n\n" + "\n".join(lines) + "\n\n"


def engine_rows() -> list[list[str]]:
    """One row per built-in backend: its name, paradigm, and what its class declares."""
    from sudokulab import rules
    from sudokulab.backends import BUILTIN, backend_class

    rows = []
    for name in BUILTIN:
        kind = backend_class(name)
        options = ", ".join(kind.option_names()) if kind.option_table is not None else ""
        rows.append([f"`{name}`", kind.paradigm,
                     f"{len(kind.supported_rules)} of {len(rules.RULE_TYPES)}",
                     YES if kind.multi_grid else "", YES if kind.records_trace else "",
                     YES if kind.keeps_timeline else "",
                     options])
    return rows


ENGINE_TITLES = ["backend", "paradigm", "rules", "samurai", "`--trace`", "`--timeline`",
                 "options"]


def requirement_name(text: str) -> str:
    """A requirement's name as pyproject writes it: 'dask[distributed]>=2024.1' ->
    'dask[distributed]'."""
    return re.split(r"[<>=!~;\s]", text.strip(), maxsplit=1)[0]


def extra_rows() -> list[list[str]]:
    """The core and each extra of pyproject.toml with its packages: the core, the extras
    `[all]` holds in its order, `[all]`, then the others in pyproject's order."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras: dict[str, list[str]] = project["optional-dependencies"]
    inside = re.search(r"\[(.*)\]", extras["all"][0])[1].split(",")
    rows = [["core", ", ".join(map(requirement_name, project["dependencies"]))]]
    rows += [[f"`[{extra}]`", ", ".join(map(requirement_name, extras[extra]))]
             for extra in inside]
    rows.append(["`[all]`", "every extra above"])
    rows += [[f"`[{extra}]`", ", ".join(map(requirement_name, needs))]
             for extra, needs in extras.items() if extra != "all" and extra not in inside]
    return rows


def command_rows() -> list[list[str]]:
    """Every command, in `sudokulab --help`'s order, with its summary."""
    from sudokulab.commands import COMMANDS

    return [[f"[`{name}`](commands.md#{name})", summary] for name, summary in COMMANDS.items()]


# --- the package tree ------------------------------------------------------------------------

def summary(path: Path) -> str:
    """The first sentence of a module's docstring ('' when it has none); a long one up to
    its first colon outside brackets, where the detail starts."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    first = " ".join(doc.split("\n\n")[0].split())
    found = re.match(r"(.+?[.!?])(?=\s+[A-Z`(]|$)", first)
    sentence = (found[1] if found else first).rstrip(".")
    return headline(sentence) if len(sentence) > LONG else sentence


def headline(sentence: str) -> str:
    """A long sentence cut at its last clause break (', ', ': ', '; ', ' (') outside
    brackets and code that leaves at most LONG characters (all of it when it has none)."""
    depth, code, cut = 0, False, len(sentence)
    for at, char in enumerate(sentence[:LONG]):
        code = code != (char == "`")
        depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(char, 0)
        pair = sentence[at:at + 2]
        opens = char == "(" and depth == 1 and sentence[at - 1:at] == " "
        if not code and (depth == 0 and pair in (", ", ": ", "; ") or opens):
            cut = at - 1 if opens else at
    return sentence[:cut]


def entry(name: str, text: str, indent: int) -> list[str]:
    """One line of the tree (wrapped under its description when long)."""
    head = " " * indent + name
    column = max(NAME_COLUMN, len(head) + 2)
    lines = textwrap.wrap(text, WIDTH - column) or [""]
    first = f"{head:<{column}}{lines[0]}".rstrip()
    return [first, *(" " * column + line for line in lines[1:])]


def is_package(path: Path) -> bool:
    """Whether a folder is a Python package."""
    return (path / "__init__.py").is_file()


def others(folder: Path) -> list[str]:
    """The tree's lines for what a package holds besides Python: models a person runs
    alone, data, the page's static files."""
    lines: list[str] = []
    for path in sorted(folder.iterdir()):
        if path.name.startswith(("_", ".")) or path.suffix in (".py", ".pyc", ".typed") \
                or is_package(path):
            continue
        lines.append((path.name + "/", contents(path)) if path.is_dir() else (path.name, ""))
    return lines


def contents(folder: Path) -> str:
    """What a folder of files holds: their names, or their count and kinds when many."""
    names = sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))
    if len(names) <= 4:
        return ", ".join(names)
    kinds = sorted({"".join(Path(name).suffixes) or name for name in names})
    return f"{len(names)} files: {', '.join(kinds)}"


def tree_lines(folder: Path, indent: int) -> list[str]:
    """The tree of a package: its modules, other files, then its packages with theirs."""
    lines: list[str] = []
    modules = sorted(p for p in folder.glob("*.py") if not p.name.startswith("__"))
    for module in modules:
        lines += entry(module.name, summary(module), indent)
    for name, text in others(folder):
        lines += entry(name, text, indent)
    for package in sorted(p for p in folder.iterdir() if p.is_dir() and is_package(p)):
        lines += entry(package.name + "/", summary(package / "__init__.py"), indent)
        lines += tree_lines(package, indent + 2)
    return lines


def package_tree(old: str) -> str:
    """The package's tree: every module and package with its docstring's first sentence."""
    lines = entry("sudokulab/", summary(PACKAGE / "__init__.py"), 0)
    lines += tree_lines(PACKAGE, 2)
    return "\n\n```\n" + "\n".join(lines) + "\n```\n\n"


def undocumented() -> list[str]:
    """The modules of the package without a docstring (the tree cannot describe them)."""
    return sorted(str(p.relative_to(ROOT)) for p in PACKAGE.rglob("*.py")
                  if "__pycache__" not in p.parts and p.name != "__main__.py"
                  and not summary(p))


# --- the blocks ------------------------------------------------------------------------

def samurai_engines(old: str) -> str:
    """The backends that take a multi-grid puzzle, as prose: '`a`, `b` and `c`'."""
    from sudokulab.backends import with_capability

    names = [f"`{name}`" for name in with_capability("multi_grid")]
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def makers() -> dict[str, Callable[[str], str]]:
    """Each block's name and the function that makes its text from the old text."""
    found = counts()
    made: dict[str, Callable[[str], str]] = {
        "engines": lambda old: table(ENGINE_TITLES, engine_rows(), old),
        "extras": lambda old: table(["extra", "packages"], extra_rows(), old),
        "commands": lambda old: table(["command", "what it does"], command_rows(), old),
        "package-tree": package_tree,
        "samurai-engines": samurai_engines,
    }
    for name, number in found.items():
        made[f"count-{name}"] = lambda old, number=number: count_in_form(number, old)
    return made


def rewrite(text: str, make: dict[str, Callable[[str], str]]) -> str:
    """A page with every block made anew (an unknown block name is an error)."""
    def one(found: re.Match) -> str:
        name = found["name"]
        if name not in make:
            raise SystemExit(f"unknown facts block {name!r}: known are {', '.join(make)}")
        return found[1] + make[name](found["body"]) + found[4]

    return BLOCK.sub(one, text)


def stale(page: Path, make: dict[str, Callable[[str], str]]) -> list[str]:
    """The names of a page's blocks that are not what the code makes."""
    text = page.read_text(encoding="utf-8")
    return [found["name"] for found in BLOCK.finditer(text)
            if make[found["name"]](found["body"]) != found["body"]]


def main(argv: list[str] | None = None) -> int:
    """Rewrite every block, or (--check) name the stale ones and exit 1."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a block is stale")
    args = parser.parse_args(argv)
    make = makers()
    if args.check:
        wrong = [f"{page.relative_to(ROOT)}: {name}" for page in pages()
                 for name in stale(page, make)]
        for line in wrong:
            print(f"stale: {line} (run scripts/docs_facts.py)", file=sys.stderr)
        return 1 if wrong else 0
    for page in pages():
        text = page.read_text(encoding="utf-8")
        new = rewrite(text, make)
        if new != text:
            page.write_text(new, encoding="utf-8")
            print(f"wrote {page.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    raise SystemExit(main())
