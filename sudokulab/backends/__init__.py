"""The registry: built-in backends by name, plus plugins from the `sudokulab.backends` group.

A backend is named on the command line as `NAME` or `NAME:key=value,key=value`,
for example `sat:solver=glucose4,encoding=minimal`. Modules are imported only
when a backend is asked for, and a backend module imports its engine's packages only
where it uses them (they are its class's `needs`), so a missing engine never breaks
the others: `available()` names the missing package and how to install it.
"""

from __future__ import annotations

import importlib

from sudokulab import errors
from sudokulab.backends.base import Availability, Backend
from sudokulab.errors import BackendError, unknown

BUILTIN = {
    "norvig": "sudokulab.backends.norvig:NorvigBackend",
    "sat": "sudokulab.backends.sat:SatBackend",
    "smt": "sudokulab.backends.smt:SmtBackend",
    "prolog": "sudokulab.backends.prolog:PrologBackend",
    "dlx": "sudokulab.backends.dlx:DlxBackend",
    "asp": "sudokulab.backends.asp:AspBackend",
    "cpsat": "sudokulab.backends.cpsat:CpsatBackend",
    "human": "sudokulab.backends.human:HumanBackend",
    "mzn": "sudokulab.backends.mzn:MznBackend",
    "milp": "sudokulab.backends.milp:MilpBackend",
    "cpmpy": "sudokulab.backends.cpmpy:CpmpyBackend",
    "native": "sudokulab.backends.native:NativeBackend",
}
PLUGIN_GROUP = "sudokulab.backends"
DEFAULT = "norvig"  # the backend `solve` and sl.solve use when none is named



def _plugins() -> dict[str, str]:
    """Third-party backends registered as entry points."""
    from importlib.metadata import entry_points  # slow to import: only when asked

    return {ep.name: ep.value for ep in entry_points(group=PLUGIN_GROUP)}


def names() -> list[str]:
    """Every backend name: built-ins first, then plugins."""
    return list(BUILTIN) + sorted(set(_plugins()) - set(BUILTIN))


def with_capability(capability: str) -> list[str]:
    """Every backend whose class sets `capability` (a boolean ClassVar of Backend:
    'complete', 'multi_grid', 'records_trace', 'keeps_timeline') true, in `names()` order.

    Imports every backend module (some 0.1 s): for tests, benchmarks and error messages,
    not for each puzzle. A backend whose module cannot be imported has Backend's defaults.
    """
    if not isinstance(getattr(Backend, capability, None), bool):
        raise ValueError(f"{capability!r} is not a capability of a backend")
    return [name for name in names() if getattr(backend_class(name), capability)]


def complete_searches() -> list[str]:
    """Every backend that is a complete search (it counts and proves), in `names()` order."""
    return with_capability("complete")


def backend_class(name: str) -> type[Backend]:
    """The class registered under a name (importing its module now)."""
    target = BUILTIN.get(name) or _plugins().get(name)
    if target is None:
        raise BackendError(unknown("backend", name, names()))
    module, _, attr = target.partition(":")
    try:
        return getattr(importlib.import_module(module), attr)
    except ImportError as error:
        return _missing(name, str(error))


def _missing(name: str, why: str) -> type[Backend]:
    """A stand-in class for a backend whose module cannot even be imported."""

    class Missing(Backend):
        @classmethod
        def available(cls) -> Availability:
            return Availability(False, reason=f"cannot import: {why}",
                                fix="run `make install` to install the Python packages")

        def _solve(self, puzzle, limit, deadline):
            raise RuntimeError(f"backend {name} is not available: {why}")

    Missing.name = name
    return Missing


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """('sat', {'solver': 'glucose4'}) from 'sat:solver=glucose4'; BackendError for an
    item that is not key=value, a key given twice, or a ':' with no option after it. A
    bare word names a variant of a backend that has the option `variant`:
    'norvig:classic' is 'norvig:variant=classic'."""
    name, colon, rest = spec.strip().partition(":")
    name = name.strip()
    items = [item for item in (part.strip() for part in rest.split(",")) if item]
    if colon and not items:  # 'sat:' would run sat under the label 'sat:'
        raise BackendError(f"backend spec {spec!r} has no option after its ':': give "
                           f"{name!r} alone, or {name}:key=value")
    options: dict[str, str] = {}
    for item in items:
        key, eq, value = (part.strip() for part in item.partition("="))
        if not eq and _has_variants(name):
            key, eq, value = "variant", "=", item
        if not eq or not key:
            raise BackendError(f"backend option {item!r} in {spec!r} is not key=value")
        if key in options:  # which one was meant is a guess: the user says
            raise BackendError(f"{name}: {key} is given twice ({key}={options[key]}, "
                               f"{key}={value}); give each option once")
        options[key] = value
    return name, options


def _has_variants(name: str) -> bool:
    """Whether the backend of this name takes the option `variant` (False: no such backend)."""
    if name not in BUILTIN and name not in _plugins():
        return False
    return "variant" in backend_class(name).option_names()


def make_backend(spec: str) -> Backend:
    """A backend instance from a spec such as 'sat:solver=glucose4'.

    BackendError (one line) for an unknown name, an unknown key, a key given twice, or a
    value its backend's `option_table` does not allow, before any engine runs;
    Unavailable for a backend whose `needs` do not import (its options may be the
    engine's own names).
    """
    name, given = parse_spec(spec)
    cls = backend_class(name)
    missing = cls.missing()
    if missing is not None:
        raise errors.Unavailable(missing.refusal(name))
    try:
        options = cls.read_options(given)
    except ValueError as error:
        raise BackendError(str(error)) from None
    try:
        backend = cls(**options)
    except (TypeError, ValueError) as error:  # options that do not go together
        raise BackendError(f"{name}: {error}") from None
    backend.label = spec.strip()
    return backend
