/* sudokulab's compiled engine: propagation and search over candidate bitmasks, in C.
 *
 * Written for this project (the published ideas of the fast solvers, not their code):
 * - each cell holds its candidates as a bitmask (bit d-1 for digit d), N <= 16;
 * - naked singles: a placed digit leaves its peers at once (a queue of placed cells);
 * - hidden singles: per unit, the digits seen once and twice, two ORs per cell; a digit
 *   seen once and not yet placed goes to its cell; a digit seen nowhere is a dead end;
 * - locked candidates (box-line): each box meets each of its rows and columns in a
 *   segment; a digit of the box only in one segment leaves the rest of that line
 *   (pointing), a digit of the line only in one segment leaves the rest of the box
 *   (claiming), both from ORs of the segments;
 * - search: the open cell with fewest candidates, each digit on a copy of the state.
 * Counting stops at `limit` solutions; the clock is read every CLOCK_EVERY nodes and a
 * stop flag (Ctrl-C, set from another thread) at every node.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#define MAXN 16
#define MAXCELLS (MAXN * MAXN)
#define MAXUNITS (3 * MAXN)
#define MAXPEERS (3 * MAXN)
#define CLOCK_EVERY 256

typedef struct {
    volatile int stop;      /* set by another thread (Ctrl-C): stop at the next node */
    double seconds;         /* time allowed; < 0: no deadline */
    long limit;             /* solutions wanted; 0: all */
    long found;             /* solutions found */
    long nodes, guesses, backtracks, placements, locked;
    int (*on_solution)(const uint8_t *grid);  /* each solution (NULL: none); nonzero stops */
    /* each search event (NULL, the default: none, one test per event): a trace */
    void (*on_event)(int kind, int slot, int cell, int digit, const uint16_t *cand);
    uint8_t *out;           /* the first out_cap solutions, `cells` digits each */
    long out_cap;
    double deadline;        /* (internal) monotonic time to stop at */
    int depth;              /* (internal) the guesses above the node being searched */
} native_ctl;

/* The events a trace hears: the candidates before propagation (START), after one node's
 * propagation (WAVE) or where it met a contradiction (DEAD); the cell a node branches on
 * and its count of candidates (CHOSE); a digit tried there (GUESS, with the candidates
 * before it). `slot` is the node's depth, `cand` the candidates at that moment. */
enum { EV_START = 0, EV_WAVE = 1, EV_DEAD = 2, EV_CHOSE = 3, EV_GUESS = 4 };
#define EVENT(ctl, kind, slot, cell, digit, cand) \
    do { if ((ctl)->on_event) (ctl)->on_event(kind, slot, cell, digit, cand); } while (0)

typedef struct {
    int n, br, bc, cells, nunits, npeers, nsegs;
    uint16_t full;
    uint8_t unit_cells[MAXUNITS][MAXN];
    uint8_t cell_units[MAXCELLS][3];
    uint8_t peers[MAXCELLS][MAXPEERS];
    /* box-line segments: a box's cells on one of its rows or columns */
    uint8_t seg_len[2 * MAXN * MAXN], rest_len[2 * MAXN * MAXN];
    uint8_t nline[2 * MAXN * MAXN], nbox[2 * MAXN * MAXN];
    uint8_t seg_cells[2 * MAXN * MAXN][MAXN];
    uint8_t line_rest[2 * MAXN * MAXN][MAXN];   /* the line's cells outside the box */
    uint8_t box_rest[2 * MAXN * MAXN][MAXN];    /* the box's cells outside the line */
    uint16_t line_segs[2 * MAXN * MAXN][MAXN];  /* the line's other segments */
    uint16_t box_segs[2 * MAXN * MAXN][MAXN];   /* the box's other segments on parallel lines */
} geo_t;

typedef struct {
    uint16_t cand[MAXCELLS];
    uint16_t placed_in[MAXUNITS];   /* the digits placed in each unit */
    uint8_t placed[MAXCELLS];
    uint8_t queue[MAXCELLS];        /* placed cells whose peers have not lost the digit */
    int nplaced, qhead, qtail;
} state_t;

enum { DONE = 0, LIMIT = 1, DEADLINE = 2, STOPPED = 3, BAD_SHAPE = -1 };

#define HOT static inline __attribute__((always_inline))

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The segments of one direction (cols 0: a box's rows, 1: its columns). */
static void segments(geo_t *g, int cols) {
    int n = g->n, seglen = cols ? g->br : g->bc, segs = n / seglen;
    int depth = cols ? g->bc : g->br;
    int base = g->nsegs;
    for (int line = 0; line < n; line++)
        for (int j = 0; j < segs; j++) {
            int id = base + line * segs + j, first = line - line % depth, k = 0;
            g->seg_len[id] = (uint8_t)seglen;
            g->rest_len[id] = (uint8_t)(n - seglen);
            for (int i = 0; i < seglen; i++) {
                int pos = j * seglen + i;
                g->seg_cells[id][i] = (uint8_t)(cols ? pos * n + line : line * n + pos);
            }
            for (int pos = 0; pos < n; pos++)
                if (pos / seglen != j)
                    g->line_rest[id][k++] = (uint8_t)(cols ? pos * n + line : line * n + pos);
            k = 0;
            for (int l2 = first; l2 < first + depth; l2++)
                for (int i = 0; l2 != line && i < seglen; i++) {
                    int pos = j * seglen + i;
                    g->box_rest[id][k++] = (uint8_t)(cols ? pos * n + l2 : l2 * n + pos);
                }
            k = 0;
            for (int j2 = 0; j2 < segs; j2++)
                if (j2 != j) g->line_segs[id][k++] = (uint16_t)(base + line * segs + j2);
            g->nline[id] = (uint8_t)k;
            k = 0;
            for (int l2 = first; l2 < first + depth; l2++)
                if (l2 != line) g->box_segs[id][k++] = (uint16_t)(base + l2 * segs + j);
            g->nbox[id] = (uint8_t)k;
        }
    g->nsegs += n * segs;
}

static int geometry(int br, int bc, geo_t *g) {
    int n = br * bc;
    if (br < 1 || bc < 1 || n < 1 || n > MAXN) return 0;
    g->n = n; g->br = br; g->bc = bc; g->cells = n * n; g->nunits = 3 * n;
    g->full = (uint16_t)((1u << n) - 1);
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            int cell = r * n + c, box = (r / br) * (n / bc) + c / bc;
            int k = (r % br) * bc + c % bc;
            g->unit_cells[r][c] = (uint8_t)cell;
            g->unit_cells[n + c][r] = (uint8_t)cell;
            g->unit_cells[2 * n + box][k] = (uint8_t)cell;
            g->cell_units[cell][0] = (uint8_t)r;
            g->cell_units[cell][1] = (uint8_t)(n + c);
            g->cell_units[cell][2] = (uint8_t)(2 * n + box);
        }
    for (int cell = 0; cell < g->cells; cell++) {
        int r = cell / n, c = cell % n, count = 0;
        for (int other = 0; other < g->cells; other++) {
            int r2 = other / n, c2 = other % n;
            if (other == cell) continue;
            if (r2 == r || c2 == c || (r2 / br == r / br && c2 / bc == c / bc))
                g->peers[cell][count++] = (uint8_t)other;
        }
        g->npeers = count;
    }
    g->nsegs = 0;
    segments(g, 0);
    segments(g, 1);
    return 1;
}

HOT int single(uint16_t m) { return m && !(m & (m - 1)); }

/* Place a digit (a one-bit mask) in a cell; 0 when it cannot go there. */
HOT int place(const geo_t *g, state_t *s, int cell, uint16_t bit) {
    if (s->placed[cell]) return s->cand[cell] == bit;
    if (!(s->cand[cell] & bit)) return 0;
    for (int k = 0; k < 3; k++) {
        int u = g->cell_units[cell][k];
        if (s->placed_in[u] & bit) return 0;
        s->placed_in[u] |= bit;
    }
    s->cand[cell] = bit;
    s->placed[cell] = 1;
    s->nplaced++;
    s->queue[s->qtail++] = (uint8_t)cell;
    return 1;
}

/* Each placed cell's digit leaves its peers; a peer left with one digit is placed.
 * (PEERS, N: constants in the specialised search, the geometry's in the general one.) */
HOT int naked(const geo_t *g, state_t *s, native_ctl *ctl, const int PEERS) {
    while (s->qhead < s->qtail) {
        int cell = s->queue[s->qhead++];
        uint16_t bit = s->cand[cell], keep = (uint16_t)~bit;
        const uint8_t *peer = g->peers[cell];
        uint8_t singles[MAXPEERS];
        int count = 0, empty = 0;
        /* without a branch per peer: the peers that lose their last but one digit are
           listed, one that loses its last is noted */
        for (int k = 0; k < PEERS; k++) {
            int p = peer[k];
            uint16_t m = s->cand[p], left = m & keep;
            s->cand[p] = left;
            singles[count] = (uint8_t)p;
            count += (m != left) & ((left & (left - 1)) == 0);
            empty |= left == 0;
        }
        if (empty) return 0;
        for (int k = 0; k < count; k++) {
            int p = singles[k];
            if (!place(g, s, p, s->cand[p])) return 0;
            ctl->placements++;
        }
    }
    return 1;
}

/* Hidden singles over every unit: -1 dead end, else how many were placed. */
HOT int hidden(const geo_t *g, state_t *s, native_ctl *ctl, const int N) {
    int placed = 0;
    const uint16_t full = (uint16_t)((1u << N) - 1);
    for (int u = 0; u < 3 * N; u++) {
        if (s->placed_in[u] == full) continue;
        const uint8_t *cells = g->unit_cells[u];
        uint16_t once = 0, twice = 0;
        for (int i = 0; i < N; i++) {
            uint16_t m = s->cand[cells[i]];
            twice |= once & m;
            once |= m;
        }
        if (once != full) return -1;
        uint16_t lone = once & (uint16_t)~twice & (uint16_t)~s->placed_in[u];
        while (lone) {
            uint16_t bit = lone & (uint16_t)-lone;
            lone ^= bit;
            int i = 0;
            while (i < N && !(s->cand[cells[i]] & bit)) i++;
            if (i == N || !place(g, s, cells[i], bit)) return -1;
            ctl->placements++;
            placed++;
        }
    }
    return placed;
}

/* Remove digits from a list of cells; 0 on an emptied cell. */
HOT int drop(const geo_t *g, state_t *s, const uint8_t *cells, int count, uint16_t digits,
             native_ctl *ctl, int *changed) {
    for (int i = 0; i < count; i++) {
        int cell = cells[i];
        uint16_t m = s->cand[cell];
        if (!(m & digits)) continue;
        ctl->locked += __builtin_popcount(m & digits);
        m &= (uint16_t)~digits;
        if (!m) return 0;
        s->cand[cell] = m;
        *changed = 1;
        if (single(m)) {
            if (!place(g, s, cell, m)) return 0;
            ctl->placements++;
        }
    }
    return 1;
}

/* Locked candidates: pointing (a box's digit on one line leaves the rest of the line) and
 * claiming (a line's digit in one box leaves the rest of the box), from segment ORs. */
HOT int locked(const geo_t *g, state_t *s, native_ctl *ctl, int *changed, const int SEGS) {
    uint16_t segor[2 * MAXN * MAXN];
    for (int id = 0; id < SEGS; id++) {
        uint16_t m = 0;
        for (int i = 0; i < g->seg_len[id]; i++) m |= s->cand[g->seg_cells[id][i]];
        segor[id] = m;
    }
    for (int id = 0; id < SEGS; id++) {
        uint16_t linerest = 0, boxrest = 0;
        for (int k = 0; k < g->nline[id]; k++) linerest |= segor[g->line_segs[id][k]];
        for (int k = 0; k < g->nbox[id]; k++) boxrest |= segor[g->box_segs[id][k]];
        uint16_t point = segor[id] & (uint16_t)~boxrest & linerest;
        uint16_t claim = segor[id] & (uint16_t)~linerest & boxrest;
        if (point && !drop(g, s, g->line_rest[id], g->rest_len[id], point, ctl, changed))
            return 0;
        if (claim && !drop(g, s, g->box_rest[id], g->rest_len[id], claim, ctl, changed))
            return 0;
    }
    return 1;
}

/* Singles to a fixpoint, then locked candidates, again until nothing changes. */
HOT int propagate(const geo_t *g, state_t *s, native_ctl *ctl, const int N, const int PEERS,
                  const int SEGS) {
    for (;;) {
        if (!naked(g, s, ctl, PEERS)) return 0;
        if (s->nplaced == N * N) return 1;
        int found = hidden(g, s, ctl, N);
        if (found < 0) return 0;
        if (found) continue;
        int changed = 0;
        if (!locked(g, s, ctl, &changed, SEGS)) return 0;
        if (!changed && s->qhead == s->qtail) return 1;
    }
}

static int solution(const geo_t *g, const state_t *s, native_ctl *ctl) {
    uint8_t grid[MAXCELLS];
    for (int i = 0; i < g->cells; i++) grid[i] = (uint8_t)(__builtin_ctz(s->cand[i]) + 1);
    if (ctl->out && ctl->found < ctl->out_cap)
        memcpy(ctl->out + ctl->found * g->cells, grid, (size_t)g->cells);
    ctl->found++;
    if (ctl->on_solution && ctl->on_solution(grid)) return STOPPED;
    return (ctl->limit && ctl->found >= ctl->limit) ? LIMIT : DONE;
}

/* One node: propagate, then guess on the open cell with fewest candidates. */
HOT int node(const geo_t *g, state_t *s, native_ctl *ctl, const int N, const int PEERS,
             const int SEGS, int (*again)(const geo_t *, state_t *, native_ctl *)) {
    if (!propagate(g, s, ctl, N, PEERS, SEGS)) {
        ctl->backtracks++;
        EVENT(ctl, EV_DEAD, ctl->depth, -1, 0, s->cand);
        return DONE;
    }
    ctl->nodes++;
    EVENT(ctl, EV_WAVE, ctl->depth, -1, 0, s->cand);
    if (ctl->stop) return STOPPED;
    if (ctl->deadline > 0 && ctl->nodes % CLOCK_EVERY == 0 && now() >= ctl->deadline)
        return DEADLINE;
    if (s->nplaced == N * N) return solution(g, s, ctl);
    int best = -1, fewest = MAXN + 1;
    for (int i = 0; i < N * N; i++) {
        if (s->placed[i]) continue;
        int k = __builtin_popcount(s->cand[i]);
        if (k < fewest) { fewest = k; best = i; if (k == 2) break; }
    }
    uint16_t digits = s->cand[best];
    const int slot = ctl->depth;
    EVENT(ctl, EV_CHOSE, slot, best, fewest, s->cand);
    while (digits) {
        uint16_t bit = digits & (uint16_t)-digits;
        digits ^= bit;
        state_t child;
        memcpy(&child, s, sizeof child);
        child.qhead = child.qtail = 0;
        ctl->guesses++;
        EVENT(ctl, EV_GUESS, slot, best, __builtin_ctz(bit) + 1, s->cand);
        ctl->depth = slot + 1;
        int why = DONE;
        if (place(g, &child, best, bit)) {
            why = again(g, &child, ctl);
        } else {  /* the digit empties a peer at once: a dead end like any other */
            ctl->backtracks++;
            EVENT(ctl, EV_DEAD, slot + 1, best, 0, child.cand);
        }
        ctl->depth = slot;
        if (why != DONE) return why;
    }
    return DONE;
}

/* The classic grid, every size a constant; any other box shape, read from the geometry. */
static int search9(const geo_t *g, state_t *s, native_ctl *ctl) {
    return node(g, s, ctl, 9, 20, 54, search9);
}

static int search_any(const geo_t *g, state_t *s, native_ctl *ctl) {
    return node(g, s, ctl, g->n, g->npeers, g->nsegs, search_any);
}

static int search(const geo_t *g, state_t *s, native_ctl *ctl) {
    return g->br == 3 && g->bc == 3 ? search9(g, s, ctl) : search_any(g, s, ctl);
}

/* The classic geometry, built once per process (by the first thread that asks). */
static geo_t classic;
static pthread_once_t classic_once = PTHREAD_ONCE_INIT;
static void build_classic(void) { geometry(3, 3, &classic); }

static const geo_t *shape(int br, int bc, geo_t *local) {
    if (br == 3 && bc == 3) {
        pthread_once(&classic_once, build_classic);
        return &classic;
    }
    return geometry(br, bc, local) ? local : 0;
}

/* The state after the givens are placed; 0 when two givens clash. */
static int start(const geo_t *g, const uint8_t *givens, state_t *s) {
    memset(s, 0, sizeof *s);
    for (int i = 0; i < g->cells; i++) s->cand[i] = g->full;
    for (int i = 0; i < g->cells; i++)
        if (givens[i] && (givens[i] > g->n || !place(g, s, i, (uint16_t)(1u << (givens[i] - 1)))))
            return 0;
    return 1;
}

static void arm(native_ctl *ctl) {
    ctl->deadline = ctl->seconds >= 0 ? now() + ctl->seconds : 0;
    if (ctl->seconds == 0) ctl->deadline = now();  /* no time at all: stop at once */
}

/* Solve one puzzle of box br x bc (givens: one byte per cell, 0 blank): DONE (searched it
 * all), LIMIT, DEADLINE, STOPPED or BAD_SHAPE; solutions through ctl. */
int native_solve(int br, int bc, const uint8_t *givens, native_ctl *ctl) {
    geo_t local;
    state_t s;
    const geo_t *g = shape(br, bc, &local);
    if (!g) return BAD_SHAPE;
    arm(ctl);
    ctl->depth = 0;
    if (!start(g, givens, &s)) { ctl->backtracks++; return DONE; }
    EVENT(ctl, EV_START, 0, -1, 0, s.cand);
    return search(g, &s, ctl);
}

/* Propagation alone (the ladder's root level): each cell's candidates into marks;
 * 1, or 0 when it reaches a contradiction, BAD_SHAPE for a box it cannot take. */
int native_root(int br, int bc, const uint8_t *givens, uint16_t *marks, native_ctl *ctl) {
    geo_t local;
    state_t s;
    const geo_t *g = shape(br, bc, &local);
    if (!g) return BAD_SHAPE;
    if (!start(g, givens, &s) || !propagate(g, &s, ctl, g->n, g->npeers, g->nsegs)) return 0;
    memcpy(marks, s.cand, (size_t)g->cells * sizeof(uint16_t));
    return 1;
}

/* Solve `count` classic puzzles, one C call: puzzle k is 81 characters at text + k*stride
 * ('1'-'9' a given, anything else a blank). Its first solution goes to first + k*82 (a
 * line: 81 characters '1'-'9' and a line feed) and its second to second + k*81 (ctl->limit
 * 1 or 2: how many are sought; '0's where there is none); status[k]: how many were found (with the limit 2: 0 none, 1 unique,
 * 2 several), -1 cut short. The clock and the stop flag hold for the whole batch.
 * Returns how many puzzles were done before a stop or the deadline. */
long native_batch(const char *text, long count, long stride, char *first, char *second,
                  int8_t *status, native_ctl *ctl) {
    geo_t local;
    state_t s;
    uint8_t givens[81], found[162];
    const geo_t *g = shape(3, 3, &local);
    ctl->limit = ctl->limit == 1 ? 1 : 2;
    ctl->on_solution = 0;
    ctl->on_event = 0;
    ctl->depth = 0;
    ctl->out = found;
    ctl->out_cap = 2;
    arm(ctl);
    for (long k = 0; k < count; k++) {
        const char *line = text + k * stride;
        for (int i = 0; i < 81; i++)
            givens[i] = (line[i] >= '1' && line[i] <= '9') ? (uint8_t)(line[i] - '0') : 0;
        ctl->found = 0;
        int why = start(g, givens, &s) ? search(g, &s, ctl) : DONE;
        if (why == DEADLINE || why == STOPPED) { status[k] = -1; return k; }
        status[k] = (int8_t)ctl->found;
        for (int i = 0; i < 81; i++) {
            first[k * 82 + i] = ctl->found > 0 ? (char)('0' + found[i]) : '0';
            second[k * 81 + i] = ctl->found > 1 ? (char)('0' + found[81 + i]) : '0';
        }
        first[k * 82 + 81] = '\n';
    }
    return count;
}
