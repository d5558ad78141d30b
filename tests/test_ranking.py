"""The statistics a reviewer expects (issue 52), recomputed with scipy and numpy directly
from the records of a real run and compared with the digits its summary.md prints:
Holm-corrected pairwise p-values, Spearman's rho with its p-value and bootstrap
interval, the Friedman test with Nemenyi's critical difference, performance profiles;
and the same measures on records made by hand, where the answer is known."""

from __future__ import annotations

import math
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import sudokulab as sl
from sudokulab.harness import ranking, uncertainty
from sudokulab.harness.records import Record
from sudokulab.harness.runlog import RunLog
from sudokulab.result import Result, Status

np = pytest.importorskip("numpy")
stats = pytest.importorskip("scipy.stats")

SUDOKULAB = Path(sys.executable).with_name("sudokulab")
ENGINES = ("norvig", "dlx", "sat")
RATINGS = (9.1, 2.0, 8.5, 3.4, 7.7, 1.2, 6.6, 4.4, 5.5, 8.8, 3.0, 7.1)  # a forum list's
FLOOR = 1e-6  # seconds, as uncertainty.FLOOR: a log needs no 0


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """A real `compare --repeat 2` of three engines over 12 rated puzzles of top95: its
    folder, its records by engine and its summary.md."""
    folder = tmp_path_factory.mktemp("ranking")
    puzzles = [str(p) for p in sl.load("top95")[::8][:len(RATINGS)]]
    forum = folder / "forum.txt"
    forum.write_text("".join(f"{p} ;{r}\n" for p, r in zip(puzzles, RATINGS)))
    done = subprocess.run([str(SUDOKULAB), "compare", "--file", str(forum), "--backends",
                           ",".join(ENGINES), "--repeat", "2", "--out", str(folder / "run")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    runs: dict[str, list[Record]] = {}
    for record in RunLog(folder / "run").read():
        runs.setdefault(record.backend, []).append(record)
    summary = (folder / "run" / "summary.md").read_text(encoding="utf-8")
    assert "every answer agrees" in summary  # so no answer is refuted: wrong is empty
    return folder / "run", runs, summary


def printed(summary: str, heading: str) -> list[dict[str, str]]:
    """The rows of the table under a '## heading' of summary.md."""
    lines = summary[summary.index(f"## {heading}"):].splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith("|"))
    table = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        table.append([cell.strip() for cell in line.strip("|").split("|")])
    header, *rows = table
    return [dict(zip(header, row)) for row in rows[1:]]  # rows[0]: the |---| line


def shown(value: float, digits: str) -> float:
    """A figure as the report prints it (format `digits`), read back."""
    return float(format(value, digits))


def times(runs, spec: str) -> dict[int, float]:
    """Each puzzle's median time over its repeats, for an engine's answers."""
    return {r.index: float(np.median(np.maximum(r.times or [r.time], FLOOR)))
            for r in runs[spec] if r.result.status.is_answer}


def holm_by_hand(ps: list[float]) -> list[float]:
    """Holm (1979): the j-th smallest of m p-values times (m - j + 1), then the running
    maximum in that order, capped at 1."""
    ordered = sorted(ps)
    steps = [min(1.0, (len(ps) - j) * p) for j, p in enumerate(ordered)]
    return [max(steps[:ordered.index(p) + 1]) for p in ps]


# --- Holm ----------------------------------------------------------------------------------

def test_the_pairwise_p_values_are_wilcoxons_and_holm_corrected(run):
    folder, runs, summary = run
    rows = printed(summary, "Pairwise comparison")
    raw = []
    for row in rows:
        a, b = times(runs, row["a"]), times(runs, row["b"])
        both = sorted(set(a) & set(b))
        logs = [math.log(b[i]) - math.log(a[i]) for i in both]
        raw.append(float(stats.wilcoxon(logs).pvalue))
        assert float(row["p (Wilcoxon)"]) == shown(raw[-1], ".3g")
    column = "p (Holm-corrected over 3 pairs)"
    assert "Wilcoxon p-values Holm-corrected over 3 pairs" in summary
    for row, adjusted in zip(rows, holm_by_hand(raw), strict=True):
        assert float(row[column]) == shown(adjusted, ".3g")
    assert column in (folder / "pairs.csv").read_text().splitlines()[0]


def test_holm_agrees_with_statsmodels(run):
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    _, runs, _ = run
    raw = [p.p for p in uncertainty.pairs(runs)]
    expected = multitest.multipletests(raw, method="holm")[1]
    assert [p.holm for p in uncertainty.pairs(runs)] == pytest.approx(list(expected))


def test_holm_multiplies_in_steps_and_never_lets_an_adjusted_p_fall():
    assert uncertainty.holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx(
        [0.03, 0.06, 0.06, 0.02])
    assert uncertainty.holm([0.5, 0.6]) == [1.0, 1.0]
    assert uncertainty.holm([0.02]) == [0.02]
    assert uncertainty.holm([]) == []


def test_a_pair_is_significant_only_on_its_corrected_p():
    slower = uncertainty.Interval(2.0, 1.5, 2.6)
    alone = uncertainty.Pair("a", "b", 10, slower, 0.03, 0.03)
    among = uncertainty.Pair("a", "b", 10, slower, 0.03, 0.09, family=3)
    assert alone.significant and alone.verdict == "b 2.00x slower"
    assert not among.significant and among.verdict == "b 2.00x slower, not significant (Holm)"


# --- Spearman -----------------------------------------------------------------------------

def test_spearman_its_p_value_and_interval_are_scipys_and_a_seeded_bootstrap(run):
    folder, runs, summary = run
    ratings = dict(enumerate(RATINGS))
    rows = printed(summary, "Effort against difficulty")
    assert {row["backend"] for row in rows} == set(ENGINES)
    for row in rows:
        drawn = [(ratings[r.index], float(r.result.stats[row["effort"]]))
                 for r in runs[row["backend"]] if r.result.status.is_answer]
        x, y = np.array(drawn).T
        found = stats.spearmanr(x, y)
        assert int(row["puzzles"]) == len(x)
        assert float(row["spearman rho"]) == round(found.statistic, 3)
        assert float(row["p (Spearman)"]) == shown(found.pvalue, ".3g")
        picks = np.random.default_rng(0).integers(0, len(x), size=(2000, len(x)))
        with warnings.catch_warnings():  # a redraw of one rating has no rho (NaN)
            warnings.simplefilter("ignore")
            rhos = np.array([stats.spearmanr(x[k], y[k]).statistic for k in picks])
        low, high = np.quantile(rhos[np.isfinite(rhos)], [0.025, 0.975])
        assert float(row["95% CI low"]) == round(low, 3)
        assert float(row["95% CI high"]) == round(high, 3)
    assert "95% CI low" in (folder / "effort.csv").read_text().splitlines()[0]


# --- Friedman, Nemenyi, critical difference ------------------------------------------------

def test_the_friedman_test_and_the_average_ranks_are_scipys(run):
    folder, runs, summary = run
    table = np.array([[times(runs, spec)[i] for spec in ENGINES]
                      for i in sorted(times(runs, ENGINES[0]))])  # every engine answered all
    chi2, p = stats.friedmanchisquare(*table.T)
    line = re.search(r"Friedman chi² ([\d.]+), p (\S+) over (\d+) puzzles, 3 engines", summary)
    assert line, summary
    assert float(line[1]) == shown(chi2, ".4g")
    assert float(line[2]) == shown(p, ".3g")
    assert int(line[3]) == len(table) == len(RATINGS)
    means = stats.rankdata(table, axis=1).mean(axis=0)
    for row in printed(summary, "Friedman test and Nemenyi's critical difference"):
        assert float(row["mean rank"]) == round(means[ENGINES.index(row["backend"])], 3)
    assert (folder / "cd.png").stat().st_size > 0 and (folder / "ranks.csv").exists()


def test_the_critical_difference_is_nemenyis_and_draws_the_groups(run):
    _, runs, summary = run
    k, n = len(ENGINES), len(RATINGS)
    q = stats.studentized_range.ppf(0.95, k, np.inf) / np.sqrt(2)
    cd = q * np.sqrt(k * (k + 1) / (6 * n))
    assert float(re.search(r"Nemenyi critical difference ([\d.]+)", summary)[1]) == round(cd, 3)
    found = ranking.friedman(runs)
    rows = {r["backend"]: r for r in printed(summary,
                                             "Friedman test and Nemenyi's critical difference")}
    for a in ENGINES:
        for b in ENGINES:
            apart = abs(found.rank(a) - found.rank(b)) >= cd
            shares = bool(set(rows[a]["group"]) & set(rows[b]["group"]))
            assert shares != apart or not found.rejected, (a, b)


def test_q_alpha_is_demsars_table():
    """Demšar (2006), Table 5(a): q_0.05 for k = 2 ... 10, to the table's last digit
    (which it sometimes truncates: 2.3437 for k = 3, and sometimes rounds up: 2.9483
    for k = 7)."""
    table = (1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164)
    for k, q in enumerate(table, start=2):
        assert ranking.q_alpha(k) == pytest.approx(q, abs=1e-3), k


def made(spec: str, outcomes: list[tuple[Status, float]]) -> list[Record]:
    """Records of one engine, puzzle by puzzle: (status, time)."""
    return [Record(spec, i, Result(status), t, [t]) for i, (status, t) in enumerate(outcomes)]


U, T, E, N = Status.UNIQUE, Status.TIMEOUT, Status.ERROR, Status.UNSUPPORTED
FAILING = {"a": made("a", [(U, 1.0), (U, 2.0), (T, 10.0), (T, 10.0), (U, 1.0)]),
           "b": made("b", [(U, 2.0), (U, 1.0), (U, 3.0), (T, 10.0), (U, 2.0)]),
           "c": made("c", [(U, 3.0), (E, 0.1), (U, 1.0), (T, 10.0), (N, 0.0)])}


def test_an_engine_that_did_not_solve_a_puzzle_ranks_behind_every_answer():
    found = ranking.friedman(FAILING)
    # puzzle 3, solved by none, is left out; c's error and unsupported rank last; b's
    # answer to puzzle 0, refuted by the cross-check, too
    assert found.puzzles == 4 and found.unsolved == 3
    assert found.ranks == pytest.approx(((1 + 2 + 3 + 1) / 4, (2 + 1 + 2 + 2) / 4,
                                         (3 + 3 + 1 + 3) / 4))
    refuted = ranking.friedman(FAILING, wrong={("b", 0)})
    assert refuted.rank("b") == pytest.approx((3 + 1 + 2 + 2) / 4)
    expected = stats.friedmanchisquare([1, 2, 3, 1], [2, 1, 2, 2], [3, 3, 1, 3])
    assert found.statistic == pytest.approx(expected.statistic)
    assert found.p == pytest.approx(expected.pvalue)
    assert ranking.friedman({k: FAILING[k] for k in "ab"}) is None  # two: the pairwise test


def test_an_answer_past_the_timeout_counts_as_unsolved():
    found = ranking.friedman(FAILING, limit=1.5)
    assert found.ranks == pytest.approx((7 / 4, 8.5 / 4, 8.5 / 4))
    assert ranking.profile(FAILING, limit=1.5).fraction("b", math.inf) == 0.25


def test_engines_tied_on_every_puzzle_have_no_friedman_test():
    same = {s: made(s, [(U, 1.0), (U, 2.0)]) for s in "abc"}
    found = ranking.friedman(same)
    assert found.statistic is None and found.p is None and not found.rejected
    assert found.ranks == (2.0, 2.0, 2.0)


def test_groups_are_the_longest_runs_within_the_critical_difference():
    apart = ranking.Ranking(("a", "b", "c", "d"), (1.0, 1.5, 2.9, 3.6), 20, 0, 30.0, 1e-5, 1.0)
    assert apart.groups == (("a", "b"), ("c", "d"))
    assert apart.letters() == {"a": "a", "b": "a", "c": "b", "d": "b"}
    chain = ranking.Ranking(("z", "y", "x"), (2.6, 1.8, 1.0), 20, 0, 9.0, 0.01, 1.0)
    assert chain.groups == (("x", "y"), ("y", "z")) and chain.different("x", "z")
    assert chain.letters() == {"x": "a", "y": "ab", "z": "b"}


# --- performance profiles ------------------------------------------------------------------

def test_performance_profiles_are_time_over_the_best_time(run):
    folder, runs, _ = run
    table = np.array([[times(runs, spec)[i] for spec in ENGINES]
                      for i in sorted(times(runs, ENGINES[0]))])
    ratios = table / table.min(axis=1, keepdims=True)
    found = sl.open_run(folder).profiles()
    assert found.engines == ENGINES and found.puzzles == len(RATINGS)
    at_one = [found.fraction(spec, 1.0) for spec in ENGINES]
    assert sum(at_one) >= 1  # on every puzzle some engine is the best
    for k, spec in enumerate(ENGINES):
        assert at_one[k] == pytest.approx(np.mean(ratios[:, k] <= 1.0))
        assert found.fraction(spec, 2.0) == pytest.approx(np.mean(ratios[:, k] <= 2.0))
        assert found.fraction(spec, found.widest) == 1.0  # every engine solved every one
    assert (folder / "profile.png").stat().st_size > 0


def test_profiles_count_a_failure_as_never_within_any_factor():
    found = ranking.profile(FAILING)
    assert found.puzzles == 4  # puzzle 3, solved by none, is left out
    assert found.fraction("c", math.inf) == 0.5 and found.fraction("a", 1.0) == 0.5
    assert found.fraction("b", 2.0) == 0.75 and found.fraction("b", 3.0) == 1.0
    assert found.fraction("a", 2.0) == 0.75 and found.fraction("a", math.inf) == 0.75


def test_the_comparison_draws_both_on_given_axes(run):
    import matplotlib.pyplot as plt

    folder, _, _ = run
    result = sl.open_run(folder)
    figure, (left, right) = plt.subplots(1, 2)
    assert result.critical_difference(ax=left) is figure
    assert result.profile(folder / "again.png", ax=right) is figure
    labels = [text.get_text() for text in right.get_legend().get_texts()]
    fastest = {spec: result.profiles().fraction(spec, 1.0) for spec in ENGINES}
    assert labels == [f"{spec}: fastest on {fastest[spec]:.0%}, solved 100%"
                      for spec in ENGINES]
    assert any(text.get_text().startswith(("sat (", "norvig (", "dlx ("))
               for text in left.texts)
    assert (folder / "again.png").exists()
    plt.close(figure)
