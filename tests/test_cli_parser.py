"""The parser is built for the command about to run, and --help stays complete."""

import argparse
import shutil

import pytest

from sudokulab.cli import _command, build_parser, main
from sudokulab.commands import COMMANDS


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The subparsers a parser holds, by name."""
    return dict(parser._subparsers._group_actions[0].choices)


def test_a_command_gets_its_parser_alone_and_its_whole_help():
    alone = _subcommands(build_parser("solve"))
    assert list(alone) == ["solve"]
    every = _subcommands(build_parser())
    assert list(every) == list(COMMANDS)
    assert alone["solve"].format_help() == every["solve"].format_help()


@pytest.mark.parametrize("argv", [["--help"], ["-h", "solve"], ["--help", "grade", "X"], []])
def test_the_top_level_help_and_errors_list_every_command(argv):
    assert _command(argv) is None
    assert list(_subcommands(build_parser(_command(argv)))) == list(COMMANDS)


def test_a_wrong_command_is_named_with_every_right_one(capsys):
    assert main(["solvee"]) == 2
    error = capsys.readouterr().err
    assert all(f"'{name}'" in error for name in COMMANDS)


def test_help_after_a_command_is_that_commands(capsys):
    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    out = capsys.readouterr().out
    assert out.startswith("usage: sudokulab solve") and "--format" in out


@pytest.mark.parametrize("columns", ["60", "133", "", "x"])
def test_help_is_as_wide_as_argparse_would_make_it(monkeypatch, columns):
    monkeypatch.setenv("COLUMNS", columns)
    ours = build_parser("solve")._get_formatter()
    assert ours._width == shutil.get_terminal_size().columns - 2
