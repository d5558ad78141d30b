"""Issue 12: no traceback for any input, exit codes that tell the truth, every grid that
`solve` prints checked by the independent checker."""

from __future__ import annotations

import contextlib
import io
import json
import string
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sudokulab.cli import main

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
NO_SOLUTION = "12345678." + "." * 8 + "9" + "." * 63
REGIONS = "AAABBBCCCAAABBBCCCAAABBBCCCDDDEEEFFFDDDEEEFFFDDDEEEFFFGGGHHHIIIGGGHHHIIIGGGHHHIII"


def run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of the command line run in this process."""
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(argv))
            except SystemExit as stop:  # -h or --help (as a puzzle too): help, exit 0
                code = stop.code
    finally:
        sys.stdin = old_stdin
    return code, out.getvalue(), err.getvalue()


def one_line_error(code: int, err: str, want: str = "") -> None:
    """Exit 2 with one line on stderr, containing `want`."""
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and err.startswith("sudokulab: error: "), err
    assert want in err and "Traceback" not in err


# --- bad input: one line, exit 2 ---------------------------------------------------------

@pytest.mark.parametrize("command", [["solve"], ["show"], ["export", "--to", "dimacs"],
                                     ["model"]])
@pytest.mark.parametrize("text", [
    "11" + "." * 253,                                     # a 16x16 line one cell short
    '{"box": [3, 3], "givens": "' + EASY + '", "rules": [{"type": "diagonal"}], "x": ' + "1" * 300,
])
def test_a_long_argument_that_does_not_parse_is_one_line(command, text):
    code, out, err = run(*command, text)
    one_line_error(code, err)
    assert out == ""


@pytest.mark.parametrize("text, want", [
    ("[1, 2, 3]", "a JSON puzzle is an object with 'givens', not a list"),
    ('"' + EASY + '"', "not a string"),
    ('{"givens": 5}', "'givens' must be a string or a list of rows"),
])
def test_json_that_is_not_a_puzzle_object(text, want):
    one_line_error(*run("solve", text)[::2], want)


@pytest.mark.parametrize("command", ["compare", "ladder"])
def test_a_resumable_run_refuses_standard_input_as_its_file(command):
    """compare and ladder read their --file again on --resume: '-' is refused by name, not
    taken for a file called '-' in the current folder."""
    code, err = run(command, "--file", "-", stdin=EASY + "\n")[::2]
    one_line_error(code, err, "--file -: this command reads its puzzles from a file it can")


def test_a_byte_order_mark_is_not_a_cell(tmp_path):
    assert run("solve", "\ufeff" + EASY, "--format", "line")[:2] == (0, SOLUTION + "\n")
    assert run("solve", "-", "--format", "line", stdin="\ufeff" + EASY + "\n")[1] == \
        SOLUTION + "\n"
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf" + EASY.encode() + b"\n")
    assert run("solve", "--file", str(path), "--format", "line")[1] == SOLUTION + "\n"


def test_a_huge_line_is_refused_before_it_is_split(tmp_path):
    path = tmp_path / "huge.txt"
    path.write_text("1" * 10_000_000 + "\n")
    # VmHWM is this process's own peak (ru_maxrss would count the parent's before exec)
    probe = ("import re\nfrom sudokulab.cli import main\n"
             f"code = main(['solve', '--file', {str(path)!r}])\n"
             "peak = re.search(r'VmHWM:\\s*(\\d+)', open('/proc/self/status').read())[1]\n"
             "print(code, peak)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    code, kilobytes = map(int, done.stdout.split())
    assert code == 2 and "input too long: a line of more than 1,000,000 characters" in done.stderr
    assert kilobytes < 100_000  # read in chunks, never a token per character


def test_output_to_a_full_device_is_one_line():
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "sudokulab.cli", "solve", EASY],
                              stdout=full, stderr=subprocess.PIPE, text=True)
    assert done.returncode == 2
    assert done.stderr.strip() == ("sudokulab: error: cannot write the output: "
                                   "No space left on device")


ALPHABET = string.printable + "\ufeff│┼é\x00"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(
    st.text(ALPHABET, max_size=700),
    st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=20),
                 lambda inner: st.lists(inner, max_size=5)
                 | st.dictionaries(st.sampled_from(["box", "givens", "rules", "type", "x"]),
                                   inner, max_size=4)).map(json.dumps),
))
@example("-\x0c")  # a form feed: a line break for splitlines(), so it is escaped too
@example("-h")  # read as the help option: help on stdout, exit 0, as in a shell
def test_any_text_is_a_puzzle_or_one_line_and_exit_2(text):
    for argv in (["solve", text], ["show", text], ["solve", "-"]):
        code, _, err = run(*argv, stdin=text)
        if code == 2 and argv[1] == "-":  # issue 18: each bad puzzle of a file, one line
            line_per_bad_puzzle(code, err, "<stdin>")
        elif code == 2:
            one_line_error(code, err)
        else:
            assert code in (0, 1) and err == "", (argv, code, err)


def line_per_bad_puzzle(code: int, err: str, source: str) -> None:
    """Exit 2, and each line on stderr names a bad puzzle's file and line (or, for what is
    not a file of puzzles at all, the one line of that error)."""
    assert code == 2, err
    lines = err.strip().splitlines()
    assert lines and "Traceback" not in err, err
    assert all(line.startswith("sudokulab: error: ") for line in lines), err
    assert len(lines) == 1 or all(f"{source}:" in line for line in lines), err


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=2000))
def test_any_file_is_puzzles_or_one_line_and_exit_2(tmp_path, data):
    path = tmp_path / "random.txt"
    path.write_bytes(data)
    code, _, err = run("solve", "--file", str(path))
    if code == 2:
        line_per_bad_puzzle(code, err, str(path))
    else:
        assert code in (0, 1) and err == ""


# --- exit codes that tell the truth ----------------------------------------------------

def test_a_grid_that_fails_the_checker_is_not_printed_as_a_solution(test_backends):
    code, out, err = run("solve", EASY, "--backend", "test-wrong:mode=repeat",
                         "--format", "line")
    assert code == 4 and out == "invalid\n"
    assert "test-wrong:mode=repeat's answer fails the independent check: invalid grid" in err
    assert "repeat" in err or "at r" in err


def test_model_of_a_rule_the_backend_cannot_express_exits_5():
    code, out, err = run("model", "--backend", "smt:model=bitvec", "--cage", "r1c1,r1c2=3",
                         EASY)
    assert code == 5 and out == "" and "cannot express" in err


@pytest.mark.parametrize("seconds", ["0", "inf", "1e9"])
def test_timeout_zero_and_infinite_mean_none(seconds):
    assert run("solve", EASY, "--timeout", seconds, "--format", "line")[:2] == \
        (0, SOLUTION + "\n")


def test_solve_timeout_is_a_hard_deadline(test_backends):
    code, out, _ = run("solve", EASY, "--backend", "test-hang", "--timeout", "0.2",
                       "--format", "tsv")
    assert code == 3
    assert out.splitlines()[1].split("\t")[1] == "timeout"


# --- output formats -------------------------------------------------------------------

def test_line_and_tsv_give_one_line_per_puzzle(tmp_path):
    path = tmp_path / "three.txt"
    path.write_text(f"{EASY}\n{NO_SOLUTION}\n{'.' * 81}\n")
    code, out, _ = run("solve", "--file", str(path), "--format", "line")
    assert code == 1 and out.splitlines() == [SOLUTION, "none", "multiple"]
    code, out, _ = run("solve", "--file", str(path), "--format", "tsv")
    rows = [line.split("\t") for line in out.splitlines()]
    assert rows[0] == ["puzzle", "status", "count", "ms", "grids", "message"]
    assert [row[:3] for row in rows[1:]] == [["1", "unique", "1"], ["2", "none", "0"],
                                             ["3", "multiple", ">= 2"]]
    assert rows[1][4] == SOLUTION and len(rows[3][4].split(",")) == 2


def test_json_keeps_the_rules_and_show_says_what_a_line_drops():
    code, out, _ = run("solve", "." * 81, "--rules", "diagonal", "--limit", "1",
                       "--format", "json")
    data = json.loads(out)
    assert data["rules"] == [{"type": "diagonal"}] and data["box"] == [3, 3]
    code, out, err = run("show", "1" + "." * 80, "--rules", "diagonal", "--format", "line")
    assert code == 0 and out.strip() == "1" + "." * 80
    assert "cannot hold rules; not shown: diagonal" in err


def test_candidates_follow_parity_cages_and_non_consecutive():
    code, out, _ = run("show", "1" + "." * 80, "--format", "candidates",
                       "--rules", "non-consecutive", "--even", "r1c2", "--cage", "r9c8,r9c9=3")
    cells = [row.replace("|", " ").split() for row in out.splitlines()
             if row and row[0] in "123456789!"]
    assert cells[0][:2] == ["1", "468"]  # even, and not 2 (next to 1, non-consecutive)
    assert cells[1][0] == "3456789"      # below the 1: not 1 (column), not 2 (consecutive)
    assert cells[8][7:] == ["12", "12"]  # a cage of two that adds up to 3


def test_a_jigsaw_is_drawn_without_box_lines():
    code, out, _ = run("show", "." * 81, "--regions", REGIONS.replace("E", "F", 1)
                       .replace("F", "E", 1))
    assert code == 0 and "+" not in out.split("regions:")[1]


# --- Ctrl-C: what was found is printed, exit 130 ----------------------------------------

# the empty 4x4 is counted with its first row fixed (digit relabelling): each of the 3
# grids found stands for 4! = 24, so what was found so far is >= 72
@pytest.mark.parametrize("fmt, found", [("pretty", "interrupted (Ctrl-C), what was found so "
                                                   "far: >= 72 solution(s)"),
                                        ("json", '"status": "interrupted"'),
                                        ("line", ">= 72")])
def test_ctrl_c_prints_what_was_found_and_exits_130(test_backends, tmp_path, fmt, found):
    import os
    import signal

    hold = tmp_path / "hold"
    hold.touch()
    child = subprocess.Popen(
        [sys.executable, "-m", "sudokulab.cli", "solve", "." * 16, "--count",
         *(["--grids", "3"] if fmt != "line" else []),  # a line holds the count alone
         "--backend", f"test-partial:hold={hold},found=3", "--format", fmt],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    ready = tmp_path / "hold.ready"
    while not ready.exists() and child.poll() is None:  # held there until we press Ctrl-C
        time.sleep(0.01)
    os.kill(child.pid, signal.SIGINT)
    out, err = child.communicate()
    assert child.returncode == 130, err
    assert found in out and "sudokulab: interrupted" in err and "Traceback" not in err
    if fmt == "json":
        data = json.loads(out)
        assert data["count"] == 72 and not data["exact"] and len(data["solutions"]) == 3
        assert data["stats"]["reduced_count"] == 3 and data["stats"]["factor"] == 24
