"""Backend options (`NAME:key=value`): checked when the spec is read, one line per mistake.

Every backend, every option: a good spec makes a backend with the values given; a wrong
type, a number out of range, an unknown choice, a key given twice, an unknown key or an
empty value is a BackendError naming the backend and the option, before any engine runs.
"""

from __future__ import annotations

import inspect
import subprocess
from pathlib import Path

import pytest

from sudokulab.backends import backend_class, make_backend, names
from sudokulab.errors import BackendError

ROOT = Path(__file__).resolve().parent.parent
EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"

# A good spec and what the backend it makes holds.
GOOD = [
    ("norvig", {}),
    ("asp", {}),
    ("sat:solver=glucose4,encoding=minimal,amo=seqcounter",
     {"solver": "glucose4", "encoding": "minimal", "amo": "seqcounter"}),
    ("smt:model=bitvec,solver=qffd,givens=assume",
     {"model": "bitvec", "solver": "qffd", "givens": "assume"}),
    ("prolog:strength=singles,labeling=wdeg,order=down,branching=enum",
     {"strength": "singles", "labeling": ["wdeg", "down", "enum"]}),
    ("cpsat:model=int,workers=64,presolve=on", {"model": "int", "workers": 64,
                                                "presolve": "on"}),
    (" cpsat : workers = 2 ", {"workers": 2}),
    ("human:upto=hidden single,uniqueness=ON", {"unique": True}),
]

# A bad spec and the words its message must hold (backend, option, what it allows).
BAD = [
    # wrong type, out of range
    ("cpsat:workers=two", ["cpsat", "workers", "whole number from 1 to 64", "not two"]),
    ("cpsat:workers=2.5", ["cpsat", "workers", "whole number from 1 to 64"]),
    ("cpsat:workers=0", ["cpsat", "workers", "from 1 to 64", "not 0"]),
    ("cpsat:workers=-3", ["cpsat", "workers", "from 1 to 64", "not -3"]),
    ("cpsat:workers=65", ["cpsat", "workers", "from 1 to 64", "not 65"]),
    ("cpsat:workers=100000", ["cpsat: workers must be a whole number from 1 to 64, "
                              "not 100000"]),
    # unknown choice
    ("cpsat:model=real", ["cpsat", "model", "bool or int", "not real"]),
    ("cpsat:presolve=maybe", ["cpsat", "presolve", "off or on"]),
    ("smt:model=real", ["smt", "model", "bool, bitvec or int"]),
    ("smt:solver=cvc5", ["smt", "solver", "default or qffd"]),
    ("smt:givens=later", ["smt", "givens", "assume or push"]),
    ("prolog:strength=strong", ["prolog", "strength", "all_distinct"]),
    ("prolog:labeling=random", ["prolog", "labeling", "ffc", "wdeg"]),
    ("prolog:order=sideways", ["prolog", "order", "up or down"]),
    ("prolog:branching=split", ["prolog", "branching", "step, enum or bisect"]),
    ("human:upto=nosuch", ["human", "upto", "Hidden Single", "not nosuch"]),
    ("human:uniqueness=maybe", ["human", "uniqueness", "yes or no"]),
    ("sat:encoding=clever", ["sat", "encoding", "minimal"]),
    ("sat:amo=magic", ["sat", "amo", "pairwise"]),
    ("sat:solver=nosuch", ["sat", "solver", "nosuch"]),
    # options that do not go together
    ("smt:model=int,solver=qffd", ["smt", "qffd", "int"]),
    ("sat:solver=glucose4,amo=native", ["sat", "amo=native"]),
    # a key given twice, whatever the backend and however often
    ("sat:solver=glucose4,solver=cadical195", ["sat", "solver is given twice"]),
    ("cpsat:workers=2,model=int,workers=2", ["cpsat", "workers is given twice"]),
    ("smt:model=int,model=bool", ["smt", "model is given twice"]),
    ("prolog:order=up,order=down", ["prolog", "order is given twice"]),
    ("human:uniqueness=yes,uniqueness=no", ["human", "uniqueness is given twice"]),
    ("norvig:x=1,x=1", ["norvig", "x is given twice"]),
    ("dlx:x=1,x=2", ["dlx", "x is given twice"]),
    ("asp:x=1,x=2", ["asp", "x is given twice"]),
    # an unknown key
    ("sat:colour=red", ["sat has no option colour", "solver, encoding, amo"]),
    ("smt:colour=red", ["smt has no option colour", "model, solver, givens"]),
    ("prolog:colour=red", ["prolog has no option colour", "strength, labeling"]),
    ("cpsat:colour=red", ["cpsat has no option colour", "model, workers, presolve"]),
    ("human:colour=red", ["human has no option colour", "upto, uniqueness"]),
    ("norvig:colour=red", ["norvig has no option colour", "variant"]),
    ("dlx:colour=red", ["dlx has no option colour", "variant"]),
    ("asp:colour=red", ["asp takes no option colour"]),
    # an empty value
    ("cpsat:workers=", ["cpsat", "workers is empty", "from 1 to 64"]),
    ("cpsat:model=", ["cpsat", "model is empty", "bool or int"]),
    ("smt:givens=", ["smt", "givens is empty", "assume or push"]),
    ("prolog:labeling=", ["prolog", "labeling is empty"]),
    ("human:upto=", ["human", "upto is empty"]),
    ("human:uniqueness=", ["human", "uniqueness is empty", "yes or no"]),
    ("sat:solver=", ["sat", "solver is empty"]),
    ("norvig:x=", ["norvig has no option x"]),
    # not key=value
    ("cpsat:workers", ["'workers'", "not key=value"]),
    # a ':' with nothing after it (issue 53): it would run under the label 'dlx:'
    ("dlx:", ["'dlx:'", "no option after its ':'"]),
]


@pytest.mark.parametrize("spec, held", GOOD)
def test_a_good_spec_makes_its_backend(spec, held):
    backend = make_backend(spec)
    assert backend.name == spec.split(":")[0].strip()
    assert {key: getattr(backend, key) for key in held} == held


def test_upto_reads_a_technique_in_any_case():
    backend = make_backend("human:upto=HIDDEN single")
    assert [t.name for t in backend.techniques][-1] == "Hidden Single"


@pytest.mark.parametrize("spec, words", BAD)
def test_a_bad_spec_is_one_line_naming_the_option(spec, words):
    with pytest.raises(BackendError) as error:
        make_backend(spec)
    message = str(error.value)
    assert all(word in message for word in words), message
    assert "\n" not in message and "Traceback" not in message
    assert "__init__" not in message and "keyword argument" not in message


@pytest.mark.parametrize("name", names())
def test_every_option_of_the_table_is_a_constructor_keyword(name):
    cls = backend_class(name)
    if cls.option_table is None:  # a backend that judges its options in its constructor
        pytest.skip(f"{name} declares no option table")
    keywords = [p.name for p in inspect.signature(cls.__init__).parameters.values()
                if p.name != "self" and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    assert list(cls.option_table) == keywords
    assert all(option.help for option in cls.option_table.values())


def test_the_backends_with_no_options_say_so():
    for name in ("asp",):
        assert backend_class(name).option_table == {}
        assert backend_class(name).option_help() == []


def test_option_help_lists_what_each_option_allows_and_its_default():
    lines = backend_class("cpsat").option_help()
    assert lines[1].startswith("workers: a whole number from 1 to 64 (default: 1): ")
    assert backend_class("smt").option_help()[2].startswith("givens: assume or push: ")


def test_smt_lists_the_models_of_its_encoding():
    from sudokulab.backends import smt
    from sudokulab.models import smt as encoding

    assert smt.MODELS == encoding.MODELS


@pytest.mark.parametrize("output", [[], ["--format", "line"]])
def test_the_command_line_refuses_too_many_workers_before_solving(output):
    done = subprocess.run([str(ROOT / ".venv/bin/sudokulab"), "solve", EASY, "-b",
                           "cpsat:workers=100000", *output], capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == ["sudokulab: error: cpsat: workers must be a whole "
                                        "number from 1 to 64, not 100000"]
