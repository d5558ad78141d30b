"""Many classic puzzles through one engine in bulk (issue 59): the batch path that `solve
--file F --format line` and `sl.solve_many` share.

Per-puzzle Python would hide a fast engine (native solves a 17-clue puzzle in about
14 microseconds; making a Puzzle and a Result of it costs more). An engine that offers
`solve_lines` gets the plain classic puzzles as one text, one call; their grids come back
as bytes and are checked as one batch by `sudokulab.check.failures` (a grid that fails
is checked again by `check`, which says why). Every other puzzle is solved and checked
one by one, as `solve` does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sudokulab.puzzle import Puzzle
from sudokulab.result import Result

# A puzzle's digits as the text the batch reads: 0 (blank) as '.', d as its digit.
TEXT = bytes.maketrans(bytes(range(10)), b".123456789")
# ... and back: '.' and '0' blank (0), '1'..'9' their digits
DIGITS = bytes.maketrans(b".0123456789", bytes([0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]))


def takes(engine: Any, puzzle: Puzzle | str, limit: int | None) -> bool:
    """Whether the engine's batch takes the puzzle: a plain classic line (see
    `native.plain`), or a classic 9x9 with no rule and no layout; one solution or two."""
    if not (hasattr(engine, "solve_lines") and limit in (1, 2)):
        return False
    return isinstance(puzzle, str) or (puzzle.box == (3, 3) and not puzzle.rules
                                       and puzzle.layout is None)


def solve_many(engine: Any, puzzles: Sequence[Puzzle | str],
               limit: int | None = 2) -> list[Result]:
    """Each puzzle's Result, in order: those the engine's batch takes in one call (each
    result gets an equal share of the call's time), the others one by one; every grid
    checked by the independent checker (DisagreementError naming the first that fails).
    A str is a plain classic line, which the batch reads as it is (no Puzzle made)."""
    from sudokulab.errors import DisagreementError
    from sudokulab.formats.text import parse
    from sudokulab.harness.crosscheck import verify

    results: dict[int, Result] = {}
    passed: set[int] = set()  # the batch's answers its bulk check passed
    k = 0
    try:  # Ctrl-C or SIGTERM anywhere, in the batch's C call or around it, keeps answers
        bulk = [k for k, puzzle in enumerate(puzzles) if takes(engine, puzzle, limit)]
        if bulk:
            answers, wrong, stop = _batch(engine, [puzzles[k] for k in bulk], limit)
            results.update(zip(bulk, answers))
            passed = {k for i, k in enumerate(bulk[:len(answers)]) if i not in wrong}
            if stop is not None:  # inside the batch: the lines it finished are kept
                raise stop
        for k, item in enumerate(puzzles):
            if k in passed:
                continue
            puzzle = parse(item) if isinstance(item, str) else item
            if k not in results:
                results[k] = engine.solve(puzzle, limit=limit)
            why = verify(puzzle, results[k])
            if why:
                raise DisagreementError(f"puzzle {k + 1}: {engine.label}'s answer fails the "
                                        f"checker: {why}")
    except KeyboardInterrupt as stop:  # the answers before the first one not checked
        from sudokulab.errors import SolveManyInterrupted

        k = max(k, next((j for j in range(len(puzzles)) if j not in passed), len(puzzles)))
        raise SolveManyInterrupted([results[j] for j in range(k)], k,
                                   getattr(stop, "result", None), stop) from None
    return [results[k] for k in range(len(puzzles))]


def _batch(engine: Any, puzzles: list[Puzzle | str], limit: int | None
           ) -> tuple[list[Result], set[int], KeyboardInterrupt | None]:
    """The puzzles through one call of the engine's batch: their Results, which of them
    fail the bulk check (`solve_many` checks those one by one, to say why), and the stop
    that cut the call short (then the Results are of the lines it finished), or None."""
    import time

    from sudokulab.errors import whole
    from sudokulab.result import verdict

    givens = b"".join(p.encode("ascii") if isinstance(p, str) else bytes(p.givens).translate(TEXT)
                      for p in puzzles)
    started = time.perf_counter()
    stop = None
    try:
        batch = engine.solve_lines(givens, len(puzzles), 81, limit)
    except KeyboardInterrupt as error:  # the batch raises it holding the lines done
        batch, stop = getattr(error, "batch", None), error
        if batch is None:
            raise
    done = len(batch.status)
    share = (time.perf_counter() - started) / max(done, 1)
    with whole():  # the lines' Results are made whole: a signal waits for them
        grids = batch.first.translate(None, b"\n")
        wrong = failing(givens[:81 * done], grids, batch)
        answers = [verdict(found(grids, batch, k), batch.limit, complete=True,
                           solve_time=share) for k in range(done)]
    return answers, wrong, stop


def failing(givens: bytes, grids: bytes, batch: Any) -> set[int]:
    """The lines whose grids (81 characters each: the first ones, then `batch.second`)
    fail the independent checker, or whose two grids are the same (no count of two)."""
    from sudokulab.check import failures

    status = batch.status
    found = [k for k, count in enumerate(status) if count]
    if len(found) == len(status):  # every line has a grid: the buffers as they are
        wrong = set(failures((3, 3), givens.translate(DIGITS), grids.translate(DIGITS)))
    else:
        wrong = {found[i] for i in failures(
            (3, 3), b"".join(givens[81 * k:81 * k + 81] for k in found).translate(DIGITS),
            b"".join(grids[81 * k:81 * k + 81] for k in found).translate(DIGITS))}
    several = [k for k, count in enumerate(status) if count == 2]
    if several:
        seconds = b"".join(batch.second[81 * k:81 * k + 81] for k in several)
        wrong |= {several[i] for i in failures(
            (3, 3), b"".join(givens[81 * k:81 * k + 81] for k in several).translate(DIGITS),
            seconds.translate(DIGITS))}
        wrong |= {k for k in several if grids[81 * k:81 * k + 81]
                  == batch.second[81 * k:81 * k + 81]}
    return wrong


def answer(givens: bytes, grids: bytes, batch: Any, k: int) -> tuple[Puzzle, Result]:
    """The Puzzle and Result of line k, for an answer that failed the batch check (so
    that `solve`'s own writing says why)."""
    from sudokulab.result import verdict

    puzzle = Puzzle((3, 3), tuple(givens[81 * k:81 * k + 81].translate(DIGITS)))
    return puzzle, verdict(found(grids, batch, k), batch.limit, complete=True)


def found(grids: bytes, batch: Any, k: int) -> list[tuple[int, ...]]:
    """The grids the batch found for line k (none, one, or two)."""
    return [tuple(buffer[81 * k:81 * k + 81].translate(DIGITS))
            for buffer in (grids, batch.second)[:batch.status[k]]]
