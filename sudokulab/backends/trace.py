"""Search you can watch: the events of norvig's, dlx's and native's search, on request.

A backend traces when its `trace` attribute holds a Recorder (None, the default, costs a
test per node and per guess, nothing in propagation: bench/bench_trace.py measures it).
The search reports, in order:
- start: each cell's candidates before propagation (bit d-1 for digit d);
- wave: what one propagation removed (cell, digit pairs) and the cells it solved;
- guess: a digit put in a cell by the node at depth d (the guesses above it), and why
  that cell (norvig: the fewest candidates; dlx: the column with the fewest rows); its
  slot is the node's place on the search's stack, `first` whether it is its first try;
- dead_end: where propagation met a contradiction, in words;
- backtrack: back to a node (its slot), its candidates as they were before its guesses;
- solution: a full grid;
- truncated: the cap was reached; nothing more is recorded but the solutions found.
Replaying them (`replay`) rebuilds the candidates after every event: the page's board
and the tests do exactly that.

Bounded: at most `cap` events (TRACE_CAP unless told) and then one `truncated` marker,
plus at most `limit` solution events; each event holds at most cells x N pairs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from sudokulab.backends.recording import RecordingFile

TRACE_CAP = 2000  # events; a wave is at most cells x N pairs, so some 2 MB at worst


class Recorder:
    """The events of one search, up to `cap` of them; `full` once the cap is reached.

    The search names its nodes by their slot on its stack (a slot is reused once its node
    has tried every digit); the recorder turns that into the tree depth it reports.
    """

    def __init__(self, cap: int = TRACE_CAP) -> None:
        if cap < 1:
            raise ValueError("a trace needs room for at least one event")
        self.cap = cap
        self.events: list[dict] = []
        self.full = False
        self.name: Callable[[int], str] = str  # cell -> its name (r1c1): the geometry's
        self.depth = 0  # of the node being propagated
        self._slots: dict[int, tuple[int, str, bool]] = {}  # slot -> depth, why, first try

    def add(self, event: dict) -> None:
        """Keep an event, unless the cap is reached (then one `truncated` marker)."""
        if self.full:
            return
        if len(self.events) >= self.cap:
            self.full = True
            self.events.append({"event": "truncated", "cap": self.cap})
            return
        self.events.append(event)

    def start(self, marks: Sequence[int], n: int) -> None:
        """The candidates before propagation."""
        self.add({"event": "start", "n": n, "marks": list(marks)})

    def wave(self, before: Sequence[int], after: Sequence[int]) -> None:
        """One propagation: the candidates it removed and the cells it left with one."""
        removed, placed = [], []
        for cell, (old, new) in enumerate(zip(before, after)):
            gone = old & ~new
            if gone:
                removed += [[cell, d + 1] for d in range(gone.bit_length()) if gone >> d & 1]
                if new and not new & (new - 1):
                    placed.append([cell, new.bit_length()])
        self.add({"event": "wave", "depth": self.depth, "placed": placed, "removed": removed})

    def chose(self, slot: int, why: str) -> None:
        """The node just propagated branches, kept in `slot`; why it branches where it does."""
        self._slots[slot] = (self.depth, why, True)

    def guess(self, slot: int, cell: int, digit: int) -> None:
        """A digit tried by the node in `slot` (after a backtrack, if not its first)."""
        depth, why, first = self._slots[slot]
        if not first:
            self.add({"event": "backtrack", "slot": slot, "depth": depth})
        self._slots[slot] = (depth, why, False)
        self.depth = depth + 1
        self.add({"event": "guess", "slot": slot, "first": first, "depth": depth,
                  "cell": cell, "digit": digit, "why": why})

    def dead_end(self, cells: Iterable[int], why: str) -> None:
        """Propagation met a contradiction: where, and what ran out."""
        self.add({"event": "dead_end", "depth": self.depth, "cells": list(cells), "why": why})

    def solution(self, grid: Sequence[int]) -> None:
        """A full grid: kept even past the cap, so a replay ends on what the engine found."""
        self.events.append({"event": "solution", "depth": self.depth, "grid": list(grid)})


def replay(events: Iterable[dict]) -> list[list[int]]:
    """The candidates (bitmasks per cell) after each event, in order."""
    current: list[int] = []
    saved: dict[int, list[int]] = {}  # slot -> its node's candidates before its guesses
    states = []
    for event in events:
        kind = event["event"]
        if kind == "start":
            current, saved = list(event["marks"]), {}
        elif kind == "wave":
            for cell, digit in event["removed"]:
                current[cell] &= ~(1 << (digit - 1))
        elif kind == "guess":
            if event["first"]:
                saved[event["slot"]] = current[:]
            else:
                current = saved[event["slot"]][:]
            current[event["cell"]] = 1 << (event["digit"] - 1)
        elif kind == "backtrack":
            current = saved[event["slot"]][:]
        elif kind == "solution":
            current = [1 << (d - 1) for d in event["grid"]]
        states.append(current[:])
    return states


def tree(events: Iterable[dict]) -> list[dict]:
    """The search tree: one node per guess, {id, parent, cell, digit, outcome, event}.

    The root (id 0) is the propagation of the givens; a node's outcome is `solved`, `dead`
    (a dead end, or every child dead) or `open` (unfinished when the trace stopped).
    """
    nodes: list[dict[str, Any]] = [{"id": 0, "parent": None, "cell": None, "digit": None,
                                    "outcome": "open", "event": 0}]
    owner: dict[int, int] = {}  # slot -> the node that branches there
    current = 0
    for index, event in enumerate(events):
        kind = event["event"]
        if kind == "guess":
            if event["first"]:
                owner[event["slot"]] = current
            current = len(nodes)
            nodes.append({"id": current, "parent": owner[event["slot"]],
                          "cell": event["cell"], "digit": event["digit"], "outcome": "open",
                          "event": index})
        elif kind == "dead_end":
            nodes[current]["outcome"] = "dead"
        elif kind == "truncated":
            break  # the solutions after it were found on paths not recorded
        elif kind == "solution":
            node: int | None = current
            while node is not None:
                nodes[node]["outcome"] = "solved"
                node = nodes[node]["parent"]
    _close(nodes)
    return nodes


def _close(nodes: list[dict]) -> None:
    """An open node whose children are all dead, and that has some, is dead too."""
    children: dict[int, list[dict]] = {}
    for node in nodes[1:]:
        children.setdefault(node["parent"], []).append(node)
    for node in reversed(nodes):  # children come after their parent
        kids = children.get(node["id"])
        if node["outcome"] == "open" and kids and all(k["outcome"] == "dead" for k in kids):
            node["outcome"] = "dead"


def record(puzzle, engine: str = "norvig", *, limit: int | None = 1, cap: int = TRACE_CAP,
           timeout: float | None = None):
    """Solve with a traced backend: (its Result, the events)."""
    from sudokulab.backends import make_backend
    from sudokulab.errors import InputError

    why = TraceFile.refusal(engine)
    if why:
        raise InputError(why)
    backend = make_backend(engine)
    recorder = backend.trace = Recorder(cap)
    result = backend.solve(puzzle, limit=limit, timeout=timeout)
    return result, recorder.events


class TraceFile(RecordingFile):
    """`solve --trace FILE`: each puzzle's events appended to FILE as JSON Lines."""

    kind, capability, lacks = "trace", "records_trace", "records no trace"

    def fresh(self, engine) -> Recorder:
        """A fresh Recorder for the next puzzle."""
        return Recorder()

    def lines(self, recorder: Recorder, result) -> tuple[dict, list[dict]]:
        """Its cap, and its events."""
        return {"cap": recorder.cap}, recorder.events
