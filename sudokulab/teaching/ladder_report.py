"""The inference ladder's tables, Markdown report and plot (see sudokulab/teaching/ladder.py).

Everything here works on a run's figures (`figures`: JSON-ready dicts), so that a report can
be written from a live run or from the ladder.json files of several runs (`merge`).
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from sudokulab.formats import json_value
from sudokulab.harness.runlog import RunLog
from sudokulab.teaching.ladder import (
    BY_NAME,
    LEFT_OUT,
    PUBLISHED_GUESSES,
    UNCHECKED,
    Entry,
    Outcome,
    Run,
    differ,
    source,
)

COLUMNS = ("level", "what it infers", "finished", "%", "candidates left", "guesses/puzzle",
           "timed out", "tdoku publishes")

# pairs of levels that must leave the same pencil marks, puzzle by puzzle: UP on the
# complete encoding is naked + hidden singles, on triads singles + locked candidates
AGREE = (("sat:extended", "human:singles"), ("sat:augmented", "human:locked"),
         ("norvig", "human:singles"), ("dlx", "human:singles"))


def figures(run: Run, jobs: int = 1) -> dict:
    """A run as a JSON-ready dict: each level's row, the puzzles where each pair of AGREE
    differs, the CPU and wall seconds, the puzzles done of the set (partial: a stopped
    run), those left out of the averages by their verdict and those counted unchecked."""
    tallies = run.tallies
    agreement = {f"{a} = {b}": differ(tallies[a], tallies[b])
                 for a, b in AGREE if a in tallies and b in tallies}
    return {"levels": [t.row() for t in tallies.values()], "agreement": agreement,
            "cpu": round(run.cpu, 1), "wall": round(run.wall, 1), "jobs": jobs,
            "puzzles": run.puzzles, "done": run.done, "partial": run.done < run.puzzles,
            "excluded": {verdict: run.numbers(verdict) for verdict in LEFT_OUT},
            "unchecked": run.numbers(UNCHECKED)}


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
    """One table row per level; a level whose engine took none of the puzzles says
    'unsupported'."""
    return [(row["level"], row["what"], "unsupported", "", "", "", "", "")
            if row.get("unsupported") and not row["puzzles"] else
            (row["level"], row["what"], f"{row['finished']:,}/{row['puzzles']:,}",
             "" if row["percent"] is None else f"{row['percent']:.2f}",
             "" if row["candidates_left"] is None else f"{row['candidates_left']:.1f}",
             _guesses(row), _late(row), _published(row, dataset)) for row in levels]


def partial(report: dict) -> str:
    """' (partial: 12 of 95 puzzles)' for a run stopped midway, '' otherwise."""
    if not report.get("partial"):
        return ""
    return f" (partial: {report['done']:,} of {report['puzzles']:,} puzzles)"


def table(dataset: str, levels: list[dict], fmt: str = "simple", note: str = "") -> str:
    """The levels of one dataset as a text (or Markdown: fmt 'github') table, and under it
    the tdoku file and commit its published figures come from; `note` ends its heading."""
    from tabulate import tabulate

    head = f"{dataset}: % finished without a guess{note}" if fmt == "simple" else ""
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


def _numbered(numbers: list, limit: int = 20) -> str:
    """'#1, #2, #3' (and how many more past `limit`)."""
    more = f" and {len(numbers) - limit} more" if len(numbers) > limit else ""
    return ", ".join(f"#{k}" for k in numbers[:limit]) + more


def left_out(report: dict) -> list[str]:
    """One line per kind of puzzle left out of the averages (no solution, several), and
    one for the puzzles the referee could not judge (counted)."""
    from sudokulab.teaching.verdict import REFEREES

    out = [f"- left out of the averages: {len(numbers)} puzzle(s) with {verdict}: "
           f"{_numbered(numbers)} (the referee says: {REFEREES})"
           for verdict, numbers in report.get("excluded", {}).items() if numbers]
    unchecked = report.get("unchecked") or []
    if unchecked:
        out.append(f"- counted unchecked: {len(unchecked)} puzzle(s) the referee "
                   f"({REFEREES}) could not tell in time whether they have one solution: "
                   f"{_numbered(unchecked)}")
    return out


def unsupported(levels: list[dict]) -> list[str]:
    """One line per level whose engine cannot take some puzzles, naming them and why."""
    out = []
    for row in levels:
        refused = row.get("unsupported") or {}
        by_reason: dict[str, list] = {}  # each reason with its own puzzles
        for number, why in refused.items():
            by_reason.setdefault(why, []).append(number)
        for why, numbers in by_reason.items():
            out.append(f"- `{row['level']}` cannot take {len(numbers)} puzzle(s), left out "
                       f"of its row: {_numbered(numbers)} ({why})")
    return out


def notes(report: dict) -> list[str]:
    """The lines under a dataset's table: puzzles left out, unsupported, out of time."""
    levels = report["levels"]
    return left_out(report) + unsupported(levels) + timeouts(levels)


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
            "guesses_per_puzzle", "guess_word", "unsupported", "partial")
    writer = csv.DictWriter(out, keys, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for dataset, report in reports.items():
        for row in report["levels"]:  # partial: a stopped run's puzzles so far
            writer.writerow({"dataset": dataset, **row,  # unsupported: how many it could not take
                             "unsupported": len(row.get("unsupported") or {}),
                             "partial": bool(report.get("partial"))})
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
        # no bar where a level took no puzzle of the set
        ax.bar(xs, [percent.get(level) or 0 for level in levels], width, label=dataset)
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
        parts += [f"## {dataset}{partial(report)}", "",
                  table(dataset, report["levels"], "github"), "", f"Cost: {cost}.", ""]
        lines = notes(report) + agreement(report)
        parts += [*lines, ""] if lines else []
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
    """The datasets of several ladder.json files, in order; runs of one dataset at other
    levels join into one table (see `_joined`); ValueError naming the file and what is
    wrong with it."""
    reports: dict[str, dict] = {}
    for path in paths:
        try:
            data = json_value(Path(path).read_text(encoding="utf-8"))
        except OSError as error:
            raise ValueError(f"{path}: {error.strerror or error}") from None
        except ValueError as error:  # JSONDecodeError, or bytes that are no UTF-8
            raise ValueError(f"{path}: not JSON ({error})") from None
        try:
            for name, report in checked(data).items():
                reports[name] = _joined(name, reports[name], report) if name in reports \
                    else report
        except ValueError as error:
            raise ValueError(f"{path}: {error}") from None
    return reports


def _joined(name: str, earlier: dict, later: dict) -> dict:
    """Two runs of one dataset as one report: the levels of both (the later run's row where
    both ran a level), their agreements, their CPU and wall seconds added; ValueError when
    they ran different numbers of puzzles (their rows would not be of the same puzzles)."""
    if earlier.get("puzzles", later.get("puzzles")) != later.get("puzzles"):
        raise ValueError(f"dataset {name!r} has {later.get('puzzles')} puzzles here and "
                         f"{earlier.get('puzzles')} in an earlier file: rows of different "
                         f"puzzles cannot share a table")
    levels = {row["level"]: row for row in earlier["levels"]}
    levels.update((row["level"], row) for row in later["levels"])
    done = [run["done"] for run in (earlier, later) if "done" in run]
    before, after = earlier.get("excluded", {}), later.get("excluded", {})
    return {**later, "levels": list(levels.values()),
            "agreement": {**earlier.get("agreement", {}), **later.get("agreement", {})},
            "cpu": round(earlier["cpu"] + later["cpu"], 1),
            "wall": round(earlier["wall"] + later["wall"], 1),
            "jobs": max(earlier["jobs"], later["jobs"]),
            **({"done": min(done)} if done else {}),
            "partial": bool(earlier.get("partial") or later.get("partial")),
            "unchecked": _union(earlier.get("unchecked", []), later.get("unchecked", [])),
            "excluded": {verdict: _union(before.get(verdict, []), after.get(verdict, []))
                         for verdict in dict.fromkeys([*before, *after])}}


def _union(earlier: list[int], later: list[int]) -> list[int]:
    """The puzzle numbers of two runs' lists, each once, in order."""
    return sorted({*earlier, *later})


ROW = {"level": str, "what": str, "finished": int, "puzzles": int,
       "percent": (int, float, type(None)),
       "candidates_left": (int, float, type(None)),
       "guesses_per_puzzle": (int, float, type(None)), "guess_word": (str, type(None))}
COST = {"cpu": (int, float), "wall": (int, float), "jobs": int}


def checked(data: object) -> dict[str, dict]:
    """The reports of a ladder.json, as loaded, after checking that every field a table
    or report reads is there with its type; ValueError saying what is not."""
    if not isinstance(data, dict):
        raise ValueError(f"not a ladder report: a JSON {type(data).__name__}, not an object "
                         f"of datasets")
    if not data:
        raise ValueError("holds no dataset")
    for name, report in data.items():
        if not isinstance(report, dict) or not isinstance(report.get("levels"), list):
            raise ValueError(f"not a ladder report: dataset {name!r} has no list of levels")
        wrongs = [_wrong(report, COST)] + [f"a level {_wrong(row, ROW)}"
                                           for row in report["levels"] if _wrong(row, ROW)]
        wrong = next((w for w in wrongs if w), "")
        if wrong:
            raise ValueError(f"not a ladder report: dataset {name!r}: {wrong}")
    return data


def _wrong(fields: object, types: dict) -> str:
    """What is missing or of the wrong type among `types` ('' when nothing)."""
    if not isinstance(fields, dict):
        return "is no object"
    bad = [key for key, kind in types.items()
           if key not in fields or isinstance(fields[key], bool)
           or not isinstance(fields[key], kind)]
    return f"lacks or misstates {', '.join(bad)}" if bad else ""


# --- the run log: ladder.jsonl -------------------------------------------------------------

LOG = "ladder.jsonl"


class LadderLog(RunLog):
    """ladder.jsonl in an --out folder: the run's settings, then one line per puzzle as it
    finishes, kept as compare keeps runs.jsonl (RunLog): a stopped run loses at most the
    line being written, and --resume runs only the puzzles not there. A finished run's
    report holds its figures: the log is removed then."""

    def __init__(self, folder: Path | str) -> None:
        super().__init__(Path(folder))
        self.path = Path(folder) / LOG

    def lines(self) -> list[dict]:  # type: ignore[override]
        """Every complete line on disk as a dict; a line that is none is warned of once."""
        if not self.path.exists():
            return []
        out = []
        text = self.path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            try:
                data = json_value(line)
                if not isinstance(data, dict):
                    raise TypeError(line)
                out.append(data)
            except (ValueError, TypeError):
                self._warn(number)
        return out

    def settings(self) -> dict | None:
        """The settings its first line holds (None: no log, or none there)."""
        lines = self.lines()
        return lines[0].get("settings") if lines else None

    def entries(self, dataset: str) -> list[Entry]:
        """The puzzles of one dataset already done (a puzzle twice: the later line)."""
        found: dict[int, Entry] = {}
        for line, data in enumerate(self.lines()[1:], 2):
            if data.get("set") == dataset:
                try:
                    entry = Entry(int(data["puzzle"]), str(data["verdict"]),
                                  {name: Outcome(None, **fields)
                                   for name, fields in data["levels"].items()})
                except (KeyError, TypeError, ValueError, AttributeError):
                    self._warn(line)
                    continue
                found[entry.number] = entry
        return [found[k] for k in sorted(found)]

    def start(self, settings: dict) -> None:
        """Begin a new log with the run's settings."""
        self._write({"settings": settings})

    def add(self, dataset: str, entry: Entry) -> None:
        """One puzzle's line, flushed at once."""
        levels = {name: {k: v for k, v in asdict(outcome).items() if k != "marks"}
                  for name, outcome in entry.outcomes.items()}
        self._write({"set": dataset, "puzzle": entry.number, "verdict": entry.verdict,
                     "levels": levels})

    def _write(self, data: dict) -> None:
        """Append one line and flush it to the operating system."""
        if self._file is None:
            self._file = self._open()
        self._file.write(json.dumps(data, separators=(",", ":")) + "\n")
        self._file.flush()

    def remove(self) -> None:
        """Close and delete the log (its run is finished and reported)."""
        self.close()
        self.path.unlink(missing_ok=True)
