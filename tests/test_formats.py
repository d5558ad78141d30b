"""Issue 18: puzzles from other programs and sites, files of puzzles each with its own rules,
bad puzzles skipped with their file and line, clashing givens as no solution, jigsaws of
any size. Real samples are in tests/data/formats (PROVENANCE.md says where each is from)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ready_backend
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokulab import datasets
from sudokulab import rules as R
from sudokulab.backends import complete_searches, make_backend
from sudokulab.check import check
from sudokulab.cli import main
from sudokulab.errors import PuzzleError
from sudokulab.formats import KEEPS_RULES, files, links
from sudokulab.formats.text import format_line, parse
from sudokulab.puzzle import Puzzle, box_shape
from sudokulab.result import Status

DATA = Path(__file__).parent / "data" / "formats"
LINKS = {entry["name"]: entry for entry in json.loads((DATA / "links.json").read_text())}
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
CLASH = "44" + EASY[2:]  # two 4s in row 1
JIGSAW4 = "AAABCABBCCDBCDDD"
JIGSAW5 = "AAABBAACBBDCCCBDDCEEDDEEE"
SAT = make_backend("sat")


def run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of the command line run in this process."""
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(stdin), out, err
    try:
        code = main(list(argv))
    finally:
        sys.stdin, sys.stdout, sys.stderr = old
    return code, out.getvalue(), err.getvalue()


def unique(puzzle: Puzzle) -> str:
    """The one solution (checked by the independent checker), as a line."""
    result = SAT.solve(puzzle)
    assert result.status is Status.UNIQUE, result
    assert check(puzzle, result.solutions[0]) == []
    return format_line(puzzle.with_values(result.solutions[0]))


def read(name: str, fmt: str = "auto") -> list[Puzzle]:
    """The puzzles of a sample file, none of them bad."""
    return files.puzzles(files.read_file(DATA / name, fmt=fmt))


# --- the text formats programs exchange ---------------------------------------------------

def test_project_euler_96_grids_are_read_under_their_headers():
    puzzles = read("p096_sample.txt")
    assert [format_line(p)[:9] for p in puzzles] == ["..3.2.6..", "2...8.3..", "......9.7"]
    assert unique(puzzles[0])[:3] == "483"  # the example answer of Project Euler 96
    assert all(unique(p) for p in puzzles)


def test_sadman_sdk_with_sudocue_headers_and_the_simple_sudoku_frame_read_alike():
    sdk, ss = read("sudocue.sdk"), read("sudocue.ss")
    assert sdk == ss and len(sdk) == 1
    assert format_line(sdk[0]).startswith("2..1.5..3.54...71.")
    unique(sdk[0])


def test_an_sdk_file_reads_only_its_puzzle_section(tmp_path):
    state = "\n".join(SOLUTION[r * 9:r * 9 + 9] for r in range(9))
    grid = "\n".join(EASY[r * 9:r * 9 + 9] for r in range(9))
    path = tmp_path / "p.sdk"
    path.write_text(f"[Puzzle]\n{grid}\n[State]\n{state}\n")
    assert [format_line(p) for p in read(str(path))] == [EASY]


@pytest.mark.parametrize("fmt", files.GRID_FORMATS)
def test_json_read_as_a_grid_format_is_refused_as_json_not_as_broken_json(fmt):
    text = f'{{"givens": "{EASY}"}}\n' * 2
    [entry] = files.read_text(text, "k.jsonl", fmt=fmt)
    assert entry.error.startswith("k.jsonl:1: ") and "read it as json or jsonl" in entry.error
    assert "Extra data" not in entry.error  # what a grid reader said of the second line


def test_hodoku_library_lines_keep_givens_and_blank_placed_digits():
    puzzles = read("hodoku.txt")
    assert format_line(puzzles[0]).startswith("7.2.34.8.")
    line = (DATA / "hodoku.txt").read_text().splitlines()[2].split(":")[3]
    assert puzzles[2].clues == sum(ch.isdigit() for ch in line) - line.count("+")
    for puzzle in puzzles:
        unique(puzzle)


def test_forum_lines_with_ratings_are_read_for_their_puzzle():
    puzzles = read("forum_hardest.txt")
    lines = (DATA / "forum_hardest.txt").read_text().splitlines()
    assert [format_line(p) for p in puzzles] == [line[:81] for line in lines]
    for puzzle in puzzles:
        unique(puzzle)


@pytest.mark.parametrize("fmt, text, message", [
    ("hodoku", EASY, "not a HoDoKu library line"),
    ("jsonl", EASY, "not a JSON object"),
    ("link", EASY, "not an f-puzzles or SudokuPad link"),
    ("forum", EASY[:80] + " ; 11.9", "wrong length: 80 cells"),
])
def test_a_named_input_format_says_what_a_line_is_not(fmt, text, message):
    [entry] = files.read_text(text, "f.txt", fmt=fmt)
    assert entry.puzzle is None and entry.error.startswith("f.txt:1: ") and message in entry.error


# --- files of many puzzles, each with its own rules ---------------------------------------

def variant_puzzles() -> list[Puzzle]:
    """One puzzle per rule of tests/data/variants.json."""
    data = json.loads((Path(__file__).parent / "data" / "variants.json").read_text())
    items = data if isinstance(data, list) else list(data.values())
    return [files.puzzles(files.read_text(json.dumps(item)))[0] for item in items]


def test_json_lines_and_a_json_array_hold_each_puzzles_own_rules(tmp_path):
    puzzles = variant_puzzles()[:4]
    assert len({p.rules for p in puzzles}) == 4
    for name, fmt in (("p.jsonl", "jsonl"), ("p.json", "json"), ("p.txt", "jsonl"),
                      ("lines.json", "jsonl")):
        path = tmp_path / name
        path.write_text(files.write(puzzles, fmt))
        assert read(str(path)) == puzzles


def test_a_broken_line_of_json_lines_is_skipped_like_any_bad_puzzle():
    text = f'{{"givens": "{EASY}"\n{{"givens": "{SOLUTION}"}}\n'
    entries = files.read_text(text, "p.jsonl")
    assert entries[0].error.startswith("p.jsonl:1: bad JSON") and entries[1].puzzle


def test_solve_answers_every_puzzle_of_a_json_lines_file_under_its_rules(tmp_path):
    path = tmp_path / "variants.jsonl"
    puzzles = variant_puzzles()
    path.write_text(files.write(puzzles, "jsonl"))
    code, out, err = run("solve", "--file", str(path), "--backend", "sat", "--format", "json")
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and err == "" and len(answers) == len(puzzles)
    assert all(a["status"] == "unique" for a in answers)
    assert [a["rules"] for a in answers] == [[R.rule_to_json(r) for r in p.rules]
                                              for p in puzzles]


def test_solves_own_json_output_reads_back_as_its_puzzles(tmp_path):
    code, out, _ = run("solve", "--file", str(DATA / "p096_sample.txt"), "--format", "json")
    path = tmp_path / "answers.jsonl"
    path.write_text(out)
    assert code == 0 and read(str(path)) == read("p096_sample.txt")


def test_a_bad_item_of_a_json_array_is_named_by_its_line(tmp_path):
    text = f'[\n  {{"givens": "{EASY}"}},\n  {{"givens": "{EASY[:80]}"}},\n  "{SOLUTION}"\n]'
    entries = files.read_text(text, "a.json")
    assert [e.line for e in entries] == [2, 3, 4]
    assert entries[1].error.startswith("a.json:3: wrong length: 80 cells")
    assert entries[0].puzzle == parse(EASY) and entries[2].puzzle == parse(SOLUTION)


# --- a bad puzzle is skipped, the rest are answered ---------------------------------------

def five(tmp_path: Path) -> Path:
    """Five puzzles: two good, a clash (no solution), a bad line, a good one."""
    path = tmp_path / "five.txt"
    path.write_text("\n".join([EASY, SOLUTION, CLASH, "12x", EASY]) + "\n")
    return path


def test_solve_skips_a_bad_puzzle_names_file_and_line_and_answers_the_rest(tmp_path):
    path = five(tmp_path)
    code, out, err = run("solve", "--file", str(path), "--format", "line")
    assert out.splitlines() == [SOLUTION, SOLUTION, "none", "bad-input", SOLUTION]
    assert code == 2 and err.strip() == f"sudokulab: error: {path}:4: wrong length: 3 cells; " \
        "an N x N puzzle has one of 16, 36, 64, 81, 100, 144, 196, 225, 256, 324, 400, 441, " \
        "484, 576, 625"


def test_strict_stops_at_the_first_bad_puzzle_keeping_what_was_answered(tmp_path):
    code, out, err = run("solve", "--file", str(five(tmp_path)), "--format", "line", "--strict")
    assert code == 2 and out.splitlines() == [SOLUTION, SOLUTION, "none", "bad-input"]
    assert err.count("sudokulab: error:") == 1


def test_with_a_timeout_the_worker_answers_in_order_around_the_bad_puzzle(tmp_path):
    code, out, _ = run("solve", "--file", str(five(tmp_path)), "--format", "tsv",
                       "--timeout", "30")
    rows = [line.split("\t") for line in out.splitlines()[1:]]
    assert code == 2 and [r[1] for r in rows] == ["unique", "unique", "none", "bad-input",
                                                   "unique"]
    assert "givens repeat: 4 at r1c1 and r1c2 (row 1)" in rows[2][-1]


def test_compare_skips_the_bad_puzzle_and_counts_the_clash_as_none(tmp_path, capsys):
    out = tmp_path / "run"
    code = main(["compare", "--file", str(five(tmp_path)), "--backends", "norvig,sat",
                        "--jobs", "1", "--out", str(out), "--timeout", "30"])
    err = capsys.readouterr().err
    records = [json.loads(line) for line in (out / "runs.jsonl").read_text().splitlines()]
    assert code == 2 and "five.txt:4: wrong length: 3 cells" in err and "(skipped)" in err
    assert sorted({r["index"] for r in records}) == [0, 1, 2, 4]
    clash = [r for r in records if r["index"] == 2]
    assert {r["result"]["status"] for r in clash} == {"none"} and len(clash) == 2
    assert main(["compare", "--file", str(five(tmp_path)), "--strict", "--backends", "norvig",
                        "--out", str(tmp_path / "strict")]) == 2
    assert not (tmp_path / "strict").exists()


# --- clashing givens: a puzzle with no solution ---------------------------------------------

@pytest.fixture(scope="module", params=complete_searches())
def backend(request):
    """Each complete search; Prolog is skipped only on explicit request, never silently."""
    return ready_backend(request.param)


def test_every_backend_answers_none_for_clashing_givens_and_names_the_clash(backend):
    result = backend.solve(parse(CLASH))
    assert result.status is Status.NONE and result.count == 0 and result.exact
    assert result.message == "givens repeat: 4 at r1c1 and r1c2 (row 1)"


def test_a_clash_under_a_variant_rule_is_none_too():
    puzzle = parse("1" + "." * 39 + "1" + "." * 40, rules=[R.Diagonal()])  # r1c1, r5c5
    assert make_backend("norvig").solve(puzzle).message.endswith("(main diagonal)")


def test_solve_of_a_clash_exits_1_and_the_checker_still_refuses_a_clash():
    code, out, _ = run("solve", CLASH, "--format", "tsv")
    assert code == 1 and "\tnone\t0\t" in out and "givens repeat: 4" in out
    grid = tuple(int(d) for d in SOLUTION)
    assert check(parse(SOLUTION), grid) == []
    assert check(parse(CLASH), grid)  # the givens are not kept: refused


# --- jigsaws of sizes with no box ----------------------------------------------------------

@pytest.mark.parametrize("n, layout", [(5, JIGSAW5), (4, JIGSAW4)])
def test_a_jigsaw_of_any_size_reads_and_solves(n, layout):
    puzzle = parse("1" + "." * (n * n - 1), rules=[R.parse_regions(layout)])
    assert puzzle.n == n and puzzle.box in ((1, 5), (2, 2))
    norvig, sat = make_backend("norvig").solve(puzzle, limit=None), SAT.solve(puzzle, limit=None)
    assert norvig.count == sat.count > 1
    assert all(check(puzzle, grid) == [] for grid in sat.solutions)


def test_every_backend_counts_a_5x5_jigsaw_alike(backend):
    puzzle = parse("1" + "." * 15 + "2" + "." * 8, rules=[R.parse_regions(JIGSAW5)])
    reference = make_backend("norvig").solve(puzzle, limit=None)
    result = backend.solve(puzzle, limit=None)
    if not issubclass(R.Jigsaw, backend.supported_rules):  # it says so, never a wrong count
        assert result.status is Status.UNSUPPORTED and not result.solutions
        return
    assert result.count == reference.count == 66 and result.exact
    assert set(result.solutions) == set(reference.solutions)


def test_a_size_with_no_box_still_needs_regions():
    with pytest.raises(PuzzleError, match="wrong length: 25 cells"):
        parse("." * 25)
    code, _, err = run("solve", "." * 25, "--regions", JIGSAW5, "--rules", "windoku")
    assert code == 2 and "windoku needs boxes" in err


# --- links -----------------------------------------------------------------------------------

def expected_puzzle(name: str) -> Puzzle:
    """A link of links.json read, checked against what the entry expects of it."""
    entry = LINKS[name]
    puzzle = links.read_link(entry["link"])
    want = entry["expect"]
    names = [rule.name for rule in puzzle.rules]
    assert puzzle.n == want["size"] and puzzle.clues == want["clues"]
    assert {k: names.count(k) for k in set(names)} == want["rules"]
    return puzzle


@pytest.mark.parametrize("name", [n for n, e in LINKS.items() if "status" in e["expect"]])
def test_real_links_are_read_with_their_rules(name):
    puzzle = expected_puzzle(name)
    result = SAT.solve(puzzle)
    assert result.status.value == LINKS[name]["expect"]["status"]
    assert all(check(puzzle, grid) == [] for grid in result.solutions)


def test_a_killer_link_has_the_unique_solution_its_source_asserts():
    puzzle = expected_puzzle("killer")
    assert make_backend("smt").solve(puzzle).solutions == SAT.solve(puzzle).solutions


def test_the_setters_own_solution_satisfies_the_cages_read_from_the_link():
    import lzstring

    puzzle = expected_puzzle("killer-6x6")
    payload = LINKS["killer-6x6"]["link"].split("load=")[1]
    solution = json.loads(lzstring.LZString().decompressFromBase64(payload))["solution"]
    assert check(puzzle, solution) == []
    assert check(puzzle, solution[::-1])  # and the cages do rule out another grid


@pytest.mark.parametrize("name", [n for n, e in LINKS.items() if "refused" in e["expect"]])
def test_constraints_sudokulab_cannot_express_are_refused_by_name(name):
    with pytest.raises(PuzzleError) as error:
        links.read_link(LINKS[name]["link"])
    message = str(error.value)
    assert "cannot express" in message and "\n" not in message
    assert all(part in message for part in LINKS[name]["expect"]["refused"])


def test_a_refused_link_on_the_command_line_is_one_line_and_exit_2():
    code, out, err = run("solve", LINKS["many-constraints"]["link"])
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "cannot express arrow with a circle of several cells" in err


@pytest.mark.parametrize("name", [n for n, e in LINKS.items() if "status" in e["expect"]])
def test_real_payloads_round_trip(name):
    import lzstring

    lz = lzstring.LZString()
    payload = LINKS[name]["link"].split("load=")[1]
    assert lz.compressToBase64(lz.decompressFromBase64(payload)) == payload  # as JS writes it
    puzzle = links.read_link(LINKS[name]["link"])
    assert links.read_link(links.fpuzzles_link(puzzle)) == puzzle
    assert links.read_link(links.sudokupad_link(puzzle)) == puzzle


def test_sudokupads_compact_format_is_unzipped():
    data = links.decoded(LINKS["parity-fish"]["link"].split(".app/scl")[1], "scl")
    assert data["metadata"]["title"] == "Parity Fish" and len(data["cells"]) == 9
    assert len(data["regions"]) == 9 and data["overlays"][0]["rounded"] is True


def test_an_scl_puzzle_with_givens_regions_cages_and_diagonals_is_read():
    import lzstring

    compact = ("{cells:[[{v:1},,,],[,,,],[,,,],[,,,{v:2}]],"
               "regions:[[[0,0],[0,1],[1,0],[1,1]],[[0,2],[0,3],[1,2],[1,3]],"
               "[[2,0],[2,1],[3,0],[3,1]],[[2,2],[2,3],[3,2],[3,3]]],"
               "cages:[{cells:[[0,1],[0,2]],value:7,unique:t},{value:'title: tiny'}],"
               "lines:[{wayPoints:[[0,0],[4,4]],color:'#34BBE6'},{wayPoints:[[0,4],[4,0]]}]}")
    link = "https://sudokupad.app/scl" + lzstring.LZString().compressToBase64(compact)
    puzzle = links.read_link(link)
    assert puzzle == Puzzle((2, 2), (1,) + (0,) * 14 + (2,),
                            (R.Cage(((0, 1), (0, 2)), 7), R.Diagonal()))


def test_a_slash_that_lost_its_twin_is_put_back():
    puzzle = next(p for p in datasets.load("top95")
                  if "//" in links.fpuzzles_link(p).split("load=")[1])
    for link in (links.fpuzzles_link(puzzle), links.sudokupad_link(puzzle)):
        assert links.read_link(link.replace("//", "/")) == puzzle


@pytest.mark.parametrize("text, message", [
    ("https://f-puzzles.com/?id=abc123", "short link"),
    ("https://sudokupad.app/wsj7iunsg6", "short link"),
    ("https://sudokupad.app/sclN4IgzglgXgpiBcBOANCAlm", "does not decompress"),
])
def test_links_without_a_puzzle_say_why(text, message):
    with pytest.raises(PuzzleError, match=message):
        links.read_link(text)


def test_a_link_is_a_puzzle_anywhere_one_is_read(tmp_path):
    link = links.sudokupad_link(parse(EASY))
    code, out, _ = run("solve", link, "--format", "line")
    assert code == 0 and out.strip() == SOLUTION
    path = tmp_path / "links.txt"
    path.write_text(f"{links.fpuzzles_link(parse(EASY))}\n{EASY}\n{link}\n")
    code, out, _ = run("solve", "--file", str(path), "--format", "line")
    assert code == 0 and out.splitlines() == [SOLUTION] * 3


def test_a_result_opens_in_the_browser_with_its_solution():
    code, out, _ = run("solve", EASY, "--format", "fpuzzles")
    import lzstring

    data = json.loads(lzstring.LZString().decompressFromBase64(out.strip().split("load=")[1]))
    assert code == 0 and "".join(map(str, data["solution"])) == SOLUTION
    code, out, _ = run("export", "--to", "sudokupad", EASY, "--rules", "diagonal")
    assert code == 0 and links.read_link(out.strip()) == parse(EASY, rules=[R.Diagonal()])


def test_reading_a_plain_line_imports_no_link_or_file_reader():
    probe = (f"from sudokulab.formats.text import parse; parse({EASY!r}); import sys; "
             f"print('sudokulab.formats.links' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "False"


@pytest.fixture(scope="module")
def bomb_link() -> str:
    """An f-puzzles link of 2,264 characters (41 slashes) whose payload decompresses to
    a million and one characters: not JSON past its '{', and more than MAX_TEXT."""
    import lzstring

    return links.FPUZZLES + lzstring.LZString().compressToBase64("{" + "x" * 1_000_000)


def counted_inflations(monkeypatch) -> list[str]:
    """The payloads links.inflated is asked for from now on."""
    seen: list[str] = []
    inflated = links.inflated

    def counting(payload: str, *args):
        seen.append(payload)
        return inflated(payload, *args)

    monkeypatch.setattr(links, "inflated", counting)
    return seen


def test_a_link_decompressing_past_any_puzzle_is_refused_at_the_first_decompression(
        bomb_link, monkeypatch):
    seen = counted_inflations(monkeypatch)  # not again for each way to double its slashes
    with pytest.raises(PuzzleError) as error:
        links.read_link(bomb_link)
    message = str(error.value)
    assert len(seen) == 1 and "\n" not in message
    assert message.startswith(repr(bomb_link[:60]))
    assert "(2,264 characters) decompresses to more than 1,000,000 characters" in message


def test_a_link_too_large_on_the_command_line_is_one_line_and_exit_2(bomb_link):
    code, out, err = run("show", bomb_link)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "decompresses to more than 1,000,000 characters" in err


def test_a_payload_whose_first_character_is_not_json_is_decompressed_once(monkeypatch):
    import lzstring

    payload = lzstring.LZString().compressToBase64("x" * 2_000)
    assert payload.find("/") >= links.FIRST_TOKEN  # no doubled slash can change its start
    seen = counted_inflations(monkeypatch)
    with pytest.raises(PuzzleError, match="does not decompress to one"):
        links.read_link(links.FPUZZLES + payload)
    assert len(seen) == 1


def test_a_payload_whose_first_code_is_none_of_lz_strings_is_no_puzzle_not_a_crash():
    code, out, err = run("show", links.FPUZZLES + "wAAA")  # lzstring: UnboundLocalError
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "not a f-puzzles puzzle" in err


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(max_codepoint=0xFFFF, exclude_categories=("Cs",)),
               max_size=200))  # one UTF-16 unit a character, as JavaScript's strings
def test_the_bounded_decompression_reads_what_lzstring_wrote(text):
    import lzstring

    assert links.inflated(lzstring.LZString().compressToBase64(text)) == text


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
               min_size=1, max_size=80))
def test_the_bounded_decompression_agrees_with_lzstring_on_any_payload(payload):
    import lzstring

    try:
        theirs = lzstring.LZString().decompressFromBase64(payload)
    except IndexError:  # it reads a character ahead: past the end, where JavaScript's reads ''
        return
    except UnboundLocalError:  # a first code of 3: no text, and no answer
        theirs = None
    ours = links.inflated(payload)
    assert ours == theirs or not (ours or theirs)  # '' or None alike: no puzzle


# --- every writer: write, then read, gives the same puzzle ----------------------------------

@st.composite
def puzzles(draw, keeps_rules: bool) -> Puzzle:
    """A puzzle of a random size and givens; with rules when the writer keeps them."""
    n = draw(st.sampled_from([4, 6, 9]))
    box = box_shape(n)
    if keeps_rules and n == 6 and draw(st.booleans()):
        box = (3, 2)  # not the squarest: the writer must say it
    givens = tuple(draw(st.lists(st.integers(0, n), min_size=n * n, max_size=n * n)))
    rules: list[R.Rule] = []
    if keeps_rules:
        rules += draw(st.lists(st.sampled_from([R.Diagonal(), R.AntiKnight(), R.AntiKing(),
                                                R.NonConsecutive(), R.Windoku()]),
                               unique=True, max_size=3))
        cells = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
        for _ in range(draw(st.integers(0, 2))):
            cage = tuple(draw(st.lists(cells, min_size=1, max_size=4, unique=True)))
            rules.append(R.Cage(cage, draw(st.integers(1, 30))))
        for even in (True, False):
            if draw(st.booleans()):
                rules.append(R.Parity(tuple(draw(st.lists(cells, min_size=1, max_size=3,
                                                          unique=True))), even))
        if n == 4 and draw(st.booleans()):
            rules.append(R.parse_regions(JIGSAW4))
    return Puzzle(box, givens, tuple(rules))


def same(a: Puzzle, b: Puzzle) -> bool:
    """The same shape, givens and rules (in whatever order a format keeps them)."""
    return (a.box, a.givens, set(a.rules)) == (b.box, b.givens, set(b.rules))


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_every_writer_round_trips(data):
    fmt = data.draw(st.sampled_from(files.WRITERS))
    keeps = fmt in KEEPS_RULES
    batch = data.draw(st.lists(puzzles(keeps), min_size=1, max_size=1 if fmt == "sdk" else 3))
    text = files.write(batch, fmt)
    back = files.puzzles(files.read_text(text, "w.txt"))
    assert len(back) == len(batch)
    assert all(same(a, b) for a, b in zip(batch, back)), (fmt, text)


def test_writers_that_cannot_hold_a_puzzle_say_so():
    with pytest.raises(PuzzleError, match="one puzzle"):
        files.write([parse(EASY)] * 2, "sdk")
    with pytest.raises(PuzzleError, match="sizes up to 9"):
        files.write([parse("." * 256)], "euler")


def test_show_writes_the_file_formats_and_says_which_drop_rules():
    code, out, err = run("show", EASY, "--format", "euler")
    assert code == 0 and out.splitlines()[:2] == ["Grid 01", "003020600"] and err == ""
    code, out, err = run("show", EASY, "--format", "hodoku", "--rules", "diagonal")
    assert code == 0 and out.strip() == f":0000:x:{EASY}:::"
    assert "cannot hold rules; not shown: diagonal" in err
    code, out, err = run("show", EASY, "--format", "fpuzzles", "--rules", "diagonal")
    assert code == 0 and err == "" and links.read_link(out.strip()).rules == (R.Diagonal(),)


def test_show_skips_a_bad_puzzle_of_a_file_too(tmp_path):
    code, out, err = run("show", "--file", str(five(tmp_path)), "--format", "line")
    assert code == 2 and out.splitlines() == [EASY, SOLUTION, CLASH, EASY]
    assert f"{tmp_path / 'five.txt'}:4:" in err


@pytest.mark.parametrize("form", [
    "https://beta.sudokupad.app/fpuzzles{payload}",
    "https://sudokupad.app/?puzzleid=fpuzzles{payload}&setting-nogrid=1",
    "sudokupad.app/fpuz{payload}",
    "fpuzzles{payload}",
    "https://www.f-puzzles.com/?load={payload}&solve=true",
])
def test_the_forms_a_link_comes_in(form):
    puzzle = parse(EASY, rules=[R.AntiKnight()])
    payload = links.fpuzzles_link(puzzle).split("load=")[1]
    assert links.read_link(form.format(payload=payload)) == puzzle
    assert parse(form.format(payload=payload)) == puzzle  # where any puzzle is read


def test_ctc_is_scl_by_another_name_and_no_regions_leave_a_latin_square():
    import lzstring

    compact = "{cells:[[{v:1},,,],[,,,],[,,,],[,,,{v:2}]]}"
    payload = lzstring.LZString().compressToBase64(compact)
    scl = links.read_link(f"https://sudokupad.app/scl{payload}")
    assert links.read_link(f"https://sudokupad.app/ctc{payload}") == scl
    assert scl.rules == (R.Jigsaw(tuple(tuple((r, c) for c in range(4)) for r in range(4))),)


def test_the_command_line_offers_every_reader_and_writer():
    from sudokulab.cli import build_parser

    parser = build_parser()
    for fmt in files.READERS:
        assert parser.parse_args(["solve", "--input-format", fmt, EASY]).input_format == fmt
    for fmt in files.WRITERS:
        assert parser.parse_args(["show", "--format", fmt, EASY]).format == fmt


def test_a_7x7_jigsaw_is_solved_and_checked():
    layout = "BAAAAAA" + "BABBBBB" + "".join(letter * 7 for letter in "CDEFG")  # r1c1 = r2c2
    puzzle = parse("1" + "." * 48, rules=[R.parse_regions(layout)])
    assert puzzle.box == (1, 7)
    for engine in ("norvig", "sat", "smt"):
        result = make_backend(engine).solve(puzzle, limit=1)
        assert result.status is Status.SOLVED and check(puzzle, result.solutions[0]) == []


def test_compare_runs_a_json_lines_file_of_variants_each_under_its_rules(tmp_path, capsys):
    path = tmp_path / "variants.jsonl"
    puzzles = variant_puzzles()
    path.write_text(files.write(puzzles, "jsonl"))
    out = tmp_path / "run"
    assert main(["compare", "--file", str(path), "--backends", "norvig,sat", "--jobs", "1",
                        "--out", str(out)]) == 0
    assert f"unique {len(puzzles)}; every answer agrees" in capsys.readouterr().out


def test_a_hodoku_library_line_as_the_argument_is_read_as_a_file_reads_it(tmp_path, capsys):
    # held-out pass 9: solve, export and setter said "wrong length: 89 cells" for the line
    # that show, hint and --file read
    line = ":0703:2,6:2...6+4..8.743.+8.......2...+462....+4+81...4+8.5..8+4..+1..+9....5..34" \
           "......1+8.....+8..+17.:513 927::"
    (tmp_path / "one.txt").write_text(line + "\n")
    assert main(["solve", line, "--format", "line"]) == 0
    argument = capsys.readouterr().out
    assert main(["solve", "--file", str(tmp_path / "one.txt"), "--format", "line"]) == 0
    assert argument == capsys.readouterr().out and len(argument.strip()) == 81


def test_a_position_shown_as_json_keeps_its_candidates(capsys):
    # held-out pass 9: show --format json dropped the deleted candidates, so hint on the
    # JSON answered another position than hint on the line
    line = ":0703:2,6:2...6+4..8.743.+8.......2...+462....+4+81...4+8.5..8+4..+1..+9....5..34" \
           "......1+8.....+8..+17.:513 927 929 132 332 532 932 133 333 533 933 637 638 943 " \
           "356 756 956 358 259 659 764 266 666 767 269 669 583 784 984 593:288 688::"
    assert main(["show", line, "--format", "json"]) == 0
    shown = capsys.readouterr().out.strip()
    assert json.loads(shown)["candidates"][0] == []  # r1c1 holds 2
    answers = []
    for text in (line, shown):
        assert main(["hint", text, "--all", "--techniques", "Remote Pair", "--format",
                     "json"]) == 0
        answers.append(capsys.readouterr().out)
    assert answers[0] == answers[1] and "r8c8<>2, r8c8<>6" in answers[0]
