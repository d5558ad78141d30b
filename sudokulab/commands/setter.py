"""`sudokulab setter`: the setter's bench on a puzzle being set (sudokulab.generate.setter)."""

from __future__ import annotations

import argparse
import json
import sys

from sudokulab.commands.inputs import each_puzzle, examples, input_arguments, timeout_seconds
from sudokulab.errors import Exit, exit_help, whole, worst
from sudokulab.puzzle import symbol

DESCRIPTION = ("The setter's bench: for a puzzle as it stands, how many solutions are left "
               "(0, 1, or at least 2, with two that differ and the cells where they do), "
               "the true candidates of every cell (the digits some solution puts there), "
               "the givens and rules the puzzle stays unique without, and the human grade "
               "once it is unique. One incremental SAT solver answers it all; every "
               "solution it shows is checked by the independent checker. Ctrl-C or "
               "SIGTERM prints what is established so far of the puzzle under way, "
               "marked partial (json: \"partial\": true), and exits 130 or 143.")
EXAMPLES = examples(
    "sudokulab setter 4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",  # noqa: E501  (a puzzle to copy whole)
    "sudokulab setter PUZZLE --cage r1c1,r1c2=10 --cage r1c3,r2c3=7 --format json",
    "sudokulab setter --file killer.json --no-grade")
EXITS = (Exit.OK, Exit.NONE, Exit.INPUT, Exit.TIMEOUT, Exit.DISAGREE, Exit.SEVERAL,
         Exit.INTERRUPTED, Exit.TERMINATED)
CODES = {"unique": Exit.OK, "none": Exit.NONE, "several": Exit.SEVERAL,
         "timeout": Exit.TIMEOUT}


def options(p: argparse.ArgumentParser) -> None:
    """The options of `setter`."""
    p.description, p.epilog = DESCRIPTION, f"{EXAMPLES}\n\n{exit_help(EXITS)}"
    input_arguments(p)
    p.set_defaults(multi_grid=True)  # a samurai's grids are read; what cannot take them says so
    p.add_argument("--timeout", "-t", type=timeout_seconds, default=10.0, metavar="S",
                   help="stop the count, candidates and redundancy after S seconds (default "
                        "10; 0 or inf: never); what is unproven is said so")
    p.add_argument("--grade-timeout", type=timeout_seconds, default=2.0, metavar="S",
                   help="give up the human grade after S seconds (default 2; 0: never)")
    p.add_argument("--no-grade", action="store_true", help="skip the human grade")
    p.add_argument("--no-candidates", action="store_true",
                   help="skip the true candidates")
    p.add_argument("--no-redundancy", action="store_true",
                   help="skip the redundant givens and rules")
    p.add_argument("--format", choices=("pretty", "json"), default="pretty",
                   help="pretty (default): the count, the two solutions' differing cells, "
                        "the candidates grid, redundant givens and rules, the grade; json: "
                        "one object per puzzle per line (cells as [row, column] from 1)")


def run(args: argparse.Namespace) -> int:
    """Print the bench's report on each puzzle; the exit code says unique, none or several."""
    from sudokulab.generate.setter import SetterInterrupted, setter_report

    codes: list[int] = [Exit.OK]
    for number, puzzle in each_puzzle(args, codes):
        try:
            report = setter_report(puzzle, seconds=args.timeout,
                                   candidates=not args.no_candidates,
                                   redundancy=not args.no_redundancy, grade=not args.no_grade,
                                   grade_seconds=args.grade_timeout)
        except SetterInterrupted as stop:  # what it established, then 130 or 143
            show(args, number, puzzle, stop.report)
            raise
        show(args, number, puzzle, report)
        codes.append(CODES[report.status])
        if report.status == "unique" and not report.complete:
            codes.append(Exit.TIMEOUT)
    return worst(codes)


def show(args: argparse.Namespace, number: int, puzzle, report) -> None:
    """One report on stdout in the chosen format, at once (a file of puzzles takes a
    while), whole: a signal waits for its line's end (a JSON record lost its newline)."""
    text = (json.dumps(report.to_json()) if args.format == "json"
            else pretty(number, puzzle, report, redundancy=not args.no_redundancy))
    with whole():
        print(text)
        sys.stdout.flush()


def pretty(number: int, puzzle, report, redundancy: bool = True) -> str:
    """The report as text: count, differences, candidates, redundancy (asked for, or said
    unproven when time ran out before it), grade."""
    lines = [f"puzzle {number}: {headline(report)}"
             + (f" ({report.message})" if report.message else "")
             + (f" (partial: {report.stopped})" if report.stopped else "")]
    if report.differ:
        lines.append(f"  the two solutions differ in {len(report.differ)} cells: "
                     + " ".join(f"r{r}c{c}={symbol(a)}/{symbol(b)}" for (r, c), a, b in (
                         (report.place(k), report.solutions[0][k], report.solutions[1][k])
                         for k in report.differ)))
    if report.candidates is not None and report.status != "none":
        from sudokulab.formats.text import format_candidates

        stopped = report.stopped or "time ran out"  # a signal, or --timeout
        undecided = f" ({len(report.undecided)} cells unproven: {stopped})" \
            if report.undecided else ""
        lines += [f"true candidates{undecided}:", format_candidates(puzzle, report.candidates)]
    unproven = redundancy and report.status == "unique" and not report.complete
    why = f"not proven: {report.stopped or 'time ran out (--timeout)'}"
    if report.redundant_givens is not None:
        lines.append("redundant givens: " + (", ".join(
            f"r{r}c{c}={symbol(puzzle.givens[k])}" for k, (r, c) in
            ((k, report.place(k)) for k in report.redundant_givens)) or "none"))
    elif unproven and any(puzzle.givens):
        lines.append(f"redundant givens: {why}")
    if report.redundant_rules is not None and puzzle.rules:
        lines.append("redundant rules: " + ("; ".join(
            rule_text(k, puzzle.rules[k]) for k in report.redundant_rules) or "none"))
    elif unproven and puzzle.rules:
        lines.append(f"redundant rules: {why}")
    if report.grade is not None:
        g = report.grade
        lines.append(f"grade: {g['level']}, score {g['score']}, SE-like {g['rating']:.1f} "
                     f"({g['hardest'] or 'singles'})"
                     + ("" if g["solved"] else ", stalled: graded as far as it went"))
    elif report.grade_message:
        lines.append(f"grade: {report.grade_status}: {report.grade_message}")
    lines.append(f"({report.calls} SAT calls; witnesses checked by sudokulab.check: "
                 f"{report.witnesses}; {report.seconds * 1000:.0f} ms)")
    return "\n".join(lines)


def headline(report) -> str:
    """The count in words."""
    if report.status == "timeout" and report.stopped:
        return "no count yet"  # stopped by a signal, not by the time limit
    return {"none": "no solution", "unique": "unique (1 solution)",
            "several": "at least 2 solutions",
            "timeout": "no count: the time ran out"}[report.status]


def rule_text(index: int, rule) -> str:
    """A rule named by its number in the puzzle and its JSON form, shortened."""
    from sudokulab import rules as R

    return f"#{index + 1} {R.json_text(R.rule_to_json(rule))}"
