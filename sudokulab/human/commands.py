"""The `explain`, `hint` and `grade` commands: human-style steps on the command line."""

from __future__ import annotations

import argparse
import json
import sys

from sudokulab.errors import EXIT_DISAGREE, EXIT_ENGINE, EXIT_OK, UsageError, error_line, worst


def add_technique_options(p: argparse.ArgumentParser) -> None:
    """--techniques LIST | --upto NAME, and --uniqueness."""
    which = p.add_mutually_exclusive_group()
    which.add_argument("--techniques", metavar="LIST",
                       help="only these techniques (comma list of names, e.g. "
                            "'naked single,hidden single'); see `sudokulab explain --list`")
    which.add_argument("--upto", metavar="NAME",
                       help="every technique up to and including NAME, in the list's order")
    p.add_argument("--uniqueness", choices=("auto", "yes", "no"), default="auto",
                   help="uniqueness techniques (Unique Rectangles, BUG+1): yes assumes one "
                        "solution, no never uses them, auto (default) uses them when the "
                        "norvig backend proves the puzzle unique")
    p.add_argument("--list", action="store_true", help="list the techniques, easiest first")


def explain_options(p: argparse.ArgumentParser) -> None:
    """The `explain` subcommand."""
    from sudokulab.cli import _input_arguments

    p.description = ("The numbered steps a human solver takes, easiest technique first "
                     "(HoDoKu's catalogue and notation), with one plain sentence each, and "
                     "the grade.")
    _input_arguments(p)
    add_technique_options(p)
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text (default), or one JSON object per puzzle: puzzle, solved, "
                        "level, score, rating, steps (technique, placements, eliminations "
                        "as [row, col, digit] counted from 1, text)")
    p.add_argument("--verify", action="store_true",
                   help="check every step against the solution the norvig backend finds: "
                        "no placement may differ from it, no elimination may remove its "
                        "digit (exit 4 if one does)")
    p.set_defaults(run=run_explain)


def hint_options(p: argparse.ArgumentParser) -> None:
    """The `hint` subcommand."""
    from sudokulab.cli import _input_arguments

    p.description = "The easiest next step only (on the puzzle's pencil marks)."
    _input_arguments(p)
    add_technique_options(p)
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=run_hint)


def chosen(args: argparse.Namespace):
    """The techniques the options select; UsageError for an unknown name."""
    from sudokulab.human import solver

    try:
        if args.techniques:
            return solver.select(names=[t for t in args.techniques.split(",") if t.strip()])
        return solver.select(upto=args.upto)
    except solver.UnknownTechnique as error:
        raise UsageError(str(error)) from None


def listing() -> str:
    """The techniques, easiest first, with tier, HoDoKu level and score, SE-like rating."""
    from tabulate import tabulate

    from sudokulab.human import grading, solver

    rows = [(k, t.name, solver.TIERS[t.tier], *grading.TABLE[t.name],
             "yes" if t.uniqueness else "")
            for k, t in enumerate(solver.TECHNIQUES, 1)]
    return tabulate(rows, headers=("#", "technique", "tier", "HoDoKu level", "score",
                                   "SE-like", "assumes uniqueness"), tablefmt="simple")


def reference(puzzle):
    """The norvig backend's answer (another paradigm): the solution steps are checked with."""
    from sudokulab.backends import make_backend

    return make_backend("norvig").solve(puzzle, limit=2)


def is_unique(puzzle, args: argparse.Namespace, answer=None) -> bool:
    """Whether uniqueness techniques may be used on this puzzle."""
    if args.uniqueness != "auto":
        return args.uniqueness == "yes"
    answer = answer or reference(puzzle)
    return answer.status.value == "unique"


def run_explain(args: argparse.Namespace) -> int:
    """Print each puzzle's numbered steps and grade; with --verify, check every step."""
    if args.list:
        print(listing())
        return EXIT_OK
    from sudokulab.cli import read_input
    from sudokulab.human import grading, solver
    from sudokulab.puzzle import line_of

    techniques = chosen(args)
    code = EXIT_OK
    for number, puzzle in enumerate(read_input(args), 1):
        if refused(number, puzzle):
            code = worst((code, EXIT_ENGINE))
            continue
        answer = reference(puzzle) if args.verify or args.uniqueness == "auto" else None
        unique = is_unique(puzzle, args, answer)
        path = solver.solve(puzzle, techniques, unique=unique)
        grade = grading.grade_path(path, techniques, unique=unique)
        wrong = []
        if args.verify:
            if not answer.solutions:
                print(f"sudokulab: note: puzzle {number}: norvig finds no solution "
                      f"({answer.status.value}): nothing to verify against", file=sys.stderr)
            else:
                wrong = solver.wrong_moves(path.steps, answer.solutions[0], puzzle.n)
        if args.format == "json":
            n = puzzle.n
            print(json.dumps({"puzzle": line_of(puzzle.givens), "solved": path.solved,
                              "level": grade.level, "score": grade.score,
                              "rating": grade.rating,
                              "steps": [s.to_json(n) for s in path.steps],
                              **({"verified": not wrong} if args.verify else {})}))
        else:
            print(explanation(puzzle, path, grade))
        if args.verify:
            for problem in wrong:
                print(f"sudokulab: error: puzzle {number}: {problem}", file=sys.stderr)
            if not wrong and answer.solutions:
                print(f"verified: all {len(path.steps)} steps agree with norvig's solution",
                      file=sys.stderr)
            code = worst((code, EXIT_DISAGREE if wrong else EXIT_OK))
    return code


def refused(number: int, puzzle) -> bool:
    """Whether the techniques cannot take the puzzle: if so, say why (exit code 5)."""
    from sudokulab.human import solver

    reason = solver.refusal(puzzle)
    if reason:
        print(error_line(f"puzzle {number}: {reason}"), file=sys.stderr)
    return bool(reason)


def explanation(puzzle, path, grade) -> str:
    """The numbered steps, each with its sentence, then the grade."""
    from sudokulab.formats.text import format_grid

    width = len(str(len(path.steps)))
    lines = []
    for k, step in enumerate(path.steps, 1):
        lines.append(f"{k:>{width}}. {step.notation}")
        lines.append(f"{'':>{width}}  {step.sentence}")
    if path.solved:
        lines.append(f"solved in {len(path.steps)} steps: level {grade.level}, score "
                     f"{grade.score}, rating {grade.rating:.1f} (hardest: {grade.hardest})")
    else:
        lines.append(f"stalled after {len(path.steps)} steps: no enabled technique applies; "
                     f"the grid so far:")
        lines.append(format_grid(puzzle.with_values(path.grid)))
    return "\n".join(lines)


def run_hint(args: argparse.Namespace) -> int:
    """Print the easiest next step of each puzzle."""
    if args.list:
        print(listing())
        return EXIT_OK
    from sudokulab.cli import read_input
    from sudokulab.human import solver

    techniques = chosen(args)
    code = EXIT_OK
    for number, puzzle in enumerate(read_input(args), 1):
        if refused(number, puzzle):
            code = EXIT_ENGINE
            continue
        step = solver.hint(puzzle, techniques, unique=is_unique(puzzle, args))
        if args.format == "json":
            print(json.dumps(step.to_json(puzzle.n) if step else None))
        elif step is None:
            print("no step: the puzzle is full, or no enabled technique applies")
        else:
            print(f"{step.notation}\n{step.sentence}")
    return code


def grade_options(p: argparse.ArgumentParser) -> None:
    """The `grade` subcommand."""
    from sudokulab.cli import _input_arguments

    p.description = ("Grade each puzzle as a human solver would: HoDoKu's level and score, "
                     "an SE-like rating of the hardest step, the hardest technique and the "
                     "steps per technique; then a table of the levels over the input.")
    _input_arguments(p)
    add_technique_options(p)
    p.add_argument("--format", choices=("line", "json", "csv"), default="line",
                   help="line (default): number, level, score, rating, hardest technique; "
                        "json: one object per puzzle per line; csv: a header and one row "
                        "per puzzle (techniques as name:count;...)")
    p.add_argument("--plot", metavar="PNG", help="write a histogram of the levels here")
    p.set_defaults(run=run_grade)


def run_grade(args: argparse.Namespace) -> int:
    """Grade every puzzle; print one record each, then the summary table."""
    if args.list:
        print(listing())
        return EXIT_OK
    import csv

    from sudokulab.cli import read_entries
    from sudokulab.errors import EXIT_INPUT, error_line
    from sudokulab.harness.progress import Progress
    from sudokulab.human import grading, solver
    from sudokulab.puzzle import line_of

    techniques = chosen(args)
    entries = read_entries(args)
    bad = [entry for entry in entries if entry.puzzle is None]
    if bad and args.strict:  # stop at the first bad puzzle, after grading those before it
        entries = entries[:entries.index(bad[0]) + 1]
        bad = bad[:1]
    for entry in bad:  # each reported with its file and line, and skipped
        print(error_line(entry.error), file=sys.stderr)
    puzzles = [entry.puzzle for entry in entries if entry.puzzle is not None]
    progress = Progress("grade", len(puzzles)) if len(puzzles) >= 50 else None
    writer = csv.writer(sys.stdout, lineterminator="\n") if args.format == "csv" else None
    if writer:
        writer.writerow(["puzzle", "givens", "solved", "level", "score", "rating", "hardest",
                         "techniques"])
    grades, codes = [], [EXIT_INPUT if bad else EXIT_OK]
    for number, puzzle in enumerate((entry.puzzle for entry in entries), 1):
        if puzzle is None:  # numbered as read, so each row names its input puzzle
            continue
        if refused(number, puzzle):
            codes.append(EXIT_ENGINE)
            if progress:
                progress.step()
            continue
        unique = is_unique(puzzle, args)
        path = solver.solve(puzzle, techniques, unique=unique)
        grade = grading.grade_path(path, techniques, unique=unique)
        grades.append(grade)
        counts = path.counts()
        if args.format == "json":
            print(json.dumps({"puzzle": line_of(puzzle.givens), "solved": path.solved,
                              "level": grade.level, "score": grade.score,
                              "rating": grade.rating, "hardest": grade.hardest,
                              "techniques": counts}))
        elif writer:
            writer.writerow([number, line_of(puzzle.givens), path.solved, grade.level,
                             grade.score, grade.rating, grade.hardest,
                             ";".join(f"{k}:{v}" for k, v in counts.items())])
        else:
            state = "" if path.solved else "  (stalled)"
            print(f"#{number}  {grade.level:<7} {grade.score:>6}  {grade.rating:4.1f}  "
                  f"{grade.hardest}{state}")
        if progress:
            progress.step()
    if progress:
        progress.finish()
    if grades:  # a file of refused puzzles has nothing to sum up or draw
        print(summary(grades), file=sys.stdout if args.format == "line" else sys.stderr)
        if args.plot:
            histogram(grades, args.plot)
    return worst(codes)


def summary(grades) -> str:
    """A table: puzzles per level (stalled paths apart), with share and mean rating."""
    from tabulate import tabulate

    from sudokulab.human.grading import LEVELS

    rows = []
    total = len(grades) or 1
    for level in LEVELS + ("stalled",):
        chosen_ = [g for g in grades if (not g.solved if level == "stalled"
                                        else g.solved and g.level == level)]
        if chosen_:
            rows.append((level, len(chosen_), f"{100 * len(chosen_) / total:.1f}%",
                         f"{sum(g.rating for g in chosen_) / len(chosen_):.2f}",
                         round(sum(g.score for g in chosen_) / len(chosen_))))
    return tabulate(rows, headers=("level", "puzzles", "share", "mean rating", "mean score"),
                    tablefmt="simple")


def histogram(grades, path: str) -> None:
    """A bar chart of puzzles per level, as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from sudokulab.human.grading import LEVELS

    labels = list(LEVELS) + ["stalled"]
    counts = [sum(1 for g in grades if g.solved and g.level == level) for level in LEVELS]
    counts.append(sum(1 for g in grades if not g.solved))
    figure, axes = plt.subplots(figsize=(6, 3.5))
    axes.bar(labels, counts, color="#4a7ab5")
    axes.set_ylabel("puzzles")
    axes.set_title(f"HoDoKu levels of {len(grades)} puzzles")
    for x, count in enumerate(counts):
        axes.annotate(str(count), (x, count), ha="center", va="bottom", fontsize=8)
    figure.tight_layout()
    try:
        figure.savefig(path)
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror or error}") from None
    finally:
        plt.close(figure)
