"""`show --file F --after LEVEL` names each puzzle's block and each refusal as `ladder`
names a puzzle ("puzzle 9 of F"), so the blocks of the puzzles a level can take still match
the inputs (issue 53, C2); a single puzzle is shown as before."""

from __future__ import annotations

import json
import re
from pathlib import Path

from sudokulab.cli import main
from sudokulab.errors import Exit

DATA = Path(__file__).parent / "data"
LEVEL = "human:singles"  # takes the classic rules, refuses thermometer, arrow, kropki...
HEAD = re.compile(r"^puzzle (\d+) of (.+?): after ")
REFUSED = re.compile(r"^sudokulab: error: puzzle (\d+) of (.+?): after .*: unsupported: ")


def variants_file(tmp_path: Path) -> tuple[Path, list[str]]:
    """tests/data/variants.json as JSON lines (one puzzle a line, each with its own rules),
    and the puzzles' lines."""
    data = json.loads((DATA / "variants.json").read_text())
    lines = [json.dumps(item) for item in data.values()]
    path = tmp_path / "variants.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path, lines


def blocks(out: str) -> dict[int, list[str]]:
    """Each headed block of show's output by its puzzle number."""
    found: dict[int, list[str]] = {}
    for line in out.splitlines():
        head = HEAD.match(line)
        if head:
            found[int(head.group(1))] = []
        found[max(found)].append(line)
    return found


def test_each_block_and_each_refusal_names_its_puzzle_and_file(tmp_path, capsys):
    path, lines = variants_file(tmp_path)
    assert main(["show", "--file", str(path), "--after", LEVEL]) == Exit.ENGINE
    shown = capsys.readouterr()
    shown_blocks = blocks(shown.out)
    refused = [REFUSED.match(line) for line in shown.err.splitlines()]
    assert all(refused), shown.err
    refused_numbers = [int(m.group(1)) for m in refused if m]
    assert {m.group(2) for m in refused if m} == {str(path)}
    assert shown_blocks and refused_numbers  # the file holds both kinds
    assert sorted([*shown_blocks, *refused_numbers]) == list(range(1, len(lines) + 1))
    for number, block in shown_blocks.items():  # the block is that puzzle's own view
        assert main(["show", lines[number - 1], "--after", LEVEL]) == Exit.OK
        alone = capsys.readouterr().out.splitlines()
        assert block == [f"puzzle {number} of {path}: {alone[0]}", *alone[1:]]


def test_show_names_the_puzzles_ladder_names_the_same_way(tmp_path, capsys):
    path, _ = variants_file(tmp_path)
    main(["show", "--file", str(path), "--after", LEVEL])
    show_err = capsys.readouterr().err
    assert main(["ladder", "--file", str(path), "--levels", LEVEL]) == Exit.ENGINE
    ladder_err = capsys.readouterr().err
    refused = re.findall(r"puzzle (\d+) of " + re.escape(str(path)), show_err)
    assert refused
    for number in refused:  # ladder says "puzzle 9 of F" or "puzzles 11, 12 of F"
        assert re.search(rf"puzzles? (\d+, )*{number}(, \d+)* of {re.escape(str(path))}",
                         ladder_err), (number, ladder_err)


def test_puzzles_are_numbered_as_read_past_a_bad_line(tmp_path, capsys):
    path, lines = variants_file(tmp_path)
    path.write_text("\n".join([lines[0], "not a puzzle", lines[1]]) + "\n")
    assert main(["show", "--file", str(path), "--after", LEVEL]) == Exit.INPUT
    shown = capsys.readouterr()
    assert sorted(blocks(shown.out)) == [1, 3]  # the line after the bad one is the third
    assert f"{path}:2" in shown.err


def test_one_puzzle_is_shown_without_a_heading(tmp_path, capsys):
    path, lines = variants_file(tmp_path)
    path.write_text(lines[0] + "\n")
    assert main(["show", "--file", str(path), "--after", LEVEL]) == Exit.OK
    from_file = capsys.readouterr().out
    assert main(["show", lines[0], "--after", LEVEL]) == Exit.OK
    assert from_file == capsys.readouterr().out
    assert from_file.startswith(f"after {LEVEL} (")
    thermometer = json.dumps(json.loads((DATA / "variants.json").read_text())["thermometer"])
    assert main(["show", thermometer, "--after", LEVEL]) == Exit.ENGINE  # a rule human lacks
    assert capsys.readouterr().err == (f"sudokulab: error: after {LEVEL}: unsupported: human "
                                       f"cannot express rule(s): thermometer\n")


def test_after_several_levels_is_refused_naming_the_ladder(capsys):
    # held-out pass 8: 'all', 'default' and a list drew the first level alone, exit 0
    puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    for level in ("all", "default", "human:chains,norvig"):
        assert main(["show", puzzle, "--after", level]) == Exit.INPUT
        err = capsys.readouterr().err
        assert f"--after {level} names" in err
        assert f"`sudokulab ladder --file FILE --levels {level}` compares them" in err
    assert main(["show", puzzle, "--after", "human:chains"]) == Exit.OK
