"""The inference ladder's tables, Markdown report and plot (see sudokulab/ladder.py)."""

from __future__ import annotations

import json
from pathlib import Path

from sudokulab.ladder import PUBLISHED_GUESSES, Tally

COLUMNS = ("level", "what it infers", "finished", "%", "candidates left", "guesses/puzzle",
           "tdoku publishes")


def _published(tally: Tally, dataset: str) -> str:
    """tdoku's figure for the same inference on this dataset ('' when it has none)."""
    published = tally.level.published
    column = {"17_clue": 1, "top1465": 2}.get(dataset)
    if not published or column is None:
        return ""
    return f"{published[column]:.1f}% ({published[0]})"


def _guesses(row: dict) -> str:
    """'4.79 guesses' or ''."""
    value = row["guesses_per_puzzle"]
    return "" if value is None else f"{value:.2f} {row['guess_word']}"


def rows(dataset: str, tallies: dict[str, Tally]) -> list[tuple]:
    """One table row per level."""
    out = []
    for tally in tallies.values():
        row = tally.row()
        out.append((row["level"], row["what"], f"{row['finished']:,}/{row['puzzles']:,}",
                    f"{row['percent']:.1f}",
                    "" if row["candidates_left"] is None else f"{row['candidates_left']:.1f}",
                    _guesses(row),
                    _published(tally, dataset)))
    return out


def table(dataset: str, tallies: dict[str, Tally], fmt: str = "simple") -> str:
    """The levels of one dataset as a text (or Markdown: fmt 'github') table."""
    from tabulate import tabulate

    head = f"{dataset}: % finished without a guess" if fmt == "simple" else ""
    body = tabulate(rows(dataset, tallies), headers=COLUMNS, tablefmt=fmt,
                    disable_numparse=True)
    return f"{head}\n{body}" if head else body


def csv_text(figures: dict[str, list[dict]]) -> str:
    """Every dataset's rows as CSV."""
    import csv
    import io

    out = io.StringIO()
    keys = ("dataset", "level", "engine", "puzzles", "finished", "percent", "candidates_left",
            "guesses_per_puzzle", "guess_word")
    writer = csv.DictWriter(out, keys, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for dataset, levels in figures.items():
        for row in levels:
            writer.writerow({"dataset": dataset, **row})
    return out.getvalue()


def guesses_table(runs: dict[str, dict[str, Tally]]) -> str:
    """Guesses per puzzle of the searching levels beside tdoku's published ones."""
    from tabulate import tabulate

    lines = []
    for name, (clue, top) in PUBLISHED_GUESSES.items():
        lines.append((f"tdoku's {name} (published)", f"{clue:.2f}" if "17_clue" in runs else "",
                      f"{top:.2f}" if "top1465" in runs else ""))
    searching = [n for n, t in next(iter(runs.values())).items() if t.level.guesses]
    for level in searching:
        cells = []
        for dataset in ("17_clue", "top1465"):
            tally = runs.get(dataset, {}).get(level)
            value = tally.row()["guesses_per_puzzle"] if tally else None
            cells.append("" if value is None else f"{value:.2f}")
        word = next(iter(runs.values()))[level].level.guesses
        lines.append((f"{level} ({word})", *cells))
    return tabulate(lines, headers=("engine", "17_clue", "top1465"), tablefmt="github",
                    disable_numparse=True)


def plot(runs: dict[str, dict[str, Tally]], path: Path) -> None:
    """Levels against % finished, one bar per dataset."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    levels = list(next(iter(runs.values())))
    width = 0.8 / max(1, len(runs))
    fig, ax = plt.subplots(figsize=(max(8, len(levels) * 0.7), 5))
    for k, (dataset, tallies) in enumerate(runs.items()):
        xs = [i + k * width for i in range(len(levels))]
        ax.bar(xs, [tallies[level].percent if level in tallies else 0 for level in levels],
               width, label=dataset)
    ax.set_xticks([i + width * (len(runs) - 1) / 2 for i in range(len(levels))])
    ax.set_xticklabels(levels, rotation=45, ha="right", fontsize=8)
    ax.set_ylabel("% of puzzles finished without a guess")
    ax.set_ylim(0, 100)
    ax.set_title("The inference ladder: how far each engine gets before its first guess")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def markdown(runs: dict[str, dict[str, Tally]], png: str = "ladder.png") -> str:
    """The report: a table per dataset, guesses beside tdoku's, the plot."""
    parts = ["# The inference ladder", "",
             "Puzzles each level finishes without a guess (its grid checked by "
             "sudokulab/check.py), the candidates it leaves on average over all puzzles, and "
             "the guesses per puzzle of the engine's full search (first solution).", ""]
    for dataset, tallies in runs.items():
        parts += [f"## {dataset}", "", table(dataset, tallies, "github"), ""]
    parts += ["## Guesses per puzzle", "", guesses_table(runs), "", f"![the ladder]({png})", ""]
    return "\n".join(parts)


def write(out: str, runs: dict[str, dict[str, Tally]]) -> None:
    """ladder.md, ladder.json and ladder.png in the folder `out`."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "ladder.json").write_text(json.dumps(
        {name: [t.row() for t in tallies.values()] for name, tallies in runs.items()},
        indent=1) + "\n")
    (folder / "ladder.md").write_text(markdown(runs))
    plot(runs, folder / "ladder.png")
