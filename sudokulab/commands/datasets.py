"""`sudokulab datasets`: the bundled puzzle sets."""

from __future__ import annotations

import argparse

from sudokulab.commands.inputs import examples
from sudokulab.errors import Exit

DESCRIPTION = ("List the bundled puzzle sets with their sizes and sources; "
               "`compare --dataset NAME` runs one.")
EXAMPLES = examples("sudokulab datasets",
                    "sudokulab compare --dataset top95 --backends norvig,sat")
EXITS = (Exit.OK, Exit.INPUT, Exit.INTERRUPTED)


def options(p: argparse.ArgumentParser) -> None:
    """`datasets` takes no options."""


def run(args: argparse.Namespace) -> int:
    """Print the bundled datasets with their counts."""
    from sudokulab import datasets

    print(datasets.describe())
    return Exit.OK
