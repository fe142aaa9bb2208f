/* The Gyulbot solver's search (`solver.py` says why it is exact): IDA* over packed positions, with the board's
 * tables it needs, compiled by `pip install` (setup.py) so that no first use waits for a compiler.
 *
 * One call, `search(spec, robots, rows, cols, goal, bits, max_moves, max_nodes, stop, check_every)`, is one solve;
 * the arguments are `flat.Flat`'s, `stop` None or a buffer whose first byte a caller's thread may set (the search
 * runs without the GIL). Returns (length, nodes, moves): the solution's length, -1 (none within max_moves) or -2 (the
 * node budget or the stop flag, before a proof); the positions expanded; the moves as (colour, direction) pairs.
 *
 * A cell is (row - 1) * cols + (col - 1); directions are N E S W (0-3); `spec`: per cell the bits of its blocked
 * sides (1 << direction), the robots' cells colour by colour, each colour's number of robots, then 1 per colour
 * that may finish. Every array of a solve is allocated once per call and freed before it returns.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define UNREACHABLE (1 << 20)
#define LIMIT 63            /* the most moves a search may be asked for: a table entry keeps the moves left in 6 bits */
#define TT_START_LOG2 11
#define TT_MAX_LOG2 25      /* 32 Mi entries of 8 bytes, 256 MB; beyond it entries are replaced */
#define PROBES 24
#define TT_MIN_LEFT 2       /* near the leaves a table probe costs more than it saves */
#define GOLDEN 0x9E3779B97F4A7C15ULL
#define NO_MEMORY (-3)

static const int BEHIND[4] = {2, 3, 0, 1};

typedef struct {
    int cells, cols, goal, n, groups, bits;
    int max_moves;
    int64_t max_nodes, check_every;
    volatile const char *stop;
    int32_t *run;                    /* run[cell * 4 + d]: free steps from cell in direction d, walls and edges only */
    int32_t *marks;                  /* the stopper bits a robot on the cell gives (fill_stopper_marks) */
    int32_t *reach;                  /* reach[cell * 4 + d]: moves to the goal with a last move d, stopping anywhere */
    int32_t *seen, *done[2], *front_bits[2], *front[2];  /* the reach table's search (start_reach, deepen) */
    int32_t bfs_moves, bfs_size;
    int32_t *open, open_count;       /* the cells whose reach is not known in every direction yet (may list more) */
    int32_t *line[4], *axis[4];      /* a cell's row or column across direction d, and its place along d */
    int needs, all_lone;
    int32_t *group_of, *finisher, *lone, *pooled, *scratch;  /* per robot */
    int32_t *bounds, *order;         /* per colour: its robots are bounds[g]..bounds[g + 1]; the order tried */
    int32_t *pos;                    /* level k's robots at k * n */
    int32_t heur[LIMIT + 1], pure[LIMIT + 1], next_move[LIMIT + 1], path_group[LIMIT + 1], path_dir[LIMIT + 1];
    uint64_t *table;
    int log2, growable;              /* the table holds 1 << log2 entries; growable: memory for more was there */
    int64_t used, nodes;
} Search;

/* The board's free runs: none past a blocked side, else one more than the neighbour's. */
static void fill_runs(Search *s, const int64_t *spec) {
    int cells = s->cells, cols = s->cols;
    int32_t *run = s->run;
    for (int cell = 0; cell < cells; cell++) {  /* N and W from the neighbours above and to the left */
        run[cell * 4] = (spec[cell] & 1) ? 0 : run[(cell - cols) * 4] + 1;
        run[cell * 4 + 3] = (spec[cell] & 8) ? 0 : run[(cell - 1) * 4 + 3] + 1;
    }
    for (int cell = cells - 1; cell >= 0; cell--) {  /* S and E from below and to the right */
        run[cell * 4 + 2] = (spec[cell] & 4) ? 0 : run[(cell + cols) * 4 + 2] + 1;
        run[cell * 4 + 1] = (spec[cell] & 2) ? 0 : run[(cell + 1) * 4 + 1] + 1;
    }
}

static void fill_lines(Search *s) {
    for (int row = 0, cell = 0; cell < s->cells; row++)
        for (int col = 0; col < s->cols; col++, cell++) {
            s->line[0][cell] = col, s->line[1][cell] = row, s->line[2][cell] = col, s->line[3][cell] = row;
            s->axis[0][cell] = -row, s->axis[1][cell] = col, s->axis[2][cell] = row, s->axis[3][cell] = -col;
        }
}

/* The reach table with its first round (the squares behind the goal), and the state of its search for `deepen`.
 * A robot that may stop anywhere moves in one go between any two squares of a wall-free row or column segment, so
 * each search (one per last direction d) gives a cell's segments the next distance, each segment once. The four
 * searches run together: a cell carries the bits of the directions that reached it. */
static void start_reach(Search *s) {
    int cells = s->cells, goal = s->goal;
    const int deltas[4] = {-s->cols, 1, s->cols, -1};
    for (int entry = 0; entry < cells * 4; entry++)
        s->reach[entry] = 2;  /* the cap (see `deepen`) until found */
    int size = 0;
    for (int last = 0; last < 4; last++) {
        int behind = BEHIND[last];  /* the last move comes from behind the goal */
        for (int k = 1; k <= s->run[goal * 4 + behind]; k++) {
            int cell = goal + deltas[behind] * k;
            s->reach[cell * 4 + last] = 1;
            s->seen[cell] |= 1 << last;
            if (s->front_bits[1][cell] == 0)
                s->front[1][size++] = cell;
            s->front_bits[1][cell] |= 1 << last;
        }
    }
    if (size == 0)  /* walled in: nothing reaches the goal */
        for (int entry = 0; entry < cells * 4; entry++)
            s->reach[entry] = UNREACHABLE;
    for (int cell = 0; cell < cells; cell++)
        s->open[cell] = cell;
    s->open_count = cells;
    s->bfs_moves = 1, s->bfs_size = size;
}

/* Runs the reach table's search on until it has found every cell that needs at most `upto` moves; the cells not
 * found yet read as the cap, the least moves any of them needs (UNREACHABLE once the search is over). The solver
 * deepens to each iteration's limit: a bound above the limit prunes alike whether it is exact or capped. */
static void deepen(Search *s, int upto) {
    const int deltas[4] = {-s->cols, 1, s->cols, -1};
    int moves = s->bfs_moves, size = s->bfs_size;
    while (size && moves < upto) {
        int here_row = moves & 1, next_row = 1 - here_row, found = 0;
        for (int f = 0; f < size; f++) {
            int cell = s->front[here_row][f];
            int bits = s->front_bits[here_row][cell];
            s->front_bits[here_row][cell] = 0;
            for (int vertical = 0; vertical < 2; vertical++) {  /* the row (W to E), then the column (N to S) */
                int back = vertical ? 0 : 3, ahead = vertical ? 2 : 1;
                int first = cell + deltas[back] * s->run[cell * 4 + back];
                int new_bits = bits & ~s->done[vertical][first];  /* bit d: the segment starting here was spread */
                if (new_bits == 0)
                    continue;
                s->done[vertical][first] |= new_bits;
                int here = first;
                for (int k = 0; k <= s->run[first * 4 + ahead]; k++, here += deltas[ahead]) {
                    int fresh = new_bits & ~s->seen[here];  /* bit d: reach[here * 4 + d] is known */
                    if (!fresh || here == s->goal)
                        continue;
                    s->seen[here] |= fresh;
                    if (s->front_bits[next_row][here] == 0)
                        s->front[next_row][found++] = here;
                    s->front_bits[next_row][here] |= fresh;
                    for (int d = 0; d < 4; d++)
                        if (fresh >> d & 1)
                            s->reach[here * 4 + d] = moves + 1;
                }
            }
        }
        size = found;
        moves++;
    }
    if (moves != s->bfs_moves) {
        int cap = size ? moves + 1 : UNREACHABLE, kept = 0;
        for (int k = 0; k < s->open_count; k++) {  /* the cap into every entry not found yet */
            int cell = s->open[k], unknown = ~s->seen[cell] & 15;
            if (unknown == 0)
                continue;
            s->open[kept++] = cell;
            for (int d = 0; d < 4; d++)
                if (unknown >> d & 1)
                    s->reach[cell * 4 + d] = cap;
        }
        s->open_count = kept;
    }
    s->bfs_moves = moves, s->bfs_size = size;
}

/* Where other robots must stand for a lone robot to finish with a last move d: `needs` bit d when the last move
 * needs a robot past the goal (unless a wall or the edge stops it there), bit 4 + d when it needs one beside the
 * line behind the goal; marks[cell]: the bits a robot on the cell gives. Before the last move the robot must stop
 * on the line behind the goal, and the first time it does it comes in from the side (or through the goal, then
 * the line's walled end stops it). A side entry stopped by a wall (or the line entered through the goal) needs no
 * robot; otherwise a robot on the cell beyond each side entry stops it. */
static void fill_stopper_marks(Search *s) {
    const int deltas[4] = {-s->cols, 1, s->cols, -1};
    int goal = s->goal;
    const int32_t *run = s->run;
    int needs = 0;
    for (int last = 0; last < 4; last++) {
        int behind = BEHIND[last];
        int free = run[goal * 4 + last] > 0;  /* through the goal: the line's end is walled */
        if (free) {
            s->marks[goal + deltas[last]] |= 1 << last;
            needs |= 1 << last;
        }
        for (int k = 1; k <= run[goal * 4 + behind]; k++) {
            int cell = goal + deltas[behind] * k;
            for (int turn = 1; turn <= 3; turn += 2) {
                int side = (last + turn) % 4;
                if (run[cell * 4 + BEHIND[side]] > 0 && run[cell * 4 + side] == 0)
                    free = 1;  /* a side entry stopped by a wall */
            }
        }
        if (free)
            continue;
        needs |= 1 << (4 + last);
        for (int k = 1; k <= run[goal * 4 + behind]; k++) {
            int cell = goal + deltas[behind] * k;
            for (int turn = 1; turn <= 3; turn += 2) {
                int side = (last + turn) % 4;
                if (run[cell * 4 + BEHIND[side]] > 0)  /* something can come in moving `side` */
                    s->marks[cell + deltas[side]] |= 1 << (4 + last);
            }
        }
    }
    s->needs = needs;
}

/* The least moves to finish (solver.py's bound): per finishing robot and last direction d, its reach, plus, for
 * a lone robot, a move of another colour for each stopper it still lacks. Two missing stoppers are two moves when
 * every robot is lone (a move places one robot), else one. Also gives the least reach alone (no stoppers), which
 * only a move of a finishing colour can change. Only a bound of at most `left` is exact. */
static inline int bound(const Search *s, const int32_t *pos, int left, int *pure_out) {
    int best = UNREACHABLE, pure = UNREACHABLE, n = s->n;
    for (int i = 0; i < n; i++) {
        if (!s->finisher[i])
            continue;
        int p = pos[i];
        if (p == s->goal) {
            *pure_out = 0;
            return 0;
        }
        const int32_t *r = s->reach + p * 4;  /* one cache line per cell */
        int r0 = r[0], r1 = r[1], r2 = r[2], r3 = r[3];
        int least = r0;
        if (r1 < least) least = r1;
        if (r2 < least) least = r2;
        if (r3 < least) least = r3;
        if (least < pure)
            pure = least;
        if (least > left || least >= best)
            continue;
        int missing = 0;
        if (s->lone[i]) {
            int covered = 0;
            for (int j = 0; j < n; j++)
                if (s->group_of[j] != s->group_of[i])
                    covered |= s->marks[pos[j]];
            missing = s->needs & ~covered;
        }
        for (int d = 0; d < 4; d++) {
            int moves = r[d];
            if (moves >= best)
                continue;
            int last = missing >> d & 1;
            int side = moves >= 2 ? (missing >> (4 + d) & 1) : 0;
            moves += s->all_lone ? last + side : (last | side);
            if (moves < best)
                best = moves;
        }
    }
    *pure_out = pure;
    return best;
}

/* How far the body pos[lo:hi] slides in `d`: the least free run of its robots, each cut short by the nearest
 * robot of another colour ahead of it. */
static inline int slide(const Search *s, const int32_t *pos, int lo, int hi, int d) {
    int dist = UNREACHABLE, n = s->n;
    const int32_t *line = s->line[d], *axis = s->axis[d];
    for (int i = lo; i < hi; i++) {
        int p = pos[i];
        int steps = s->run[p * 4 + d];
        if (steps == 0)
            return 0;
        int here_line = line[p], here_axis = axis[p];
        for (int j = 0; j < n; j++) {
            if (j >= lo && j < hi)
                continue;
            int q = pos[j];
            int ahead = axis[q] - here_axis;
            if (line[q] == here_line && ahead > 0 && ahead <= steps)
                steps = ahead - 1;
        }
        if (steps < dist) {
            dist = steps;
            if (dist == 0)
                return 0;
        }
    }
    return dist;
}

/* The position's key: robots in order, except that the pooled ones (lone robots that may not finish,
 * interchangeable as mere blockers) come sorted; 0 marks an empty slot, so every key is one more. */
static inline uint64_t pack(const Search *s, const int32_t *pos) {
    uint64_t key = 0;
    int k = 0;
    int32_t *scratch = s->scratch;
    for (int i = 0; i < s->n; i++) {
        if (s->pooled[i]) {
            int j = k;
            while (j > 0 && scratch[j - 1] > pos[i]) {
                scratch[j] = scratch[j - 1];
                j--;
            }
            scratch[j] = pos[i];
            k++;
        } else {
            key = (key << s->bits) | (uint64_t)pos[i];
        }
    }
    for (int j = 0; j < k; j++)
        key = (key << s->bits) | (uint64_t)scratch[j];
    return key + 1;
}

/* Records `key` as searched with `left` moves to go (one word per entry: key << 6 | left). Returns whether to
 * explore it (not when it was searched with as many already); *fresh: it took a new slot. */
static inline int visit(uint64_t *table, int log2, uint64_t key, int left, int *fresh) {
    uint64_t mask = ((uint64_t)1 << log2) - 1;
    uint64_t start = (key * GOLDEN) >> (64 - log2);
    uint64_t entry = (key << 6) | (uint64_t)left;
    uint64_t weakest = start, weakest_left = 64;
    *fresh = 0;
    for (int probe = 0; probe < PROBES; probe++) {
        uint64_t slot = (start + probe) & mask;
        uint64_t held = table[slot];
        if (held == 0) {
            table[slot] = entry;
            *fresh = 1;
            return 1;
        }
        if ((held >> 6) == key) {
            if ((held & 63) >= (uint64_t)left)
                return 0;
            table[slot] = entry;
            return 1;
        }
        if ((held & 63) < weakest_left) {
            weakest = slot;
            weakest_left = held & 63;
        }
    }
    table[weakest] = entry;  /* the window is full: forget the least useful entry */
    return 1;
}

/* Doubles the table, its entries moved; without memory for it the search goes on replacing entries. */
static void grow(Search *s) {
    size_t size = (size_t)1 << (s->log2 + 1);
    uint64_t *bigger = calloc(size, sizeof(uint64_t));
    if (bigger == NULL) {
        s->growable = 0;
        return;
    }
    int fresh;
    for (size_t slot = 0; slot < size / 2; slot++)
        if (s->table[slot])
            visit(bigger, s->log2 + 1, s->table[slot] >> 6, (int)(s->table[slot] & 63), &fresh);
    free(s->table);
    s->table = bigger;
    s->log2++;
}

/* The robots' groups from `spec`, the search's order (colours that may finish first: the last iteration ends
 * sooner), and the root's bound, the reach table deepened to it; returns that bound. */
static int prepare(Search *s, const int64_t *spec) {
    int cells = s->cells, n = s->n, groups = s->groups;
    fill_runs(s, spec);
    fill_lines(s);
    fill_stopper_marks(s);
    start_reach(s);
    const int64_t *sizes = spec + cells + n, *finishing = spec + cells + n + groups;
    s->bounds[0] = 0;
    for (int g = 0; g < groups; g++) {
        s->bounds[g + 1] = s->bounds[g] + (int32_t)sizes[g];
        for (int i = s->bounds[g]; i < s->bounds[g + 1]; i++) {
            s->group_of[i] = g;
            s->finisher[i] = finishing[g] != 0;
            s->lone[i] = sizes[g] == 1;
            s->pooled[i] = s->lone[i] && !s->finisher[i];  /* lone robots that may not finish: interchangeable */
        }
    }
    s->all_lone = s->bounds[groups] == groups;
    int k = 0;
    for (int first = 1; first >= 0; first--)
        for (int g = 0; g < groups; g++)
            if ((finishing[g] != 0) == first)
                s->order[k++] = g;
    for (int i = 0; i < n; i++)
        s->pos[i] = (int32_t)spec[cells + i];
    int limit = 1, h, h_pure;  /* the root's bound, exact once it is within the reach table's depth */
    for (;;) {
        h = bound(s, s->pos, UNREACHABLE, &h_pure);
        if (h <= limit || !s->bfs_size || limit > s->max_moves)
            break;
        limit = h;
        deepen(s, limit);
    }
    s->heur[0] = h, s->pure[0] = h_pure;
    return h;
}

/* IDA* from the root's bound, the reach table deepened to each new iteration's limit. Returns the solution's
 * length (its moves in path_group and path_dir), -1 (none within max_moves) or -2 (a limit). */
static int ida(Search *s, int limit) {
    const int n = s->n, groups = s->groups;
    const int deltas[4] = {-s->cols, 1, s->cols, -1};
    int64_t nodes = 0;
    int fresh;
    for (; limit <= s->max_moves; limit++, deepen(s, limit)) {
        visit(s->table, s->log2, pack(s, s->pos), limit, &fresh);
        if (fresh)
            s->used++;
        int depth = 0;
        s->next_move[0] = 0;
        while (depth >= 0) {
            int m = s->next_move[depth];
            if (m >= groups * 4) {
                depth--;
                continue;
            }
            s->next_move[depth] = m + 1;
            int g = s->order[m >> 2], d = m & 3, left = limit - depth - 1;
            if (depth > 0 && g == s->path_group[depth - 1] && d == (s->path_dir[depth - 1] ^ 2))
                continue;  /* straight back: never needed */
            int lo = s->bounds[g], hi = s->bounds[g + 1];
            if (!s->finisher[lo] && s->pure[depth] > left) {  /* the finishers' reach alone needs every move left: */
                s->next_move[depth] = groups * 4;  /* no other colour's move helps, and they all come after */
                continue;
            }
            int32_t *at = s->pos + depth * n, *below = at + n;
            int dist = slide(s, at, lo, hi, d);
            if (dist == 0)
                continue;
            for (int i = 0; i < n; i++)
                below[i] = at[i];
            int moved_stopper = s->finisher[lo] != 0;  /* the bound only sees finishers and robots on stopper cells */
            int step = dist * deltas[d];
            for (int i = lo; i < hi; i++) {
                moved_stopper |= s->marks[below[i]] != 0;
                below[i] += step;
                moved_stopper |= s->marks[below[i]] != 0;
            }
            s->path_group[depth] = g, s->path_dir[depth] = d;
            if (left == 0) {  /* the last move: only whether it finishes counts */
                for (int i = lo; i < hi; i++)
                    if (below[i] == s->goal) {
                        s->nodes = nodes;
                        return depth + 1;
                    }
                continue;
            }
            int h, h_pure;
            if (moved_stopper) {
                h = bound(s, below, left, &h_pure);
            } else {
                h = s->heur[depth], h_pure = s->pure[depth];
            }
            if (h == 0) {
                s->nodes = nodes;
                return depth + 1;
            }
            if (h > left)
                continue;
            fresh = 0;
            if (left >= TT_MIN_LEFT && !visit(s->table, s->log2, pack(s, below), left, &fresh))
                continue;
            s->heur[depth + 1] = h, s->pure[depth + 1] = h_pure;
            nodes++;
            if (nodes >= s->max_nodes || ((nodes & s->check_every) == 0 && s->stop[0])) {
                s->nodes = nodes;
                return -2;  /* the limit, before a proof */
            }
            depth++;
            s->next_move[depth] = 0;
            if (fresh && ++s->used * 2 > ((int64_t)1 << s->log2) && s->log2 < TT_MAX_LOG2
                && s->growable)
                grow(s);
        }
    }
    s->nodes = nodes;
    return -1;
}

/* Every array of a solve in one block, the table apart (it grows): zeroed where the tables' searches mark cells
 * (`marks` first, the block's start), the rest written before it is read. */
static int allocate(Search *s) {
    size_t cells = (size_t)s->cells, n = (size_t)s->n, groups = (size_t)s->groups;
    size_t zeroed = 6 * cells, words = zeroed + 4 * cells + 4 * cells + 3 * cells + 8 * cells + 5 * n + (groups + 1)
                                       + groups + (LIMIT + 1) * n;
    int32_t *block = malloc(words * sizeof(int32_t));
    s->table = calloc((size_t)1 << TT_START_LOG2, sizeof(uint64_t));
    if (block == NULL || s->table == NULL) {
        free(block);
        free(s->table);
        return 0;
    }
    memset(block, 0, zeroed * sizeof(int32_t));
    int32_t *next = block;
#define TAKE(count) (next += (count), next - (count))
    s->marks = TAKE(cells);
    s->seen = TAKE(cells);
    for (int k = 0; k < 2; k++) {
        s->done[k] = TAKE(cells);
        s->front_bits[k] = TAKE(cells);
    }
    s->run = TAKE(cells * 4);
    s->reach = TAKE(cells * 4);
    for (int k = 0; k < 2; k++)
        s->front[k] = TAKE(cells);
    s->open = TAKE(cells);
    for (int d = 0; d < 4; d++) {
        s->line[d] = TAKE(cells);
        s->axis[d] = TAKE(cells);
    }
    s->group_of = TAKE(n);
    s->finisher = TAKE(n);
    s->lone = TAKE(n);
    s->pooled = TAKE(n);
    s->scratch = TAKE(n);
    s->bounds = TAKE(groups + 1);
    s->order = TAKE(groups);
    s->pos = TAKE((LIMIT + 1) * n);
#undef TAKE
    s->log2 = TT_START_LOG2, s->growable = 1;
    return 1;
}

static void release(Search *s) {
    free(s->marks);  /* the block's start */
    free(s->table);
}

/* One solve (without the GIL): the solution's length, -1, -2, or NO_MEMORY. */
static int solve(Search *s, const int64_t *spec) {
    if (!allocate(s))
        return NO_MEMORY;
    int h = prepare(s, spec), length;
    s->nodes = 0;
    if (h == 0 || h > s->max_moves)
        length = h == 0 ? 0 : -1;
    else
        length = ida(s, h);
    release(s);
    return length;
}

static int read_buffer(PyObject *object, Py_buffer *view, Py_ssize_t itemsize, const char *name) {
    if (PyObject_GetBuffer(object, view, PyBUF_C_CONTIGUOUS) < 0)
        return 0;
    if (view->itemsize != itemsize) {
        PyErr_Format(PyExc_TypeError, "%s: items of %zd bytes expected", name, itemsize);
        PyBuffer_Release(view);
        return 0;
    }
    return 1;
}

/* The board and robots from `spec` into `s`, checked (spec's buffer held in `view` until released). */
static int open_spec(PyObject *spec_object, int n, int rows, int cols, int goal, Search *s, Py_buffer *view) {
    if (rows < 1 || cols < 1 || (long long)rows * cols > (1 << 24) || n < 1 || goal < 0 || goal >= rows * cols) {
        PyErr_SetString(PyExc_ValueError, "a board or robots the search cannot take");
        return 0;
    }
    if (!read_buffer(spec_object, view, 8, "spec"))
        return 0;
    Py_ssize_t cells = (Py_ssize_t)rows * cols, length = view->len / 8;
    const int64_t *spec = (const int64_t *)view->buf;
    s->cells = (int)cells, s->cols = cols, s->goal = goal, s->n = n;
    s->groups = (int)((length - cells - n) / 2);
    int valid = s->groups >= 1 && length == cells + n + 2 * s->groups;
    for (int g = 0, robots = 0; valid && g < s->groups; g++) {
        robots += (int)spec[cells + n + g];
        valid = spec[cells + n + g] >= 1 && robots <= n && (g < s->groups - 1 || robots == n);
    }
    for (Py_ssize_t i = 0; valid && i < n; i++)
        valid = spec[cells + i] >= 0 && spec[cells + i] < cells;
    for (Py_ssize_t col = 0; valid && col < cols; col++)  /* the edge blocks every slide off the board */
        valid = (spec[col] & 1) && (spec[cells - cols + col] & 4);
    for (Py_ssize_t left = 0; valid && left < cells; left += cols)
        valid = (spec[left] & 8) && (spec[left + cols - 1] & 2);
    if (!valid) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_ValueError, "spec does not match the board and robots given");
    }
    return valid;
}

static PyObject *search(PyObject *Py_UNUSED(module), PyObject *args) {
    PyObject *spec_object, *stop_object;
    int n, rows, cols, goal, bits, max_moves;
    long long max_nodes, check_every;
    if (!PyArg_ParseTuple(args, "OiiiiiiLOL", &spec_object, &n, &rows, &cols, &goal, &bits, &max_moves, &max_nodes,
                          &stop_object, &check_every))
        return NULL;
    if (bits < 1 || bits * n > 57 || max_moves < 0 || max_moves > LIMIT) {
        PyErr_SetString(PyExc_ValueError, "positions or a move limit the search cannot take");
        return NULL;
    }
    static const char never = 0;  /* the stop flag when the caller gives none */
    Search s = {0};
    Py_buffer spec_view, stop_view = {0};
    if (!open_spec(spec_object, n, rows, cols, goal, &s, &spec_view))
        return NULL;
    if (stop_object == Py_None) {
        stop_view.buf = (void *)&never, stop_view.len = 1;
    } else if (!read_buffer(stop_object, &stop_view, 1, "stop") || stop_view.len < 1) {
        PyBuffer_Release(&spec_view);
        PyBuffer_Release(&stop_view);
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "stop: an empty flag");
        return NULL;
    }
    s.bits = bits, s.max_moves = max_moves, s.max_nodes = max_nodes, s.check_every = check_every;
    s.stop = (volatile const char *)stop_view.buf;
    int length;
    Py_BEGIN_ALLOW_THREADS
    length = solve(&s, (const int64_t *)spec_view.buf);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&spec_view);
    PyBuffer_Release(&stop_view);  /* nothing when the flag was None (no obj) */
    if (length == NO_MEMORY)
        return PyErr_NoMemory();
    PyObject *moves = PyTuple_New(length > 0 ? length : 0);
    if (moves == NULL)
        return NULL;
    for (int k = 0; k < length; k++) {
        PyObject *move = Py_BuildValue("(ii)", s.path_group[k], s.path_dir[k]);
        if (move == NULL) {
            Py_DECREF(moves);
            return NULL;
        }
        PyTuple_SET_ITEM(moves, k, move);
    }
    return Py_BuildValue("(iLN)", length, (long long)s.nodes, moves);
}

static PyObject *as_list(const int32_t *values, Py_ssize_t count, Py_ssize_t stride) {
    PyObject *list = PyList_New(count);
    for (Py_ssize_t i = 0; list != NULL && i < count; i++) {
        PyObject *item = PyLong_FromLong(values[i * stride]);
        if (item == NULL) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

/* The board's tables as the search builds them, for the tests to hold against plain computations. */
static PyObject *tables(PyObject *Py_UNUSED(module), PyObject *args) {
    PyObject *spec_object;
    int n, rows, cols, goal, upto;
    if (!PyArg_ParseTuple(args, "Oiiiii", &spec_object, &n, &rows, &cols, &goal, &upto))
        return NULL;
    Search s = {0};
    Py_buffer spec_view;
    if (!open_spec(spec_object, n, rows, cols, goal, &s, &spec_view))
        return NULL;
    if (!allocate(&s)) {
        PyBuffer_Release(&spec_view);
        return PyErr_NoMemory();
    }
    fill_runs(&s, (const int64_t *)spec_view.buf);
    PyBuffer_Release(&spec_view);
    fill_stopper_marks(&s);
    start_reach(&s);
    deepen(&s, upto);
    PyObject *reach = PyTuple_New(4);
    for (int d = 0; reach != NULL && d < 4; d++) {
        PyObject *row = as_list(s.reach + d, s.cells, 4);
        if (row == NULL)
            Py_CLEAR(reach);
        else
            PyTuple_SET_ITEM(reach, d, row);
    }
    PyObject *result = reach == NULL ? NULL : Py_BuildValue("(NNNi)", as_list(s.run, 4 * (Py_ssize_t)s.cells, 1), reach,
                                                            as_list(s.marks, s.cells, 1), s.needs);
    release(&s);
    return result;
}

static PyMethodDef methods[] = {
    {"search", search, METH_VARARGS,
     "search(spec, robots, rows, cols, goal, bits, max_moves, max_nodes, stop, check_every) -> "
     "(length, nodes, moves): one exact solve (pbem.dm.gyulbot.solver)."},
    {"tables", tables, METH_VARARGS,
     "tables(spec, robots, rows, cols, goal, upto) -> (runs, reach by direction, marks, needs): the board's tables, "
     "the reach table searched to `upto` moves."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef definition = {
    PyModuleDef_HEAD_INIT, "_search", "The Gyulbot solver's compiled search (pbem.dm.gyulbot.solver).", -1, methods,
};

PyMODINIT_FUNC PyInit__search(void) {
    return PyModule_Create(&definition);
}
