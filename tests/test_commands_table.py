"""Every command module has the same shape, and its examples run (docs/commands.md, made
from the parser, is checked by tests/test_options.py)."""

from __future__ import annotations


def test_every_command_module_has_the_same_shape():
    from sudokulab.commands import COMMANDS, module

    for name in COMMANDS:
        command = module(name)
        assert callable(command.options) and callable(command.run), name
        assert command.DESCRIPTION and command.EXAMPLES.startswith("examples:"), name
        assert set(command.EXITS) >= {2, 130}, name
        # every command can end done (0) but the server, which ends only when stopped
        assert (0 in command.EXITS) == (name != "serve"), name


def test_every_example_that_names_a_puzzle_runs():
    import shlex
    import subprocess
    import sys

    from sudokulab.commands import COMMANDS, module

    for name in COMMANDS:
        for line in module(name).EXAMPLES.splitlines()[1:]:
            words = shlex.split(line.split("#")[0])
            if any(len(word) in (16, 81) and set(word) <= set("123456789.") for word in words):
                done = subprocess.run([sys.executable, "-m", "sudokulab", *words[1:]],
                                      capture_output=True, text=True)
                assert done.returncode == 0, f"{line}: {done.stderr}"
