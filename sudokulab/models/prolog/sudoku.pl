/*  sudoku.pl -- Sudoku of any box shape, and its variants, as a CLP(FD) program.

    Try it from the repository root:

        $ swipl sudokulab/models/prolog/sudoku.pl
        ?- example(Givens), sudoku_solution(3-3, Givens, [], [], Grid), print_grid(3-3, Grid).

    or in one line:

        swipl -g "example(G), sudoku_solution(3-3, G, [], [], S), print_grid(3-3, S)" -t halt sudokulab/models/prolog/sudoku.pl

    and count every grid of the empty 4x4 (288 of them):

        swipl -g "length(G, 16), maplist(=(0), G), sudoku_count(2-2, G, [], [], N), writeln(N)" -t halt sudokulab/models/prolog/sudoku.pl

    A puzzle is a box shape Rows-Cols (3-3 for the classic 9x9, 2-3 for a 6x6,
    5-5 for a 25x25) and its N*N cells as one flat row-major list of integers,
    0 for a blank. Cells are numbered from 0 in that order: variant rules name
    their cells by these numbers.

    The program reads top-down: the rules of the puzzle (sudoku/4), how strongly
    "all different" propagates, then search (labeling), counting and limits.
    sudokulab's Python backend calls sudokulab_solve/7 through janus; a teacher
    calls sudoku_solution/5, sudoku_count/5 or solve_file/3.
*/

:- module(sudoku,
          [ sudoku/4,                   % +Box, ?Cells, +Rules, +Strength
            sudoku_solution/5,          % +Box, +Givens, +Rules, +Options, -Grid
            sudoku_count/5,             % +Box, +Givens, +Rules, +Options, -Count
            sudoku_solutions/7,         % +Box, +Givens, +Rules, +Options, -Grids, -Ended, -Stats
            auto_choices/3,             % +Rules, -Strength, -Selection
            sudokulab_solve/7,          % the same, with rules and options as Python tuples
            sudokulab_auto/3,           % auto_choices/3, with rules as Python tuples
            solve_file/3,               % +File, +Box, +Options
            print_grid/2,               % +Box, +Grid
            example/1                   % -Givens
          ]).

% Compile the arithmetic of what follows, library(clpfd) included when this file
% loads it first: its propagators then run faster (results/prolog.md compares a plain
% swipl; the flag is local to the files being loaded, as if swipl were started with -O).
:- set_prolog_flag(optimise, true).

% Keep the global and trail stacks at 8 MB at least: the matchings of
% all_distinct make much short-lived garbage, and a stack shrunk after each
% collection fills again at once (results/prolog.md measures the program as
% it stands).
:- set_prolog_stack(global, low(8_000_000)).
:- set_prolog_stack(trail, low(8_000_000)).

:- use_module(library(clpfd)).
:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(ordsets)).
:- use_module(library(pairs)).
:- use_module(library(option)).
:- use_module(library(aggregate)).
:- use_module(library(solution_sequences)).
:- use_module(library(time)).
:- use_module(library(readutil)).


                 /*******************************
                 *          THE RULES           *
                 *******************************/

%!  sudoku(+Box, ?Cells, +Rules, +Strength)
%
%   Cells, N*N of them in row-major order, fill a grid of box shape Box:
%   every cell holds a digit from 1 to N and every unit (each row, each column,
%   each box) holds every digit once. Rules add variants:
%
%     - unit(Cells):       these N cells hold every digit once too (diagonal, window)
%     - regions(Units):    jigsaw: these N units of N cells replace the boxes
%     - differ(Pairs):     the two cells of each pair A-B differ (a chess move apart)
%     - non_consecutive:   orthogonal neighbours never hold consecutive digits
%     - cage(Cells, Sum):  a killer cage: its digits differ and add up to Sum
%     - parity(Cells, P):  these cells hold even digits (P = even) or odd ones (odd)
%     - relation(Kind, A, B, K): the digits of cells A and B are related as
%                          related/4 says (thermometers, dots, whispers, ...)
%     - distinct(Cells):   these cells differ (a cage without sum, a region)
%     - renban(Cells):     these cells hold a run of consecutive digits, in any order:
%                          they differ, and their digits are one of the runs, as a
%                          cage's are one of the digit sets of its sum
%     - sum(Cells, Sum):   these cells add up to Sum, repeats allowed (little killer)
%     - arrow(Circle, Cells): these cells add up to the digit in cell Circle
%     - sandwich(Cells, Sum): along these cells (a row or a column), the digits
%                          between the 1 and the N add up to Sum
%
%   Strength says how strongly "all different" propagates (see below): auto
%   (chosen from the rules), hybrid, all_distinct, all_different or singles.

sudoku(Box, Cells, Rules0, Strength0) :-
    maplist(must_be_rule, Rules0),
    index_units(Box, Rules0, Places),   % implied cages add no unit: the same for Rules
    implied_cages(Box, Places, Rules0, Implied),
    append(Rules0, Implied, Rules),
    strength(Strength0, Rules, Strength),
    size(Box, N),
    rows(N, Cells, Rows),
    Cells ins 1..N,
    Grid =.. [grid|Cells],
    units(Box, Rows, Grid, Rules, Units),
    all_distinct_units(Strength, Units),
    maplist(rule_holds(Strength, Grid, Rows, Places), Rules),
    outies(Box, Places, Rules0, Outies),
    maplist(outies_hold(Grid), Outies),
    band_sums(Box, Rules0, Bands),
    (   maplist(is_cage, Rules0)                % a killer alone: sums on bounds
    ->  maplist(band_sum_bounds(Grid), Bands)
    ;   maplist(band_sum_holds(Grid, Places), Bands)
    ),
    differences(Box, Places, Rules0, Differences),
    maplist(outies_hold(Grid), Differences),
    partner_triples(N, Grid, Places, Rules).

%   N, the number of digits, from the box shape.
size(BoxRows-BoxCols, N) :-
    N is BoxRows * BoxCols.

%   Rows: the cells cut into N rows of N.
rows(N, Cells, Rows) :-
    length(Rows, N),
    maplist(length_(N), Rows),
    append(Rows, Cells).

length_(N, List) :- length(List, N).

%   Every row, every column, every box (or jigsaw region), and the extra units.
units(Box, Rows, Grid, Rules, Units) :-
    transpose(Rows, Columns),
    (   memberchk(regions(Regions), Rules)
    ->  maplist(cells_at(Grid), Regions, Boxes)
    ;   boxes(Box, Rows, Boxes)
    ),
    findall(Unit, member(unit(Unit), Rules), Extra0),
    maplist(cells_at(Grid), Extra0, Extra),
    append([Rows, Columns, Boxes, Extra], Units).

%   Boxes: each band of BoxRows rows splits into boxes of BoxCols columns.
boxes(_, [], []).
boxes(BoxRows-BoxCols, Rows, Boxes) :-
    length(Band, BoxRows),
    append(Band, Below, Rows),
    band_boxes(BoxCols, Band, BandBoxes),
    append(BandBoxes, MoreBoxes, Boxes),
    boxes(BoxRows-BoxCols, Below, MoreBoxes).

band_boxes(_, [[]|_], []) :- !.
band_boxes(BoxCols, Band, [Box|Boxes]) :-
    maplist(split_at(BoxCols), Band, Pieces, Rests),
    append(Pieces, Box),
    band_boxes(BoxCols, Rests, Boxes).

split_at(K, List, Front, Back) :-
    length(Front, K),
    append(Front, Back, List).

%   The cells at some indices (counted from 0). Grid is the term grid(C0, C1, ...)
%   holding the cells, so that arg/3 finds each one in constant time.
cells_at(Grid, Indices, Unit) :-
    maplist(cell_at(Grid), Indices, Unit).

cell_at(Grid, Index, Cell) :-
    Position is Index + 1,
    arg(Position, Grid, Cell).

%   A rule beyond the units relates its cells directly.
rule_holds(_, _, _, _, unit(_)).
rule_holds(_, _, _, _, regions(_)).
rule_holds(_, Grid, _, _, differ(Pairs)) :-
    maplist(cells_differ(Grid), Pairs).
rule_holds(_, _, Rows, _, non_consecutive) :-
    transpose(Rows, Columns),
    maplist(not_consecutive, Rows),
    maplist(not_consecutive, Columns).
rule_holds(Strength, Grid, Rows, Places, cage(Indices, Sum)) :-
    cells_at(Grid, Indices, Cage),
    length(Rows, N),
    (   N =< 9
    ->  cage(N, Grid, Places, Indices, Sum, Strength)
    ;   digits_differ(Strength, Cage),
        sum(Cage, #=, Sum),
        cage_digit_sets(N, Cage, Sum)
    ).
rule_holds(_, Grid, _, _, parity(Indices, Parity)) :-
    cells_at(Grid, Indices, Cage),
    maplist(has_parity(Parity), Cage).

rule_holds(_, Grid, Rows, Places, relation(Kind, A, B, K)) :-
    cell_at(Grid, A, X),
    cell_at(Grid, B, Y),
    length(Rows, N),
    (   peers(Places, A, B) -> Peers = true ; Peers = false ),
    pair_relation(N, Kind, K, Peers, X, Y).
rule_holds(Strength, Grid, Rows, _, renban(Indices)) :-
    cells_at(Grid, Indices, Line),
    digits_differ(Strength, Line),
    length(Rows, N),
    length(Line, Size),
    findall(Run, ( Top is N - Size + 1, between(1, Top, Low), High is Low + Size - 1,
                   numlist(Low, High, Run) ), Runs),
    one_of_digit_sets(N, Line, Runs).
rule_holds(Strength, Grid, _, _, distinct(Indices)) :-
    cells_at(Grid, Indices, Group),
    digits_differ(Strength, Group).
rule_holds(_, Grid, _, Places, sum(Indices, Sum)) :-
    sum_chain(Grid, Places, Indices, Sum).
rule_holds(_, Grid, _, Places, arrow(Circle, Indices)) :-
    cell_at(Grid, Circle, Total),
    sum_chain(Grid, Places, Indices, Total).

rule_holds(_, Grid, _, _, sandwich(Indices, Sum)) :-
    cells_at(Grid, Indices, Line),
    length(Line, N),
    sandwich_arcs(N, Sum, Arcs),
    automaton(Line, [source(before), sink(after)], Arcs).

%   A sandwich line read left to right as an automaton: before the first crust
%   (the 1 or the N), between the crusts with the first crust and the set of
%   filling digits so far (a sorted list: the filling's digits differ, and
%   their sum stays within Sum), after the second crust, the other one.
%   automaton/3 becomes a chain of tuples_in/2 steps (state before, digit,
%   state after) with no cycle, so each digit stays exactly when some reading
%   of the whole line through it is accepted: where the crusts can stand, and
%   which fillings of distinct digits add up to Sum.
sandwich_arcs(N, Sum, Arcs) :-
    Top is N - 1,
    findall(Arc, sandwich_arc(N, Top, Sum, Arc), Arcs).

sandwich_arc(_, Top, _, arc(State, D, State)) :-
    member(State, [before, after]),
    between(2, Top, D).
sandwich_arc(N, _, _, arc(before, End, filling(End, []))) :-
    member(End, [1, N]).
sandwich_arc(N, Top, Sum, arc(filling(End, Set), D, filling(End, Set1))) :-
    member(End, [1, N]),
    filling(Top, Sum, Set),
    between(2, Top, D),
    \+ memberchk(D, Set),
    sum_list([D|Set], Total),
    Total =< Sum,
    ord_add_element(Set, D, Set1).
sandwich_arc(N, Top, Sum, arc(filling(End, Set), Other, after)) :-
    member(End-Other, [1-N, N-1]),
    filling(Top, Sum, Set),
    sum_list(Set, Sum).

%   A set of distinct digits of 2..Top (ascending) adding up to at most Sum.
filling(Top, Sum, Set) :-
    numlist(2, Top, Middle),
    subset_of(Middle, Set),
    sum_list(Set, Total),
    Total =< Sum.

subset_of([], []).
subset_of([D|Ds], [D|Set]) :- subset_of(Ds, Set).
subset_of([_|Ds], Set) :- subset_of(Ds, Set).

%   Digits at some cells add up to Total (a number, or an arrow's circle).
%   The line is cut into pieces of at most three cells that share a unit, so
%   differ (a little killer's cells within one box), and line_sum/2 keeps
%   exactly the digits that some filling of the whole line allows, where
%   sum/3 narrows bounds only.
sum_chain(Grid, Places, Indices, Total) :-
    pieces(Places, Indices, Pieces),
    maplist(cells_at(Grid), Pieces, Cells),
    line_sum(Cells, Total).

%   A line cut into pieces, in order: each piece at most three cells, all in one unit.
pieces(_, [], []).
pieces(Places, [I|Is], [[I|Piece]|Pieces]) :-
    piece(Places, [I], Is, Piece, Rest),
    pieces(Places, Rest, Pieces).

piece(Places, Taken, [J|Is], [J|Piece], Rest) :-
    length(Taken, Size), Size < 3,
    member(Unit, Places),
    subset([J|Taken], Unit), !,
    piece(Places, [J|Taken], Is, Piece, Rest).
piece(_, _, Rest, [], Rest).

%   The units (rows, columns, boxes or regions, extra units) as lists of cell indices.
index_units(Box, Rules, Units) :-
    size(Box, N),
    Last is N * N - 1,
    numlist(0, Last, Indices),
    rows(N, Indices, Rows),
    Grid =.. [grid|Indices],
    units(Box, Rows, Grid, Rules, Units).

%   related(Kind, K, X, Y): how a line or a dot relates two digits.
related(less, _, X, Y)    :- X #< Y.                  % thermometer: up from the bulb
related(equal, _, X, Y)   :- X #= Y.                  % palindrome: mirrored cells
related(white, _, X, Y)   :- abs(X - Y) #= 1.         % kropki white dot: consecutive
related(black, _, X, Y)   :- X #= 2 * Y #\/ Y #= 2 * X. % kropki black dot: ratio 2
related(no_dot, _, X, Y)  :- abs(X - Y) #\= 1, X #\= 2 * Y, Y #\= 2 * X.
related(x, _, X, Y)       :- X + Y #= 10.
related(v, _, X, Y)       :- X + Y #= 5.
related(no_xv, _, X, Y)   :- X + Y #\= 5, X + Y #\= 10.
related(far, K, X, Y)     :- abs(X - Y) #>= K.         % german whispers
related(near, K, X, Y)    :- abs(X - Y) #=< K.         % renban: a run of K + 1 digits
related(apart, _, X, Y)   :- abs(X - Y) #\= 1.         % no consecutive mark between them

%   The digits related/4 allows to the other cell when this one holds Digit,
%   as a bitmask (bit D set for digit D). Side says which cell this is: the
%   relation's first (ahead) or its second (behind); Peers: the two cells
%   share a unit, so they differ too.
partners(N, Kind, K, Peers, Side, Digit, Mask) :-
    aggregate_all(sum(1 << Other),
                  ( between(1, N, Other), side_related(Side, Kind, K, Digit, Other),
                    ( Peers == true -> Other =\= Digit ; true ) ),
                  Mask).

side_related(ahead, Kind, K, D, E)  :- related(Kind, K, D, E).
side_related(behind, Kind, K, D, E) :- related(Kind, K, E, D).

%   Post a relation between two cells as a pair/4 propagator over its tables.
pair_relation(N, Kind, K, Peers, X, Y) :-
    partner_tables(N, Kind, K, Peers, Ahead, Behind),
    pair(X, Y, Ahead, Behind).

%   The tables of a relation, made once per process (a puzzle has a hundred
%   relations of a few kinds).
:- table partner_tables/6.
partner_tables(N, Kind, K, Peers, Ahead, Behind) :-
    numlist(1, N, Digits),
    maplist(partners(N, Kind, K, Peers, ahead), Digits, Forward),
    maplist(partners(N, Kind, K, Peers, behind), Digits, Backward),
    Ahead =.. [partners|Forward],
    Behind =.. [partners|Backward].

peers(Places, A, B) :-
    member(Unit, Places),
    memberchk(A, Unit),
    memberchk(B, Unit), !.

%   A cell related to two cells of one unit, by relations that give each
%   digit at most two partners (a consecutive mark, a Kropki dot, X or V):
%   the two cells differ, so they hold the two partners of the cell's digit
%   (consecutive marks on both sides: the cell's digit minus one and plus
%   one, so never 1 or N). Pair by pair the propagators miss it; a table
%   of the three cells' digits (tuples_in/2) sees it.
partner_triples(N, Grid, Places, Rules) :-
    findall(Middle-Side, ( member(relation(Kind, A, B, K), Rules),
                           narrow_relation(N, Kind, K),
                           ( Middle = A, Side = side(B, Kind, K, ahead)
                           ; Middle = B, Side = side(A, Kind, K, behind) ) ),
            Ends),
    findall(Middle-S1-S2, ( member(Middle-S1, Ends), member(Middle-S2, Ends),
                            S1 @< S2, arg(1, S1, C1), arg(1, S2, C2),
                            C1 =\= C2, peers(Places, C1, C2) ),
            Triples),
    maplist(partner_triple(N, Grid), Triples).

%   Each digit has at most two partners under the relation, either way.
narrow_relation(N, Kind, K) :-
    partner_tables(N, Kind, K, false, Ahead, Behind),
    forall(( arg(_, Ahead, Mask) ; arg(_, Behind, Mask) ), popcount(Mask) =< 2).

partner_triple(N, Grid, Middle-SideA-SideB) :-
    arg(1, SideA, A),
    arg(1, SideB, B),
    cells_at(Grid, [A, Middle, B], Cells),
    findall([DA, D, DB], ( between(1, N, D),
                           side_partner(N, SideA, D, DA),
                           side_partner(N, SideB, D, DB),
                           DA =\= DB ),
            Table),
    tuples_in([Cells], Table).

%   A digit of the partner on this side when the middle cell holds D, read
%   from the relation's tables.
side_partner(N, side(_, Kind, K, Side), D, Partner) :-
    partner_tables(N, Kind, K, false, Ahead, Behind),
    (   Side == ahead -> arg(D, Ahead, Mask) ; arg(D, Behind, Mask) ),
    mask_digits(Mask, Partners),
    member(Partner, Partners).

%!  implied_cages(+Box, +Rules, -Implied)
%
%   The rule of 45: every unit's digits add up to 1+2+...+N (45 in a 9x9), so
%   the cells of a unit outside the cages that lie wholly inside it hold
%   distinct digits adding up to what those cages leave: one more cage, drawn
%   nowhere (killer players call them innies). Where cages overlap, a cage is
%   taken away only if it is apart from those taken before. A unit with no
%   cage inside or none left over implies nothing, nor does a repeat of a
%   drawn cage.

implied_cages(Box, Rules, Implied) :-
    index_units(Box, Rules, Units),
    implied_cages(Box, Units, Rules, Implied).

%   The same, given the units as index_units/3 gives them.
implied_cages(Box, Units, Rules, Implied) :-
    findall(Sorted-Sum, ( member(cage(Indices, Sum), Rules),
                          sort(Indices, Sorted) ), Cages),
    size(Box, N),
    Whole is N * (N + 1) // 2,
    convlist(unit_rest(Whole, Cages), Units, Implied0),
    sort(Implied0, Implied).

unit_rest(Whole, Cages, Unit0, cage(Rest, Sum)) :-
    Cages \== [],
    sort(Unit0, Unit),
    foldl(take_inside, Cages, Unit-Whole, Rest-Sum),
    Rest \== Unit,
    Rest \== [],
    \+ memberchk(Rest-_, Cages).

take_inside(Cage-Total, Rest0-Sum0, Rest-Sum) :-
    (   ord_subset(Cage, Rest0)
    ->  ord_subtract(Rest0, Cage, Rest),
        Sum is Sum0 - Total
    ;   Rest-Sum = Rest0-Sum0
    ).

%!  outies(+Box, +Units, +Rules, -Outies)
%
%   The rule of 45 seen from outside a unit: the cages that reach into a unit
%   without lying inside it have cells outside it (outies), and the unit may
%   have cells in no cage. Since the unit adds up to 45, the outies less the
%   uncaged cells add up to the reaching cages' totals plus the totals of the
%   cages inside, less 45: outies(Plus, Minus, K). Kept only when few cells
%   take part (a long sum prunes on bounds alone), and where the cages touching
%   the unit do not overlap.

outies(Box, Units, Rules, Outies) :-
    findall(Sorted-Sum, ( member(cage(Indices, Sum), Rules),
                          sort(Indices, Sorted) ), Cages),
    size(Box, N),
    Whole is N * (N + 1) // 2,
    convlist(unit_outies(Whole, Cages), Units, Outies0),
    sort(Outies0, Outies).

unit_outies(Whole, Cages, Unit0, outies(Plus, Minus, K)) :-
    Cages \== [],
    sort(Unit0, Unit),
    include(touches(Unit), Cages, Touching),
    exclude(inside(Unit), Touching, Reaching),
    Reaching \== [],
    pairs_keys_values(Touching, Cells, Totals),
    append(Cells, All),
    is_set(All),                                % no overlaps
    sort(All, Sorted),
    ord_subtract(Sorted, Unit, Plus),
    ord_subtract(Unit, Sorted, Minus),
    length(Plus, P),
    length(Minus, M),
    P + M =< 4,
    sum_list(Totals, Total),
    K is Total - Whole.

touches(Unit, Cage-_) :-
    ord_intersect(Unit, Cage).

inside(Unit, Cage-_) :-
    ord_subset(Cage, Unit).

outies_hold(Grid, outies(Plus, Minus, K)) :-
    cells_at(Grid, Plus, Xs),
    cells_at(Grid, Minus, Ys),
    sum(Xs, #=, SX),
    sum(Ys, #=, SY),
    SX - SY #= K.

%!  band_sums(+Box, +Rules, -Sums)
%
%   The rule of 45 over bands of units: K consecutive rows (or columns), or
%   a block of K adjacent boxes (two side by side, a square of four), add
%   up to K times 45, so the cells of the band outside the cages lying wholly
%   inside it (the band's innies), and the cells outside the band of the
%   cages reaching into it when every cell of the band is caged (its outies),
%   add up to what the cages leave: band_sum(Cells, Sum). Their digits may
%   repeat (they lie in several rows), so line_sum/2 propagates them, in
%   pieces of the cells that share a unit. Single rows and columns have
%   their innies as implied cages and their outies above; bands whose innies
%   or outies are many cells prune little, and are left out.

band_sums(Box, Rules, Sums) :-
    findall(Sorted-Sum, ( member(cage(Indices, Sum), Rules),
                          sort(Indices, Sorted) ), Cages),
    size(Box, N),
    pairs_keys(Cages, CageCells),
    append(CageCells, All),
    (   ( Cages == [] ; \+ is_set(All) )      % none, or overlapping cages: no sums
    ->  Sums = []
    ;   findall(Sum, ( ( band(N, Band, K)
                       ;   \+ memberchk(regions(_), Rules),
                           box_block(Box, Band, K) ),
                       band_sum(N, Cages, Band, K, Sum) ), Sums0),
        sort(Sums0, Sums)
    ).

%   A band of K consecutive rows or columns (1 < K < N), as sorted cell indices.
band(N, Band, K) :-
    Top is N - 1,
    between(2, Top, K),
    Last is N - K,
    between(0, Last, First),
    (   Side = row ; Side = column ),
    findall(I, ( between(0, Top, A), A >= First, A < First + K, between(0, Top, B),
                 ( Side == row -> I is A * N + B ; I is B * N + A ) ), Cells),
    sort(Cells, Band).

%   A block of H by W adjacent boxes, K = H*W of them (2 or more, fewer than a
%   band's: a whole band of boxes is a band of rows or columns above).
box_block(BoxRows-BoxCols, Block, K) :-
    size(BoxRows-BoxCols, N),
    Down is N // BoxRows,                       % boxes in a stack
    Across is N // BoxCols,                     % boxes in a band
    between(1, Down, H), H < Down,
    between(1, Across, W), W < Across,
    K is H * W, K >= 2,
    LastI is Down - H, between(0, LastI, I),
    LastJ is Across - W, between(0, LastJ, J),
    findall(Index, ( Top is I * BoxRows, Bottom is (I + H) * BoxRows - 1,
                     between(Top, Bottom, R),
                     Left is J * BoxCols, Right is (J + W) * BoxCols - 1,
                     between(Left, Right, C),
                     Index is R * N + C ), Cells),
    sort(Cells, Block).

band_sum(N, Cages, Band, K, band_sum(Cells, Sum)) :-
    Whole is K * N * (N + 1) // 2,
    include(touches(Band), Cages, Touching),
    partition(inside(Band), Touching, Inside, Reaching),
    pairs_keys_values(Inside, InCells, InTotals),
    append(InCells, Covered0),
    sort(Covered0, Covered),
    ord_subtract(Band, Covered, Innies),
    sum_list(InTotals, InTotal),
    (   Cells = Innies,
        Sum is Whole - InTotal
    ;   pairs_keys_values(Reaching, OutCells, OutTotals),
        append(OutCells, Reached0),
        sort(Reached0, Reached),
        ord_subtract(Innies, Reached, []),
        ord_subtract(Reached, Band, Cells),
        sum_list(OutTotals, OutTotal),
        Sum is InTotal + OutTotal - Whole
    ),
    length(Cells, Count),
    between(1, 9, Count).

%!  differences(+Box, +Units, +Rules, -Differences)
%
%   Innies less outies: in a region of whole units (a unit, a band, a block
%   of boxes) with every cell caged, the cages reaching out of it split into
%   two groups. The first group's totals count its cells outside the region
%   (its outies), the second's cells inside (its innies) complete the region's
%   sum with the cages inside: so the first group's outies less the second
%   group's innies add up to a constant, outies(Plus, Minus, K) as outies/4
%   posts it. Kept when each side is one or two cells, where a sum of two
%   ties its cells' digits closely (killer players' "innie-outie
%   difference"); a side left empty is a band sum already.

differences(Box, Units, Rules, Differences) :-
    findall(Sorted-Sum, ( member(cage(Indices, Sum), Rules),
                          sort(Indices, Sorted) ), Cages),
    size(Box, N),
    pairs_keys(Cages, CageCells),
    append(CageCells, All),
    (   ( Cages == [] ; \+ is_set(All) )
    ->  Differences = []
    ;   sort(All, Caged),
        findall(Difference,
                ( region(Box, Units, Rules, Region, K),
                  ord_subset(Region, Caged),
                  region_difference(N, Cages, Region, K, Difference) ),
                Differences0),
        sort(Differences0, Differences)
    ).

%   A region of K whole units: one unit, a band of rows or columns, a block of boxes.
region(_, Units, _, Region, 1) :-
    member(Unit, Units),
    sort(Unit, Region).
region(Box, _, _, Region, K) :-
    size(Box, N),
    band(N, Region, K).
region(Box, _, Rules, Region, K) :-
    \+ memberchk(regions(_), Rules),
    box_block(Box, Region, K).

region_difference(N, Cages, Region, K, outies(Plus, Minus, Diff)) :-
    Whole is K * N * (N + 1) // 2,
    include(touches(Region), Cages, Touching),
    partition(inside(Region), Touching, Inside, Reaching),
    pairs_values(Inside, InTotals),
    sum_list(InTotals, InTotal),
    split_reaching(Reaching, Region, [], Plus0, [], Minus0, 0, Total),
    Plus0 \== [], Minus0 \== [],
    sort(Plus0, Plus),
    sort(Minus0, Minus),
    Diff is Total + InTotal - Whole.

%   Each reaching cage goes to the outies' group (its total counted) or the
%   innies' group, each side at most two cells.
split_reaching([], _, Plus, Plus, Minus, Minus, Total, Total).
split_reaching([Cage-Sum|Cages], Region, Plus0, Plus, Minus0, Minus, Total0, Total) :-
    (   ord_subtract(Cage, Region, Out),
        append(Out, Plus0, Plus1),
        length(Plus1, P), P =< 2,
        Minus1 = Minus0,
        Total1 is Total0 + Sum
    ;   ord_intersection(Cage, Region, In),
        append(In, Minus0, Minus1),
        length(Minus1, M), M =< 2,
        Plus1 = Plus0,
        Total1 = Total0
    ),
    split_reaching(Cages, Region, Plus1, Plus, Minus1, Minus, Total1, Total).

band_sum_holds(Grid, Places, band_sum(Cells, Sum)) :-
    sum_chain(Grid, Places, Cells, Sum).

%   On a killer alone, a band's sum is a plain sum/3, which narrows bounds
%   only: the cage propagators (cage/6) do the rest, and line_sum/2 on some
%   75 bands costs several times what it saves there (HARD_KILLERS of
%   tests/data/killers-forum.jsonl: about 9 ms a labeling choice against 3).
%   Only sums of up to 4 cells are posted: on bounds a longer one almost
%   never prunes, yet wakes on every bound change of its cells. Without them
%   the 20 HARD_KILLERS take about as many labeling choices (0 to 10% more)
%   and a third fewer inferences.
%   With other rules (diagonals) line_sum/2 stays, over every band: it solves
%   the forum's HS_KILLERS with diagonals in a handful of choices (without
%   the long bands, HS_KILLERS #9 ran out of 120 million inferences).
band_sum_bounds(Grid, band_sum(Cells, Sum)) :-
    length(Cells, Count),
    (   Count > 4
    ->  true
    ;   cells_at(Grid, Cells, Xs),
        sum(Xs, #=, Sum)
    ).

cells_differ(Grid, A-B) :-
    cell_at(Grid, A, X),
    cell_at(Grid, B, Y),
    X #\= Y.

%   Neighbours along a line (a row or a column) are never consecutive digits.
not_consecutive([_]).
not_consecutive([X, Y|Line]) :-
    abs(X - Y) #\= 1,
    not_consecutive([Y|Line]).

%   (Renbans, and killer cages of more than 9 digits, where cage/6's sets of
%   digit sets would be integers of 2^N bits.)
%   A cage's digits are one of the digit sets that fill it: Size distinct
%   digits of 1..N adding up to Sum (a 2-cell 4 is {1,3}, a 3-cell 23 is
%   {6,8,9}). sum/3 alone reasons on bounds only, and all_distinct does not
%   know the total: together they miss that a 3-cell 23 holds 8 wherever it
%   holds 6. So each cell first keeps only the digits of some fitting set;
%   then a small cage, whose sets have at most 720 orderings (fillings), is
%   one table (tuples_in/2 over its cells): what a cell can hold is exactly
%   what some filling allows. A bigger cage's digit set becomes a 0/1 vector
%   Used (Used[d] is 1 when a cell holds d), restricted to the fitting sets
%   by tuples_in/2 and linked to the cells, so a digit in no fitting set
%   left leaves every cell, and a digit in all of them goes to its one place.

cage_digit_sets(N, Cage, Sum) :-
    length(Cage, Size),
    findall(Set, digit_set(N, 1, Size, Sum, Set), Sets),
    one_of_digit_sets(N, Cage, Sets).

%   Cells hold the digits of one of Sets (sets of as many digits as cells).
one_of_digit_sets(N, Cage, Sets) :-
    length(Cage, Size),
    append(Sets, Fitting0),
    sort(Fitting0, Fitting),
    list_to_fdset(Fitting, Digits),
    maplist(in_digits(Digits), Cage),
    (   fillings(Sets, Size, Fillings)
    ->  tuples_in([Cage], Fillings)
    ;   numlist(1, N, All),
        maplist(used_vector(All), Sets, Vectors),
        length(Used, N),
        tuples_in([Used], Vectors),
        maplist(digit_used(Cage), All, Used)
    ).

in_digits(Digits, Cell) :-
    Cell in_set Digits.

%   Digits Low..N, Size of them ascending, adding up to Sum.
digit_set(_, _, 0, 0, []) :- !.
digit_set(N, Low, Size, Sum, [D|Set]) :-
    Size > 0,
    Rest is Size - 1,
    between(Low, N, D),
    Left is Sum - D,
    Left >= Rest * (D + 1) + Rest * (Rest - 1) // 2,   % the smallest rest fits under
    Left =< Rest * N - Rest * (Rest - 1) // 2,         % and the largest rest reaches
    Next is D + 1,
    digit_set(N, Next, Rest, Left, Set).

%   Every ordering of every set, when there are at most 720 of them.
fillings(Sets, Size, Fillings) :-
    length(Sets, Count),
    factorial(Size, Orderings),
    Count * Orderings =< 720,
    findall(Filling, ( member(Set, Sets), permutation(Set, Filling) ), Fillings).

factorial(0, 1) :- !.
factorial(K, F) :-
    K1 is K - 1,
    factorial(K1, F1),
    F is K * F1.

used_vector(Digits, Set, Vector) :-
    maplist(in_set(Set), Digits, Vector).

in_set(Set, Digit, Bit) :-
    (   memberchk(Digit, Set) -> Bit = 1 ; Bit = 0 ).

%   Used is how many cells of the cage hold Digit (0 or 1: they differ).
digit_used(Cage, Digit, Used) :-
    maplist(holds(Digit), Cage, Bits),
    sum(Bits, #=, Used).

holds(Digit, Cell, Bit) :-
    Bit #<==> (Cell #= Digit).

has_parity(even, X) :- X mod 2 #= 0.
has_parity(odd, X)  :- X mod 2 #= 1.

must_be_rule(Rule) :-
    (   rule(Rule) -> true
    ;   domain_error(sudoku_rule, Rule)
    ).

rule(unit(_)).
rule(regions(_)).
rule(differ(_)).
rule(non_consecutive).
rule(cage(_, _)).
rule(parity(_, _)).
rule(relation(_, _, _, _)).
rule(distinct(_)).
rule(renban(_)).
rule(sum(_, _)).
rule(arrow(_, _)).
rule(sandwich(_, _)).


                 /*******************************
                 *     PROPAGATION STRENGTH     *
                 *******************************/

%!  auto_choices(+Rules, -Strength, -Selection) is det.
%
%   What `auto` stands for, as a strength and as the labeling's choice of
%   cell: hybrid and ff on rules that only add units, all_different and ffc
%   when a rule relates cells two by two (differ, non_consecutive, relation:
%   with the other choices the German whispers puzzle of tests/data/variants.json
%   took many times longer; bench/bench_corners.py times it: results/corners.md),
%   singles and ff when a rule relates the digits themselves (a line, a dot, a
%   sum: results/generated.md).
%
%   Strength: pairwise rules make a placed digit leave more cells (a Miracle
%   cell has more peers than a classic one's 20), and all_distinct rebuilds a
%   unit's matching on each such change: counting the 72 Miracle grids,
%   hybrid makes fewer labeling choices but each costs far more inferences,
%   and all_different is several times faster (results/variants.md, each
%   pairing side by side). Without pairwise rules the matchings win by far
%   (results/prolog.md).
%
%   A killer alone (every rule a cage) takes singles too: each cage's own
%   propagator (cage/6, domain-consistent over the whole cage) and the band
%   sums narrow the cells, and matchings on the units cost several times the
%   time for about the same number of choices (measured on the forum killers).
%   Its selection is ffw, ff with ties broken by the failures of the cage and
%   unit propagators (conflict_labeling/2): some 10% fewer inferences on the
%   forum's HARD_KILLERS, up to half on some; a killer with more units too.
%
%   Selection: on the classic rules every open cell has the same constraints,
%   and ff (fewest candidates first) is all there is to choose by. Pairwise
%   rules give a centre cell more partners than a border cell (8 knight's
%   moves against 2 in a corner); ffc breaks ff's ties by most constraints,
%   so the search places first the digits that prune most: the Miracle count
%   takes fewer labeling choices and less time with ffc than with ff, and far
%   more with leftmost (results/variants.md).

auto_choices(Rules, singles, ff) :-
    member(Rule, Rules),
    digit_rule(Rule), !.
auto_choices(Rules, all_different, ffc) :-
    member(Rule, Rules),
    pairwise(Rule), !.
auto_choices(Rules, singles, ffw) :-
    Rules = [_|_],
    maplist(is_cage, Rules), !.
auto_choices(Rules, hybrid, ffw) :-
    memberchk(cage(_, _), Rules),
    maplist(cage_or_unit, Rules), !.
auto_choices(_, hybrid, ff).

%   A killer and nothing else: its tables and band sums (band_sums/3) leave
%   the matchings little to find, at twice the cost of singles (the killers
%   of tests/data/killers*.jsonl, results/prolog-killers.md).
is_cage(cage(_, _)).

%   A killer with more units (diagonals, windows, a jigsaw's regions) keeps
%   ffw: on the forum's HS_KILLERS (cages and diagonals) it took 79 million
%   inferences on #5 where ff took 111, 8.3 on #6 for 11.3.
cage_or_unit(cage(_, _)).
cage_or_unit(unit(_)).
cage_or_unit(regions(_)).

pairwise(differ([_|_])).
pairwise(non_consecutive).

%   Lines, dots and sums relate the digits themselves. They take candidates
%   from cells that stay open, leaving a digit one place in a unit, which
%   hidden singles (strength singles) fill; on the Miracle's pairs the counting
%   costs more than it gives. Their cells differ little in how many constraints
%   they have, and ffc's tie-break cost the consecutive marks far more choices
%   than plain ff (results/generated.md).
digit_rule(relation(_, _, _, _)).  % thermometers, dots, whispers, ...
digit_rule(sum(_, _)).             % little killers
digit_rule(arrow(_, _)).
digit_rule(sandwich(_, _)).

strength(auto, Rules, Strength) :- !,
    auto_choices(Rules, Strength, _).
strength(Strength, _, Strength).

%!  all_distinct_units(+Strength, +Units)
%
%   Every unit holds distinct digits, propagated as Strength says:
%
%     - all_different: a placed digit leaves its peers' candidates (cheap, weak);
%     - singles: Norvig's two rules, a placed digit leaves its peers (naked
%       singles) and a digit with one place left in a unit goes there (hidden
%       singles, places/1 below: it counts each digit's places, without
%       all_distinct's matching);
%     - all_distinct:  each unit's candidates are matched to digits (Regin's
%       matching), so a digit with one place left goes there, and pairs and
%       triples are seen (strong, and costly: the matching is rebuilt each time
%       a candidate goes);
%     - hybrid: the same strength as all_distinct, posted in a cheaper order:
%       all_different first, so that the givens' naked singles cascade before
%       any matching runs; then all_distinct on each unit's cells still open,
%       the units with fewest open cells first (cheap matchings first, and
%       their conclusions shrink the later ones).

all_distinct_units(all_different, Units) :-
    maplist(all_different, Units).
all_distinct_units(singles, Units) :-
    maplist(all_different, Units),
    maplist(places, Units).
all_distinct_units(all_distinct, Units) :-
    maplist(all_distinct, Units).
all_distinct_units(hybrid, Units) :-
    maplist(all_different, Units),
    maplist(open_cells, Units, Open),
    map_list_to_pairs(length, Open, Keyed),
    keysort(Keyed, Sorted),
    pairs_values(Sorted, FewestFirst),
    maplist(all_distinct, FewestFirst).

open_cells(Unit, Open) :-
    include(var, Unit, Open).

%   A cage's digits differ, as strongly as the units'.
digits_differ(all_different, Cells) :- all_different(Cells).
digits_differ(singles, Cells)       :- all_different(Cells).
digits_differ(all_distinct, Cells)  :- all_distinct(Cells).
digits_differ(hybrid, Cells)        :- all_different(Cells), all_distinct(Cells).


                 /*******************************
                 *  PROPAGATORS ON DIGIT MASKS  *
                 *******************************/

%   Three constraints are CLP(FD) propagators of their own, written with the
%   library's interface for new constraints (make_propagator/2,
%   init_propagator/2, trigger_once/1, kill/1 and clauses of
%   run_propagator/2). Each reads its cells' candidates as a bitmask (bit D
%   set when digit D is possible), reasons with a few integer operations and
%   narrows the domains that change. They deduce what global_cardinality/3
%   and tuples_in/2 tables deduced before, with less work: the generated
%   consecutive marks and little killers spend their time in these
%   deductions, thousands of times a puzzle (results/generated.md).

:- multifile clpfd:run_propagator/2.

%!  places(+Unit)
%
%   Every digit has a place in the unit's cells, and a digit with one place
%   left goes there (a hidden single).
places(Unit) :-
    length(Unit, N),
    Full is (1 << (N + 1)) - 2,
    propagate(places(Unit, Full), Unit).

%!  pair(?X, ?Y, +Ahead, +Behind)
%
%   The digits of X and Y are related as two tables say: Ahead's argument D
%   is the mask of Y's digits that go with X = D, Behind's the mask of X's
%   digits that go with Y = D. Each digit left has a partner (arc consistency).
pair(X, Y, Ahead, Behind) :-
    propagate(pair(X, Y, Ahead, Behind), [X, Y]).

%!  line_sum(?Pieces, ?Total)
%
%   The digits of Pieces (lists of one to three cells, the cells of a piece
%   holding distinct digits) add up to Total; each digit left, and each total
%   left, is part of such a filling of the whole line. Sums are masks too (bit
%   S: sum S): each piece's, those the pieces before it reach, those the
%   pieces after it can complete.
line_sum(Pieces, Total) :-
    maplist(remembered, Pieces, Remembered),
    append(Pieces, Cells),
    propagate(line_sum(Remembered, Total), [Total|Cells]).

%   A piece with room for its last masks and what they gave (piece_sums/2).
remembered(Cells, piece(Cells, last(none))).

%   Post a propagator on the variables it reads, and run it once.
propagate(Constraint, Vars) :-
    clpfd:make_propagator(Constraint, Prop),
    maplist(wake(Prop), Vars),
    clpfd:trigger_once(Prop).

wake(Prop, Var) :-
    (   var(Var) -> clpfd:init_propagator(Var, Prop) ; true ).

clpfd:run_propagator(places(Unit, Full), State) :-
    counted(Unit, 0, Once, 0, Twice, 0, Placed, Open),
    (   Once =:= Full -> true ; blame(Unit) ),    % no digit without a place
    (   Open == []
    ->  clpfd:kill(State)
    ;   Singles is Once /\ \ (Twice \/ Placed),
        (   Singles =:= 0 -> true ; maplist(place_single(Singles), Open) )
    ).
clpfd:run_propagator(pair(X, Y, Ahead, Behind), State) :-
    mask(X, MX0),
    mask(Y, MY0),
    partners_of(MY0, Behind, 0, ForX),
    MX is MX0 /\ ForX,
    partners_of(MX, Ahead, 0, ForY),
    MY is MY0 /\ ForY,
    narrow(X, MX0, MX),
    narrow(Y, MY0, MY),
    (   integer(X), integer(Y) -> clpfd:kill(State) ; true ).

%   A line narrows many cells in one run. Like clpfd's own propagators, it
%   holds the queue until it is done (else each narrowing would first run the
%   propagators it wakes, this one among them, on a line narrowed in part),
%   and it does not wake itself: after one run each digit and each total left
%   has a filling of the whole line, so a second run would change nothing.
%   Both switches are backtrackable global variables of library(clpfd), its
%   internals rather than its documented interface, and are set back as they
%   were.
clpfd:run_propagator(line_sum(Pieces, Total), State) :-
    b_getval('$clpfd_queue_status', Queue),
    b_getval('$clpfd_current_propagator', Current),
    b_setval('$clpfd_queue_status', disabled),
    b_setval('$clpfd_current_propagator', State),
    summed_line(Pieces, Total),
    b_setval('$clpfd_current_propagator', Current),
    b_setval('$clpfd_queue_status', Queue),
    (   ground(Pieces) -> clpfd:kill(State) ; true ).

%   Once: the digits some cell can hold; Twice: those two cells can; Placed:
%   those placed; Open: the open cells, each as Mask-Cell.
counted([], Once, Once, Twice, Twice, Placed, Placed, []).
counted([Cell|Cells], Once0, Once, Twice0, Twice, Placed0, Placed, Open) :-
    (   integer(Cell)
    ->  Mask is 1 << Cell, Placed1 is Placed0 \/ Mask, Open = Open1
    ;   fd_set(Cell, Set), set_mask(Set, Mask),
        Placed1 = Placed0, Open = [Mask-Cell|Open1]
    ),
    Twice1 is Twice0 \/ (Once0 /\ Mask),
    Once1 is Once0 \/ Mask,
    counted(Cells, Once1, Once, Twice1, Twice, Placed1, Placed, Open1).

%   An open cell that is the one place of a digit holds it (of two, it fails).
place_single(Singles, Mask-Cell) :-
    Here is Mask /\ Singles,
    (   Here =:= 0 -> true
    ;   Here /\ (Here - 1) =:= 0,
        Cell is msb(Here)
    ).

%   The union of the tables' masks over the digits of Mask.
partners_of(0, _, Union, Union) :- !.
partners_of(Mask, Table, Union0, Union) :-
    Digit is lsb(Mask),
    arg(Digit, Table, Partners),
    Union1 is Union0 \/ Partners,
    Rest is Mask /\ (Mask - 1),
    partners_of(Rest, Table, Union1, Union).

%   From the front, the sums each piece can make and those the pieces before
%   it reach; then from the back, what each piece may keep to meet the total.
summed_line(Pieces, Total) :-
    maplist(piece_sums, Pieces, Summed),
    sums_before(Summed, 1, [], Back, Reached),
    mask(Total, TotalMask0),
    TotalMask is TotalMask0 /\ Reached,
    narrow(Total, TotalMask0, TotalMask),
    foldl(piece_kept, Back, TotalMask, _).

%   A piece as sums(Sums, Options): its sums, and each cell as Cell-Mask-Digits,
%   each digit as Digit-Sums (the sums of its fillings with the digit there).
%   While a piece's masks stay those of the last run, what they gave is taken
%   from there: a run follows a change in one piece, and the others keep
%   theirs. setarg/3 is undone on backtracking, as the masks are.
piece_sums(piece(Cells, Last), Summed) :-
    maplist(mask, Cells, Masks),
    arg(1, Last, Kept),
    (   Kept = Masks-Summed0
    ->  Summed = Summed0
    ;   piece_fillings(Cells, Masks, Summed),
        setarg(1, Last, Masks-Summed)
    ).

%   Every filling has a digit in the first cell, so its digits' sums are the piece's.
piece_fillings(Cells, Masks, sums(Sums, Options)) :-
    cell_fillings(Cells, Masks, [], Options),
    Options = [_-_-Digits|_],
    foldl(digit_sums, Digits, 0, Sums).

digit_sums(_-Sums, Union0, Union) :-
    Union is Union0 \/ Sums.

cell_fillings([], [], _, []).
cell_fillings([Cell|Cells], [Mask|Masks], Before, [Cell-Mask-Digits|Options]) :-
    append(Before, Masks, Others),
    digit_fillings(Mask, Others, Digits),
    append(Before, [Mask], Before1),
    cell_fillings(Cells, Masks, Before1, Options).

%   Each digit of Mask with the sums it makes with distinct digits of the
%   Others (one mask each); a digit that makes none is left out.
digit_fillings(0, _, []) :- !.
digit_fillings(Mask, Others, Digits) :-
    Digit is lsb(Mask),
    distinct_sums(Others, 1 << Digit, Sums0),
    Sums is Sums0 << Digit,
    (   Sums =:= 0 -> Digits = Digits1 ; Digits = [Digit-Sums|Digits1] ),
    Rest is Mask /\ (Mask - 1),
    digit_fillings(Rest, Others, Digits1).

%   Summed: the pieces; Back: each as Piece-Before (Before: the sums of the
%   pieces before it), the last piece first; Reached: the line's sums.
sums_before([], Reached, Back, Back, Reached).
sums_before([Piece|Pieces], Before, Back0, Back, Reached) :-
    Piece = sums(Sums, _),
    shifted(Sums, Before, 0, Next),
    sums_before(Pieces, Next, [Piece-Before|Back0], Back, Reached).

%   Walking back from the total: a piece keeps the sums that, added to those
%   before it, meet the sums the pieces after it can complete (Needed); each
%   of its cells keeps the digits with a filling of such a sum.
piece_kept(sums(Sums, Options)-Before, Needed, Needed1) :-
    kept(Sums, Before, Needed, 0, Allowed),
    unshifted(Allowed, Needed, 0, Needed1),
    maplist(cell_kept(Allowed), Options).

cell_kept(Allowed, Cell-Mask-Digits) :-
    foldl(meeting(Allowed), Digits, 0, Kept),
    narrow(Cell, Mask, Kept).

meeting(Allowed, Digit-Sums, Kept0, Kept) :-
    (   Sums /\ Allowed =:= 0 -> Kept = Kept0 ; Kept is Kept0 \/ (1 << Digit) ).

%   The sums of distinct digits, one per mask, none of them in Used.
distinct_sums([], _, 1).
distinct_sums([Mask], Used, Sums) :- !,
    Sums is Mask /\ \ Used.
distinct_sums([Mask|Masks], Used, Sums) :-
    Free is Mask /\ \ Used,
    free_sums(Free, Masks, Used, 0, Sums).

free_sums(0, _, _, Sums, Sums) :- !.
free_sums(Free, Masks, Used, Sums0, Sums) :-
    Digit is lsb(Free),
    Used1 is Used \/ (1 << Digit),
    distinct_sums(Masks, Used1, Rest),
    Sums1 is Sums0 \/ (Rest << Digit),
    Free1 is Free /\ (Free - 1),
    free_sums(Free1, Masks, Used, Sums1, Sums).

shifted(0, _, Union, Union) :- !.
shifted(Mask, Sums, Union0, Union) :-
    Value is lsb(Mask),
    Union1 is Union0 \/ (Sums << Value),
    Rest is Mask /\ (Mask - 1),
    shifted(Rest, Sums, Union1, Union).

kept(0, _, _, Kept, Kept) :- !.
kept(Mask, Before, Needed, Kept0, Kept) :-
    Value is lsb(Mask),
    (   (Before << Value) /\ Needed =\= 0 -> Kept1 is Kept0 \/ (1 << Value) ; Kept1 = Kept0 ),
    Rest is Mask /\ (Mask - 1),
    kept(Rest, Before, Needed, Kept1, Kept).

unshifted(0, _, Union, Union) :- !.
unshifted(Mask, Sums, Union0, Union) :-
    Value is lsb(Mask),
    Union1 is Union0 \/ (Sums >> Value),
    Rest is Mask /\ (Mask - 1),
    unshifted(Rest, Sums, Union1, Union).

%   A variable's candidates as a bitmask: bit D set when D is possible.
mask(Var, Mask) :-
    (   integer(Var) -> Mask is 1 << Var
    ;   fd_set(Var, Set), set_mask(Set, Mask)
    ).

set_mask(from_to(n(Low), n(High)), Mask) :-
    Mask is (1 << (High + 1)) - (1 << Low).
set_mask(split(_, Left, Right), Mask) :-
    set_mask(Left, MaskLeft),
    set_mask(Right, MaskRight),
    Mask is MaskLeft \/ MaskRight.

%   Keep only the candidates of Mask (Mask0 is what the variable had): none
%   left fails, one left places it.
narrow(Var, Mask0, Mask) :-
    (   Mask =:= Mask0 -> true
    ;   Mask =:= 0 -> fail
    ;   Mask /\ (Mask - 1) =:= 0 -> Var is lsb(Mask)
    ;   mask_digits(Mask, Digits),
        list_to_fdset(Digits, Set),
        Var in_set Set
    ).

mask_digits(0, []) :- !.
mask_digits(Mask, [Digit|Digits]) :-
    Digit is lsb(Mask),
    Rest is Mask /\ (Mask - 1),
    mask_digits(Rest, Digits).

%!  cage(+N, +Grid, +Units, +Indices, +Sum, +Strength)
%
%   A killer cage (N =< 9): its cells hold distinct digits adding up to Sum,
%   one propagator that keeps exactly the digits some filling of the whole
%   cage allows (domain consistency, where the sum, all_different and a table
%   of fillings each saw part), and two more deductions: a digit that every
%   filling left uses (the cage "must contain" it) leaves the other cells of
%   every unit holding the whole cage, and of a unit holding every cell of
%   the cage that can take it (pointing/3), and a digit with no place left in a
%   unit outside the cage is in the cage (only the fillings holding it stay;
%   which units, reach/3 says from Strength). The digit sets reached are sets of
%   sets of digits, one N-bit digit mask each, held as one integer of 2^N
%   bits (bit M set: digit set M reached), so each step is a few integer
%   operations: from the front, the digit sets the cells so far can hold
%   (only subsets of some filling's set kept), then from the back, the sets
%   that reach a filling, each cell keeping the digits of such a step.

cage(N, Grid, Units, Indices, Sum, Strength) :-
    cells_at(Grid, Indices, Cells),
    length(Cells, Size),
    findall(Set, digit_set(N, 1, Size, Sum, Set), Sets),
    maplist(low_mask, Sets, Masks),
    foldl(set_bit, Masks, 0, Fillings),
    findall(Sub, ( member(Mask, Masks), submask(Mask, Sub) ), Subs0),
    sort(Subs0, Subs),
    foldl(set_bit, Subs, 0, Partial),
    append(Sets, Digits0),
    sort(Digits0, Digits),
    list_to_fdset(Digits, Fitting),
    maplist(in_digits(Fitting), Cells),
    sort(Indices, Sorted),
    findall(Other, ( member(Unit0, Units), sort(Unit0, Unit), ord_subset(Sorted, Unit),
                     ord_subtract(Unit, Sorted, Outside), member(Other, Outside) ), Others0),
    sort(Others0, Others1),
    cells_at(Grid, Others1, Others),
    reach(Strength, Sorted, Reach),
    findall(Rest, ( member(Unit0, Units), sort(Unit0, Unit), call(Reach, Unit),
                    ord_subtract(Unit, Sorted, Rest), Rest \== [] ), RestIndices),
    maplist(cells_at(Grid), RestIndices, Rests),
    findall(Positions-Outside, pointing_unit(Units, Indices, Sorted, Positions, Outside),
            PointingIndices),
    maplist(pointing_cells(Grid), PointingIndices, Pointing),
    digit_tables(N, Without, With),
    propagate(cage_fillings(Cells, Partial, Fillings, Others-Rests-Pointing-left(0), Without,
                            With), Cells).

%   A unit holding two cells of the cage or more, not all of them: Positions,
%   the cage's cells there (bit I for the I-th of Indices), and Outside, the
%   unit's other cells (as indices: findall/3 would copy the constrained cells).
pointing_unit(Units, Indices, Sorted, Positions, Outside) :-
    member(Unit0, Units),
    sort(Unit0, Unit),
    \+ ord_subset(Sorted, Unit),
    ord_intersection(Sorted, Unit, [_, _|_]),
    foldl(position_in(Unit), Indices, 0-1, Positions-_),
    ord_subtract(Unit, Sorted, Outside).

position_in(Unit, Index, Positions0-Bit, Positions-Next) :-
    (   ord_memberchk(Index, Unit) -> Positions is Positions0 \/ Bit ; Positions = Positions0 ),
    Next is Bit << 1.

%   Each unit with a left(Done) of its own: the digits that left it on this branch.
pointing_cells(Grid, Positions-Indices, point(Positions, Cells, left(0))) :-
    cells_at(Grid, Indices, Cells).

%   The units whose rest (their cells outside the cage) cage_fillings/6 reads
%   for a digit with no place left there: at strength singles or
%   all_different (a killer alone takes singles), only the units holding the
%   whole cage (a few cells: some 5% fewer inferences on the forum's
%   HARD_KILLERS, for 5 to 30% fewer choices); at hybrid or all_distinct
%   (a killer with diagonals), every unit the cage reaches into. Reading
%   every rest costs about 45% more inferences on the forum's HARD_KILLERS,
%   for a quarter fewer labeling choices; on HS_KILLERS #6 (8 cages and a
%   diagonal) it takes 56 choices where the search ran out of 120 million
%   inferences without.
reach(Strength, Cage, Reach) :-
    (   memberchk(Strength, [singles, all_different])
    ->  Reach = ord_subset(Cage)
    ;   Reach = ord_intersect(Cage)
    ).

%   A digit set (a list) as a mask with bit D-1 for digit D.
low_mask(Set, Mask) :-
    foldl(low_bit, Set, 0, Mask).

low_bit(Digit, Mask0, Mask) :-
    Mask is Mask0 \/ (1 << (Digit - 1)).

set_bit(Position, Bits0, Bits) :-
    Bits is Bits0 \/ (1 << Position).

%   Every submask of Mask, Mask and 0 included.
submask(Mask, Sub) :-
    submask(Mask, Mask, Sub).

submask(_, Sub, Sub).
submask(Mask, Sub0, Sub) :-
    Sub0 > 0,
    Sub1 is (Sub0 - 1) /\ Mask,
    submask(Mask, Sub1, Sub).

%   Without's argument D+1: the digit sets (bits of 2^N) lacking digit bit D;
%   With's: those holding it. Made once for each N.
:- dynamic digit_tables_/3.

digit_tables(N, Without, With) :-
    (   digit_tables_(N, Without, With)
    ->  true
    ;   Top is (1 << N) - 1,
        Full is (1 << (1 << N)) - 1,
        Last is N - 1,
        findall(Bits, ( between(0, Last, D),
                        aggregate_all(sum(1 << M), ( between(0, Top, M),
                                                     M /\ (1 << D) =:= 0 ), Bits) ),
                Lacking),
        maplist(complement(Full), Lacking, Holding),
        Without =.. [without|Lacking],
        With =.. [with|Holding],
        assertz(digit_tables_(N, Without, With))
    ).

complement(Full, Bits, Other) :-
    Other is Full xor Bits.

%   Like line_sum/2, the queue is held while the cage narrows its cells, and
%   the propagator does not wake itself: one run leaves each cell exactly
%   the digits some filling allows, and a second would change nothing.
clpfd:run_propagator(cage_fillings(Cells, Partial, Fillings, Others, Without, With), State) :-
    b_getval('$clpfd_queue_status', Queue),
    b_getval('$clpfd_current_propagator', Current),
    b_setval('$clpfd_queue_status', disabled),
    b_setval('$clpfd_current_propagator', State),
    (   cage_fillings(Cells, Partial, Fillings, Others, Without, With)
    ->  true
    ;   blame(Cells)
    ),
    b_setval('$clpfd_current_propagator', Current),
    b_setval('$clpfd_queue_status', Queue),
    (   ground(Cells) -> clpfd:kill(State) ; true ).

%   Left (left(Done)): the digits that have left the cage's Others on this
%   branch. Fillings only go as the search goes down, so the digits every
%   filling holds only grow: a run takes the new ones out alone. setarg/3 is
%   undone on backtracking, as the removals are. (Taking them all out again
%   at each run read up to 14 cells for nothing, once a cage held a digit for
%   sure: some 1.5% of the inferences on the forum's HARD_KILLERS.)
cage_fillings(Cells, Partial, Fillings, Others-Rests-Pointing-Left, Without, With) :-
    maplist(low_digits, Cells, Masks),
    reached(Masks, Partial, Without, 1, [], [Last|Before]),
    Kept0 is Last /\ Fillings,
    functor(With, _, N),
    foldl(hidden_in_cage(N, With), Rests, Kept0, Kept),
    Kept =\= 0,
    reverse(Masks, Backward),
    reverse(Cells, Back),
    supported(Back, Backward, Before, Kept, With),
    functor(Without, _, N),
    must_hold(0, N, Kept, Without, 0, Must),
    (   Must =:= 0
    ->  true
    ;   arg(1, Left, Done),
        (   Must =:= Done
        ->  true
        ;   Leave is (Must /\ \ Done) << 1,
            maplist(not_holding(Leave), Others),
            setarg(1, Left, Must)
        ),
        pointing(Pointing, Must, Masks)
    ).

%   A digit every filling holds is in the cage, in one of the cells that can
%   take it: when those cells all lie in a unit that does not hold the whole
%   cage, the digit leaves that unit's other cells (a killer's pointing cage;
%   the units holding all the cage lose it above). Masks may be wider than
%   the cells now are (read before the run narrowed them), which only misses
%   a few. On the forum's HARD_KILLERS the search takes a quarter fewer
%   choices (9,179 for 12,213) and some 18% less CPU, tarek's unsolvable #41
%   2,032 for 7,505 (4.2 s for 12.1), HS_KILLERS #5 398 for 629; a few take
%   more (HARD_KILLERS #18 551 for 441); krazydad's killers are as fast.
pointing([], _, _) :- !.
pointing(Pointing, Must, Masks) :-
    (   Must =:= 0
    ->  true
    ;   Digit is lsb(Must),
        Bit is 1 << Digit,
        cells_holding(Masks, Bit, 1, 0, Holding),
        maplist(point(Holding, Bit), Pointing),
        Rest is Must /\ (Must - 1),
        pointing(Pointing, Rest, Masks)
    ).

%   The cells whose mask has Bit, as bits of their positions in the cage.
cells_holding([], _, _, Holding, Holding).
cells_holding([Mask|Masks], Bit, Position, Holding0, Holding) :-
    (   Mask /\ Bit =:= 0 -> Holding1 = Holding0 ; Holding1 is Holding0 \/ Position ),
    Next is Position << 1,
    cells_holding(Masks, Bit, Next, Holding1, Holding).

%   Once a digit has left a unit on this branch, it is not taken out again.
point(Holding, Bit, point(Positions, Outside, Left)) :-
    arg(1, Left, Done),
    (   Done /\ Bit =:= 0,
        Holding /\ \ Positions =:= 0
    ->  Leave is Bit << 1,
        maplist(not_holding(Leave), Outside),
        Done1 is Done \/ Bit,
        setarg(1, Left, Done1)
    ;   true
    ).

%   A digit that has no place in the rest of a unit is in the cage: only the
%   fillings holding it stay.
hidden_in_cage(N, With, Rest, Kept0, Kept) :-
    foldl(or_digits, Rest, 0, Union),
    Missing is ((1 << N) - 1) /\ \ Union,
    (   Missing =:= 0 -> Kept = Kept0
    ;   holding_all(Missing, With, Kept0, Kept)
    ).

or_digits(Cell, Union0, Union) :-
    low_digits(Cell, Mask),
    Union is Union0 \/ Mask.

holding_all(0, _, Kept, Kept) :- !.
holding_all(Missing, With, Kept0, Kept) :-
    D is lsb(Missing),
    I is D + 1,
    arg(I, With, Holding),
    Kept1 is Kept0 /\ Holding,
    Rest is Missing /\ (Missing - 1),
    holding_all(Rest, With, Kept1, Kept).

%   A cell's candidates with bit D-1 for digit D.
low_digits(Cell, Mask) :-
    mask(Cell, Mask0),
    Mask is Mask0 >> 1.

%   The digit sets the cells reach one by one, the last first.
reached([], _, _, Sets, Levels, [Sets|Levels]).
reached([Mask|Masks], Partial, Without, Sets, Levels0, Levels) :-
    step(Mask, Sets, Without, 0, Next0),
    Next is Next0 /\ Partial,
    Next =\= 0,
    reached(Masks, Partial, Without, Next, [Sets|Levels0], Levels).

%   Each set of Sets lacking a digit of Mask, with that digit added.
step(0, _, _, Next, Next) :- !.
step(Mask, Sets, Without, Next0, Next) :-
    D is lsb(Mask),
    I is D + 1,
    arg(I, Without, Lacking),
    Next1 is Next0 \/ ((Sets /\ Lacking) << (1 << D)),
    Rest is Mask /\ (Mask - 1),
    step(Rest, Sets, Without, Next1, Next).

%   From the back: each cell keeps the digits that lead from a set reached
%   before it to a set kept after it.
supported([], [], _, _, _).
supported([Cell|Cells], [Mask|Masks], [Before|Levels], Kept, With) :-
    back_step(Mask, Kept, Before, With, 0, Digits, 0, Kept1),
    Mask1 is Mask << 1,
    Digits1 is Digits << 1,
    narrow(Cell, Mask1, Digits1),
    supported(Cells, Masks, Levels, Kept1, With).

back_step(0, _, _, _, Digits, Digits, Kept, Kept) :- !.
back_step(Mask, Kept, Before, With, Digits0, Digits, Kept0, Kept1) :-
    D is lsb(Mask),
    I is D + 1,
    arg(I, With, Holding),
    From is ((Kept /\ Holding) >> (1 << D)) /\ Before,
    (   From =:= 0
    ->  Digits2 = Digits0, Kept2 = Kept0
    ;   Digits2 is Digits0 \/ (1 << D), Kept2 is Kept0 \/ From
    ),
    Rest is Mask /\ (Mask - 1),
    back_step(Rest, Kept, Before, With, Digits2, Digits, Kept2, Kept1).

%   The digits (bit D-1) of every filling kept.
must_hold(N, N, _, _, Must, Must) :- !.
must_hold(D, N, Kept, Without, Must0, Must) :-
    I is D + 1,
    arg(I, Without, Lacking),
    (   Kept /\ Lacking =:= 0 -> Must1 is Must0 \/ (1 << D) ; Must1 = Must0 ),
    must_hold(I, N, Kept, Without, Must1, Must).

not_holding(Leave, Cell) :-
    (   integer(Cell)
    ->  (1 << Cell) /\ Leave =:= 0
    ;   mask(Cell, Mask),
        Left is Mask /\ \ Leave,
        narrow(Cell, Mask, Left)
    ).


                 /*******************************
                 *            SEARCH            *
                 *******************************/

%!  sudoku_solution(+Box, +Givens, +Rules, +Options, -Grid) is nondet.
%
%   Grid is a solution of the puzzle (Givens: 0 for a blank); on backtracking,
%   the next one. Options: strength(S) (auto, hybrid, all_distinct,
%   all_different or singles; default auto) and labeling(L), the options of
%   labeling/2 such as [ff], [ffc, down] or [leftmost], where `auto` stands for
%   ff or ffc as the rules suggest (default [auto]); with wdeg, as in [wdeg] or
%   [wdeg, down], weighted_labeling/3 chooses the cells instead of labeling/2.

sudoku_solution(Box, Givens, Rules, Options, Grid) :-
    post(Box, Givens, Rules, Options, Grid),
    label(Rules, Options, Grid).

post(Box, Givens, Rules, Options, Cells) :-
    option(strength(Strength), Options, auto),
    maplist(given_cell, Givens, Cells),
    sudoku(Box, Cells, Rules, Strength).

label(Rules, Options, Cells) :-
    option(labeling(Labeling0), Options, [auto]),
    maplist(labeling_option(Rules), Labeling0, Labeling),
    caged_first(Rules, Cells, Caged, Free),
    (   memberchk(wdeg, Labeling)
    ->  weighted_labeling(Labeling, Cells, [Caged, Free])
    ;   memberchk(ffw, Labeling)
    ->  conflict_labeling(Labeling, [Caged, Free])
    ;   labeling(Labeling, Caged),
        labeling(Labeling, Free)
    ).

%!  weighted_labeling(+Labeling, +Cells, +Groups)
%
%   Labeling by conflicts (dom/wdeg, as norvig.py does it in Python): each
%   cell has a weight, 1 plus the dead ends met in it so far, and the search
%   picks the open cell with the fewest candidates per weight, the Groups in
%   turn (caged cells first). A dead end is a digit whose placing fails at
%   once, and its cell gains weight: once a guess has failed, the search turns
%   to where the puzzle resists, instead of proving the same contradiction
%   again under every choice made elsewhere. (CLP(FD) does not say which
%   propagator emptied which domain, so the weight goes to the cell placed,
%   where norvig.py weighs the cell and unit that ran dry.) The weights live
%   in one term changed by nb_setarg/3, so backtracking keeps them. Until the
%   first dead end every weight is 1: the choice is ff's. Each digit of the
%   cell is tried in turn (up, or down with `down` in Labeling).

weighted_labeling(Labeling, Cells, Groups) :-
    length(Cells, Count),
    length(Ones, Count),
    maplist(=(1), Ones),
    Weights =.. [weights|Ones],
    numlist(1, Count, Positions),
    pairs_keys_values(Numbered, Positions, Cells),
    maplist(numbered_group(Numbered), Groups, NumberedGroups),
    (   memberchk(down, Labeling) -> Order = down ; Order = up ),
    maplist(weighted_search(Weights, Order), NumberedGroups).

%   The cells of Group as Position-Cell, Position as in Numbered.
numbered_group(Numbered, Group, Pairs) :-
    include(in_group(Group), Numbered, Pairs).

in_group(Group, _-Cell) :-
    member(Member, Group), Member == Cell, !.

weighted_search(Weights, Order, Pairs0) :-
    exclude(placed, Pairs0, Pairs),
    (   Pairs == []
    ->  true
    ;   Pairs = [First|Rest],
        foldl(fewer_per_weight(Weights), Rest, First, Position-Cell),
        fd_set(Cell, Set),
        fdset_to_list(Set, Digits0),
        (   Order == down -> reverse(Digits0, Digits) ; Digits = Digits0 ),
        member(Digit, Digits),
        place(Weights, Position, Cell, Digit),
        weighted_search(Weights, Order, Pairs)
    ).

placed(_-Cell) :- integer(Cell).

%   Of two open cells, the one with fewer candidates per weight (the first on a tie).
fewer_per_weight(Weights, P-C, P0-C0, Best) :-
    arg(P, Weights, W),
    arg(P0, Weights, W0),
    fd_size(C, S),
    fd_size(C0, S0),
    (   S * W0 < S0 * W -> Best = P-C ; Best = P0-C0 ).

%   Place a digit; when propagation fails at once, the cell gains weight.
place(Weights, Position, Cell, Digit) :-
    (   Cell = Digit
    ->  true
    ;   arg(Position, Weights, W),
        W1 is W + 1,
        nb_setarg(Position, Weights, W1),
        fail
    ).

%!  conflict_labeling(+Labeling, +Groups)
%
%   First-fail whose ties go to conflicts (ffw): the open cell with the
%   fewest candidates, and of those the one whose constraints have failed
%   most often so far, each of the Groups in turn (caged cells first). A cell
%   weighs 1 plus the failures of the cage and unit propagators holding it
%   (blame/1): CLP(FD) does not say which propagator emptied a domain, but
%   the two propagators of this program do, and they are where a killer's
%   search fails. Plain dom/wdeg (weighted_labeling/3, with these weights)
%   took up to three times the labeling choices of ff on the forum's
%   HARD_KILLERS; as ff's tie-break the weights save choices on most of them
%   (HARD_KILLERS #9: 727 choices for ff's 1,336, #6: 341 for 714) and turn
%   the search to where the puzzle resists. A digit whose placing fails at
%   once weighs on its cell too (as in weighted_labeling/3: a few percent
%   fewer inferences). Branching as labeling/2 does it: step (X = D, else
%   X #\= D; D the least digit, or the greatest with `down`), enum (each
%   digit in turn) or bisect.

conflict_labeling(Labeling, Groups) :-
    (   memberchk(down, Labeling) -> Order = down ; Order = up ),
    (   memberchk(enum, Labeling) -> Branching = enum
    ;   memberchk(bisect, Labeling) -> Branching = bisect
    ;   Branching = step
    ),
    maplist(maplist(weigh), Groups),
    maplist(conflict_search(Order, Branching), Groups).

%   Each open cell starts at weight 1, an attribute holding a term that
%   nb_setarg/3 changes, so that backtracking keeps the counts.
weigh(Cell) :-
    (   var(Cell) -> put_attr(Cell, sudoku, weight(1)) ; true ).

attr_unify_hook(_, _).                          % a weighed cell takes any digit

attribute_goals(_) --> [].

%   A propagator failed on Cells: each open weighed cell among them gains a
%   weight, and the propagator fails.
blame(Cells) :-
    maplist(blame_cell, Cells),
    fail.

blame_cell(Cell) :-
    (   var(Cell), get_attr(Cell, sudoku, Weight)
    ->  arg(1, Weight, W0),
        W is W0 + 1,
        nb_setarg(1, Weight, W)
    ;   true
    ).

conflict_search(Order, Branching, Cells0) :-
    exclude(integer, Cells0, Cells),
    (   Cells == []
    ->  true
    ;   Cells = [First|Rest],
        conflict_key(First, Key),
        foldl(fewer_or_heavier, Rest, Key-First, _-Cell),
        conflict_branch(Branching, Order, Cell),
        conflict_search(Order, Branching, Cells)
    ).

%   Fewer candidates first, then more weight: S-(-W) in the standard order.
conflict_key(Cell, Size-Minus) :-
    fd_size(Cell, Size),
    get_attr(Cell, sudoku, weight(W)),
    Minus is -W.

fewer_or_heavier(Cell, Key0-Best0, Key-Best) :-
    conflict_key(Cell, Key1),
    (   Key1 @< Key0 -> Key-Best = Key1-Cell ; Key-Best = Key0-Best0 ).

conflict_branch(step, Order, Cell) :-
    (   Order == up -> fd_inf(Cell, D) ; fd_sup(Cell, D) ),
    (   ( Cell = D -> true ; blame_cell(Cell), fail ) ; Cell #\= D ).
conflict_branch(enum, Order, Cell) :-
    fd_dom(Cell, Dom),
    findall(D, ( D in Dom, indomain(D) ), Digits0),
    (   Order == up -> Digits = Digits0 ; reverse(Digits0, Digits) ),
    member(Cell, Digits).
conflict_branch(bisect, Order, Cell) :-
    fd_inf(Cell, Low),
    fd_sup(Cell, High),
    Mid is (Low + High) // 2,
    (   Order == up
    ->  ( Cell #=< Mid ; Cell #> Mid )
    ;   ( Cell #> Mid ; Cell #=< Mid )
    ).

%   The cells of the drawn cages (and of the other sums: arrows, little
%   killers), then the others. In a grid that cages only in part, first-fail
%   alone may label free cells early, and then search the caged ones again
%   under every choice made there; a free cell left to the end is a plain
%   Sudoku's cell, filled by propagation. On the generated arrows and little
%   killers too, the search is several times smaller (results/generated.md).
caged_first(Rules, Cells, Caged, Free) :-
    findall(Index, ( member(Rule, Rules), summed(Rule, Indices), member(Index, Indices) ),
            Found),
    sort(Found, Sorted),
    Grid =.. [grid|Cells],
    cells_at(Grid, Sorted, Caged),
    length(Cells, Count),
    Last is Count - 1,
    numlist(0, Last, All),
    ord_subtract(All, Sorted, Others),
    cells_at(Grid, Others, Free).

summed(cage(Indices, _), Indices).
summed(sum(Indices, _), Indices).
summed(arrow(Circle, Indices), [Circle|Indices]).

%   `auto` in the labeling options is ff or ffc, as auto_choices/3 says.
labeling_option(Rules, auto, Selection) :- !,
    auto_choices(Rules, _, Selection).
labeling_option(_, Option, Option).

%   A blank (0) is an unknown cell; a given is its digit.
given_cell(0, _) :- !.
given_cell(Digit, Digit).

%!  sudoku_count(+Box, +Givens, +Rules, +Options, -Count)
%
%   Count solutions, stopping at limit(K) if Options has one.

sudoku_count(Box, Givens, Rules, Options, Count) :-
    option(limit(Limit), Options, infinite),
    aggregate_all(count, limit(Limit, sudoku_solution(Box, Givens, Rules, Options, _)), Count).

%!  sudoku_solutions(+Box, +Givens, +Rules, +Options, -Grids, -Ended, -Stats)
%
%   Grids are the first solutions, up to limit(K) in Options (default 2,
%   `infinite` for all), found within time_limit(Seconds) if given; with
%   keep(N), only the first N are kept and the others counted (a count of
%   millions then holds few grids). Ended is
%   `search` when the search ended by itself or at the limit, `time_limit` when
%   the time ran out, `interrupted` when another thread stopped it by
%   thread_signal(T, throw(interrupted)) (as Python does on Ctrl-C); Grids then
%   holds what was found before. Stats is a list
%   of Key-Value: inferences, cpu_time, build_time (posting the constraints,
%   with the propagation that follows) and labeling_time, in seconds, and
%   found, the number of solutions found (kept or not).

sudoku_solutions(Box, Givens, Rules, Options, Grids, Ended, Stats) :-
    option(limit(Limit), Options, 2),
    option(time_limit(Seconds), Options, infinite),
    option(keep(Keep), Options, infinite),
    Built = built(none),
    Counter = found(0),
    statistics(inferences, Inferences0),
    statistics(cputime, Cpu0),
    get_time(Start),
    Search = limit(Limit, ( post(Box, Givens, Rules, Options, Grid),
                            get_time(Posted),
                            nb_setarg(1, Built, Posted),
                            label(Rules, Options, Grid) )),
    catch(within(Seconds, findall(Found, found(Search, Grid, Keep, Counter, Found),
                                  Finds)),
          Ball, stopped(Ball, Finds)),
    get_time(End),
    statistics(cputime, Cpu),
    statistics(inferences, Inferences),
    ended(Finds, Grids, Ended),
    arg(1, Built, Posted),
    split_time(Start, Posted, End, BuildTime, LabelingTime),
    CpuTime is Cpu - Cpu0,
    Count is Inferences - Inferences0,
    arg(1, Counter, Solutions),
    Stats = [inferences-Count, cpu_time-CpuTime,
             build_time-BuildTime, labeling_time-LabelingTime, found-Solutions].

%   Each solution counted, and the first Keep as grid(G); a stop met inside the
%   search (the time limit, an interrupt) becomes a last `time_limit` or
%   `interrupted`, so the grids found before it are kept.
found(Search, Grid, Keep, Counter, Found) :-
    catch(( call(Search), counted(Counter, Keep), Found = grid(Grid) ),
          Ball,
          stopped(Ball, [Found])).

%   One more solution counted (nb_setarg: the count survives the backtracking
%   into the next one); it is kept only while fewer than Keep are.
counted(Counter, Keep) :-
    arg(1, Counter, N0),
    N is N0 + 1,
    nb_setarg(1, Counter, N),
    (   Keep == infinite
    ->  true
    ;   N =< Keep
    ).

%   A stop outside the search (while posting) leaves no grid; any other
%   exception is an error, passed on.
stopped(time_limit_exceeded, [time_limit]) :- !.
stopped(interrupted, [interrupted]) :- !.
stopped(Ball, _) :-
    throw(Ball).

ended(Finds, Grids, Ended) :-
    (   append(Found, [Stop], Finds), Stop \= grid(_)
    ->  Ended = Stop
    ;   Found = Finds, Ended = search
    ),
    maplist(arg(1), Found, Grids).

%   Run Goal once, within a time limit in seconds (or `infinite`).
within(infinite, Goal) :- !, once(Goal).
within(Seconds, Goal) :- call_with_time_limit(Seconds, Goal).

%   Posting ends when labeling starts; a search stopped while posting was all posting.
split_time(Start, none, End, Build, 0.0) :- !,
    Build is End - Start.
split_time(Start, Posted, End, Build, Labeling) :-
    Build is Posted - Start,
    Labeling is End - Posted.


                 /*******************************
                 *     THE ENTRY FOR PYTHON     *
                 *******************************/

%!  sudokulab_solve(+Box, +Givens, +Rules, +Options, -Grids, -Ended, -Stats)
%
%   sudoku_solutions/7 for janus: Python passes the box as a pair (3, 3),
%   which arrives as 3-3, and rules and options as tuples ("name", Arg, ...),
%   which arrive as -(name, Arg, ...) and become name(Arg, ...) here.

sudokulab_solve(Box, Givens, PyRules, PyOptions, Grids, Ended, Stats) :-
    maplist(tuple_term, PyRules, Rules),
    maplist(tuple_term, PyOptions, Options),
    sudoku_solutions(Box, Givens, Rules, Options, Grids, Ended, Stats).

%!  sudokulab_auto(+Rules, -Strength, -Selection)
%
%   auto_choices/3 for janus: what `auto` stands for under these rules.

sudokulab_auto(PyRules, Strength, Selection) :-
    maplist(tuple_term, PyRules, Rules),
    auto_choices(Rules, Strength, Selection).

tuple_term(Tuple, Term) :-
    compound_name_arguments(Tuple, -, [Name|Args]),
    compound_name_arguments_(Term, Name, Args).

compound_name_arguments_(Name, Name, []) :- !.
compound_name_arguments_(Term, Name, Args) :-
    compound_name_arguments(Term, Name, Args).


                 /*******************************
                 *         PLAIN SWIPL          *
                 *******************************/

%!  solve_file(+File, +Box, +Options)
%
%   Solve every puzzle in File, one per line (N*N symbols: 1-9 then A-Z, with
%   0 or . for a blank), printing each first solution and its verdict (unique,
%   multiple, none or time_limit), then how long the solving took:
%
%       swipl -g "solve_file('top95.txt', 3-3, [])" -t halt sudokulab/models/prolog/sudoku.pl
%
%   Only the sudoku_solutions/7 calls are timed, not reading nor printing.

solve_file(File, Box, Options) :-
    read_file_to_string(File, Text, []),
    split_string(Text, "\n", " \t\r", Lines0),
    exclude(==(""), Lines0, Lines),
    maplist(line_givens, Lines, Puzzles),
    foldl(solve_and_print(Box, Options), Puzzles, 0-0, Wall-Cpu),
    length(Puzzles, Count),
    Rate is Count / max(Wall, 1.0e-9),
    format("% ~d puzzles solved in ~4f s (~1f puzzles/s), ~4f s of CPU~n",
           [Count, Wall, Rate, Cpu]).

solve_and_print(Box, Options, Givens, Wall0-Cpu0, Wall-Cpu) :-
    get_time(Start),
    statistics(process_cputime, CpuStart),
    sudoku_solutions(Box, Givens, [], Options, Grids, Ended, _),
    statistics(process_cputime, CpuEnd),
    get_time(End),
    Wall is Wall0 + End - Start,
    Cpu is Cpu0 + CpuEnd - CpuStart,
    option(limit(Limit), Options, 2),
    verdict(Grids, Limit, Ended, Verdict),
    (   Grids = [Grid|_]
    ->  grid_line(Grid, Line)
    ;   Line = "-"
    ),
    format("~s ~w~n", [Line, Verdict]).

verdict(_, _, time_limit, time_limit) :- !.
verdict(_, _, interrupted, interrupted) :- !.
verdict([], _, _, none) :- !.
verdict([_], Limit, _, Verdict) :- !,
    (   Limit == 1 -> Verdict = solved ; Verdict = unique ).
verdict(_, _, _, multiple).

line_givens(Line, Givens) :-
    string_chars(Line, Chars),
    maplist(symbol_digit, Chars, Givens).

symbol_digit('.', 0) :- !.
symbol_digit('0', 0) :- !.
symbol_digit(Char, Digit) :-
    upcase_atom(Char, Upper),
    symbols(Symbols),
    sub_atom(Symbols, Before, 1, _, Upper),
    Digit is Before + 1.

symbols('123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ').

grid_line(Grid, Line) :-
    maplist(digit_symbol, Grid, Chars),
    string_chars(Line, Chars).

digit_symbol(Digit, Char) :-
    symbols(Symbols),
    Before is Digit - 1,
    sub_atom(Symbols, Before, 1, _, Char).

%!  print_grid(+Box, +Grid)
%
%   Print a grid with lines between the boxes; blanks (0 or unknown) as dots.

print_grid(Box, Grid) :-
    Box = BoxRows-BoxCols,
    size(Box, N),
    rows(N, Grid, Rows),
    foldl(print_row(BoxRows, BoxCols, N), Rows, 0, _).

print_row(BoxRows, BoxCols, N, Row, R, R1) :-
    R1 is R + 1,
    (   R > 0, R mod BoxRows =:= 0
    ->  Width is 2 * N + 2 * (N // BoxCols - 1) - 1,
        length(Dashes, Width), maplist(=(0'-), Dashes),
        format("~s~n", [Dashes])
    ;   true
    ),
    foldl(print_cell(BoxCols), Row, 0, _),
    nl.

print_cell(BoxCols, Cell, C, C1) :-
    C1 is C + 1,
    (   C =:= 0 -> true
    ;   C mod BoxCols =:= 0 -> write(' | ')
    ;   write(' ')
    ),
    (   integer(Cell), Cell > 0 -> digit_symbol(Cell, Char), write(Char)
    ;   write('.')
    ).

%!  example(-Givens)
%
%   A hard classic 9x9 (box 3-3): the first puzzle of the top95 set.

example([4,0,0,0,0,0,8,0,5, 0,3,0,0,0,0,0,0,0, 0,0,0,7,0,0,0,0,0,
         0,2,0,0,0,0,0,6,0, 0,0,0,0,8,0,4,0,0, 0,0,0,0,1,0,0,0,0,
         0,0,0,6,0,3,0,7,0, 5,0,0,2,0,0,0,0,0, 1,0,4,0,0,0,0,0,0]).
