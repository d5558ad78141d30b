"""The measures of issue 35 on records made by hand or drawn from known delays: bootstrap
intervals, the pairwise test, run-to-run spread, PAR-2, the virtual best solver, solved
within a time, and effort against difficulty (Spearman)."""

from __future__ import annotations

import random

import pytest

from sudokulab.harness import competition, effort, uncertainty
from sudokulab.harness.records import Record
from sudokulab.result import Result, Status

pytest.importorskip("scipy")


def planted(spec: str, delays: list[float], repeat: int, noise: float = 0.1,
            seed: int = 1) -> list[Record]:
    """An engine whose puzzle i takes delays[i] seconds, each repeat scaled by a lognormal
    machine noise of `noise` (its sigma)."""
    rng = random.Random(seed)
    records = []
    for index, delay in enumerate(delays):
        times = sorted(delay * rng.lognormvariate(0, noise) for _ in range(repeat))
        records.append(Record(spec, index, Result(Status.UNIQUE), times[(repeat - 1) // 2],
                              times))
    return records


def made(spec: str, outcomes: list[tuple[Status, float]]) -> list[Record]:
    """Records of one engine, puzzle by puzzle: (status, time)."""
    return [Record(spec, i, Result(status), t, [t]) for i, (status, t) in enumerate(outcomes)]


DELAYS = [0.001 * (1 + (i * 7) % 13) for i in range(40)]  # 1 to 13 ms, known


def test_every_interval_covers_the_figure_it_brackets_with_five_repeats():
    found = uncertainty.intervals(planted("e", DELAYS, 5))
    assert set(found) == {"puzzles/s", "median", "p90"}  # never the max
    assert found["p90"] is None  # 40 puzzles: too few to bootstrap a p90
    many = uncertainty.intervals(planted("e", DELAYS * 3, 5))
    assert many["p90"] is not None
    for name, interval in [*found.items(), ("p90 of 120", many["p90"])]:
        if interval is None:
            continue
        assert interval.low <= interval.value <= interval.high, name
        assert interval.low < interval.high, name


def test_the_median_interval_covers_the_planted_median():
    truth = sorted(DELAYS)[len(DELAYS) // 2 - 1: len(DELAYS) // 2 + 1]
    for seed in range(5):
        interval = uncertainty.intervals(planted("e", DELAYS, 5, seed=seed))["median"]
        assert interval.low <= min(truth) and max(truth) <= interval.high


def test_intervals_shrink_with_more_repeats():
    """Puzzles of one delay: what is left is the machine's noise, which repeats average."""
    same = [0.005] * 30
    widths = [uncertainty.intervals(planted("e", same, r, noise=0.3))["median"].width
              for r in (5, 20, 80)]
    assert widths[0] > widths[1] > widths[2]
    assert widths[2] < widths[0] / 2
    assert uncertainty.intervals(planted("e", same, 20, noise=0.3))["median"].covers(0.005)


def test_intervals_are_seeded():
    records = planted("e", DELAYS, 5)
    assert uncertainty.intervals(records, seed=3) == uncertainty.intervals(records, seed=3)
    assert uncertainty.intervals(records, seed=3) != uncertainty.intervals(records, seed=4)


def test_a_planted_two_times_slower_engine_is_significantly_slower():
    runs = {"fast": planted("fast", DELAYS, 5, seed=1),
            "slow": planted("slow", [2 * d for d in DELAYS], 5, seed=2)}
    (pair,) = uncertainty.pairs(runs)
    assert pair.puzzles == len(DELAYS)
    assert pair.ratio.low > 1.5 and pair.ratio.covers(2.0) and pair.ratio.high < 2.6
    assert pair.p < 1e-6 and pair.significant
    assert pair.verdict.startswith("slow ") and "slower" in pair.verdict


def test_two_identical_engines_are_not_different():
    """Same delays, independent noise: a 95 % interval excludes 1, and the test finds a
    difference, about once in 20 such pairs; here in at most 3 of 20."""
    verdicts = []
    for seed in range(20):
        runs = {"one": planted("one", DELAYS, 5, seed=2 * seed),
                "two": planted("two", DELAYS, 5, seed=2 * seed + 1)}
        (pair,) = uncertainty.pairs(runs, draws=400)
        verdicts.append(pair)
        assert 0.9 < pair.ratio.value < 1.1
    assert verdicts[0].verdict == uncertainty.SAME and not verdicts[0].significant
    assert sum(not p.ratio.covers(1.0) for p in verdicts) <= 3
    assert sum(p.p < 0.05 for p in verdicts) <= 3


def test_pairs_use_only_puzzles_both_answered_right():
    a = planted("a", DELAYS[:4], 3)
    b = planted("b", DELAYS[:4], 3, seed=5)
    b[0] = Record("b", 0, Result(Status.TIMEOUT), 9.0, [9.0])
    pair = uncertainty.pair("a", "b", {"a": a, "b": b}, wrong={("a", 1)})
    assert pair.puzzles == 2  # puzzle 0 timed out with b, puzzle 1 was wrong with a


def test_the_wilcoxon_p_value_is_scipys_exact_one():
    # 8 differences of one sign, no ties: p = 2 / 2**8
    assert uncertainty.wilcoxon([0.1 * k for k in range(1, 9)]) == pytest.approx(2 / 256)
    assert uncertainty.wilcoxon([0.0, 0.0]) == 1.0


def test_spread_is_the_median_relative_range_of_repeats():
    records = [Record("e", 0, Result(Status.UNIQUE), 1.0, [0.9, 1.0, 1.2]),
               Record("e", 1, Result(Status.UNIQUE), 2.0, [2.0, 2.0, 2.0]),
               Record("e", 2, Result(Status.UNIQUE), 4.0, [3.0, 4.0, 5.0])]
    assert uncertainty.spread(records) == pytest.approx(0.3)
    assert uncertainty.spread(made("e", [(Status.UNIQUE, 1.0)])) is None


# --- solver-competition measures on hand-made records -----------------------------------

LIMIT = 10.0
RUNS = {"a": made("a", [(Status.UNIQUE, 1.0), (Status.TIMEOUT, 10.5), (Status.UNIQUE, 2.0),
                        (Status.ERROR, 0.1)]),
        "b": made("b", [(Status.UNIQUE, 0.5), (Status.UNIQUE, 3.0), (Status.UNIQUE, 0.1),
                        (Status.UNSUPPORTED, 0.0)]),
        "c": made("c", [(Status.UNIQUE, 2.0), (Status.MULTIPLE, 4.0), (Status.UNIQUE, 1.0),
                        (Status.UNIQUE, 11.0)])}
WRONG = {("b", 2)}  # the cross-check refuted b's answer to puzzle 2


def test_par2_counts_each_unsolved_puzzle_twice_the_limit():
    assert competition.par(RUNS["a"], LIMIT, WRONG) == pytest.approx((1 + 20 + 2 + 20) / 4)
    assert competition.par(RUNS["b"], LIMIT, WRONG) == pytest.approx((0.5 + 3 + 20 + 20) / 4)
    # c answered puzzle 3 after the limit: unsolved for PAR-2
    assert competition.par(RUNS["c"], LIMIT, WRONG) == pytest.approx((2 + 4 + 1 + 20) / 4)
    assert competition.par(RUNS["a"], None) is None


def test_the_virtual_best_solver_takes_the_fastest_right_answer_per_puzzle():
    best = competition.virtual_best(RUNS, WRONG)
    assert best.times == {0: 0.5, 1: 3.0, 2: 1.0, 3: 11.0}
    assert best.winners == {0: "b", 1: "b", 2: "c", 3: "c"}
    assert best.share("b") == 0.5 and best.share("c") == 0.5 and best.share("a") == 0
    rows = {row["backend"]: row for row in competition.rows(RUNS, LIMIT, WRONG)}
    assert rows[competition.VBS]["PAR-2 s"] == pytest.approx((0.5 + 3 + 1 + 20) / 4)
    # puzzle 3's best answer took 11 s, past the 10 s limit: unsolved, as PAR-2 counts it
    assert rows[competition.VBS]["solved"] == 3
    assert rows["b"]["VBS share"] == "67%" and rows["a"]["VBS share"] == "0%"  # of 3


def test_solved_within_counts_right_answers_up_to_each_time():
    rows = {row["backend"]: row for row in competition.rows(RUNS, LIMIT, WRONG)}
    assert [rows["a"][f"≤ {s:g} s"] for s in (0.1, 1, 10)] == [0, 1, 2]
    assert [rows["b"][f"≤ {s:g} s"] for s in (0.1, 1, 10)] == [0, 1, 2]  # not the wrong one
    assert [rows["c"][f"≤ {s:g} s"] for s in (0.1, 1, 10)] == [0, 1, 3]
    assert "≤ 10 s" not in competition.rows(RUNS, 5.0, WRONG)[0]  # past the limit: left out


# --- effort against difficulty -----------------------------------------------------------

def test_spearman_matches_scipy_with_ties():
    from scipy import stats

    rng = random.Random(4)
    x = [rng.randint(0, 5) for _ in range(30)]
    y = [a + rng.randint(0, 3) for a in x]
    assert effort.spearman(x, y) == pytest.approx(stats.spearmanr(x, y).statistic)
    assert effort.spearman([1, 2, 3], [3, 2, 1]) == pytest.approx(-1)
    assert effort.spearman([1, 1, 1], [1, 2, 3]) is None


def test_each_engine_is_rated_by_its_own_effort_measure():
    def worked(spec, key, values):
        return [Record(spec, i, Result(Status.UNIQUE, stats={key: v, "variables": 729}),
                       0.01, [0.01]) for i, v in enumerate(values)]

    ratings = {0: 1.5, 1: 3.0, 2: 7.2, 3: 9.0}
    runs = {"guesser": worked("guesser", "guesses", [0, 2, 9, 40]),
            "learner": worked("learner", "conflicts", [30, 20, 10, 0]),
            "sizes": worked("sizes", "clauses", [1, 1, 1, 1])}
    rows = {row["backend"]: row for row in effort.rows(runs, ratings)}
    assert set(rows) == {"guesser", "learner"}  # a model's size is no effort
    assert rows["guesser"]["effort"] == "guesses" and rows["guesser"]["spearman rho"] == 1
    assert rows["learner"]["spearman rho"] == -1 and rows["learner"]["puzzles"] == 4


def test_forum_ratings_are_read_from_the_lines_after_the_puzzles(tmp_path):
    from sudokulab.harness.compare import ratings_of

    grid = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    path = tmp_path / "forum.txt"
    path.write_text(f"{grid};11.9;11.9;11.3\n{grid[::-1]}\t10.5\n{grid}\n")
    assert ratings_of(str(path), "auto", {0: None, 1: None, 2: None}) == {0: 11.9, 1: 10.5}


def test_repeats_that_end_differently_are_counted_as_mixed():
    mixed = [Record("m", 0, Result(Status.UNIQUE), 0.5, [0.5, 10.2, 0.4],
                    statuses=["unique", "timeout", "unique"]),
             Record("m", 1, Result(Status.UNIQUE), 0.3, [0.3, 0.3, 0.3])]
    row = competition.rows({"m": mixed}, LIMIT)[0]
    assert row["solved"] == 2 and row["mixed repeats"] == 1
    assert "mixed repeats" not in competition.rows(RUNS, LIMIT, WRONG)[0]


def test_passes_merge_into_one_record_by_one_median():
    from sudokulab.harness.records import merged

    lines = [Record("m", 0, Result(Status.UNIQUE), t, [t], cpus=[t / 2], memory=m, repeat=k)
             for k, (t, m) in enumerate([(0.4, 30.0), (0.1, 31.0), (0.3, 29.0),
                                         (0.2, 30.5)], 1)]
    lines.insert(2, Record("m", 1, Result(Status.TIMEOUT), 9.0, [9.0], repeat=1))
    lines.append(Record("m", 1, Result(Status.UNIQUE), 1.0, [1.0], repeat=2))
    first, second = merged(lines)
    assert first.times == [0.4, 0.1, 0.3, 0.2]  # in the order of the passes
    assert first.time == pytest.approx(0.25)  # the mean of the middle two, as numpy's
    assert first.cpu == pytest.approx(0.125) and first.memory == 31.0
    assert not first.mixed and first.statuses == []
    assert second.mixed and second.statuses == ["timeout", "unique"]
    assert second.result.status == Status.UNIQUE  # the faster middle repeat's, of two
