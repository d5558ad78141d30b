"""The inference ladder: how far each paradigm gets from the givens before its first guess.

A level is one engine's propagation at the root (no guess): unit propagation on a CNF
encoding, norvig's singles, exact cover's forced rows, the human techniques family by
family, CLP(FD) at a propagation strength; or, for an engine whose propagation cannot be
stopped at the root from Python (clingo, CP-SAT, Z3), its full search and whether it took
no choice at all. Each level is computed by the engine that owns it (its root option or
its own statistics), never by another, and a level that claims a puzzle finished has its
grid checked by `sudokulab.check`, which shares no code with any engine.

The yardstick is tdoku's published "% no guess": the share of puzzles a solver finishes
without a single guess. Its figures differ from one of tdoku's result files to another, so
each one quoted here comes from one file, `TDOKU` (the run its README's tables are taken
from): each Level's `published` and `PUBLISHED_GUESSES` hold its figures for 17_clue and
top1465, and every report names the file and commit beside them (`source`).
`results/ladder.md` compares.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from sudokulab.errors import UsageError
from sudokulab.puzzle import Puzzle


@dataclass(frozen=True)
class Level:
    """One rung: its name, the engine that owns it, what it infers, and what tdoku publishes
    for the same inference (% no guess on 17_clue and top1465) or its guesses per puzzle."""

    name: str
    engine: str
    what: str
    published: tuple[str, float, float] | None = None  # (tdoku's solver, 17_clue, top1465)
    guesses: str = ""  # the engine's word for a guess, when the level also searches
    slow: bool = False  # left out of the default ladder (over a second per 100 puzzles)
    within: str = ""  # a level whose inferences this one contains (never finishes fewer)


HUMAN_FAMILIES = {  # each family adds these techniques (solver.TECHNIQUES names) to the last
    "singles": ("Full House", "Naked Single", "Hidden Single"),
    "locked": ("Locked Candidates Type 1 (Pointing)", "Locked Candidates Type 2 (Claiming)"),
    "subsets": ("Locked Pair", "Locked Triple", "Naked Pair", "Naked Triple", "Hidden Pair",
                "Hidden Triple", "Naked Quadruple", "Hidden Quadruple"),
    "fish": ("X-Wing", "Swordfish", "Jellyfish"),
    "wings": ("Skyscraper", "2-String Kite", "Turbot Fish", "Empty Rectangle", "XY-Wing",
              "XYZ-Wing", "W-Wing", "Simple Colors Trap", "Simple Colors Wrap"),
    "chains": ("Finned X-Wing", "Sashimi X-Wing", "Finned Swordfish", "Sashimi Swordfish",
               "Remote Pair", "X-Chain", "XY-Chain", "AIC", "ALS-XZ", "Grouped AIC"),
}

LEVELS: tuple[Level, ...] = (
    Level("sat:minimal", "sat", "unit propagation, minimal encoding (cell >= 1 digit, unit "
          "<= 1 of each)", ("MiniSat minimal", 0.0, 0.0), "decisions"),
    Level("sat:efficient", "sat", "unit propagation, + cell <= 1 digit (tdoku's natural)",
          ("MiniSat natural", 0.0, 0.0), "decisions", within="sat:minimal"),
    Level("sat:extended", "sat", "unit propagation, cells and units exactly-one (tdoku's "
          "complete)", ("MiniSat complete", 44.5, 0.0), "decisions", within="sat:efficient"),
    Level("sat:augmented", "sat", "unit propagation, cells exactly-one, units by triads",
          ("MiniSat augmented", 76.0, 4.0), "decisions"),
    Level("norvig", "norvig", "naked and hidden singles",
          ("norvig / kudoku (singles)", 44.6, 0.0), "guesses"),
    Level("dlx", "dlx", "forced rows (a column with one row left)", None, "guesses"),
    Level("human:singles", "human", "full house, naked and hidden singles",
          ("kudoku, norvig (singles)", 44.6, 0.0)),
    Level("human:locked", "human", "+ locked candidates (pointing, claiming)",
          ("jsolve, fsss (singles + locked candidates)", 76.0, 4.1), within="human:singles"),
    Level("human:subsets", "human", "+ naked and hidden pairs, triples, quadruples",
          within="human:locked"),
    Level("human:fish", "human", "+ X-Wing, Swordfish, Jellyfish", within="human:subsets"),
    Level("human:wings", "human", "+ single-digit patterns, wings, simple colors",
          within="human:fish"),
    Level("human:chains", "human", "+ finned fish, chains, AIC, ALS-XZ", within="human:wings"),
    Level("prolog:all_different", "prolog", "CLP(FD) all_different (pairwise, on "
          "instantiation)", slow=True),
    Level("prolog:singles", "prolog", "CLP(FD) all_different plus hidden singles per unit",
          slow=True),
    Level("prolog:all_distinct", "prolog", "CLP(FD) all_distinct (Regin's matching)",
          slow=True),
    Level("prolog:hybrid", "prolog", "CLP(FD) all_different on givens, then all_distinct",
          slow=True),
    Level("asp", "asp", "clingo's propagation: puzzles solved with 0 choices", None, "choices"),
    Level("cpsat", "cpsat", "CP-SAT, presolve off: puzzles solved with 0 branches", None,
          "branches"),
    Level("smt", "smt", "Z3: puzzles solved with 0 decisions", None, "decisions", slow=True),
)
BY_NAME = {level.name: level for level in LEVELS}
DEFAULT = tuple(level.name for level in LEVELS if not level.slow)

# tdoku's published guesses per puzzle (17_clue, top1465), for the report
PUBLISHED_GUESSES = {"norvig": (4.84, 42.92), "jsolve": (0.77, 12.29), "tdoku": (0.61, 9.05)}
PUBLISHED_TDOKU = (78.7, 7.9)  # tdoku's own % no guess (singles, locked candidates, triads)

# The one file every published figure above comes from: t-dillon/tdoku's run on an Ice Lake
# laptop, the run its README names for its tables. Other files of the repository differ: an
# older run (benchmarks/GCE-c2-standard-4_clang-8_O3_native_pgo at commit e8b4eed) gives
# MiniSat complete 52.3% and augmented 76.3% on 17_clue, most newer ones augmented 76.1%.
TDOKU = ("t-dillon/tdoku", "benchmarks/results_i7-1065G7/i7-1065G7_clang-11_O3_native",
         "af426180dc53aef89b82868e7b3fdfcf42165654")
TDOKU_TABLES = {"17_clue": "data/puzzles2_17_clue", "top1465": "data/puzzles3_magictour_top1465"}


def source(datasets: Sequence[str]) -> str:
    """Where tdoku publishes its figures for these datasets: repository, file, commit and
    the file's tables ('' for datasets it publishes none for)."""
    tables = [TDOKU_TABLES[name] for name in datasets if name in TDOKU_TABLES]
    if not tables:
        return ""
    repository, path, commit = TDOKU
    return (f"tdoku's figures: {repository}, `{path}` at commit `{commit}`, "
            f"table{'s' if len(tables) > 1 else ''} {', '.join(f'`{t}`' for t in tables)}")


def choose(spec: str | None) -> tuple[Level, ...]:
    """The levels a --levels text names: 'default', 'all', level names or engine names."""
    if not spec or spec == "default":
        return tuple(BY_NAME[name] for name in DEFAULT)
    chosen: list[str] = []
    for word in (w.strip() for w in spec.split(",") if w.strip()):
        if word == "all":
            names = [level.name for level in LEVELS]
        elif word == "default":
            names = list(DEFAULT)
        elif word in BY_NAME:
            names = [word]
        else:
            names = [level.name for level in LEVELS if level.engine == word]
        if not names:
            raise UsageError(f"unknown level {word!r}; levels: {', '.join(BY_NAME)} (or an "
                             f"engine name, 'default', 'all')")
        chosen += [name for name in names if name not in chosen]
    return tuple(BY_NAME[name] for name in chosen)


# --- one puzzle at one level --------------------------------------------------------------

TIMEOUT = 10.0  # seconds a level may spend on one puzzle (its propagation, then its search)


@dataclass
class Outcome:
    """Where a level leaves one puzzle: its pencil marks (None at a contradiction) and, for a
    searching engine, the guesses its full search took."""

    marks: tuple[int, ...] | None
    guesses: float | None = None
    finished: bool = False
    candidates: int = 0
    wrong: bool = False  # it claims a grid the checker rejects
    # out of time: 'level' (its inference cut short: not finished) or 'search' (its
    # guesses unknown, its root still counted)
    timed_out: str = ""
    digest: int = 0  # a hash of the marks: puzzle-by-puzzle agreement without the marks


def conclude(puzzle: Puzzle, marks: Sequence[int] | None,
             guesses: float | None = None, timed_out: str = "") -> Outcome:
    """The Outcome of marks: finished when every cell is decided and the checker accepts the
    grid; the candidates the open cells keep. Propagation cut short finishes nothing."""
    from sudokulab.backends.root import marks_grid, open_candidates
    from sudokulab.check import is_solution

    if marks is None or not all(marks):
        return Outcome(None if marks is None else tuple(marks), guesses, timed_out=timed_out)
    left = open_candidates(marks)
    out = Outcome(tuple(marks), guesses, candidates=left, timed_out=timed_out,
                  digest=hash(tuple(marks)))
    if not left and timed_out != "level":
        out.finished = is_solution(puzzle, marks_grid(marks))
        out.wrong = not out.finished
    return out


def human_ladder(puzzle: Puzzle, families: Sequence[str],
                 timeout: float | None = None) -> dict[str, tuple[tuple[int, ...] | None, bool]]:
    """The marks where each human family stops, cumulatively: each family goes on from where
    the one before stopped (a path of the larger set of techniques, since it holds them),
    and whether the family ran out of its `timeout` seconds on the way."""
    from sudokulab.backends.base import Deadline
    from sudokulab.human import forcing, solver
    from sudokulab.human.candidates import Candidates

    if solver.contradiction(puzzle):
        return dict.fromkeys(families, (None, False))
    g = Candidates(puzzle)
    out: dict[str, tuple[tuple[int, ...] | None, bool]] = {}
    last = list(HUMAN_FAMILIES).index(families[-1]) if families else -1
    broken = False
    for family in list(HUMAN_FAMILIES)[: last + 1]:
        deadline = Deadline(timeout)
        late = False
        if not broken:
            with forcing.stopping(deadline.passed):
                try:
                    broken, late = _walk(g, _techniques(puzzle, family), deadline)
                except forcing.Stopped:
                    late = True
        if family in families:
            out[family] = (None if broken else _human_marks(g), late)
    return out


_CHOSEN: dict[tuple[str, bool], list] = {}


def _techniques(puzzle: Puzzle, family: str) -> list:
    """The techniques of every family up to this one that apply to the puzzle's rules, chosen
    once per family and kind of puzzle (classic or with rules)."""
    from sudokulab.human import solver

    key = (family, bool(puzzle.rules))
    if key not in _CHOSEN:
        families = list(HUMAN_FAMILIES)
        names = [t for f in families[: families.index(family) + 1] for t in HUMAN_FAMILIES[f]]
        _CHOSEN[key] = solver.usable(puzzle, solver.select(names=names), unique=False)
    return _CHOSEN[key]


def _walk(g, chosen, deadline) -> tuple[bool, bool]:
    """Take the easiest step until none applies, the grid is full or the deadline passes;
    whether the grid broke, whether the deadline cut the walk short. Between steps only an
    empty cell is looked for (as the human solver does): the full check waits for the end."""
    from operator import or_

    from sudokulab.human import solver

    while not g.solved():
        if not all(map(or_, g.values, g.cands)):
            return True, False
        if deadline.passed():
            return bool(g.broken()), True
        step = solver.next_step(g, chosen)
        if step is None:
            return bool(g.broken()), False
        g.apply(step)
    return False, False


def _human_marks(g) -> tuple[int, ...]:
    """Marks of a Candidates grid: a filled cell keeps its digit alone."""
    return tuple(1 << (v - 1) if v else c for v, c in zip(g.values, g.cands))


def compute(puzzle: Puzzle, levels: Sequence[Level],
            timeout: float | None = TIMEOUT) -> dict[str, Outcome]:
    """Every chosen level's Outcome on one puzzle, each from the engine that owns it, each
    given `timeout` seconds for its propagation and as many for its search."""
    out: dict[str, Outcome] = {}
    families = [level.name.split(":")[1] for level in levels if level.engine == "human"]
    human = human_ladder(puzzle, families, timeout) if families else {}
    for level in levels:
        marks, guesses, late = _marks(puzzle, level, human, timeout)
        out[level.name] = conclude(puzzle, marks, guesses, late)
    return out


def _marks(puzzle: Puzzle, level: Level, human: dict, timeout: float | None
           ) -> tuple[Sequence[int] | None, float | None, str]:
    """The marks a level leaves, the guesses its engine's search takes (or None), and where
    it ran out of time ('' when it did not)."""
    engine, _, option = level.name.partition(":")
    if engine == "human":
        marks, late = human[option]
        return marks, None, "level" if late else ""
    if engine == "sat":
        from sudokulab.backends import sat

        marks = sat.root_marks(puzzle, option, solver="minisat22")
        return (marks, *_search(f"sat:solver=minisat22,encoding={option}", puzzle,
                                "decisions", timeout))
    if engine == "norvig":
        from sudokulab.backends import norvig

        return (norvig.root_marks(puzzle), *_search("norvig", puzzle, "guesses", timeout))
    if engine == "dlx":
        from sudokulab.backends import dlx

        return (dlx.forced_marks(puzzle), *_search("dlx", puzzle, "guesses", timeout))
    if engine == "prolog":
        from sudokulab.backends import prolog

        return prolog.root_marks(puzzle, option), None, ""
    return _searched(puzzle, level, timeout)


SEARCH_SPEC = {"asp": "asp", "cpsat": "cpsat", "smt": "smt"}


def _searched(puzzle: Puzzle, level: Level, timeout: float | None
              ) -> tuple[Sequence[int] | None, float | None, str]:
    """A level an engine reaches only by its full search: finished when it took no
    choice; its marks are the grid then, the givens otherwise (nothing more is known).
    A search out of time finishes nothing."""
    from sudokulab.result import Status

    result = _cold(SEARCH_SPEC[level.engine], puzzle).solve(puzzle, limit=1, timeout=timeout)
    full = (1 << puzzle.n) - 1
    givens = tuple(1 << (d - 1) if d else full for d in puzzle.givens)
    if result.status is Status.TIMEOUT:
        return givens, None, "level"
    guesses = float(result.stats.get(level.guesses, 0))
    if result.solutions and not guesses:
        return tuple(1 << (d - 1) for d in result.solutions[0]), guesses, ""
    return givens, guesses, ""


_BACKENDS: dict[str, object] = {}


def _backend(spec: str):
    """One backend per spec and process (engines keep their models warm)."""
    if spec not in _BACKENDS:
        from sudokulab.backends import make_backend

        _BACKENDS[spec] = make_backend(spec)
    return _BACKENDS[spec]


def _cold(spec: str, puzzle: Puzzle):
    """The spec's backend, having forgotten what earlier puzzles taught it: a level's
    guesses are a fresh engine's (clingo's were 3.62 a puzzle warm, 2.60 fresh)."""
    backend = _backend(spec)
    backend.forget(puzzle)
    return backend


def _search(spec: str, puzzle: Puzzle, word: str, timeout: float | None
            ) -> tuple[float | None, str]:
    """The guesses (in the engine's word) its full search takes to the first solution, or
    None and 'search' when it ran out of time."""
    from sudokulab.result import Status

    result = _cold(spec, puzzle).solve(puzzle, limit=1, timeout=timeout)
    if result.status is Status.TIMEOUT:
        return None, "search"
    return float(result.stats.get(word, 0)), ""


def after(puzzle: Puzzle, name: str) -> Outcome:
    """Where one level leaves one puzzle (for `show --after`)."""
    level = choose(name)[0]
    return compute(puzzle, (level,))[level.name]


# --- a dataset ----------------------------------------------------------------------------

@dataclass
class Tally:
    """One level over one set of puzzles, puzzle by puzzle (numbered from 1)."""

    level: Level
    total: int = 0
    finished: list[bool] = field(default_factory=list)
    left: list[int] = field(default_factory=list)  # candidates left, per puzzle
    digests: list[int] = field(default_factory=list)  # a hash of the marks, per puzzle
    guesses: float = 0.0
    searched: int = 0
    wrong: list[int] = field(default_factory=list)
    timed_out: dict[int, str] = field(default_factory=dict)  # puzzle number: where

    def __post_init__(self) -> None:
        self.finished = [False] * self.total
        self.left = [0] * self.total
        self.digests = [0] * self.total

    def add(self, number: int, outcome: Outcome) -> None:
        """Count one puzzle's outcome."""
        self.finished[number - 1] = outcome.finished
        self.left[number - 1] = outcome.candidates
        self.digests[number - 1] = outcome.digest
        if outcome.guesses is not None:
            self.guesses += outcome.guesses
            self.searched += 1
        if outcome.wrong:
            self.wrong.append(number)
        if outcome.timed_out:
            self.timed_out[number] = outcome.timed_out

    @property
    def count(self) -> int:
        """Puzzles finished without a guess."""
        return sum(self.finished)

    @property
    def percent(self) -> float:
        """Their share, in percent."""
        return 100.0 * self.count / max(1, self.total)

    def row(self) -> dict:
        """The level's figures as a JSON-ready dict."""
        total = max(1, self.total)
        searched = self.level.engine in SEARCH_SPEC  # no root state: only its verdict
        return {"level": self.level.name, "engine": self.level.engine,
                "what": self.level.what, "puzzles": self.total,
                "finished": self.count, "percent": round(self.percent, 2),
                "candidates_left": None if searched else round(sum(self.left) / total, 2),
                "guesses_per_puzzle": (round(self.guesses / self.searched, 3)
                                       if self.searched else None),
                "guess_word": self.level.guesses or None, "wrong": sorted(self.wrong),
                "timed_out": {str(k): v for k, v in sorted(self.timed_out.items())}}


def differ(a: Tally, b: Tally) -> list[int]:
    """The puzzles (numbered from 1) where two levels leave different pencil marks, or one
    finishes and the other does not."""
    return [k + 1 for k in range(a.total)
            if a.finished[k] != b.finished[k] or a.digests[k] != b.digests[k]]


@dataclass
class Run:
    """Every level over one set of puzzles, and what it cost."""

    tallies: dict[str, Tally]
    cpu: float = 0.0  # CPU seconds of the processes that computed the levels
    wall: float = 0.0


def _chunk(job: tuple[int, tuple[Puzzle, ...], tuple[str, ...], float | None]
           ) -> tuple[int, list[dict[str, Outcome]], float]:
    """A worker's share: every level on a few puzzles (marks dropped: only figures travel),
    with the number of the first puzzle and the CPU seconds it took."""
    import time

    first, puzzles, names, timeout = job
    started = time.process_time()
    levels = [BY_NAME[name] for name in names]
    out = []
    for puzzle in puzzles:
        outcomes = compute(puzzle, levels, timeout)
        for outcome in outcomes.values():
            outcome.marks = None
        out.append(outcomes)
    return first, out, time.process_time() - started


def run(puzzles: Sequence[Puzzle], levels: Sequence[Level], jobs: int = 1,
        label: str = "ladder", progress: bool = True, chunk: int = 20,
        timeout: float | None = TIMEOUT) -> Run:
    """Every level over the puzzles, on `jobs` worker processes, with progress on stderr;
    each level given `timeout` seconds a puzzle (its propagation, then its search)."""
    import time

    from sudokulab.progress import Progress

    wall = time.perf_counter()
    tallies = {level.name: Tally(level, len(puzzles)) for level in levels}
    names = tuple(level.name for level in levels)
    work = [(k + 1, tuple(puzzles[k:k + chunk]), names, timeout)
            for k in range(0, len(puzzles), chunk)]
    shown = Progress(label, len(puzzles)) if progress else None
    results: Callable
    if jobs > 1 and len(work) > 1:
        from sudokulab.children import CONTEXT, held, listen

        with held():  # the workers ignore Ctrl-C: pool.terminate() below ends them
            pool = CONTEXT.Pool(jobs, initializer=listen)
        results = pool.imap_unordered  # progress moves as any chunk ends
    else:
        pool, results = None, map
    cpu = 0.0
    try:
        for first, part, took in results(_chunk, work):
            cpu += took
            for number, outcomes in enumerate(part, first):
                for name, outcome in outcomes.items():
                    tallies[name].add(number, outcome)
                if shown:
                    shown.step()
    finally:
        if pool is not None:
            pool.terminate()
    if shown:
        shown.finish()
    return Run(tallies, cpu, time.perf_counter() - wall)
