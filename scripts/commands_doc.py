#!/usr/bin/env python3
"""Write docs/commands.md from the parser itself: every command against every option,
then each command's description, usage, options with their help, examples and exit codes.
tests/test_options.py checks that the committed page is what this makes.

    .venv/bin/python scripts/commands_doc.py          # rewrite docs/commands.md
    .venv/bin/python scripts/commands_doc.py --check  # exit 1 if it is not current
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sudokulab.cli import build_parser
from sudokulab.commands import COMMANDS, module
from sudokulab.errors import MEANINGS, command_exits

PAGE = Path(__file__).resolve().parent.parent / "docs" / "commands.md"
WIDTH = 88  # the usage lines' width, whatever the terminal that runs this
INTRO = """\
# Commands and their options

Made by `scripts/commands_doc.py` from the parser itself (`--help` says the same); one name
means one thing in every command (`--backend` one engine, `--backends` several, `--out`
every output path, `--count` counts solutions, `--number` counts puzzles, `--rule` a
variant rule by name, `--timeout 0` no limit, `pretty` the human-readable format).
"""


def parsers() -> dict[str, argparse.ArgumentParser]:
    """Each command's parser, with all its options, in `sudokulab --help`'s order."""
    choices = build_parser()._subparsers._group_actions[0].choices
    return {name: choices[name] for name in COMMANDS}


def shown(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """The options --help lists: every one but --help and the hidden ones."""
    return [action for action in parser._actions if action.help != argparse.SUPPRESS
            and "--help" not in action.option_strings]


def spellings(action: argparse.Action) -> str:
    """An option's spellings, longest first: '--backend, -b'."""
    return ", ".join(sorted(action.option_strings, key=len, reverse=True))


def matrix(found: dict[str, argparse.ArgumentParser]) -> list[str]:
    """The table of every option against the commands that take it."""
    options = {name: {a.option_strings[0]: spellings(a) for a in shown(p) if a.option_strings}
               for name, p in found.items()}
    every = sorted({option for names in options.values() for option in names})
    lines = ["| option | " + " | ".join(COMMANDS) + " |", "|---|" + "---|" * len(COMMANDS)]
    for option in every:
        names = next(found_names[option] for found_names in options.values()
                     if option in found_names)
        cells = ["✓" if option in options[name] else "" for name in COMMANDS]
        lines.append(f"| `{names}` | " + " | ".join(cells) + " |")
    return lines


def section(name: str, parser: argparse.ArgumentParser) -> list[str]:
    """One command: its description, usage, options by group, then its --help's epilog
    (examples, exit codes, and any notes) as the help prints it."""
    formatter = argparse.HelpFormatter(parser.prog, width=WIDTH)
    formatter.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups, "")
    usage = formatter.format_help().strip()
    lines = [f"## {name}", "", *paragraph(parser.description), "", "```text", usage, "```"]
    for group in parser._action_groups:
        actions = [a for a in group._group_actions if a in shown(parser)]
        if actions:
            lines += ["", f"**{group.title}**", ""]
            lines += [f"- `{formatter._format_action_invocation(a)}`: "
                      f"{' '.join(formatter._expand_help(a).split())}" for a in actions]
    return lines + ["", "```text", parser.epilog.strip(), "```", ""]


def paragraph(text: str) -> list[str]:
    """A description as Markdown: a paragraph, or its lines as text when it has a list."""
    return ["```text", text.strip(), "```"] if "\n" in text.strip() else [text.strip()]


def exits() -> list[str]:
    """The table of the exit codes each command can return, and what each means."""
    lines = ["## Exit codes each command can return", "",
             "| command | " + " | ".join(str(code) for code in MEANINGS) + " |",
             "|---|" + "---|" * len(MEANINGS)]
    for name in COMMANDS:
        codes = command_exits(module(name).EXITS)
        lines.append(f"| {name} | " + " | ".join("✓" if code in codes else ""
                                                  for code in MEANINGS) + " |")
    return lines + [""] + [f"- **{code}**: {meaning}" for code, meaning in MEANINGS.items()]


def page() -> str:
    """docs/commands.md as it should be."""
    found = parsers()
    lines = [INTRO, *matrix(found), "", *exits(), ""]
    for name, parser in found.items():
        lines += section(name, parser)
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv: list[str]) -> int:
    """Write the page, or with --check say whether it is current (exit 1 if not)."""
    text = page()
    if argv[1:] == ["--check"]:
        current = PAGE.read_text(encoding="utf-8") == text
        print("docs/commands.md is current" if current else
              "docs/commands.md is stale: run .venv/bin/python scripts/commands_doc.py")
        return 0 if current else 1
    PAGE.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
