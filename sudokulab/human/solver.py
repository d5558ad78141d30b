"""The ordered technique list, the solve loop, and paths.

Each step takes the easiest technique that finds something on the current candidates
(HoDoKu's order), applies it, and starts again from the top, until the grid is full or no
enabled technique finds anything (the path stalls). The givens, each step's placements and
the full grid are checked against every rule the techniques know: a rule broken ends the
path as a contradiction (`Path.contradiction` says which), never as solved.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from operator import or_

from sudokulab import errors
from sudokulab.errors import UnknownTechnique
from sudokulab.human import (
    FIRST_RULES,
    als,
    chains,
    coloring,
    fish,
    forcing,
    intersections,
    killer,
    kraken,
    medusa,
    patterns,
    singles,
    subsets,
    suedecoq,
    templates,
    uniqueness,
    wings,
)
from sudokulab.human import names as hodoku  # HoDoKu's catalogue: its names and codes
from sudokulab.human.candidates import Candidates
from sudokulab.human.contradiction import broken_rule
from sudokulab.human.step import Step
from sudokulab.puzzle import Puzzle

TIERS = ("singles", "intersections and subsets", "fish",
         "wings, single-digit patterns, coloring, uniqueness", "chains and ALS",
         "forcing chains")


@dataclass(frozen=True)
class Technique:
    """A named technique: its finder, its tier (for coverage tables) and whether it assumes
    the puzzle has one solution."""

    name: str
    find: Callable[[Candidates], Iterator[Step]]
    tier: int
    uniqueness: bool = False
    classic_only: bool = False   # needs the classic rows, columns and boxes only
    # in every path unless chosen away; False: only when named (--techniques), as HoDoKu
    # leaves its larger fish off: a basic one is always a smaller fish the other way round
    by_default: bool = True
    # the finder used when the technique is named (--techniques): a wider search than the
    # default paths take, which would change them (ALS-XZ: HoDoKu's sets of any size)
    named: Callable[[Candidates], Iterator[Step]] | None = None


def _techniques() -> list[Technique]:
    """Every technique, easiest first."""
    t = Technique
    return [
        t("Full House", singles.full_house, 0),
        t("Naked Single", singles.naked_single, 0),
        t("Hidden Single", singles.hidden_single, 0),
        # killer cages (nothing to find without them): what players look at first
        t("Cage Combinations", killer.combinations, 1),
        t("Innies (Rule of 45)", killer.innies, 1),
        t("Outies (Rule of 45)", killer.outies, 1),
        t("Cage Splitting", killer.splitting, 1),
        t("Cage Unit Overlap", killer.overlap, 1),
        t("Locked Pair", partial(subsets.naked, size=2, locked=True), 1),
        t("Locked Triple", partial(subsets.naked, size=3, locked=True), 1),
        t("Locked Candidates Type 1 (Pointing)", intersections.pointing, 1),
        t("Locked Candidates Type 2 (Claiming)", intersections.claiming, 1),
        t("Naked Pair", partial(subsets.naked, size=2), 1),
        t("Naked Triple", partial(subsets.naked, size=3), 1),
        t("Hidden Pair", partial(subsets.hidden, size=2), 1),
        t("Hidden Triple", partial(subsets.hidden, size=3), 1),
        t("Naked Quadruple", partial(subsets.naked, size=4), 1),
        t("Hidden Quadruple", partial(subsets.hidden, size=4), 1),
        t("X-Wing", partial(fish.fish, size=2), 2),
        t("Swordfish", partial(fish.fish, size=3), 2),
        t("Jellyfish", partial(fish.fish, size=4), 2),
        *(t(fish.NAMES[size], partial(fish.fish, size=size), 2, by_default=False)
          for size in (5, 6, 7)),
        t("Skyscraper", patterns.skyscraper, 3),
        t("2-String Kite", patterns.kite, 3),
        t("Turbot Fish", patterns.turbot, 3),
        t("Empty Rectangle", patterns.empty_rectangle, 3),
        t("Dual 2-String Kite", patterns.dual_kite, 3),  # two kites: each is found first
        t("Dual Empty Rectangle", patterns.dual_empty_rectangle, 3),  # so are these
        t("XY-Wing", wings.xy_wing, 3),
        t("XYZ-Wing", wings.xyz_wing, 3),
        t("W-Wing", wings.w_wing, 3),
        # named only: HoDoKu finds their deductions as ALS-XZ and chains, later on its paths
        t("WXYZ-Wing", wings.wxyz_wing, 3, by_default=False),
        t("Simple Colors Trap", coloring.color_trap, 3),
        t("Simple Colors Wrap", coloring.color_wrap, 3),
        t("Uniqueness Test 1", uniqueness.ur_type1, 3, uniqueness=True, classic_only=True),
        t("Uniqueness Test 2", uniqueness.ur_type2, 3, uniqueness=True, classic_only=True),
        t("Uniqueness Test 3", uniqueness.ur_type3, 3, uniqueness=True, classic_only=True),
        t("Uniqueness Test 4", uniqueness.ur_type4, 3, uniqueness=True, classic_only=True),
        t("Uniqueness Test 5", uniqueness.ur_type5, 3, uniqueness=True, classic_only=True),
        t("Uniqueness Test 6", uniqueness.ur_type6, 3, uniqueness=True, classic_only=True),
        t("Hidden Rectangle", uniqueness.hidden_rectangle, 3, uniqueness=True,
          classic_only=True),
        t("Avoidable Rectangle Type 1", uniqueness.ar_type1, 3, uniqueness=True,
          classic_only=True),
        t("Avoidable Rectangle Type 2", uniqueness.ar_type2, 3, uniqueness=True,
          classic_only=True),
        t("Bivalue Universal Grave + 1", uniqueness.bug_plus_one, 3, uniqueness=True,
          classic_only=True),
        # a deadly pattern beyond rectangles; HoDoKu has none: named only
        t("BUG Lite", uniqueness.bug_lite, 3, uniqueness=True, classic_only=True,
          by_default=False),
        t("Finned X-Wing", partial(fish.fish, size=2, kind="finned"), 4),
        t("Sashimi X-Wing", partial(fish.fish, size=2, kind="sashimi"), 4),
        t("Finned Swordfish", partial(fish.fish, size=3, kind="finned"), 4),
        t("Sashimi Swordfish", partial(fish.fish, size=3, kind="sashimi"), 4),
        t("Finned Jellyfish", partial(fish.fish, size=4, kind="finned"), 4),
        t("Sashimi Jellyfish", partial(fish.fish, size=4, kind="sashimi"), 4),
        *(t(f"{kind.capitalize()} {fish.NAMES[size]}", partial(fish.fish, size=size, kind=kind),
            4, by_default=False) for size in (5, 6, 7) for kind in ("finned", "sashimi")),
        # boxes among the base or cover sets (Franken), or any units in both (Mutant): one
        # search per size and shape gives the fish with fins and without
        *(t(f"{kind}{shape.capitalize()} {fish.NAMES[size]}",
            partial(fish.complex_fish, size=size, shape=shape, kind=kind.strip().lower()), 4,
            by_default=False)
          for shape in ("franken", "mutant") for kind in ("", "Finned ") for size in range(2, 8)),
        t("Multi Colors 1", coloring.multi_colors_1, 4),
        t("Multi Colors 2", coloring.multi_colors_2, 4),
        t("Remote Pair", chains.remote_pair, 4),
        t("X-Chain", chains.x_chain, 4),
        t("XY-Chain", chains.xy_chain, 4),
        t("AIC", chains.aic, 4),
        t("ALS-XZ", als.als_xz, 4, named=als.als_xz_every),
        t("Sue de Coq", suedecoq.sue_de_coq, 4),
        t("Aligned Pair Exclusion", wings.aligned_pair_exclusion, 4, by_default=False),
        t("Grouped AIC", chains.grouped_aic, 4, named=chains.grouped_aic_als),
        # HoDoKu's nice loops: most of their deductions are an AIC's, found above
        t("Continuous Nice Loop", chains.continuous_nice_loop, 4, by_default=False),
        t("Discontinuous Nice Loop", chains.discontinuous_nice_loop, 4, by_default=False),
        t("Grouped Continuous Nice Loop", chains.grouped_continuous_nice_loop, 4,
          by_default=False),
        t("Grouped Discontinuous Nice Loop", chains.grouped_discontinuous_nice_loop, 4,
          by_default=False),
        # HoDoKu has neither: named only, as BUG Lite (on top1465 the chains before them
        # left them 1 step in 300 paths, at 2% of the solving time)
        t("X-Colors", medusa.x_colors, 4, by_default=False),
        t("3D Medusa", medusa.medusa, 4, by_default=False),
        # three sets, or a cell and a set per digit: off by default until measured on the
        # paths (HoDoKu has them on)
        t("ALS-XY-Wing", als.als_xy_wing, 4, by_default=False),
        t("ALS-XY-Chain", als.als_xy_chain, 4, by_default=False),
        t("Death Blossom", als.death_blossom, 4, by_default=False),
        # every arrangement of a digit at once: off by default, as in HoDoKu
        t("Template Set", templates.template_set, 4, classic_only=True, by_default=False),
        t("Template Delete", templates.template_delete, 4, classic_only=True,
          by_default=False),
        # fish whose fins reach the target through forcing chains: named only, as in HoDoKu
        t("Kraken Fish Type 1", kraken.type1, 5, by_default=False),
        t("Kraken Fish Type 2", kraken.type2, 5, by_default=False),
        t("Forcing Chain Contradiction", forcing.contradiction_chain, 5),
        t("Forcing Chain Verity", forcing.verity_chain, 5),
        t("Forcing Net Contradiction", forcing.net_contradiction, 5),
        t("Forcing Net Verity", forcing.net_verity, 5),
        t("Nested Forcing Net", forcing.nested, 5),
    ]


ALL: tuple[Technique, ...] = tuple(_techniques())  # the default ones and those named only
TECHNIQUES: tuple[Technique, ...] = tuple(t for t in ALL if t.by_default)
BY_NAME = {t.name.lower(): t for t in ALL}



def lookup(name: str) -> Technique:
    """A technique by name (case-insensitive), or by HoDoKu's name, code or short name
    (human/names.py); UnknownTechnique names the known ones."""
    return techniques_named(name)[0]


def techniques_named(name: str) -> tuple[Technique, ...]:
    """The techniques a name stands for: the lab's own name, or HoDoKu's name, code or short
    name (a group such as 'Simple Colors' stands for several). UnknownTechnique says what
    is missing, in one line."""
    own = BY_NAME.get(name.strip().lower())
    if own is not None:
        return (_as_named(own),)
    entry = hodoku.entry_named(name)
    if entry is None:
        raise UnknownTechnique(errors.unknown("technique", name.strip(),
                                              (t.name for t in ALL)))
    found = hodoku.lab_names(entry, BY_NAME)
    if not found:
        raise UnknownTechnique(
            f"HoDoKu's {entry.name} ({entry.code or entry.short}) is not among the lab's "
            f"techniques yet (`sudokulab explain --list` names those it has)")
    return tuple(_as_named(BY_NAME[n.lower()]) for n in found)


def _as_named(technique: Technique) -> Technique:
    """The technique as it runs when named: with its wider finder, if it has one."""
    if technique.named is None:
        return technique
    return replace(technique, find=technique.named, named=None)


def select(names: Iterable[str] | None = None, upto: str | None = None) -> tuple[Technique, ...]:
    """The techniques named (a HoDoKu group name such as 'Simple Colors' names several, and
    one off by default is taken when named), or the default ones up to and including one,
    in the list's order (one used only when named: the default ones before it, and it)."""
    if names is not None:
        chosen = {t.name: t for name in names for t in techniques_named(name)}
        return tuple(chosen[t.name] for t in ALL if t.name in chosen)
    if upto is not None:
        last = [t.name for t in ALL].index(lookup(upto).name)
        named = ALL[last] if ALL[last].by_default else _as_named(ALL[last])
        return tuple(t for t in ALL[:last] if t.by_default) + (named,)
    return TECHNIQUES


@dataclass
class Path:
    """The steps taken on a puzzle, and where they left the grid."""

    puzzle: Puzzle
    steps: list[Step] = field(default_factory=list)
    grid: tuple[int, ...] = ()
    solved: bool = False
    broken: bool = False    # a contradiction: a rule broken, or no place left for a digit
    contradiction: str = ""  # which, in one line naming the cells ('' when none)
    stopped: bool = False   # `stop` said so before the end
    # what the finders found on grids past singles, for another path over the same grids
    # (grading's): per grid (Candidates.state), the finders that found nothing there, the one
    # that found the step, and the step
    found: dict = field(default_factory=dict, repr=False, compare=False)

    def counts(self) -> dict[str, int]:
        """Steps per technique, in the order first used."""
        out: dict[str, int] = {}
        for step in self.steps:
            out[step.technique] = out.get(step.technique, 0) + 1
        return out


def unknown_rules(puzzle: Puzzle) -> list[str]:
    """The names of the puzzle's rules that no technique knows (the line, dot, sum and
    region rules of issue 19): a path that ignored them would stall or grade wrongly."""
    return sorted({rule.name for rule in puzzle.rules if not isinstance(rule, FIRST_RULES)})


def refusal(puzzle: Puzzle) -> str:
    """Why the techniques cannot take this puzzle ('' when they can): a board of several
    grids, or a rule no technique knows."""
    # the techniques see one grid's units: on a samurai they stall at once, and the setter
    # reported that as a grade (Easy, score 0) the techniques never reached
    if puzzle.layout is not None:
        return (f"the human-style techniques take one N x N grid, not a "
                f"{puzzle.layout.name}: solve and compare take this puzzle")
    names = unknown_rules(puzzle)
    return (f"the human-style techniques know no {', '.join(names)} rule: solve and compare "
            f"take this puzzle" if names else "")


def usable(puzzle: Puzzle, techniques: Iterable[Technique], unique: bool) -> list[Technique]:
    """The techniques that apply to the puzzle's rules (and uniqueness, when it is known)."""
    return [t for t in techniques
            if (unique or not t.uniqueness) and (not t.classic_only or not puzzle.rules)]


def next_step(g: Candidates, techniques: Iterable[Technique]) -> Step | None:
    """The first step the easiest technique finds, or None."""
    return _first(g, techniques)[1]


def _first(g: Candidates, techniques: Iterable[Technique]) -> tuple[int, Step | None]:
    """The first step the easiest technique finds, and that technique's position."""
    for k, technique in enumerate(techniques):
        step = next(technique.find(g), None)
        if step is not None:
            return k, step
    return -1, None


def solve(puzzle: Puzzle, techniques: Iterable[Technique] | None = None, *,
          unique: bool = False, stop: Callable[[], bool] | None = None) -> Path:
    """The path the techniques take on a puzzle (uniqueness techniques only if `unique`);
    `stop` is asked before each step, and within the forcing searches, whether to give up."""
    chosen = usable(puzzle, TECHNIQUES if techniques is None else techniques, unique)
    g = Candidates(puzzle)
    path = Path(puzzle)
    _end(path, broken_rule(g, givens(puzzle)))
    if not path.broken:
        try:
            with forcing.stopping(stop):
                _walk(g, chosen, path, stop)
        except forcing.Stopped:
            path.stopped = True
    if g.solved() and not path.broken:  # the last guard: a full grid keeps every rule
        _end(path, broken_rule(g, range(len(g.values))))
    path.grid = g.grid()
    path.solved = g.solved() and not path.broken
    return path


def givens(puzzle: Puzzle) -> list[int]:
    """The given cells."""
    return [cell for cell, d in enumerate(puzzle.givens) if d]


def contradiction(puzzle: Puzzle) -> str:
    """The rule the givens break, in one line naming the cells ('' when none)."""
    return broken_rule(Candidates(puzzle), givens(puzzle))


def _end(path: Path, reason: str) -> None:
    """End the path as a contradiction, if there is one."""
    if reason:
        path.broken, path.contradiction = True, reason


def _walk(g: Candidates, chosen: list[Technique], path: Path,
          stop: Callable[[], bool] | None) -> None:
    """Apply the easiest step found, step after step, recording each in the path."""
    while not g.solved():
        if stop is not None and stop():
            path.stopped = True
            break
        if not all(map(or_, g.values, g.cands)):
            _end(path, g.stuck())  # a blank cell with no candidate: no solution
            break
        k, step = _first(g, chosen)
        if step is not None and chosen[k].tier:
            path.found[g.state()] = (frozenset(t.find for t in chosen[:k]), chosen[k].find, step)
        if step is None:  # stalled: a contradiction (no solution) or the techniques' end
            _end(path, g.stuck())
            break
        if not changes(g, step):  # a finder's bug: applying it would loop forever
            raise RuntimeError(f"{step.technique} found a step that changes nothing: "
                               f"{step.notation}")
        g.apply(step)
        path.steps.append(step)
        _end(path, broken_rule(g, [cell for cell, _ in step.placements]))
        if path.broken:  # the step's placements break a rule: no solution
            break


def changes(g: Candidates, step: Step) -> bool:
    """Whether a step places a digit in a blank cell or removes a candidate still there."""
    return (any(not g.values[cell] for cell, _ in step.placements)
            or any(g.cands[cell] >> (d - 1) & 1 for cell, d in step.eliminations))


def hint(puzzle: Puzzle, techniques: Iterable[Technique] | None = None, *,
         unique: bool = False, stop: Callable[[], bool] | None = None) -> Step | None:
    """The easiest next step on a puzzle's pencil marks; None when the givens break a rule
    (`contradiction` says which): no step leads anywhere from them. The forcing searches
    raise forcing.Stopped once `stop()` says so."""
    chosen = usable(puzzle, TECHNIQUES if techniques is None else techniques, unique)
    g = Candidates(puzzle)
    if broken_rule(g, givens(puzzle)):
        return None
    with forcing.stopping(stop):
        return next_step(g, chosen)


def wrong_moves(steps: Iterable[Step], solution: tuple[int, ...], n: int) -> list[str]:
    """What the steps got wrong against the solution: a placement that differs from it, or an
    elimination of its digit. Empty when every step is sound."""
    from sudokulab.human.step import name

    problems = []
    for number, step in enumerate(steps, 1):
        for cell, d in step.placements:
            if solution[cell] != d:
                problems.append(f"step {number} ({step.technique}) places {d} in "
                                f"{name(cell, n)}, the solution has {solution[cell]}")
        for cell, d in step.eliminations:
            if solution[cell] == d:
                problems.append(f"step {number} ({step.technique}) removes {d} from "
                                f"{name(cell, n)}, the solution's digit")
    return problems
