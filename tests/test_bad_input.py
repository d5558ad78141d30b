"""Issue 36: bad and unusual input over all 13 commands, one table run through the real
command line (a subprocess, so closed descriptors, devices and OpenCV's chatter on fd 2
are real). For every case: the documented exit code, exactly one line on stderr saying
what is wrong (or the stated warning or note), no traceback, and the good puzzles of a
file that also holds bad ones still answered on stdout."""

from __future__ import annotations

import contextlib
import json
import os
import re
import resource
import shlex
import socket
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
EASY2 = "2...8.3...6..7..84.3.5..2.9...1.54.8.........4.27.6...3.1..7.4.72..4..6...4.1...3"
SOLUTION2 = "245981376169273584837564219976125438513498627482736951391657842728349165654812793"
P4 = "1.3..4.22.4..3.1"  # a 4x4 with one solution
S4 = "1234341221434321"
EMPTY4, EMPTY9 = "." * 16, "." * 81
# Issue 36, item 1: givens that repeat a 1 in column 8, and a puzzle with no solution.
BROKEN = "4.7369825632158947958724316825437169791586432346912758289643571573291684164875213"
NO_SOLUTION = "46....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
# ... and the killer the human engine called solved: its cage adds up to 14, not 12.
KILLER = "1...........2..81...51.3..2.2.6....3...8..74....7....5...5.2..6...9..17.8........"
KILLER_CAGE = "r1c1,r1c2,r2c2=12"
THERMO = json.dumps({"givens": EASY, "rules": [{"type": "thermometer",
                                                "cells": ["r1c1", "r1c2"]}]})
SAMURAI = "\n".join(line for line in (Path(__file__).parent / "data" / "samurai.txt")
                    .read_text().splitlines() if not line.startswith("#"))
LINK = json.loads((Path(__file__).parent / "data" / "formats" / "links.json")
                  .read_text())[0]["link"]  # an f-puzzles killer, 9x9
TECHNIQUES = ("explain", "hint", "grade")
PHOTO, CUT_PHOTO = "<photo>", "<photo cut short>"  # made by the `photos` fixture


def lines(*texts: str) -> bytes:
    """A file's bytes: each text on its own line."""
    return "".join(f"{text}\n" for text in texts).encode()


def euler(*grids: str) -> bytes:
    """A Project Euler 96 file: 'Grid NN' over nine rows of digits."""
    rows = []
    for number, grid in enumerate(grids, 1):
        digits = grid.replace(".", "0")
        rows += [f"Grid {number:02}"] + [digits[r:r + 9] for r in range(0, len(digits), 9)]
    return lines(*rows)


GOOD = lines(EASY, EASY2)
MIXED_LENGTH = lines(EASY, EASY[:-1], EASY2)                 # line 2: 80 cells
MIXED_SYMBOL = lines(EASY, "x" + EASY[1:], EASY2)            # line 2: an 'x'
MIXED_UTF8 = lines(EASY) + b"caf\xe9\n" + lines(EASY2)        # line 2: Latin-1 (item 5)
BINARY = b"\x00\x01\x02" * 2000
LONG_LINE = b"1" * 1_100_000 + b"\n"
ONLY_COMMENTS = b"# nothing here\n\n"
EULER_SHORT = euler(EASY[:13] + EASY[14:], EASY2)             # Grid 01 has a short row
SAMURAI_STRAY = lines("Samurai puzzle", SAMURAI, "", EASY2)  # a header line above it


@dataclass(frozen=True)
class Case:
    """One command line and what it must do."""

    argv: tuple[str, ...]
    code: int                      # the exit code
    phrase: str                    # what the one stderr line says (stdout for an answer)
    kind: str = "error"            # error, warning, note (a 'sudokulab: ' line) or answer
    stdin: bytes | str | None = None  # bytes, or a device to read (/dev/zero)
    files: tuple = ()              # (name, bytes | None for a folder | PHOTO | CUT_PHOTO)
    kept: tuple[str, ...] = ()     # on stdout, each as often as it is listed here
    out_lines: int | None = None   # how many lines stdout has, when that is the point
    closed: int | None = None      # a descriptor closed before the command starts
    prepare: tuple[str, ...] = ()  # a command line run first, after `files` are made
    then: tuple = ()               # files written after `prepare`: (name, bytes)


def case(name: str, argv: str | list[str], code: int, phrase: str, **more) -> object:
    """A row of the table; argv is split as a shell would, or given as a list."""
    words = shlex.split(argv) if isinstance(argv, str) else argv
    files = tuple(more.pop("files", {}).items())
    then = tuple(more.pop("then", {}).items())
    prepare = tuple(shlex.split(more.pop("prepare", "")))
    return pytest.param(Case(tuple(words), code, phrase, files=files, prepare=prepare,
                             then=then, **more), id=name)


def per_command(name: str, commands: tuple[str, ...], argv: str, code: int, phrase: str,
                **more) -> list:
    """The same case for several commands: '{c}' in argv is the command line given, in
    name its first word."""
    return [case(name.format(c=c.split()[0]), argv.format(c=c), code, phrase, **more)
            for c in commands]


READING = ("solve", "show", "model", "explain", "hint", "grade")  # PUZZLE | - | --file
COMPARE = "compare --backends norvig --jobs 1 --out run"

CASES = [
    # --- the command line itself: unknown options, missing values ----------------------
    case("no-command", "", 2, "required: COMMAND"),
    case("unknown-command", "solv " + P4, 2, "invalid choice: 'solv'"),
    case("top-level-unknown-option", "--bogus solve " + P4, 2, "unrecognized arguments: --bogus"),
    *per_command("{c}-unknown-option", ("solve", "show", "export --to asp", "model",
                                        "explain", "hint", "grade"),
                 "{c} " + P4 + " --bogus", 2, "unrecognized arguments: --bogus"),
    case("compare-unknown-option", f"{COMPARE} --bogus", 2, "--bogus"),
    case("backends-extra-argument", "backends extra", 2, "unrecognized arguments: extra"),
    case("backends-unknown-option", "backends --format json", 2, "unrecognized arguments"),
    case("datasets-unknown-option", "datasets --bogus", 2, "--bogus"),
    case("check-backend-no-such-engine", "check-backend nosuch", 2,
         "no backend name and no MODULE:CLASS"),
    case("check-backend-no-such-file", "check-backend nowhere.py:Engine", 2,
         "no Python file nowhere.py"),
    case("check-backend-bad-puzzles", "check-backend norvig --puzzles 0", 2,
         "--puzzles must be"),
    case("check-backend-unknown-dataset", "check-backend norvig --dataset top96", 2,
         "no dataset 'top96'"),
    case("read-unknown-option", "read photo.jpg --bogus", 2, "--bogus"),
    case("generate-unknown-option", "generate --bogus", 2, "--bogus"),
    case("generate-stray-argument", "generate " + P4, 2, "unrecognized arguments"),
    case("serve-unknown-option", "serve --bogus", 2, "--bogus"),
    case("solve-missing-limit", "solve " + P4 + " --limit", 2, "expected one argument"),
    case("solve-file-without-name", "solve --file", 2, "expected one argument"),
    case("solve-missing-backend", "solve " + P4 + " -b", 2, "expected one argument"),
    case("solve-missing-format", "solve " + P4 + " --format", 2, "expected one argument"),
    case("solve-missing-timeout", "solve " + P4 + " --timeout", 2, "expected one argument"),
    case("solve-missing-cage", "solve " + P4 + " --cage", 2, "expected one argument"),
    case("export-missing-to", "export " + P4, 2, "--to"),
    case("export-missing-out", "export " + P4 + " --to asp --out", 2, "expected one argument"),
    case("compare-missing-dataset", "compare --dataset", 2, "expected one argument"),
    case("grade-missing-plot", "grade " + EASY + " --plot", 2, "expected one argument"),
    case("serve-missing-port", "serve --port", 2, "expected one argument"),
    case("read-without-image", "read", 2, "IMAGE"),
    case("solve-no-puzzle", "solve", 2, "no puzzle"),
    *per_command("{c}-no-puzzle", ("show", "model", "explain", "hint", "grade"),
                 "{c}", 2, "no puzzle"),
    case("export-no-puzzle", "export --to dimacs", 2, "no puzzle"),
    case("setter-no-puzzle", "setter", 2, "no puzzle"),
    case("setter-unknown-option", "setter " + P4 + " --bogus", 2,
         "unrecognized arguments: --bogus"),
    case("verify-no-such-file", "verify nothere.json", 2, "nothere.json: no such file"),
    case("verify-not-json", "verify x.json", 2, "x.json: not JSON, so not a certificate",
         files={"x.json": b"garbage\n"}),
    case("solve-json-nested-too-deep", "solve --file deep.json", 2, "nesting too deep",
         files={"deep.json": ('{"box": [3, 3], "givens": ' + "[" * 20_000 + "]" * 20_000
                              + "}\n").encode()}),
    case("verify-json-nested-too-deep", "verify deep.json", 2, "deep.json: not JSON",
         files={"deep.json": b"[" * 20_000 + b"]" * 20_000}),
    case("solve-puzzle-and-file", "solve " + P4 + " --file good.txt", 2, "not both",
         files={"good.txt": GOOD}),
    case("compare-dataset-and-file", "compare --dataset top95 --file good.txt", 2,
         "not allowed with", files={"good.txt": GOOD}),
    case("techniques-and-upto", "grade " + EASY + " --upto x-wing --techniques 'naked single'",
         2, "not allowed with"),

    # --- wrong types and negative numbers ------------------------------------------------
    case("solve-limit-word", "solve " + P4 + " --limit abc", 2, "'abc' is not a whole number"),
    case("solve-limit-negative", "solve " + P4 + " --limit -3", 2, "at least 1, not -3"),
    case("solve-limit-zero", "solve " + P4 + " --limit 0", 2, "at least 1, not 0"),
    case("solve-limit-float", "solve " + P4 + " --limit 1.5", 2, "not a whole number"),
    case("solve-grids-negative", "solve " + P4 + " --count --grids -1", 2, "0 or more"),
    case("solve-timeout-negative", "solve " + P4 + " --timeout -1", 2, "0 (none) or more"),
    case("solve-timeout-word", "solve " + P4 + " --timeout abc", 2, "not a number of seconds"),
    case("solve-timeout-nan", "solve " + P4 + " --timeout nan", 2, "0 (none) or more"),
    *per_command("{c}-timeout-negative", TECHNIQUES, "{c} " + EASY + " --timeout -5", 2,
                 "0 (none) or more"),
    case("explain-timeout-word", "explain " + EASY + " --timeout soon", 2,
         "not a number of seconds"),
    case("compare-jobs-zero", f"{COMPARE} --file good.txt --jobs 0", 2, "at least 1, not 0",
         files={"good.txt": GOOD}),
    case("compare-jobs-negative", f"{COMPARE} --file good.txt --jobs -1", 2, "at least 1",
         files={"good.txt": GOOD}),
    case("compare-jobs-word", f"{COMPARE} --file good.txt --jobs many", 2,
         "not a whole number", files={"good.txt": GOOD}),
    case("compare-repeat-zero", f"{COMPARE} --file good.txt --repeat 0", 2, "at least 1",
         files={"good.txt": GOOD}),
    case("compare-sample-negative", f"{COMPARE} --file good.txt --sample -2", 2,
         "at least 1", files={"good.txt": GOOD}),
    case("compare-limit-zero", f"{COMPARE} --file good.txt --limit 0", 2, "at least 1",
         files={"good.txt": GOOD}),
    case("compare-timeout-word", f"{COMPARE} --file good.txt --timeout x", 2,
         "not a number of seconds", files={"good.txt": GOOD}),
    case("compare-seed-word", f"{COMPARE} --file good.txt --seed x", 2, "--seed",
         files={"good.txt": GOOD}),
    case("generate-number-negative", "generate --number -1", 2, "0 or more, not -1"),
    case("generate-number-word", "generate -n abc", 2, "not a whole number"),
    case("generate-seed-negative", "generate --box 2x2 --seed -5", 2, "0 or more"),
    case("generate-seed-word", "generate --seed abc", 2, "not a whole number"),
    case("generate-givens-negative", "generate --box 2x2 --givens -1", 2, "0 or more"),
    case("generate-givens-too-many", "generate --box 2x2 --givens 100", 2,
         "from 0 to 16 for a 4x4 grid"),
    case("generate-max-givens-negative", "generate --box 2x2 --max-givens -1", 2, "0 or more"),
    case("generate-givens-and-max", "generate --givens 3 --max-givens 4", 2,
         "not allowed with"),
    case("generate-tries-zero", "generate --tries 0", 2, "at least 1"),
    case("generate-jobs-zero", "generate --jobs 0", 2, "at least 1"),
    case("generate-rating-word", "generate --rating abc", 2, "expected A..B"),
    case("generate-rating-reversed", "generate --rating 5..2", 2, "A <= B"),
    case("read-size-word", "read photo.jpg --size big", 2, "--size", files={"photo.jpg": PHOTO}),
    case("read-size-unknown", "read photo.jpg --size 5", 2, "4, 6, 9 and 16",
         files={"photo.jpg": PHOTO}),
    case("read-size-negative", "read photo.jpg --size -9", 2, "--size",
         files={"photo.jpg": PHOTO}),
    case("ladder-unknown-dataset", "ladder --dataset nosuch", 2, "unknown dataset 'nosuch'"),
    case("ladder-unknown-level", "ladder --dataset top95 --levels nosuch", 2,
         "unknown level 'nosuch'"),
    case("ladder-missing-file", "ladder --file nofile.txt", 2, "nofile.txt: cannot read"),
    case("ladder-negative-timeout", "ladder --dataset top95 --timeout -1", 2,
         "--timeout/-t: must be 0 (none) or more seconds"),
    case("serve-port-word", "serve --port abc", 2, "not a whole number"),
    case("serve-port-negative", "serve --port -1", 2, "from 0 to 65535"),
    case("serve-port-too-big", "serve --port 70000", 2, "from 0 to 65535"),

    # --- unknown names: backend, dataset, format, technique, rule ------------------------
    case("solve-unknown-backend", "solve " + P4 + " -b nosuch", 2, "unknown backend 'nosuch'"),
    case("solve-backend-upper-case", "solve " + P4 + " -b NORVIG", 2, "unknown backend"),
    case("solve-backend-list", "solve " + P4 + " -b norvig,sat", 2, "unknown backend"),
    case("model-unknown-backend", "model " + P4 + " -b nosuch", 2, "unknown backend"),
    case("read-unknown-backend", "read photo.jpg -b nosuch", 2, "unknown backend",
         files={"photo.jpg": PHOTO}),
    case("compare-unknown-backend", "compare --file good.txt --backends norvig,nosuch "
         "--jobs 1 --out run", 2, "unknown backend 'nosuch'", files={"good.txt": GOOD}),
    case("compare-no-backend", "compare --file good.txt --backends '' --jobs 1 --out run", 2,
         "no backend", files={"good.txt": GOOD}),
    case("compare-unknown-dataset", f"{COMPARE} --dataset nosuch", 2,
         "unknown dataset 'nosuch'"),
    case("compare-scatter-one", f"{COMPARE} --file good.txt --scatter norvig", 2,
         "--scatter", files={"good.txt": GOOD}),
    case("compare-scatter-unknown", f"{COMPARE} --file good.txt --scatter a,b", 2,
         "--scatter", files={"good.txt": GOOD}),
    case("compare-cluster-unknown", f"{COMPARE} --file good.txt --cluster nosuch", 2,
         "--cluster", files={"good.txt": GOOD}),
    case("solve-unknown-format", "solve " + P4 + " --format xml", 2, "invalid choice: 'xml'"),
    case("show-unknown-format", "show " + P4 + " --format xml", 2, "invalid choice: 'xml'"),
    case("export-unknown-target", "export " + P4 + " --to xml", 2, "invalid choice: 'xml'"),
    case("read-unknown-format", "read photo.jpg --format xml", 2, "invalid choice",
         files={"photo.jpg": PHOTO}),
    case("generate-unknown-format", "generate --format xml", 2, "invalid choice"),
    *per_command("{c}-unknown-format", TECHNIQUES, "{c} " + EASY + " --format xml", 2,
                 "invalid choice: 'xml'"),
    case("solve-unknown-input-format", "solve " + EASY + " --input-format nosuch", 2,
         "invalid choice: 'nosuch'"),
    *per_command("{c}-unknown-technique", TECHNIQUES, "{c} " + EASY + " --techniques nosuch",
                 2, "unknown technique 'nosuch'"),
    case("hint-one-unknown-technique", ["hint", EASY, "--techniques", "naked single,nosuch"],
         2, "unknown technique 'nosuch'"),
    case("grade-upto-unknown", "grade " + EASY + " --upto nosuch", 2, "unknown technique"),
    *per_command("{c}-no-technique", TECHNIQUES, "{c} " + EASY + " --techniques ''", 2,
                 "names no technique"),          # item 14: '' was all of them, silently
    case("explain-unknown-uniqueness", "explain " + EASY + " --uniqueness maybe", 2,
         "invalid choice: 'maybe'"),
    case("solve-unknown-rule", "solve " + P4 + " --rules nosuch", 2, "unknown rule 'nosuch'"),
    case("show-unknown-rule", "show " + P4 + " --rule nosuch", 2, "unknown rule 'nosuch'"),
    case("solve-unknown-rule-in-list", "solve " + EASY + " --rules diagonal,nosuch", 2,
         "unknown rule 'nosuch'"),
    case("generate-unknown-rule", "generate --rules nosuch", 2, "unknown rule 'nosuch'"),
    case("generate-unknown-rule-in-list", "generate --box 2x2 --rules diagonal,nosuch", 2,
         "unknown rule 'nosuch'"),
    case("generate-unknown-symmetry", "generate --box 2x2 --symmetry nosuch", 2,
         "invalid choice: 'nosuch'"),
    case("generate-unknown-level", "generate --level nosuch", 2, "invalid choice: 'nosuch'"),
    case("generate-unknown-prover", "generate --prover nosuch", 2, "invalid choice: 'nosuch'"),

    # --- backend options, validated up front for every backend (items 11, 14) -----------
    case("cpsat-workers-huge", "solve " + P4 + " -b cpsat:workers=100000", 2,
         "workers must be a whole number from 1 to 64"),
    case("cpsat-workers-line", "solve " + P4 + " -b cpsat:workers=100000 --format line", 2,
         "workers must be"),
    case("cpsat-workers-zero", "solve " + P4 + " -b cpsat:workers=0", 2, "workers must be"),
    case("cpsat-workers-word", "solve " + P4 + " -b cpsat:workers=abc", 2, "workers must be"),
    case("cpsat-unknown-option", "solve " + P4 + " -b cpsat:nosuch=1", 2, "no option nosuch"),
    case("cpsat-presolve-word", "solve " + P4 + " -b cpsat:presolve=maybe", 2, "presolve"),
    case("sat-unknown-solver", "solve " + P4 + " -b sat:solver=nosuch", 2,
         "solver must be"),
    case("sat-duplicate-key", "solve " + P4 + " -b sat:solver=glucose4,solver=cadical195", 2,
         "solver is given twice"),
    case("sat-unknown-encoding", "solve " + P4 + " -b sat:encoding=nosuch", 2,
         "encoding must be"),
    case("sat-unknown-amo", "solve " + P4 + " -b sat:amo=nosuch", 2, "amo must be"),
    case("sat-option-without-value", "solve " + P4 + " -b sat:solver", 2, "not key=value"),
    case("smt-unknown-model", "solve " + P4 + " -b smt:model=nosuch", 2, "model must be"),
    case("smt-unknown-solver", "solve " + P4 + " -b smt:solver=nosuch", 2, "solver must be"),
    case("smt-unknown-givens", "solve " + P4 + " -b smt:givens=x", 2, "givens must be"),
    case("prolog-unknown-strength", "solve " + P4 + " -b prolog:strength=nosuch", 2,
         "strength must be"),
    case("prolog-unknown-labeling", "solve " + P4 + " -b prolog:labeling=x", 2,
         "labeling must be"),
    case("norvig-takes-no-option", "solve " + P4 + " -b norvig:x=1", 2, "no option x"),
    case("dlx-takes-no-option", "solve " + P4 + " -b dlx:x=1", 2, "no option x"),
    case("asp-takes-no-option", "solve " + P4 + " -b asp:x=1", 2, "no option x"),
    case("human-unknown-option", "solve " + P4 + " -b human:x=1", 2, "no option x"),
    case("human-unknown-upto", "solve " + P4 + " -b human:upto=nosuch", 2, "nosuch"),
    case("model-bad-backend-option", "model " + P4 + " -b sat:solver=nosuch", 2,
         "not nosuch"),
    case("read-bad-backend-option", "read photo.jpg -b sat:solver=nosuch", 2,
         "not nosuch", files={"photo.jpg": PHOTO}),
    case("compare-bad-backend-option", "compare --file good.txt --backends "
         "norvig,cpsat:workers=100000 --jobs 1 --out run", 2, "workers must be",
         files={"good.txt": GOOD}),
    case("compare-duplicate-key", "compare --file good.txt --backends "
         "sat:solver=glucose4,solver=cadical195 --jobs 1 --out run", 2, "given twice",
         files={"good.txt": GOOD}),

    # --- variant rules on the command line: cages, lines, marks, regions ----------------
    case("cage-without-sum", "solve " + P4 + " --cage r1c1,r1c2", 2, "expected cells=total"),
    case("cage-sum-word", "solve " + P4 + " --cage r1c1,r1c2=x", 2, "expected cells=total"),
    case("cage-sum-zero", "solve " + P4 + " --cage r1c1,r1c2=0", 2, "1 or more"),
    case("cage-sum-negative", "solve " + P4 + " --cage r1c1,r1c2=-3", 2, "cage"),
    case("cage-no-cells", "solve " + P4 + " --cage =3", 2, "cell"),
    case("cage-cell-outside", "solve " + P4 + " --cage r1c1,r9c9=3", 2,
         "r9c9 is outside the 4x4 grid"),
    case("cage-bad-cell-name", "solve " + P4 + " --cage r1c1,x9=3", 2, "'x9' is not a cell"),
    case("cage-cell-twice", "solve " + P4 + " --cage r1c1,r1c1=3", 2, "listed twice"),
    case("line-unknown-kind", "solve " + P4 + " --line nosuch:r1c1,r1c2", 2,
         "expected KIND:CELLS"),
    case("line-without-cells", "solve " + P4 + " --line thermometer", 2, "expected KIND:CELLS"),
    case("line-one-cell", "solve " + P4 + " --line thermometer:r1c1", 2, "at least two cells"),
    case("line-bad-cell", "solve " + P4 + " --line thermometer:r1c1,zz", 2,
         "'zz' is not a cell"),
    case("line-cell-outside", "show " + P4 + " --line thermometer:r1c1,r1c5", 2, "r1c5"),
    case("kropki-unknown-colour", "solve " + P4 + " --kropki q:r1c1-r1c2", 2,
         "expected w|b:CELL-CELL"),
    case("kropki-not-neighbours", "solve " + P4 + " --kropki w:r1c1-r3c3", 2,
         "not orthogonal neighbours"),
    case("consecutive-empty", "solve " + P4 + " --consecutive ,", 2, "needs a value"),
    case("regions-empty", "solve " + P4 + " --regions ''", 2, "needs a value"),
    case("kropki-twice", "solve " + P4 + " --kropki w:r1c1-r1c2,negative --kropki w:r3c3-r3c4",
         2, "--kropki given twice"),
    case("xv-one-cell", "solve " + P4 + " --xv x:r1c1", 2, "expected x|v:CELL-CELL"),
    case("consecutive-not-neighbours", "solve " + P4 + " --consecutive r1c1-r2c2", 2,
         "not orthogonal neighbours"),
    case("sandwich-row-outside", "solve " + P4 + " --sandwich r9=3", 2, "row 9 is outside"),
    case("sandwich-without-sum", "solve " + P4 + " --sandwich r1", 2, "expected r3=10"),
    case("little-killer-zero", "solve " + P4 + " --little-killer r1c1,r2c2=0", 2,
         "1 or more"),
    case("even-cell-outside", "solve " + P4 + " --even r5c5", 2, "r5c5 is outside"),
    case("odd-bad-cell", "solve " + P4 + " --odd r1c1,foo", 2, "'foo' is not a cell"),
    case("regions-too-few", "solve " + P4 + " --regions AAAB", 2, "jigsaw"),
    case("regions-uneven", "solve " + P4 + " --regions AAAAAAAABBBBCCCC", 2,
         "4 regions of 4 cells"),
    case("regions-not-square", "show " + EASY + " --regions AAA", 2, "square grid"),
    *per_command("{c}-bad-cage", TECHNIQUES + ("model", "export --to smt2"),
                 "{c} " + EASY + " --cage r1c1,r1c2", 2, "expected cells=total"),

    # --- --box ---------------------------------------------------------------------------
    case("box-zero", "solve " + P4 + " --box 0x0", 2, "at least 1 row and 1 column"),
    case("box-one-number", "solve " + P4 + " --box 3", 2, "expected rows x columns"),
    case("box-letters", "solve " + P4 + " --box axb", 2, "expected rows x columns"),
    case("box-negative", "solve " + P4 + " --box=-2x2", 2, "--box"),
    case("box-three-numbers", "solve " + EASY + " --box 3x3x3", 2, "expected rows x columns"),
    case("box-too-big", "solve " + EASY + " --box 6x6", 2, "grids go from 4x4 to 25x25"),
    case("box-wrong-for-puzzle", "solve " + P4 + " --box 2x3", 2, "a 2x3-box puzzle has 36"),
    case("show-box-wrong", "show " + EASY + " --box 3x2", 2, "wrong length"),
    case("generate-box-zero", "generate --box 0x0", 2, "at least 1 row"),
    case("generate-box-word", "generate --box big", 2, "--box"),
    case("read-box-wrong-for-photo", "read photo.jpg --box 2x2", 2, "does not fit the grid found",
         files={"photo.jpg": PHOTO}),
    case("samurai-argument-box", ["solve", SAMURAI, "--box", "2x2"], 2,
         "does not fit this samurai"),
    case("samurai-file-box", "solve --file samurai.txt --box 2x2", 2, "2x2",
         files={"samurai.txt": lines(SAMURAI)}),        # item 14: silently ignored
    case("jsonl-file-box", "solve --file p.jsonl --box 2x2", 2, "2x2",
         files={"p.jsonl": lines(json.dumps({"givens": EASY}))}),   # ignored too
    case("json-file-box", "solve --file p.json --box 2x2", 2, "2x2",
         files={"p.json": json.dumps([{"givens": EASY}]).encode()}),
    case("link-file-box", "show --file links.txt --box 2x2", 2, "2x2",
         files={"links.txt": lines(LINK)}),
    case("json-argument-box", ["solve", json.dumps({"givens": EASY}), "--box", "2x2"], 2,
         "2x2"),
    case("link-argument-box", ["solve", LINK, "--box", "2x2"], 2, "box 2x2 does not fit"),

    # --- puzzles: wrong length, symbols, JSON, links -------------------------------------
    *per_command("{c}-one-cell-short", READING, "{c} " + EASY[:-1], 2,
                 "wrong length: 80 cells"),
    case("export-one-cell-short", "export " + EASY[:-1] + " --to dimacs", 2, "wrong length"),
    case("solve-one-cell-long", "solve " + P4 + "1", 2, "wrong length: 17 cells"),
    case("solve-digit-too-big", "solve 1.3..4.22.4..3.9", 2,
         "'9' is not a digit of a 4x4 puzzle"),
    case("solve-letter", "solve " + "x" + EASY[1:], 2, "row 1, column 1"),
    case("solve-file-name-as-puzzle", "solve nonexistent.txt", 2, "--file"),  # item 13
    case("show-file-name-as-puzzle", "show puzzles.sdk", 2, "--file"),
    case("json-list", ["solve", "[1, 2, 3]"], 2, "not a list"),
    case("json-string", ["solve", json.dumps(EASY)], 2, "not a string"),
    case("json-givens-number", ["solve", '{"givens": 5}'], 2, "'givens' must be"),
    case("json-givens-true", ["solve", json.dumps({"givens": [[True, 0, 0, 0]] + [[0] * 4] * 3})],
         2, "true is not a digit"),                        # item 13: was 'True'
    case("json-box-negative", ["solve", json.dumps({"box": [3, -3], "givens": EASY})], 2,
         "JSON 'box' [3, -3]"),                            # item 13: was 'a -9x-9 puzzle'
    case("json-rule-unknown", ["solve", json.dumps({"givens": P4,
                                                   "rules": [{"type": "nosuch"}]})],
         2, "unknown type 'nosuch'"),
    case("json-rule-cells-as-numbers",
         ["solve", json.dumps({"givens": P4, "rules": [{"type": "cage", "cells": [[1, 2], [1, 3]],
                                                         "total": 3}]})],
         2, "'cells' must be a list of cell names"),       # item 13: leaked Python's text
    case("json-rules-not-a-list", ["show", json.dumps({"givens": P4, "rules": {}})], 2,
         "'rules' must be a list"),
    case("json-cut-short", ["solve", '{"givens": "' + P4 + '"'], 2, "bad JSON"),
    case("link-other-site", "solve https://example.com/puzzle", 2,
         "not a puzzle link sudokulab knows"),             # item 13: 'SudokuPad short link'
    case("link-short-sudokupad", "solve https://sudokupad.app/abc123", 2, "short link"),
    case("link-fpuzzles-id", "solve 'https://f-puzzles.com/?id=abc'", 2, "short link"),
    case("link-garbage-payload", "solve 'https://f-puzzles.com/?load=garbage!!'", 2,
         "cut short"),
    case("link-empty-scl", "show https://sudokupad.app/scl", 2, "cut short"),
    case("explain-link-other-site", "explain https://example.com/puzzle", 2, "not a puzzle link"),
    # a samurai is read, and refused as unsupported (5) by what takes one grid (was 2)
    *per_command("{c}-samurai", TECHNIQUES, "{c} --file samurai.txt", 5,
                 "one N x N grid, not a samurai", files={"samurai.txt": lines(SAMURAI)}),
    *per_command("export-{c}-samurai", ("asp", "smt2"),  # their engines take one grid
                 "export --file samurai.txt --to {c}", 5, "not a samurai: --to dimacs, mzn",
                 files={"samurai.txt": lines(SAMURAI)}),

    # --- no solution, several, clashes (exit 1 names the clash; item 1) ------------------
    case("solve-row-clash", "solve 11.......4..3...", 1, "givens repeat: 1 at r1c1 and r1c2",
         kind="answer"),
    case("solve-column-clash", "solve 1...1...........", 1, "r1c1 and r2c1 (column 1)",
         kind="answer"),
    case("solve-box-clash", "solve 1....1..........", 1, "r1c1 and r2c2 (box 1)", kind="answer"),
    case("solve-diagonal-clash", "solve 1.........1..... --rules diagonal", 1,
         "r1c1 and r3c3 (main diagonal)", kind="answer"),
    case("solve-broken-grid", "solve " + BROKEN + " --format line", 1, "none", kind="answer"),
    case("solve-no-solution", "solve " + NO_SOLUTION, 1, "no solution", kind="answer"),
    case("solve-killer-no-solution-human", "solve " + KILLER + " --cage " + KILLER_CAGE +
         " -b human --format line", 1, "none", kind="answer"),   # item 1: was unique
    case("compare-clash", f"{COMPARE} --file clash.txt", 1, "none 1", kind="answer",
         files={"clash.txt": lines("11.......4..3...")}),
    *per_command("{c}-broken-grid", TECHNIQUES, "{c} " + BROKEN, 1,
                 "givens repeat: 1 at r3c8 and r9c8"),
    case("grade-json-broken-grid", "grade " + BROKEN + " --format json", 1, "givens repeat"),
    *per_command("{c}-no-solution", TECHNIQUES, "{c} " + NO_SOLUTION, 1, "no solution"),
    *per_command("{c}-killer-no-solution", TECHNIQUES, "{c} " + KILLER + " --cage " +
                 KILLER_CAGE, 1, "no solution"),
    *per_command("{c}-empty-grid", TECHNIQUES, "{c} " + EMPTY9, 6, "several solutions"),
    case("hint-empty-4x4", "hint " + EMPTY4, 6, "several solutions"),

    # --- files: missing, a folder, empty, binary, not UTF-8, too long, bad entries -------
    *per_command("{c}-missing-file", READING, "{c} --file missing.txt", 2,
                 "missing.txt: cannot read: No such file"),
    case("export-missing-file", "export --file missing.txt --to asp", 2, "No such file"),
    case("compare-missing-file", f"{COMPARE} --file missing.txt", 2, "No such file"),
    *per_command("{c}-folder", ("solve", "show", "grade"), "{c} --file adir", 2,
                 "Is a directory", files={"adir": None}),
    case("compare-folder", f"{COMPARE} --file adir", 2, "Is a directory", files={"adir": None}),
    *per_command("{c}-empty-file", ("solve", "show", "explain", "model"),
                 "{c} --file empty.txt", 2, "no puzzle", files={"empty.txt": b""}),
    case("compare-empty-file", f"{COMPARE} --file empty.txt", 2, "no puzzle",
         files={"empty.txt": b""}),
    case("solve-only-comments", "solve --file notes.txt", 2, "no puzzle",
         files={"notes.txt": ONLY_COMMENTS}),
    *per_command("{c}-binary-file", ("solve", "show", "hint", "export --to asp"),
                 "{c} --file noise.bin", 2, "noise.bin:1: a NUL byte",
                 files={"noise.bin": BINARY}),
    case("compare-binary-file", f"{COMPARE} --file noise.bin", 2, "a NUL byte",
         files={"noise.bin": BINARY}),
    case("solve-dev-zero", "solve --file /dev/zero", 2, "/dev/zero:1: a NUL byte"),  # item 4
    case("solve-dev-urandom", "solve --file /dev/urandom", 2, "a NUL byte"),
    case("compare-dev-zero", f"{COMPARE} --file /dev/zero", 2, "a NUL byte"),
    case("grade-dev-urandom", "grade --file /dev/urandom", 2, "a NUL byte"),
    *per_command("{c}-long-line", ("solve", "show", "grade"), "{c} --file long.txt", 2,
                 "too long", files={"long.txt": LONG_LINE}),
    case("solve-json-file-no-givens", "solve --file bad.json", 2, "needs an object with 'givens'",
         files={"bad.json": b'{"box": [2, 2]}'}),
    case("compare-json-file-no-givens", f"{COMPARE} --file bad.json", 2, "'givens'",
         files={"bad.json": b'{"box": [2, 2]}'}),
    case("solve-json-file-cut-short", "solve --file cut.json", 2, "bad JSON",
         files={"cut.json": b'{"givens": "' + EASY.encode()}),
    case("solve-jsonl-not-an-object", "solve --file p.jsonl --format line", 2,
         "p.jsonl:1: not a JSON object", files={"p.jsonl": lines("[1, 2]", THERMO)},
         kept=(SOLUTION,)),
    # a bad puzzle among good ones: reported with file and line, the others answered
    case("solve-mixed-length", "solve --file mixed.txt --format line", 2,
         "mixed.txt:2: wrong length: 80 cells", files={"mixed.txt": MIXED_LENGTH},
         kept=(SOLUTION, "bad-input", SOLUTION2), out_lines=3),
    case("solve-mixed-length-json", "solve --file mixed.txt --format json", 2, "mixed.txt:2:",
         files={"mixed.txt": MIXED_LENGTH}, out_lines=3,
         kept=(f'"puzzle": "{EASY}"', '"status": "bad-input"', f'"puzzle": "{EASY2}"')),
    case("solve-mixed-strict", "solve --file mixed.txt --format line --strict", 2,
         "mixed.txt:2:", files={"mixed.txt": MIXED_LENGTH}, kept=(SOLUTION,)),
    case("solve-mixed-symbol", "solve --file mixed.txt --format line", 2, "mixed.txt:2:",
         files={"mixed.txt": MIXED_SYMBOL}, kept=(SOLUTION, SOLUTION2)),
    case("solve-mixed-utf8", "solve --file mixed.txt --format line", 2,
         "mixed.txt:2: not UTF-8", files={"mixed.txt": MIXED_UTF8},       # item 5
         kept=(SOLUTION, "bad-input", SOLUTION2), out_lines=3),
    case("solve-stdin-mixed-utf8", "solve - --format line", 2, "<stdin>:2: not UTF-8",
         stdin=MIXED_UTF8, kept=(SOLUTION, SOLUTION2)),
    case("solve-euler-short-row", "solve --file p096.txt --format line", 2, "p096.txt:",
         files={"p096.txt": EULER_SHORT}, kept=("bad-input", SOLUTION2),
         out_lines=2),                                                     # item 12
    case("solve-samurai-stray-line", "solve --file samurai.txt --format line", 2,
         "samurai.txt:1:", files={"samurai.txt": SAMURAI_STRAY},
         kept=("bad-input", SOLUTION2), out_lines=2),                      # item 12
    case("show-mixed-utf8", "show --file mixed.txt --format line", 2, "mixed.txt:2: not UTF-8",
         files={"mixed.txt": MIXED_UTF8}, kept=(EASY, EASY2)),
    case("grade-mixed-length", "grade --file mixed.txt", 2, "mixed.txt:2:",
         files={"mixed.txt": MIXED_LENGTH}, kept=("#1 ", "#3 ")),
    case("grade-mixed-utf8", "grade --file mixed.txt", 2, "mixed.txt:2: not UTF-8",
         files={"mixed.txt": MIXED_UTF8}, kept=("#1 ", "#3 ")),
    case("explain-mixed-length", "explain --file mixed.txt --format json", 2, "mixed.txt:2:",
         files={"mixed.txt": MIXED_LENGTH}, kept=(EASY, EASY2)),
    case("explain-mixed-utf8", "explain --file mixed.txt --format json", 2, "not UTF-8",
         files={"mixed.txt": MIXED_UTF8}, kept=(EASY, EASY2)),
    case("hint-mixed-length", "hint --file mixed.txt", 2, "mixed.txt:2:",
         files={"mixed.txt": MIXED_LENGTH}, kept=("r5c6=4", "r3c5=6")),
    case("model-mixed-length", "model --file mixed.txt -b norvig", 2, "mixed.txt:2:",
         files={"mixed.txt": MIXED_LENGTH}, kept=("norvig:", "norvig:")),
    case("compare-mixed-length", f"{COMPARE} --file mixed.txt", 2,
         "mixed.txt:2: wrong length", files={"mixed.txt": MIXED_LENGTH},
         kept=("(2 puzzles)",)),
    case("compare-mixed-utf8", f"{COMPARE} --file mixed.txt", 2, "mixed.txt:2: not UTF-8",
         files={"mixed.txt": MIXED_UTF8}, kept=("(2 puzzles)",)),
    case("compare-mixed-strict", f"{COMPARE} --file mixed.txt --strict", 2, "mixed.txt:2:",
         files={"mixed.txt": MIXED_LENGTH}),
    case("solve-input-format-jsonl-on-lines", "solve --file one.txt --input-format jsonl", 2,
         "one.txt:1: not a JSON object", files={"one.txt": lines(EASY)}),
    case("solve-input-format-hodoku-on-lines", "solve --file one.txt --input-format hodoku",
         2, "not a HoDoKu library line", files={"one.txt": lines(EASY)}),
    case("export-several-puzzles", "export --file good.txt --to asp", 2, "one puzzle",
         files={"good.txt": GOOD}),

    # --- standard input: closed, endless, binary, empty, too long ------------------------
    *per_command("{c}-stdin-closed", READING + ("export --to asp",), "{c} -", 2,
                 "<stdin>", closed=0),                                  # item 6
    case("read-stdin-closed", "read -", 2, "<stdin>", closed=0),
    case("solve-stdin-dev-zero", "solve -", 2, "a NUL byte", stdin="/dev/zero"),  # item 4
    case("show-stdin-dev-zero", "show -", 2, "a NUL byte", stdin="/dev/zero"),
    case("grade-stdin-dev-urandom", "grade -", 2, "a NUL byte", stdin="/dev/urandom"),
    case("solve-stdin-binary", "solve -", 2, "<stdin>:1: a NUL byte", stdin=BINARY),  # item 12
    case("solve-stdin-empty", "solve -", 2, "no puzzle", stdin=b""),
    case("explain-stdin-empty", "explain -", 2, "no puzzle", stdin=b""),
    case("solve-stdin-long-line", "solve -", 2, "too long", stdin=LONG_LINE),
    case("read-stdin-text", "read -", 2, "<stdin>: not an image", stdin=b"hello\n"),
    case("read-stdin-empty", "read -", 2, "<stdin>: not an image", stdin=b""),

    # --- standard output closed (item 6) ---------------------------------------------------
    *per_command("{c}-stdout-closed", ("solve " + P4, "show " + P4, "model " + P4,
                                        "export " + P4 + " --to asp", "explain " + EASY,
                                        "hint " + EASY, "grade " + EASY, "backends",
                                        "datasets", "generate --box 2x2", "serve --port 0",
                                        "read photo.jpg", COMPARE + " --file good.txt"),
                 "{c}", 2, "standard output is closed", closed=1,
                 files={"good.txt": GOOD, "photo.jpg": PHOTO}),

    # --- outputs that cannot be written --------------------------------------------------
    case("export-out-no-folder", "export " + P4 + " --to dimacs --out nofolder/x.cnf", 2,
         "No such file or directory"),
    case("export-out-full-disk", "export " + P4 + " --to dimacs --out /dev/full", 2,
         "No space left on device"),
    case("export-out-folder", "export " + P4 + " --to dimacs --out adir", 2, "Is a directory",
         files={"adir": None}),
    case("export-model-for-dimacs", "export " + P4 + " --to dimacs --model int", 2,
         "--model"),                                                       # item 14
    case("export-encoding-for-asp", "export " + P4 + " --to asp --encoding minimal", 2,
         "--encoding"),                                                    # item 14
    case("export-amo-for-smt2", "export " + P4 + " --to smt2 --amo ladder", 2, "--amo"),
    case("export-unknown-encoding", "export " + P4 + " --to dimacs --encoding nosuch", 2,
         "--encoding: invalid choice: 'nosuch'"),
    case("export-unknown-amo", "export " + P4 + " --to dimacs --amo nosuch", 2,
         "--amo 'nosuch'"),
    case("export-unknown-model", "export " + P4 + " --to smt2 --model nosuch", 2,
         "--model 'nosuch'"),
    case("grade-plot-text", "grade " + EASY + " --plot plot.txt", 2, "--plot plot.txt"),  # 7
    case("grade-plot-folder", "grade " + EASY + " --plot adir", 2, "--plot adir",
         files={"adir": None}),
    case("grade-plot-folder-named-png", "grade " + EASY + " --plot adir.png", 2, "folder",
         files={"adir.png": None}),
    case("grade-plot-full-disk", "grade " + EASY + " --plot /dev/full", 2, "--plot /dev/full"),
    case("grade-plot-no-folder", "grade " + EASY + " --plot nofolder/p.png", 2, "nofolder"),
    case("generate-out-no-folder", "generate --box 2x2 --out nofolder/x.txt", 2,
         "No such file or directory"),
    case("generate-out-full-disk", "generate --box 2x2 --out /dev/full", 2,
         "No space left on device"),
    case("generate-out-folder", "generate --box 2x2 --out adir", 2, "Is a directory",
         files={"adir": None}),
    case("compare-out-is-a-file", "compare --backends norvig --jobs 1 --out afile --file "
         "good.txt", 2, "not a folder", files={"good.txt": GOOD, "afile": b"x"}),
    case("compare-out-holds-a-run", "compare --backends norvig --jobs 1 --out old --file "
         "good.txt", 2, "--resume", files={"good.txt": GOOD, "old/meta.json": b"{}",
                                           "old/runs.jsonl": b""}),
    case("compare-resume-nothing", "compare --resume --out nothing --jobs 1", 2,
         "cannot resume nothing"),
    case("compare-resume-no-runs", "compare --resume --jobs 1", 2, "no run to resume"),
    case("compare-cite-empty-folder", "compare --cite --out empty", 2, "empty holds no run",
         files={"empty": None}),
    case("compare-cite-no-runs", "compare --cite", 2, "no run to cite"),
    case("compare-cite-not-a-run", "compare --cite --out old", 2, "not a compare run's",
         files={"old/meta.json": b"[]"}),
    case("read-overlay-text", "read photo.jpg --solve --overlay out.txt", 2,
         "cannot write .txt", files={"photo.jpg": PHOTO}),                # item 8
    case("read-overlay-without-solve", "read photo.jpg --overlay out.png", 2, "--solve",
         files={"photo.jpg": PHOTO}),                                     # item 8
    case("read-overlay-no-folder", "read photo.jpg --solve --overlay nofolder/o.png", 2,
         "nofolder", files={"photo.jpg": PHOTO}),
    case("read-debug-not-a-folder", "read photo.jpg --debug /dev/full/x", 2, "not a folder",
         files={"photo.jpg": PHOTO}),

    # --- read: images that cannot be read (item 9) ---------------------------------------
    case("read-text-as-photo", "read list.jpg", 2, "not an image",
         files={"list.jpg": b"a shopping list\n"}),
    case("read-empty-image", "read empty.png", 2, "not an image OpenCV can read (empty)",
         files={"empty.png": b""}),
    case("read-folder", "read adir", 2, "adir: is a directory", files={"adir": None}),
    case("read-missing-image", "read nothing.png", 2, "nothing.png: no such file"),
    case("read-truncated-png", "read cut.png", 2, "truncated or corrupt",
         files={"cut.png": CUT_PHOTO}),
    case("read-wrong-size", "read photo.jpg --size 4", 2, "does not fit the grid found (9x9)",
         files={"photo.jpg": PHOTO}),

    # --- serve: refuses before it announces anything (item 10) ---------------------------
    case("serve-busy-port", "serve --port {port}", 2, "Address already in use"),
    case("serve-unknown-host", "serve --host example.invalid --port 0", 2,
         "--host example.invalid"),
    case("serve-empty-host", ["serve", "--host", "", "--port", "0"], 2, "--host"),

    # --- warnings and notes: stated, never silent (items 13, 14) -------------------------
    case("generate-old-count", "generate --box 2x2 --count 1", 0, "--number", kind="warning"),
    case("solve-grids-without-count", "solve " + P4 + " --grids 2", 2, "--count"),
    case("show-sdk-drops-rules", "show " + P4 + " --format sdk --rules diagonal", 0,
         "cannot hold rules", kind="note"),
    case("model-human-cannot-express", "model " + P4 + " -b human --line thermometer:r1c1,r1c2",
         5, "cannot express"),                                             # item 13
    case("solve-human-unsupported-rule", "solve " + EASY + " -b human --sandwich r1=5 "
         "--format line", 5, "unsupported", kind="answer"),
    case("explain-unsupported-rule", "explain " + EASY + " --line thermometer:r1c1,r1c2", 5,
         "thermometer"),
    case("compare-human-unsupported", "compare --file therm.jsonl --backends norvig,human "
         "--jobs 1 --out run", 5, "unsupported", kind="note",
         files={"therm.jsonl": lines(THERMO)}),                            # item 13
    case("compare-resume-garbage-line", "compare --resume --out run --jobs 1", 0,
         "run/runs.jsonl:1: not a result record", kind="warning",
         files={"good.txt": GOOD}, prepare=f"{COMPARE} --file good.txt",
         then={"run/runs.jsonl": b"garbage {\n"}),                         # item 14
]

# compare's own progress on stderr ('norvig: 2/2 in 0.3 s'), 'resuming DIR', and its
# closing tally of the bad puzzles it listed above: not the line a case is about.
COMPARE_CHATTER = re.compile(r"^(\S+: \d+/\d+ in |resuming |sudokulab: \d+ bad puzzle)")
HANG = 120  # seconds: only so that a command that never ends (serve) fails, not hangs


@pytest.fixture(scope="module")
def busy_port():
    """A port of this machine that is taken: a socket listens on it."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        yield taken.getsockname()[1]


@pytest.fixture(scope="module")
def photos() -> dict[str, bytes]:
    """A synthetic 9x9 photo as JPEG bytes, and a PNG of it cut in half."""
    import cv2

    from sudokulab.vision import fonts, synth

    nine = synth.synthetic_photo(synth.nine_by_nine(1), fonts.paths(fonts.HELD_OUT)[0], seed=1)
    png = cv2.imencode(".png", nine.image)[1].tobytes()
    return {PHOTO: cv2.imencode(".jpg", nine.image)[1].tobytes(), CUT_PHOTO: png[:len(png) // 2]}


def make_files(folder: Path, files: tuple, photos) -> None:
    """The case's files: bytes, a folder (None), or a photo made by the fixture."""
    for name, content in files:
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if content is None:
            path.mkdir(exist_ok=True)
        elif content in (PHOTO, CUT_PHOTO):
            path.write_bytes(photos()[content])
        else:
            path.write_bytes(content)


def child_setup(case: Case):
    """What the child does before it runs sudokulab: close a descriptor, and cap memory
    when it reads an endless device (a reader that reads it whole must fail, not swap)."""
    def setup() -> None:
        if case.closed is not None:
            os.close(case.closed)
        if isinstance(case.stdin, str):
            cap = 4 << 30
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    return setup


def run(case: Case, folder: Path, port: int) -> tuple[int, str, str]:
    """Run the case's command line in folder: (exit code, stdout, stderr)."""
    argv = [word.replace("{port}", str(port)) for word in case.argv]
    with contextlib.ExitStack() as stack:
        stdin = stack.enter_context(open(case.stdin, "rb")) if isinstance(case.stdin, str) \
            else subprocess.PIPE if case.stdin is not None else subprocess.DEVNULL
        child = stack.enter_context(subprocess.Popen(
            [sys.executable, "-m", "sudokulab", *argv], cwd=folder, stdin=stdin,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=child_setup(case)))
        given = case.stdin if isinstance(case.stdin, bytes) else None
        try:
            out, err = child.communicate(given, timeout=HANG)
        except subprocess.TimeoutExpired:
            child.kill()
            out, err = child.communicate()
            pytest.fail(f"still running after {HANG} s; stderr: {err.decode()[-2000:]}")
    return child.returncode, out.decode(errors="replace"), err.decode(errors="replace")


@pytest.mark.parametrize("case", CASES)
def test_bad_input(case: Case, tmp_path: Path, busy_port: int, request) -> None:
    make_files(tmp_path, case.files, lambda: request.getfixturevalue("photos"))
    if case.prepare:  # e.g. the run that a --resume case finishes
        subprocess.run([sys.executable, "-m", "sudokulab", *case.prepare], cwd=tmp_path,
                       capture_output=True, timeout=HANG, check=True)
        make_files(tmp_path, case.then, None)
    code, out, err = run(case, tmp_path, busy_port)
    said = f"\nstderr:\n{err[-3000:]}\nstdout:\n{out[:1500]}"
    assert "Traceback" not in err, said
    assert code == case.code, f"exit {code}, not {case.code}{said}"
    chatter = COMPARE_CHATTER if "compare" in case.argv[:1] else re.compile("(?!)")
    told = [line for line in err.splitlines() if not chatter.match(line)]
    if case.kind == "answer":
        assert told == [], said
        assert case.phrase in out, said
    else:
        prefix = {"error": "sudokulab: error: ", "warning": "sudokulab: warning: ",
                  "note": "sudokulab: "}[case.kind]
        assert len(told) == 1, f"{len(told)} lines on stderr, not one{said}"
        assert told[0].startswith(prefix) and case.phrase in told[0], said
    for text in set(case.kept):
        assert out.count(text) >= case.kept.count(text), f"{text!r} not answered{said}"
    if case.out_lines is not None:
        assert len(out.splitlines()) == case.out_lines, said


def test_the_table_covers_every_command_and_is_large() -> None:
    """At least 170 cases, each command named by some, each id once."""
    from sudokulab.commands import COMMANDS

    named = {param.values[0].argv[0] for param in CASES if param.values[0].argv}
    assert set(COMMANDS) <= named
    ids = [param.id for param in CASES]
    assert len(ids) >= 170 and len(set(ids)) == len(ids)
