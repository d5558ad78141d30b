"""The inference ladder: order facts between levels, exact counts on a fixed sample, the
agreement of unit propagation with the human techniques, and `show --after`."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sudokulab import datasets
from sudokulab.backends.root import open_candidates
from sudokulab.check import is_solution
from sudokulab.teaching import ladder

FAST = ("sat:minimal", "sat:efficient", "sat:extended", "sat:augmented", "norvig", "dlx",
        "human:singles", "human:locked", "human:subsets", "human:fish", "human:wings")


@pytest.fixture(scope="module")
def sample():
    """Every 100th 17-clue puzzle (492) and the first 50 of top1465."""
    return datasets.load("17_clue")[::100] + datasets.load("top1465")[:50]


@pytest.fixture(scope="module")
def outcomes(sample):
    """Each fast level's outcome on each sample puzzle."""
    levels = ladder.choose(",".join(FAST))
    return [ladder.compute(puzzle, levels) for puzzle in sample]


def finished(outcomes, level: str) -> list[bool]:
    """Which puzzles a level finishes."""
    return [o[level].finished for o in outcomes]


@pytest.mark.parametrize("weaker,stronger", [
    ("sat:minimal", "sat:efficient"), ("sat:efficient", "sat:extended"),
    ("human:singles", "human:locked"), ("human:locked", "human:subsets"),
    ("human:subsets", "human:fish"), ("human:fish", "human:wings"),
])
def test_a_stronger_level_finishes_every_puzzle_a_weaker_one_does(outcomes, weaker, stronger):
    for k, (a, b) in enumerate(zip(finished(outcomes, weaker), finished(outcomes, stronger))):
        assert b or not a, f"puzzle {k}: {weaker} finishes it, {stronger} does not"


@pytest.mark.parametrize("weaker,stronger", [
    ("sat:minimal", "sat:efficient"), ("sat:efficient", "sat:extended"),
    ("human:singles", "human:locked"), ("human:locked", "human:subsets"),
])
def test_a_stronger_level_never_keeps_a_candidate_the_weaker_removed(outcomes, weaker, stronger):
    for o in outcomes:
        weak, strong = o[weaker].marks, o[stronger].marks
        assert all(s & ~w == 0 for w, s in zip(weak, strong))


@pytest.mark.parametrize("cnf,human", [("sat:extended", "human:singles"),
                                       ("sat:augmented", "human:locked"),
                                       ("norvig", "human:singles"), ("dlx", "human:singles")])
def test_unit_propagation_agrees_with_the_techniques_it_matches(outcomes, cnf, human):
    """UP on the complete encoding is singles; on triads, singles plus locked candidates:
    the same candidates left, puzzle by puzzle."""
    for k, o in enumerate(outcomes):
        assert o[cnf].finished == o[human].finished, f"puzzle {k}"
        assert o[cnf].candidates == o[human].candidates, f"puzzle {k}"


def test_the_counts_on_the_sample_are_the_hand_checked_ones(outcomes):
    """Every 100th 17-clue puzzle: the counts each level finishes, checked against four
    engines that share no code (PySAT's propagation, norvig, dlx, the human solver) and
    against tdoku's 0% for naked singles alone; on the first 50 of top1465 no puzzle
    falls to singles or locked candidates, 23 to subsets and 25 to wings."""
    clue, top = outcomes[:-50], outcomes[-50:]
    assert len(clue) == 492
    expected = {"sat:minimal": 0, "sat:efficient": 0, "sat:extended": 220, "norvig": 220,
                "dlx": 220, "human:singles": 220, "sat:augmented": 366, "human:locked": 366,
                "human:subsets": 424, "human:fish": 424, "human:wings": 474}
    assert {level: sum(finished(clue, level)) for level in expected} == expected
    assert f"{100 * 220 / 492:.1f}%" == "44.7%"  # tdoku: 44.6% of all 49,158
    assert f"{100 * 366 / 492:.1f}%" == "74.4%"  # tdoku: 76.0%
    top_expected = dict.fromkeys(FAST, 0) | {"human:subsets": 23, "human:fish": 23,
                                             "human:wings": 25}
    assert {level: sum(finished(top, level)) for level in FAST} == top_expected


def test_a_finished_level_leaves_the_checked_solution(outcomes, sample):
    from sudokulab.backends.root import marks_grid

    for puzzle, o in zip(sample, outcomes):
        for level in FAST:
            if o[level].finished:
                assert is_solution(puzzle, marks_grid(o[level].marks))
                assert open_candidates(o[level].marks) == 0


def test_the_tally_counts_and_rounds():
    puzzles = datasets.load("easy50")[:10]
    done = ladder.run(puzzles, ladder.choose("norvig,human:singles"), progress=False)
    row = done.tallies["norvig"].row()
    assert row["puzzles"] == 10
    assert row["finished"] == done.tallies["human:singles"].row()["finished"]
    assert row["percent"] == pytest.approx(100 * row["finished"] / 10)
    assert row["guesses_per_puzzle"] is not None
    assert row["timed_out"] == {}
    assert ladder.differ(done.tallies["norvig"], done.tallies["human:singles"]) == []


def test_two_workers_count_each_puzzle_in_its_place():
    """Chunks come back in any order: each puzzle's outcome lands under its own number."""
    puzzles = datasets.load("easy50")[:30]
    levels = ladder.choose("sat:minimal,human:subsets")
    one = ladder.run(puzzles, levels, progress=False)
    two = ladder.run(puzzles, levels, jobs=2, chunk=4, progress=False)
    for name in ("sat:minimal", "human:subsets"):
        assert two.tallies[name].finished == one.tallies[name].finished
        assert two.tallies[name].digests == one.tallies[name].digests
        assert ladder.differ(one.tallies[name], two.tallies[name]) == []


def test_differ_names_the_puzzles_where_two_levels_part():
    """On easy50 singles finish 40 puzzles, locked candidates 44: differ names the
    puzzles where their marks part, which include the 4 that only the stronger finishes."""
    done = ladder.run(datasets.load("easy50"), ladder.choose("human:singles,human:locked"),
                      progress=False)
    weak, strong = done.tallies["human:singles"], done.tallies["human:locked"]
    parted = ladder.differ(weak, strong)
    only_strong = [k + 1 for k in range(50) if strong.finished[k] and not weak.finished[k]]
    assert len(only_strong) == 4
    assert set(only_strong) <= set(parted)
    assert all(weak.left[k - 1] > strong.left[k - 1] for k in parted)


def test_a_level_out_of_time_counts_the_puzzle_unfinished_and_says_so():
    """No time at all: every human family stops before its first step, finishes nothing,
    and the tally names each puzzle as timed out in the level itself."""
    puzzles = datasets.load("easy50")[:5]
    done = ladder.run(puzzles, ladder.choose("human:singles,human:locked"), progress=False,
                      timeout=0.0)
    for tally in done.tallies.values():
        assert tally.count == 0
        assert tally.row()["timed_out"] == {str(k): "level" for k in range(1, 6)}
    roomy = ladder.run(puzzles, ladder.choose("human:singles"), progress=False, timeout=60.0)
    assert roomy.tallies["human:singles"].count > 0
    assert roomy.tallies["human:singles"].timed_out == {}


def test_the_report_names_time_outs_and_agreement():
    from sudokulab.teaching import ladder_report

    puzzles = datasets.load("easy50")[:5]
    late = ladder.run(puzzles, ladder.choose("sat:extended,human:singles"), progress=False,
                      timeout=0.0)
    report = ladder_report.figures(late)
    lines = ladder_report.timeouts(report["levels"])
    assert lines == ["- `human:singles` ran out of time on 5 puzzle(s): #1 (level), #2 (level), "
                     "#3 (level), #4 (level), #5 (level) ('level': counted not finished; "
                     "'search': its guesses left out of the average)"]
    # singles cut short leave more candidates than UP: the agreement check names them all
    assert report["agreement"] == {"sat:extended = human:singles": [1, 2, 3, 4, 5]}
    assert "5 puzzle(s) differ: #1, #2, #3, #4, #5" in ladder_report.markdown({"x": report})


def test_unknown_levels_are_refused():
    from sudokulab.errors import UsageError

    with pytest.raises(UsageError, match="unknown level"):
        ladder.choose("sat:nonsense")
    assert [lv.name for lv in ladder.choose("sat")] == ["sat:minimal", "sat:efficient",
                                                        "sat:extended", "sat:augmented"]


def test_show_after_draws_where_each_level_stops():
    puzzle = datasets.lines("17_clue")[0]
    run = [sys.executable, "-m", "sudokulab", "show", puzzle, "--after"]
    minimal = subprocess.run(run + ["sat:minimal"], capture_output=True, text=True, check=True)
    complete = subprocess.run(run + ["sat:extended"], capture_output=True, text=True,
                              check=True)
    assert minimal.stdout.startswith("after sat:minimal")
    assert "18 cells decided, 303 candidates left" in minimal.stdout
    assert "25 cells decided, 242 candidates left" in complete.stdout
    assert len(complete.stdout.splitlines()) == 12  # the line, 9 rows, 2 box rules


def test_merge_reports_the_runs_it_is_given(tmp_path):
    import json

    puzzles = tmp_path / "five.txt"
    puzzles.write_text("\n".join(datasets.lines("easy50")[:5]) + "\n")
    base = [sys.executable, "-m", "sudokulab", "ladder", "--format", "json"]
    ran = subprocess.run(base + ["--file", str(puzzles), "--levels", "human:singles",
                                 "--out", str(tmp_path / "a")],
                         capture_output=True, text=True, check=True)
    merged = subprocess.run(base + ["--merge", str(tmp_path / "a" / "ladder.json")],
                            capture_output=True, text=True, check=True)
    assert json.loads(merged.stdout) == json.loads(ran.stdout)
    assert (tmp_path / "a" / "ladder.png").exists()
    missing = subprocess.run(base + ["--merge", str(tmp_path / "none.json")],
                             capture_output=True, text=True)
    assert missing.returncode != 0 and "cannot read the ladder reports" in missing.stderr


def test_merge_joins_runs_of_one_dataset_at_other_levels(tmp_path):
    import json

    five, six = tmp_path / "five.txt", tmp_path / "six.txt"
    five.write_text("\n".join(datasets.lines("easy50")[:5]) + "\n")
    six.write_text("\n".join(datasets.lines("easy50")[:6]) + "\n")
    base = [sys.executable, "-m", "sudokulab", "ladder", "--format", "json"]
    for name, levels, file in (("a", "human:singles", five), ("b", "norvig", five),
                               ("c", "dlx", six)):
        subprocess.run(base + ["--file", str(file), "--levels", levels,
                               "--out", str(tmp_path / name)],
                       capture_output=True, text=True, check=True)
        written = tmp_path / name / "ladder.json"
        (report,) = json.loads(written.read_text()).values()
        written.write_text(json.dumps({"set": report}))  # one dataset, run three times
    merged = subprocess.run(base + ["--merge", f"{tmp_path}/a/ladder.json,"
                                               f"{tmp_path}/b/ladder.json"],
                            capture_output=True, text=True, check=True)
    (report,) = json.loads(merged.stdout).values()
    assert [row["level"] for row in report["levels"]] == ["human:singles", "norvig"]
    assert all(row["puzzles"] == 5 for row in report["levels"])
    other = subprocess.run(base + ["--merge", f"{tmp_path}/a/ladder.json,"
                                              f"{tmp_path}/c/ladder.json"],
                           capture_output=True, text=True)
    assert other.returncode == 2 and "rows of different puzzles" in other.stderr
    assert other.stderr.count("\n") == 1


def test_the_report_names_tdokus_file_and_commit_beside_its_published_figures():
    from sudokulab.teaching import ladder_report

    row = {"level": "human:singles", "what": "singles", "finished": 0, "puzzles": 5,
           "percent": 0.0, "candidates_left": 200.0, "guesses_per_puzzle": None,
           "guess_word": "", "timed_out": {}}
    report = {"levels": [row], "agreement": {}, "cpu": 1.0, "wall": 1.0, "jobs": 1}
    text = ladder_report.markdown({"top1465": report, "easy50": report})
    published, unpublished = text.split("## easy50")
    _, path, commit = ladder.TDOKU
    assert "0.0% (kudoku, norvig (singles))" in published
    assert f"`{path}` at commit `{commit}`, table `data/puzzles3_magictour_top1465`" in published
    assert path not in unpublished.split("## Guesses")[0]  # tdoku publishes nothing for it


def test_a_level_refusing_puzzles_for_several_reasons_names_each_reason_with_its_puzzles():
    from sudokulab.teaching import ladder_report

    lines = ladder_report.unsupported([{"level": "human:singles", "unsupported": {
        1: "human cannot express rule(s): anti-diagonal", 4: "human cannot express rule(s): arrow",
        5: "human cannot express rule(s): anti-diagonal"}}])
    assert len(lines) == 2
    assert "2 puzzle(s)" in lines[0] and "anti-diagonal" in lines[0] and "arrow" not in lines[0]
    assert "1 puzzle(s)" in lines[1] and "arrow" in lines[1]
