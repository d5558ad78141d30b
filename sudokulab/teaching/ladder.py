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

import contextlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sudokulab.errors import UsageError
from sudokulab.puzzle import Puzzle

if TYPE_CHECKING:
    from multiprocessing.pool import Pool


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
    # why the level's engine cannot take the puzzle (a rule it does not express, a layout
    # it has no units for), '' when it can: then there are no marks and no contradiction
    unsupported: str = ""


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
        # the default paths' finders (not select's: a technique named runs its wider
        # search, as ALS-XZ does), in their order
        _CHOSEN[key] = solver.usable(puzzle, [t for t in solver.TECHNIQUES if t.name in names],
                                     unique=False)
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
    given `timeout` seconds for its propagation and as many for its search; a level whose
    engine cannot take the puzzle is unsupported, never run."""
    refused = {level.name: unsupported(puzzle, level) for level in levels}
    families = [level.name.split(":")[1] for level in levels
                if level.engine == "human" and not refused[level.name]]
    human = human_ladder(puzzle, families, timeout) if families else {}
    return {level.name: (Outcome(None, unsupported=refused[level.name]) if refused[level.name]
                         else _outcome(puzzle, level, human, timeout)) for level in levels}


def unsupported(puzzle: Puzzle, level: Level) -> str:
    """Why the level's engine cannot take the puzzle ('' when it can), as its solve says:
    a rule it does not express, a multi-grid layout it has no units for."""
    if not puzzle.rules and puzzle.layout is None:
        return ""
    return _backend(level.engine).unsupported(puzzle)


def _outcome(puzzle: Puzzle, level: Level, human: dict, timeout: float | None) -> Outcome:
    """One level's Outcome on a puzzle its engine takes; an encoding that cannot state the
    puzzle (the augmented one's triads on jigsaw regions) makes it unsupported too."""
    from sudokulab.errors import UnsupportedRule

    try:
        marks, guesses, late = _marks(puzzle, level, human, timeout)
    except UnsupportedRule as why:
        return Outcome(None, unsupported=str(why))
    return conclude(puzzle, marks, guesses, late)


def without_marks(level: Level, outcome: Outcome) -> str:
    """Why the level shows no pencil marks for the puzzle ('' when it has them, or None at a
    contradiction): its engine cannot take the puzzle, or the level is its engine's full
    search, which took a choice. The words of `show --after` and of the page's grids."""
    if outcome.unsupported:
        return f"unsupported: {outcome.unsupported}"
    if has_marks(level, outcome):
        return ""
    unit = level.guesses[:-1] if outcome.guesses == 1 else level.guesses  # '1 decision'
    took = ("ran out of time" if outcome.guesses is None
            else f"took {outcome.guesses:g} {unit}")
    return (f"no pencil marks: this level is {level.engine}'s full search, which {took}; it "
            f"shows a grid only when the search takes no choice")


def has_marks(level: Level, outcome: Outcome) -> bool:
    """Whether the outcome's marks are a state the level's engine reached: a level known
    only by its full search has none unless it finished with no choice (its grid)."""
    if outcome.unsupported:
        return False
    return level.engine not in SEARCH_SPEC or outcome.finished or outcome.marks is None


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
    A search out of time finishes nothing; no solution found with no choice is a
    contradiction its propagation reached."""
    from sudokulab.errors import UnsupportedRule
    from sudokulab.result import Status

    result = _cold(SEARCH_SPEC[level.engine], puzzle).solve(puzzle, limit=1, timeout=timeout)
    if result.status is Status.UNSUPPORTED:
        raise UnsupportedRule(result.message)
    full = (1 << puzzle.n) - 1
    givens = tuple(1 << (d - 1) if d else full for d in puzzle.givens)
    if result.status is Status.TIMEOUT:
        return givens, None, "level"
    guesses = float(result.stats.get(level.guesses, 0))
    if result.solutions and not guesses:
        return tuple(1 << (d - 1) for d in result.solutions[0]), guesses, ""
    if result.status is Status.NONE and not guesses:
        return None, guesses, ""
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

# What the referee (the search engine that judges every puzzle first, teaching/verdict.py)
# may answer: a puzzle with no solution or several is left out of every average.
UNIQUE, NO_SOLUTION, SEVERAL, UNCHECKED = ("unique", "no solution", "several solutions",
                                           "unchecked")
LEFT_OUT = (NO_SOLUTION, SEVERAL)


def judge(puzzle: Puzzle, timeout: float | None = TIMEOUT) -> str:
    """The referee's verdict on a puzzle: UNIQUE, NO_SOLUTION, SEVERAL, or UNCHECKED when it
    could not tell (out of time, or a rule it lacks): such a puzzle is counted, and named."""
    from sudokulab.result import Status
    from sudokulab.teaching.verdict import referee_name

    answer = _backend(referee_name(puzzle)).solve(puzzle, limit=2, timeout=timeout)
    return {Status.UNIQUE: UNIQUE, Status.NONE: NO_SOLUTION,
            Status.MULTIPLE: SEVERAL}.get(answer.status, UNCHECKED)


@dataclass
class Entry:
    """One puzzle of a run: its number (from 1), the referee's verdict, and each level's
    Outcome (none for a puzzle left out)."""

    number: int
    verdict: str
    outcomes: dict[str, Outcome] = field(default_factory=dict)


@dataclass
class Tally:
    """One level over one set of puzzles, puzzle by puzzle (numbered from 1); its figures
    are over the puzzles counted (done, fit, and taken by its engine)."""

    level: Level
    total: int = 0
    finished: list[bool] = field(default_factory=list)
    left: list[int] = field(default_factory=list)  # candidates left, per puzzle
    digests: list[int] = field(default_factory=list)  # a hash of the marks, per puzzle
    guesses: float = 0.0
    searched: int = 0
    wrong: list[int] = field(default_factory=list)
    timed_out: dict[int, str] = field(default_factory=dict)  # puzzle number: where
    counted: list[int] = field(default_factory=list)  # the puzzles its figures are over
    unsupported: dict[int, str] = field(default_factory=dict)  # puzzle number: why

    def __post_init__(self) -> None:
        self.finished = [False] * self.total
        self.left = [0] * self.total
        self.digests = [0] * self.total

    def add(self, number: int, outcome: Outcome) -> None:
        """Count one puzzle's outcome (one the engine cannot take is only named)."""
        if outcome.unsupported:
            self.unsupported[number] = outcome.unsupported
            return
        self.counted.append(number)
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
        """Their share of the puzzles counted, in percent."""
        return 100.0 * self.count / max(1, len(self.counted))

    def row(self) -> dict:
        """The level's figures as a JSON-ready dict."""
        counted = len(self.counted)
        searched = self.level.engine in SEARCH_SPEC  # no root state: only its verdict
        # a level that took no puzzle (each unsupported, or excluded) has no share and no
        # candidates: null, not a 0 that reads as "finished none" or "solved"
        return {"level": self.level.name, "engine": self.level.engine,
                "what": self.level.what, "puzzles": counted,
                "finished": self.count,
                "percent": round(self.percent, 2) if counted else None,
                "candidates_left": None if searched or not counted
                else round(sum(self.left) / counted, 2),
                "guesses_per_puzzle": (round(self.guesses / self.searched, 3)
                                       if self.searched else None),
                "guess_word": self.level.guesses or None, "wrong": sorted(self.wrong),
                "timed_out": {str(k): v for k, v in sorted(self.timed_out.items())},
                "unsupported": {str(k): v for k, v in sorted(self.unsupported.items())}}


def differ(a: Tally, b: Tally) -> list[int]:
    """The puzzles (numbered from 1) where two levels leave different pencil marks, or one
    finishes and the other does not."""
    return [k + 1 for k in range(a.total)
            if a.finished[k] != b.finished[k] or a.digests[k] != b.digests[k]]


@dataclass
class Run:
    """Every level over one set of puzzles, what it cost, and how far it got: a run
    stopped by Ctrl-C or SIGTERM holds the puzzles done before (`stopped` says why)."""

    tallies: dict[str, Tally]
    cpu: float = 0.0  # CPU seconds of the processes that computed the levels
    wall: float = 0.0
    puzzles: int = 0  # in the set
    done: int = 0  # of them, judged (and computed, unless left out)
    verdicts: dict[int, str] = field(default_factory=dict)  # puzzle number: other than UNIQUE
    stopped: KeyboardInterrupt | None = None

    def add(self, entry: Entry) -> None:
        """Count one puzzle: its verdict, and its outcomes unless it is left out."""
        self.done += 1
        if entry.verdict != UNIQUE:
            self.verdicts[entry.number] = entry.verdict
        if entry.verdict not in LEFT_OUT:
            for name, outcome in entry.outcomes.items():
                if name in self.tallies:  # a resumed line may name a level no longer run
                    self.tallies[name].add(entry.number, outcome)

    def numbers(self, verdict: str) -> list[int]:
        """The puzzles with this verdict, in order."""
        return sorted(k for k, v in self.verdicts.items() if v == verdict)


def _chunk(job: tuple[tuple[tuple[int, Puzzle], ...], tuple[str, ...], float | None]
           ) -> tuple[list[Entry], float]:
    """A worker's share: a few numbered puzzles, each judged, then every level on it unless
    it is left out (marks dropped: only figures travel), and the CPU seconds it took."""
    import time

    numbered, names, timeout = job
    started = time.process_time()
    levels = [BY_NAME[name] for name in names]
    out = []
    for number, puzzle in numbered:
        verdict = judge(puzzle, timeout)
        outcomes = {} if verdict in LEFT_OUT else compute(puzzle, levels, timeout)
        for outcome in outcomes.values():
            outcome.marks = None
        out.append(Entry(number, verdict, outcomes))
    return out, time.process_time() - started


def run(puzzles: Sequence[Puzzle], levels: Sequence[Level], jobs: int = 1,
        label: str = "ladder", progress: bool = True, chunk: int = 20,
        timeout: float | None = TIMEOUT, done: Sequence[Entry] = (),
        record: Callable[[Entry], None] | None = None) -> Run:
    """Every level over the puzzles, on `jobs` worker processes, with progress on stderr;
    each level given `timeout` seconds a puzzle (its propagation, then its search).

    The puzzles of `done` (an earlier run's) are counted, not run again; `record` is told
    each puzzle as it finishes. Ctrl-C or SIGTERM end the run: the Run returned holds the
    puzzles finished before, and `stopped`."""
    import time

    from sudokulab.errors import Terminated, terminated

    wall = time.perf_counter()
    out = Run({level.name: Tally(level, len(puzzles)) for level in levels},
              puzzles=len(puzzles))
    for entry in done:
        out.add(entry)
    seen = {entry.number for entry in done}
    todo = [(k, p) for k, p in enumerate(puzzles, 1) if k not in seen]
    shown = _progress(label, len(todo)) if progress and todo else None
    pool = None
    try:
        with _heard() as swallowed:
            pool, results, work = _workers(todo, tuple(lv.name for lv in levels), jobs,
                                           chunk, timeout)
            for part, took in results(_chunk, work):
                out.cpu += took
                for entry in part:
                    if record:  # kept first: the tables never count a puzzle not kept
                        record(entry)
                    out.add(entry)
                    if shown:
                        shown.step()
                if swallowed:  # heard in a destructor, which cannot raise it
                    raise swallowed[0]
                if terminated():  # a SIGTERM an engine took for its own Ctrl-C and kept
                    raise Terminated
    except KeyboardInterrupt as stop:  # Ctrl-C, or SIGTERM as cli.py turns it into one

        out.stopped = stop
    finally:
        if pool is not None:
            from sudokulab.harness.children import end_pool

            end_pool(pool)
    if shown:
        shown.finish()
    out.wall = time.perf_counter() - wall
    return out


@contextlib.contextmanager
def _heard() -> Iterator[list[BaseException]]:
    """While the block runs, a Ctrl-C (or SIGTERM, which cli.py turns into one) whose
    KeyboardInterrupt came inside a destructor (an engine's object freed as the signal
    came), where Python only prints it, is kept in the list instead, for the run to stop."""
    import sys

    swallowed: list[BaseException] = []
    previous = sys.unraisablehook

    def hook(unraisable) -> None:
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            swallowed.append(unraisable.exc_value)
        else:
            previous(unraisable)

    sys.unraisablehook = hook
    try:
        yield swallowed
    finally:
        sys.unraisablehook = previous


def _progress(label: str, total: int):
    """A progress display on stderr."""
    from sudokulab.harness.progress import Progress

    return Progress(label, total)


def _workers(todo: list[tuple[int, Puzzle]], names: tuple[str, ...], jobs: int, chunk: int,
             timeout: float | None) -> tuple[Pool | None, Callable, list]:
    """The pool (None in this process), its map and its jobs: one puzzle a job here, so
    each is recorded as it ends; chunks of up to `chunk` puzzles for a pool, small enough
    that every worker gets several (a stop loses what a chunk under way had done)."""
    if jobs > 1 and len(todo) > 1:
        from sudokulab.harness.children import CONTEXT, held, listen

        size = max(1, min(chunk, len(todo) // (jobs * 4)))
        work = [(tuple(todo[k:k + size]), names, timeout) for k in range(0, len(todo), size)]
        with held():  # the workers ignore Ctrl-C: end_pool() ends them
            pool = CONTEXT.Pool(jobs, initializer=listen)
        return pool, pool.imap_unordered, work  # progress moves as any chunk ends
    return None, map, [((item,), names, timeout) for item in todo]
