"""What a search records on request, in one place for its two kinds (a trace's events,
backends/trace.py; a timeline's samples, backends/timeline.py): which backends can
(a capability their class declares, read from the registry), and `solve --trace FILE` /
`solve --timeline FILE`, each puzzle's record appended to FILE as JSON Lines."""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Iterable
from typing import ClassVar


class RecordingFile(ABC):
    """`solve --KIND FILE`: each puzzle's record appended to FILE as JSON Lines, after a
    header line naming the puzzle and the backend. A subclass says what the backend keeps
    in its attribute KIND and how it is written."""

    kind: ClassVar[str] = ""  # the option's and the backend attribute's name: 'trace'
    capability: ClassVar[str] = ""  # the Backend ClassVar saying it can: 'records_trace'
    lacks: ClassVar[str] = ""  # what a backend without it does not: 'records no trace'

    def __init__(self, path: str, engine) -> None:
        from sudokulab.errors import UsageError

        why = self.refusal(engine.label)
        if why:
            raise UsageError(f"--{self.kind}: {why}")
        self.path = path
        self.failed = False  # a write failed: closing may only fail again, and says nothing
        try:
            self.out = open(path, "w", encoding="utf-8")  # noqa: SIM115 (closed by close)
        except OSError as error:
            raise self.unwritable(error) from None

    def unwritable(self, error: OSError) -> Exception:
        """The UsageError saying that FILE cannot be written, and why (a full disk, say):
        '--trace /dev/full: cannot write: No space left on device'."""
        from sudokulab.errors import UsageError

        return UsageError(f"--{self.kind} {self.path}: cannot write: "
                          f"{error.strerror or error}")

    @classmethod
    def refusal(cls, spec: str) -> str:
        """'' when the backend declares the capability, else the one line saying which do:
        'sat records no trace; these do: norvig, dlx'."""
        from sudokulab.backends import backend_class, make_backend, with_capability

        name = spec.partition(":")[0].strip()
        if getattr(backend_class(name), cls.capability):
            return ""
        if name != spec.strip() and getattr(make_backend(spec), cls.capability):
            return ""  # its options make it able (sat:solver=teach records a trace)
        return f"{name} {cls.lacks}; these do: {', '.join(with_capability(cls.capability))}"

    def watch(self, engine) -> None:
        """A fresh record for the engine's next puzzle."""
        setattr(engine, self.kind, self.fresh(engine))

    def keep(self, number: int, puzzle, engine, result, interrupted: bool = False) -> None:
        """The puzzle's record (ended on its Result), between a header line naming it and
        an end line saying how it ended ('interrupted' when Ctrl-C or SIGTERM cut it)."""
        from sudokulab.puzzle import line_of

        head, lines = self.lines(getattr(engine, self.kind), result)
        head = {"event": self.kind, "number": number, "puzzle": line_of(puzzle.givens),
                "backend": engine.label, **head}
        # how the puzzle ended closes its block: a reader tells a finished search from one
        # cut short by Ctrl-C or a timeout without the answer beside it
        status = "interrupted" if interrupted else result.status.value
        end = {"event": "end", "number": number, "status": status,
               "count": result.count, "exact": result.exact,
               **({"message": result.message} if result.message else {})}
        try:
            for line in (head, *lines, end):
                self.out.write(json.dumps(line) + "\n")
            self.out.flush()
        except OSError as error:  # named here: at the cli it would pass for stdout's
            self.failed = True
            raise self.unwritable(error) from None

    def close(self) -> None:
        """Close the file (after a failed write, quietly: that failure was said)."""
        try:
            self.out.close()
        except OSError as error:
            if not self.failed:
                raise self.unwritable(error) from None

    @abstractmethod
    def fresh(self, engine):
        """An empty record for the engine's next search."""

    @abstractmethod
    def lines(self, record, result) -> tuple[dict, Iterable[dict]]:
        """What the header line says of the record (beyond the puzzle and the backend),
        and the record's lines."""
