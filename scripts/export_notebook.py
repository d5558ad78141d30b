"""Run a notebook of docs/notebooks and export it as a Markdown page of the manual.

    .venv/bin/python scripts/export_notebook.py [docs/notebooks/comparing-paradigms.ipynb]

The notebook is kept without outputs (its diffs stay readable); the page holds its cells
and the outputs of this run: text as code blocks, figures as PNG files beside the page
(NAME_files/). Outputs sit between OUTPUT and END marks, so that tests/test_api.py can
check that the page holds the notebook's cells as they are now. Needs nbclient and
ipykernel (the test extra).
"""

from __future__ import annotations

import argparse
import base64
import re
from pathlib import Path

NOTEBOOK = Path(__file__).resolve().parent.parent / "docs/notebooks/comparing-paradigms.ipynb"
OUTPUT, END = "<!-- output -->", "<!-- end of output -->"
TIMEOUT = 3600  # seconds a cell may run


def load(path: Path):
    """The notebook at path (nbformat's node)."""
    import nbformat

    return nbformat.read(path, as_version=4)


def execute(notebook, parameters: dict | None = None, cwd: Path | None = None):
    """The notebook run top to bottom in a fresh kernel, the cell tagged `parameters`
    replaced by `parameters` (name -> value) when given; CellExecutionError if a cell
    fails."""
    from nbclient import NotebookClient

    if parameters:
        cell = next(c for c in notebook.cells if "parameters" in c.metadata.get("tags", []))
        cell.source = "\n".join(f"{name} = {value!r}" for name, value in parameters.items())
    NotebookClient(notebook, timeout=TIMEOUT, kernel_name="python3",
                   resources={"metadata": {"path": str(cwd or Path.cwd())}}).execute()
    return notebook


def markdown(notebook, figures: Path | None = None) -> str:
    """The page: markdown cells as they are, code cells as Python blocks, each followed by
    its outputs (figures written to `figures`, named by their place)."""
    parts = []
    for number, cell in enumerate(notebook.cells):
        if cell.cell_type == "markdown":
            parts.append(cell.source.strip())
        elif cell.cell_type == "code":
            parts.append(f"```python\n{cell.source.strip()}\n```")
            shown = list(outputs(cell, number, figures))
            if shown:
                parts.append("\n\n".join([OUTPUT, *shown, END]))
    return "\n\n".join(parts) + "\n"


def outputs(cell, number: int, figures: Path | None):
    """A code cell's outputs as Markdown."""
    for k, output in enumerate(cell.get("outputs", [])):
        data = output.get("data", {})
        if output.output_type == "stream":
            yield f"```text\n{output.text.rstrip()}\n```"
        elif "image/png" in data and figures is not None:
            figures.mkdir(parents=True, exist_ok=True)
            name = f"cell{number}-{k}.png"
            (figures / name).write_bytes(base64.b64decode(data["image/png"]))
            yield f"![figure of cell {number}]({figures.name}/{name})"
        elif "text/plain" in data:
            yield f"```text\n{data['text/plain'].rstrip()}\n```"
        elif output.output_type == "error":
            yield f"```text\n{output.ename}: {output.evalue}\n```"


def cells_only(page: str) -> str:
    """The page without its outputs: what the notebook's cells alone make."""
    return re.sub(rf"\n\n{re.escape(OUTPUT)}.*?{re.escape(END)}", "", page, flags=re.DOTALL)


def main() -> None:
    """Run the notebook and write its page beside it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebook", nargs="?", type=Path, default=NOTEBOOK)
    path = parser.parse_args().notebook.resolve()
    figures = path.with_name(f"{path.stem}_files")
    for old in figures.glob("*.png"):
        old.unlink()
    notebook = execute(load(path), cwd=path.parent)
    path.with_suffix(".md").write_text(markdown(notebook, figures), encoding="utf-8")
    print(f"wrote {path.with_suffix('.md')} and {figures}/")


if __name__ == "__main__":
    main()
