"""The inference ladder's tables, Markdown report and plot (see sudokulab/ladder.py).

Everything here works on a run's figures (`figures`: JSON-ready dicts), so that a report can
be written from a live run or from the ladder.json files of several runs (`merge`).
"""

from __future__ import annotations

import json
from pathlib import Path

from sudokulab.ladder import BY_NAME, PUBLISHED_GUESSES, Run, differ, source

COLUMNS = ("level", "what it infers", "finished", "%", "candidates left", "guesses/puzzle",
           "timed out", "tdoku publishes")

# pairs of levels that must leave the same pencil marks, puzzle by puzzle: UP on the
# complete encoding is naked + hidden singles, on triads singles + locked candidates
AGREE = (("sat:extended", "human:singles"), ("sat:augmented", "human:locked"),
         ("norvig", "human:singles"), ("dlx", "human:singles"))


def figures(run: Run, jobs: int = 1) -> dict:
    """A run as a JSON-ready dict: each level's row, the puzzles where each pair of AGREE
    differs, and the CPU and wall seconds."""
    tallies = run.tallies
    agreement = {f"{a} = {b}": differ(tallies[a], tallies[b])
                 for a, b in AGREE if a in tallies and b in tallies}
    return {"levels": [t.row() for t in tallies.values()], "agreement": agreement,
            "cpu": round(run.cpu, 1), "wall": round(run.wall, 1), "jobs": jobs}


def _published(row: dict, dataset: str) -> str:
    """tdoku's figure for the same inference on this dataset ('' when it has none)."""
    level = BY_NAME.get(row["level"])
    published = level.published if level else None
    column = {"17_clue": 1, "top1465": 2}.get(_base(dataset))
    if not published or column is None:
        return ""
    return f"{published[column]:.1f}% ({published[0]})"


def _base(dataset: str) -> str:
    """The bundled set a report's dataset is drawn from: '17_clue (every 10th)' -> '17_clue'."""
    return dataset.split()[0] if dataset else dataset


def _guesses(row: dict) -> str:
    """'4.79 guesses' or ''."""
    value = row["guesses_per_puzzle"]
    return "" if value is None else f"{value:.2f} {row['guess_word']}"


def _late(row: dict) -> str:
    """How many puzzles the level ran out of time on ('' for none)."""
    late = row.get("timed_out") or {}
    return f"{len(late)}" if late else ""


def rows(dataset: str, levels: list[dict]) -> list[tuple]:
    """One table row per level."""
    return [(row["level"], row["what"], f"{row['finished']:,}/{row['puzzles']:,}",
             f"{row['percent']:.2f}",
             "" if row["candidates_left"] is None else f"{row['candidates_left']:.1f}",
             _guesses(row), _late(row), _published(row, dataset)) for row in levels]


def table(dataset: str, levels: list[dict], fmt: str = "simple") -> str:
    """The levels of one dataset as a text (or Markdown: fmt 'github') table, and under it
    the tdoku file and commit its published figures come from."""
    from tabulate import tabulate

    head = f"{dataset}: % finished without a guess" if fmt == "simple" else ""
    body = tabulate(rows(dataset, levels), headers=COLUMNS, tablefmt=fmt,
                    disable_numparse=True)
    cited = source([_base(dataset)])
    if cited:
        body += ("\n" if fmt == "simple" else "\n\n") + cited + "."
    return f"{head}\n{body}" if head else body


def timeouts(levels: list[dict]) -> list[str]:
    """One line per level that ran out of time, naming the puzzles and where."""
    out = []
    for row in levels:
        late = row.get("timed_out") or {}
        if late:
            named = ", ".join(f"#{k} ({v})" for k, v in list(late.items())[:20])
            more = f" and {len(late) - 20} more" if len(late) > 20 else ""
            out.append(f"- `{row['level']}` ran out of time on {len(late)} puzzle(s): "
                       f"{named}{more} ('level': counted not finished; 'search': its guesses "
                       f"left out of the average)")
    return out


def agreement(report: dict) -> list[str]:
    """One line per pair of levels that must agree, naming the puzzles where they do not."""
    out = []
    for pair, numbers in report.get("agreement", {}).items():
        shown = ", ".join(f"#{k}" for k in numbers[:20])
        out.append(f"- {pair}: " + (f"{len(numbers)} puzzle(s) differ: {shown}" if numbers
                                   else "the same pencil marks on every puzzle"))
    return out


def csv_text(reports: dict[str, dict]) -> str:
    """Every dataset's rows as CSV."""
    import csv
    import io

    out = io.StringIO()
    keys = ("dataset", "level", "engine", "puzzles", "finished", "percent", "candidates_left",
            "guesses_per_puzzle", "guess_word")
    writer = csv.DictWriter(out, keys, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for dataset, report in reports.items():
        for row in report["levels"]:
            writer.writerow({"dataset": dataset, **row})
    return out.getvalue()


def guesses_table(reports: dict[str, dict]) -> str:
    """Guesses per puzzle of the searching levels beside tdoku's published ones."""
    from tabulate import tabulate

    sets = [name for name in reports if _base(name) in ("17_clue", "top1465")]
    if not sets:
        return "(tdoku publishes guesses per puzzle for 17_clue and top1465 only)"
    lines = [(f"tdoku's {name} (published)",
              *(f"{pair[0 if _base(d) == '17_clue' else 1]:.2f}" for d in sets))
             for name, pair in PUBLISHED_GUESSES.items()]
    searching: dict[str, dict[str, dict]] = {}
    for dataset in sets:
        for row in reports[dataset]["levels"]:
            if row["guesses_per_puzzle"] is not None:
                searching.setdefault(row["level"], {})[dataset] = row
    for level, by_set in searching.items():
        word = next(iter(by_set.values()))["guess_word"]
        lines.append((f"{level} ({word})",
                      *(f"{by_set[d]['guesses_per_puzzle']:.2f}" if d in by_set else ""
                        for d in sets)))
    body = tabulate(lines, headers=("engine", *sets), tablefmt="github", disable_numparse=True)
    return f"{body}\n\n{source([_base(name) for name in sets])}."


def plot(reports: dict[str, dict], path: Path) -> None:
    """Levels against % finished, one bar per dataset."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    levels: list[str] = []
    for report in reports.values():
        levels += [r["level"] for r in report["levels"] if r["level"] not in levels]
    width = 0.8 / max(1, len(reports))
    fig, ax = plt.subplots(figsize=(max(8, len(levels) * 0.7) + 3, 5))
    for k, (dataset, report) in enumerate(reports.items()):
        percent = {r["level"]: r["percent"] for r in report["levels"]}
        xs = [i + k * width for i in range(len(levels))]
        ax.bar(xs, [percent.get(level, 0) for level in levels], width, label=dataset)
    ax.set_xticks([i + width * (len(reports) - 1) / 2 for i in range(len(levels))])
    ax.set_xticklabels(levels, rotation=45, ha="right", fontsize=8)
    ax.set_ylabel("% of puzzles finished without a guess")
    ax.set_ylim(0, 100)
    ax.set_title("The inference ladder: how far each engine gets before its first guess")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1))  # off the bars
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def markdown(reports: dict[str, dict], png: str = "ladder.png") -> str:
    """The report: a table per dataset (with its time-outs and agreement checks), guesses
    beside tdoku's, the plot."""
    parts = ["# The inference ladder", "",
             "Puzzles each level finishes without a guess (its grid checked by "
             "sudokulab/check.py), the candidates it leaves on average over all puzzles, and "
             "the guesses per puzzle of the engine's full search (first solution).", ""]
    for dataset, report in reports.items():
        cost = (f"{report['cpu']:.0f} CPU seconds, {report['wall']:.0f} s wall on "
                f"{report['jobs']} job(s)")
        parts += [f"## {dataset}", "", table(dataset, report["levels"], "github"), "",
                  f"Cost: {cost}.", ""]
        notes = timeouts(report["levels"]) + agreement(report)
        parts += [*notes, ""] if notes else []
    parts += ["## Guesses per puzzle", "", guesses_table(reports), "", f"![the ladder]({png})",
              ""]
    return "\n".join(parts)


def write(out: str, reports: dict[str, dict]) -> None:
    """ladder.md, ladder.json and ladder.png in the folder `out`."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "ladder.json").write_text(json.dumps(reports, indent=1) + "\n")
    (folder / "ladder.md").write_text(markdown(reports))
    plot(reports, folder / "ladder.png")


def merge(paths: list[str]) -> dict[str, dict]:
    """The datasets of several ladder.json files, in order (a later file's dataset wins)."""
    reports: dict[str, dict] = {}
    for path in paths:
        reports.update(json.loads(Path(path).read_text()))
    return reports
