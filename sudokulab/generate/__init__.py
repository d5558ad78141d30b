"""The generator: unique, minimal, symmetric puzzles of a chosen level, for every shape and
rule set, reproducible from a seed (issue 15).

A puzzle is made in three steps, all driven by one random.Random(seed):
1. a random solution grid for the shape and rules (`grids.random_grid`; random jigsaw
   regions first, killer cages and parity marks after, from the solution, and so the
   lines, dots, sums and regions of issue 19's rules: `marks.py`);
2. givens removed in a random order of the symmetry's orbits while the puzzle stays
   unique, asked of the working engine (PySAT, incremental, `engine.py`);
3. filters: a number of givens, minimality, a level or rating from the human-style
   grader; a puzzle that misses them is dropped and the next try removes givens in
   another order (a grid serves four tries, then another is drawn). With lines, dots,
   sums or regions drawn from the solution, the puzzle must also need them: its givens
   alone have several solutions.
Every puzzle that passes is proved unique again by a second engine of another paradigm
(norvig, or asp where norvig is slow) and its solution checked by the independent checker
before it is handed out; a disagreement raises ProofError: a bug, never a puzzle.

Puzzle k of a run with seed S (counted from 0) is the first puzzle of seed S + k, so a
puzzle's own `seed` reproduces it alone: the uniqueness answers are facts, not choices
of a solver, so the output depends on the seed and the options only.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable

from sudokulab import rules as R
from sudokulab.errors import UsageError
from sudokulab.generate.maker import Generated, Request
from sudokulab.generate.marks import FAMILIES

LEVELS = ("easy", "medium", "hard", "unfair", "extreme")  # HoDoKu's, as grading.LEVELS
# Drawn afresh for every puzzle: regions, cages, marks, and issue 19's families (marks.py).
RANDOM_RULES = ("jigsaw", "killer", "parity", *FAMILIES)
# Second engines, of other paradigms than SAT. `auto`: norvig (hand-written propagation
# and search) up to 9x9 with rules that only add units, cages or marks; asp (clingo, answer
# set programming) above 9x9 and for chess-move and non-consecutive rules, where
# norvig's Python search takes longer than making the puzzle (results/generate.md).
PROVERS = ("auto", "norvig", "dlx", "asp", "cpsat")
DEFAULT_TRIES = 20_000
# Fewest givens a unique classic puzzle can have, where it is known: 17 for 9x9
# (McGuire, Tugemann and Civario, 2012, by exhaustive search); 4 for 4x4 (small enough to
# enumerate). Otherwise any unique classic puzzle needs at least N - 1 digits named.
FEWEST_CLASSIC = {(2, 2): 4, (3, 3): 17}





def generate(box: tuple[int, int] = (3, 3), rules: Iterable[R.Rule | str] = (), *,
             number: int = 1, seed: int = 0, symmetry: str = "none", minimal: bool = False,
             givens: int | None = None, max_givens: int | None = None,
             level: str | None = None, rating: tuple[float, float] | None = None,
             grade: bool = False, prover: str = "auto", tries: int = DEFAULT_TRIES,
             jobs: int = 1) -> Generator[Generated, None, None]:
    """Generate `number` puzzles, one after another (with `jobs` > 1, in worker processes,
    in the same order and the same puzzles as with one).

    `rules` holds rule objects or names: the simple rules, 'miracle', and 'jigsaw',
    'killer', 'parity' and the families of marks.FAMILIES ('thermometer', 'kropki', ...)
    for regions, cages, marks, lines or sums drawn at random for each puzzle.
    UsageError for impossible or contradictory options (checked before the first puzzle);
    also when `tries` grids in a row miss the filters (givens, level, rating, minimal).
    """
    request = make_request(box, rules, symmetry=symmetry, minimal=minimal, givens=givens,
                           max_givens=max_givens, level=level, rating=rating, grade=grade,
                           prover=prover, tries=tries)
    if not isinstance(number, int) or number < 0:
        raise UsageError(f"number must be 0 or more, not {number!r}")
    if not isinstance(seed, int) or seed < 0:
        raise UsageError(f"seed must be an integer, 0 or more, not {seed!r}")
    if not isinstance(jobs, int) or jobs < 1:
        raise UsageError(f"jobs must be 1 or more, not {jobs!r}")
    return _stream(request, number, seed, jobs)


def _stream(request: Request, number: int, seed: int,
            jobs: int) -> Generator[Generated, None, None]:
    """The puzzles of seeds seed .. seed + number - 1, in order."""
    from sudokulab.generate.maker import make

    if jobs == 1 or number <= 1:
        for k in range(number):
            yield make(request, seed + k)
        return
    yield from _in_workers(request, number, seed, jobs)


def _in_workers(request: Request, number: int, seed: int,
                jobs: int) -> Generator[Generated, None, None]:
    """make() over the seeds in worker processes, a few puzzles ahead, handed out in order."""
    from collections import deque

    from sudokulab.generate.maker import make
    from sudokulab.harness.children import CONTEXT, end_pool, held, listen

    ahead = 4 * jobs
    with held():  # the workers ignore Ctrl-C: end_pool() below ends them
        pool = CONTEXT.Pool(jobs, initializer=listen)
    try:
        pending: deque = deque()
        next_seed, last = seed, seed + number
        while pending or next_seed < last:
            while next_seed < last and len(pending) < ahead:
                pending.append(pool.apply_async(make, (request, next_seed)))
                next_seed += 1
            yield pending.popleft().get()
    finally:  # done, failed, interrupted or no longer read: nothing more to make
        end_pool(pool)


def make_request(box: tuple[int, int] = (3, 3), rules: Iterable[R.Rule | str] = (), *,
                 symmetry: str = "none", minimal: bool = False, givens: int | None = None,
                 max_givens: int | None = None, level: str | None = None,
                 rating: tuple[float, float] | None = None, grade: bool = False,
                 prover: str = "auto", tries: int = DEFAULT_TRIES) -> Request:
    """The checked request; UsageError naming the option that is impossible or clashes."""
    from sudokulab.errors import InputError
    from sudokulab.generate.symmetry import SYMMETRIES, orbits
    from sudokulab.puzzle import check_rules

    box = _box(box)
    fixed, randoms = _rules(rules)
    n = box[0] * box[1]
    if symmetry not in SYMMETRIES:
        raise UsageError(f"unknown symmetry {symmetry!r}; known: {', '.join(SYMMETRIES)}")
    if givens is not None and max_givens is not None:
        raise UsageError("--givens and --max-givens exclude each other: give one")
    if level is not None and rating is not None:
        raise UsageError("--level and --rating exclude each other: give one")
    for name, value in (("givens", givens), ("max-givens", max_givens)):
        if value is not None and not (isinstance(value, int) and 0 <= value <= n * n):
            raise UsageError(f"--{name} must be from 0 to {n * n} for a {n}x{n} grid, "
                             f"not {value!r}")
    if "jigsaw" in randoms and R.jigsaw(fixed) is not None:
        raise UsageError("random jigsaw regions and fixed regions exclude each other")
    if level is not None:
        if level.lower() not in LEVELS:
            raise UsageError(f"unknown level {level!r}; known: {', '.join(LEVELS)}")
        level = level.lower()
    if rating is not None:
        low, high = rating
        if not 0 <= low <= high:
            raise UsageError(f"--rating {low}..{high}: needs 0 <= A <= B")
    from sudokulab.human import FIRST_RULES

    # the drawn line, dot and sum rules, and the fixed rules no technique knows (as grade
    # refuses them: it exits 5)
    unknown = [*(name for name in randoms if name in FAMILIES),
               *(rule.name for rule in fixed if not isinstance(rule, FIRST_RULES))]
    if unknown and (grade or level is not None or rating is not None):
        raise UsageError(f"the human-style grader knows no {', '.join(dict.fromkeys(unknown))} "
                         f"rules: --grade, --level and --rating cannot rate these puzzles")
    if prover not in PROVERS:
        raise UsageError(f"unknown second prover {prover!r}; known: {', '.join(PROVERS)}")
    if not isinstance(tries, int) or tries < 1:
        raise UsageError(f"tries must be 1 or more, not {tries!r}")
    try:
        check_rules(box, fixed)  # cells outside the grid, regions that do not tile, ...
    except InputError as error:
        raise UsageError(str(error)) from None
    target = givens if givens is not None else max_givens
    if target is not None and not fixed and not randoms:
        fewest = FEWEST_CLASSIC.get(box, n - 1)
        if target < fewest:
            raise UsageError(f"a unique classic {n}x{n} puzzle has at least {fewest} givens; "
                             f"asked for {'at most ' if givens is None else ''}{target}")
    if givens is not None and not _reachable(givens, [len(o) for o in orbits(symmetry, n)]):
        raise UsageError(f"--givens {givens}: no union of the {symmetry} symmetry's cell "
                         f"groups has that many cells")
    return Request(box, fixed, randoms, symmetry, minimal, givens, max_givens, level, rating,
                   grade or level is not None or rating is not None, prover, tries)


def _box(box) -> tuple[int, int]:
    """A checked (rows, cols) box shape."""
    from sudokulab.puzzle import MAX_SIZE, MIN_SIZE

    try:
        rows, cols = (int(v) for v in box)
    except (TypeError, ValueError):
        raise UsageError(f"box must be (rows, cols), not {box!r}") from None
    if rows < 1 or cols < 1 or not MIN_SIZE <= rows * cols <= MAX_SIZE:
        raise UsageError(f"box {rows}x{cols} makes no grid from {MIN_SIZE}x{MIN_SIZE} to "
                         f"{MAX_SIZE}x{MAX_SIZE}")
    return rows, cols


def _rules(rules: Iterable[R.Rule | str]) -> tuple[tuple[R.Rule, ...], tuple[str, ...]]:
    """Fixed rules, and the names of rules drawn at random per puzzle."""
    fixed: list[R.Rule] = []
    randoms: list[str] = []
    for rule in rules:
        if isinstance(rule, str):
            name = rule.strip().lower()
            if name in RANDOM_RULES:
                randoms.append(name)
                continue
            fixed += R.named(name, others=RANDOM_RULES)
        else:
            fixed.append(rule)
    return tuple(dict.fromkeys(fixed)), tuple(dict.fromkeys(randoms))


def _reachable(total: int, sizes: list[int]) -> bool:
    """Whether some of the sizes add up to total (subset sum)."""
    sums = 1  # bit k set: k is reachable
    for size in sizes:
        sums |= sums << size
    return bool(sums >> total & 1)
