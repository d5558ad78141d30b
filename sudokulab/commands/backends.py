"""`sudokulab backends`: each engine, whether it can run here, and why not."""

from __future__ import annotations

import argparse

from sudokulab.commands.inputs import examples
from sudokulab.errors import Exit

DESCRIPTION = ("List the backends: each engine's paradigm, whether it can run on this "
               "machine, its version, or why not and how to fix it; then the options each "
               "takes, with what they allow and their defaults.")
EXAMPLES = examples("sudokulab backends")
EXITS = (Exit.OK, Exit.INPUT, Exit.INTERRUPTED)


def options(p: argparse.ArgumentParser) -> None:
    """`backends` takes no options."""


def run(args: argparse.Namespace) -> int:
    """Print each backend, whether it can run here, its engine's version, or why not."""
    from tabulate import tabulate

    from sudokulab.backends import backend_class, names

    rows = []
    for name in names():
        cls = backend_class(name)
        try:
            a = cls.available()
        except Exception as error:  # a broken install must not hide the other backends
            rows.append((name, "no", "", f"{type(error).__name__}: {error}"))
            continue
        note = a.reason + (f" (fix: {a.fix})" if a.fix else "")
        rows.append((name, "yes" if a.ok else "no", a.version, note or cls.paradigm))
    print(tabulate(rows, headers=("backend", "available", "engine", "paradigm / notes")))
    print("\noptions (as NAME:key=value,key=value, e.g. sat:solver=glucose4):")
    for name in names():
        lines = backend_class(name).option_help()
        print(f"  {name}:" + (" none" if not lines else "\n    " + "\n    ".join(lines)))
    return Exit.OK
