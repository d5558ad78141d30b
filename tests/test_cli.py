"""The command line: answers, formats, and one-line errors with documented exit codes."""

import json
import subprocess
import sys

import pytest

from sudokulab.cli import main

LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
NO_SOLUTION = "12345678." + "." * 8 + "9" + "." * 63


def run(capsys, *argv):
    """(exit code, stdout, stderr) of the command line run in this process."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_pretty(capsys):
    code, out, _ = run(capsys, "solve", LINE)
    assert code == 0
    assert out.startswith("unique solution: 1 solution(s) [norvig,")
    assert "4 1 7 | 3 6 9 | 8 2 5" in out


def test_solve_line_and_json(capsys):
    code, out, _ = run(capsys, "solve", LINE, "--format", "line", "--limit", "1")
    assert code == 0 and out.strip().startswith("417369825")
    code, out, _ = run(capsys, "solve", LINE, "--format", "json", "--stats")
    data = json.loads(out)
    assert data["status"] == "unique" and data["count"] == 1 and data["stats"]["nodes"] > 0


def test_count(capsys):
    code, out, _ = run(capsys, "solve", "." * 16, "--count", "--format", "json")
    assert code == 0 and json.loads(out)["count"] == 288


def test_no_solution_exits_1(capsys):
    code, out, _ = run(capsys, "solve", NO_SOLUTION)
    assert code == 1 and out.startswith("no solution")


def test_timeout_exits_3(capsys):
    code, out, _ = run(capsys, "solve", "." * 625, "--count", "--timeout", "0.001")
    assert code == 3 and out.startswith("timeout")


def test_many_puzzles_from_a_file(tmp_path, capsys):
    path = tmp_path / "two.txt"
    path.write_text(f"{LINE}\n{NO_SOLUTION}\n")
    code, out, _ = run(capsys, "solve", "--file", str(path), "--format", "line")
    assert code == 1  # the worst verdict wins
    assert out.splitlines() == [out.splitlines()[0], "none"] and len(out.splitlines()[0]) == 81


def test_standard_input(monkeypatch, capsys):
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO(LINE + "\n"))
    code, out, _ = run(capsys, "solve", "-", "--format", "line")
    assert code == 0 and len(out.strip()) == 81


@pytest.mark.parametrize("argv, message", [
    (["solve", LINE[:-1]], "wrong length: 80 cells"),
    (["solve", LINE[:-1] + "x"], "row 9, column 9 (line 1, column 81): 'x' is not a digit"),
    (["solve", "." * 49], "wrong length: 49 cells"),
    (["solve", "5" + "." * 15], "'5' is not a digit of a 4x4 puzzle"),
    (["solve", LINE, "--backend", "nosuch"], "unknown backend 'nosuch'"),
    (["solve", LINE, "--backend", "norvig:x=1"], "norvig has no option x"),
    (["solve", "--file", "/nonexistent/p.txt"], "cannot read"),
    (["solve"], "no puzzle"),
    (["solve", LINE, "--box", "3y3"], "--box '3y3'"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert err.startswith("sudokulab: error: ") and message in err
    assert len(err.strip().splitlines()) == 1 and out == ""


def test_no_traceback_from_the_installed_command():
    done = subprocess.run([sys.executable, "-m", "sudokulab.cli", "solve", "abc"],
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and "wrong length: 3 cells" in done.stderr


@pytest.mark.parametrize("argv, message", [
    (["solve", LINE, "--limit", "0"], "argument --limit/-k: must be at least 1, not 0"),
    (["solve", LINE, "--limit", "x"], "argument --limit/-k: 'x' is not a whole number"),
    (["solve", LINE, "--timeout", "nan"], "must be 0 (none) or more seconds, not nan"),
    (["solve", LINE, "--timeout", "-1"], "must be 0 (none) or more seconds"),
    (["solve", LINE, "--format", "xml"], "argument --format: invalid choice: 'xml'"),
    (["solve", LINE, "--nosuch"], "unrecognized arguments: --nosuch"),
    (["nosuch"], "invalid choice: 'nosuch'"),
])
def test_argparse_errors_are_one_line_and_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("sudokulab: error: ") and message in err and "--help" in err
    assert len(err.strip().splitlines()) == 1 and "_positive_int" not in err


def test_backends_lists_every_backend(capsys):
    code, out, _ = run(capsys, "backends")
    assert code == 0
    from sudokulab.backends import names

    for name in names():
        assert any(line.startswith(name) for line in out.splitlines())


def test_show_formats(capsys):
    code, out, _ = run(capsys, "show", LINE, "--format", "numbers")
    assert code == 0 and out.splitlines()[0] == "4,0,0,0,0,0,8,0,5"
    code, out, _ = run(capsys, "show", LINE, "--format", "candidates")
    assert out.split()[0] == "4" and out.split()[1] == "1679"
    code, out, _ = run(capsys, "show", LINE, "--format", "json")
    assert json.loads(out)["box"] == [3, 3]


def test_model_describes_what_norvig_builds(capsys):
    code, out, _ = run(capsys, "model", LINE)
    assert code == 0 and "27 units of 9 cells" in out


def test_rules_from_flags_are_drawn_and_checked(capsys):
    blank = "." * 81
    code, out, _ = run(capsys, "show", blank, "--rules", "diagonal", "--cage", "r1c1,r1c2=10",
                       "--even", "r9c9")
    assert code == 0 and "rules: diagonal" in out and "cages (letter)" in out and "a=10" in out
    code, out, _ = run(capsys, "solve", "1" + "." * 39 + "1" + "." * 40, "--rules", "diagonal",
                       "--format", "tsv")  # r1c1 and r5c5: a clash on the diagonal only
    assert code == 1 and "\tnone\t0\t" in out
    assert "givens repeat: 1 at r1c1 and r5c5 (main diagonal)" in out
    code, _, err = run(capsys, "show", blank, "--cage", "r1c1,r1c2")
    assert code == 2 and "expected cells=total" in err
    code, _, err = run(capsys, "show", blank, "--rules", "zigzag")
    assert code == 2 and "unknown rule 'zigzag'" in err


def test_export_writes_dimacs_and_smt2(tmp_path, capsys):
    code, out, _ = run(capsys, "export", "--to", "dimacs", LINE)
    assert code == 0 and "p cnf 729 " in out
    target = tmp_path / "p.smt2"
    code, _, _ = run(capsys, "export", "--to", "smt2", LINE, "--model", "int", "-o", str(target))
    assert code == 0 and "(check-sat)" in target.read_text()
    code, _, err = run(capsys, "export", "--to", "dimacs", LINE, "--encoding", "clever")
    assert code == 2 and "--encoding: invalid choice: 'clever'" in err
