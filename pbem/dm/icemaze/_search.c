/* The breadth-first search behind `pbem.dm.icemaze.solver.solve`, compiled by `pip install` (setup.py), so that
 * the first solve after an install costs no compile (issue #36; it was numba's, 4-5 s of CPU).
 *
 * A position is a row of snom codes, sorted: a free snom's cell, or cell + `cells` for a locked one. Positions
 * live in one growing array, level after level, with a parent index and the order that led to each; an
 * open-addressing hash table of indices into that array finds repeats. The search runs without the GIL, so a
 * timer thread can set the caller's stop flag meanwhile. Orders are direction indices into maze.ORDERS, "LRUD".
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int16_t code_t;

typedef struct {
    const code_t *stops;    /* stops[d * cells + cell]: where a lone snom from `cell` ends after order d */
    const uint8_t *is_goal; /* is_goal[cell] */
    const uint8_t *runs;    /* runs[cell]: fewest straight runs to any goal, a lower bound on the orders left */
    int16_t *row, *col;     /* row[code], col[code] of a snom's code, locked or not: no division in a slide */
    int cells, cols, snoms;
} Tables;

typedef enum { EXHAUSTED, FOUND, LIMITED, NO_MEMORY } Outcome;

typedef struct {
    code_t *states; /* states[index * snoms ...]: the positions stored, level after level */
    int32_t *parent;
    int8_t *last; /* the order that led to the position, -1 for the start */
    int64_t count, capacity;
    int32_t *table; /* indices into states, -1 where free */
    uint64_t slots;
} Store;

/* Order d applied to `codes` into `out` (unsorted), front snoms first; `order` and `front` are scratch space. */
static void slide(const Tables *t, const code_t *codes, int d, code_t *out, int *order, int *front)
{
    const int k = t->snoms, locked = t->cells;
    const int sign = (d == 0 || d == 2) ? -1 : 1;
    const int16_t *along = d < 2 ? t->col : t->row, *across = d < 2 ? t->row : t->col;
    const int step = d < 2 ? sign : sign * t->cols;
    int n = 0;
    memcpy(out, codes, (size_t)k * sizeof *out);
    for (int i = 0; i < k; i++) { /* the free snoms front first (insertion sort on the coordinate along d) */
        if (out[i] >= locked)
            continue;
        const int key = sign * along[out[i]];
        int j = n;
        while (j > 0 && front[j - 1] < key) {
            front[j] = front[j - 1];
            order[j] = order[j - 1];
            j--;
        }
        front[j] = key;
        order[j] = i;
        n++;
    }
    for (int f = 0; f < n; f++) {
        const int i = order[f], cell = out[i], line = across[cell], here = along[cell];
        const int end = t->stops[d * t->cells + cell];
        int reach = (along[end] - here) * sign;
        for (int j = 0; j < k; j++) { /* stopped short by another snom on the same line */
            if (j == i || across[out[j]] != line)
                continue;
            const int gap = (along[out[j]] - here) * sign;
            if (gap > 0 && gap <= reach)
                reach = gap - 1;
        }
        const int there = cell + step * reach;
        out[i] = (code_t)(t->is_goal[there] ? there + locked : there);
    }
}

static void sort_codes(code_t *row, int k)
{
    for (int i = 1; i < k; i++) {
        const code_t value = row[i];
        int j = i;
        while (j > 0 && row[j - 1] > value) {
            row[j] = row[j - 1];
            j--;
        }
        row[j] = value;
    }
}

static uint64_t hash(const code_t *row, int k) /* FNV-1a over the codes */
{
    uint64_t h = 14695981039346656037ULL;
    for (int i = 0; i < k; i++)
        h = (h ^ (uint64_t)row[i]) * 1099511628211ULL;
    return h;
}

/* A table of `slots` (a power of two) holding every stored position; 0 when out of memory. */
static int rehash(Store *s, int k, uint64_t slots)
{
    int32_t *table = malloc(slots * sizeof *table);
    if (!table)
        return 0;
    memset(table, 0xff, slots * sizeof *table); /* -1 everywhere */
    for (int64_t index = 0; index < s->count; index++) {
        uint64_t slot = hash(s->states + index * k, k) & (slots - 1);
        while (table[slot] >= 0)
            slot = (slot + 1) & (slots - 1);
        table[slot] = (int32_t)index;
    }
    free(s->table);
    s->table = table;
    s->slots = slots;
    return 1;
}

/* Room for `capacity` positions; 0 when out of memory (what was stored stays). */
static int grow(Store *s, int k, int64_t capacity)
{
    code_t *states = realloc(s->states, (size_t)capacity * k * sizeof *states);
    if (states)
        s->states = states;
    int32_t *parent = realloc(s->parent, (size_t)capacity * sizeof *parent);
    if (parent)
        s->parent = parent;
    int8_t *last = realloc(s->last, (size_t)capacity * sizeof *last);
    if (last)
        s->last = last;
    if (!states || !parent || !last || capacity > INT32_MAX)
        return 0;
    s->capacity = capacity;
    return 1;
}

/* Breadth-first search to at most `limit` orders; on FOUND, the orders are in path[0 .. *length). `*stored` is
 * the number of positions stored. LIMITED: `max_nodes` positions were stored, or the stop flag was set (looked at
 * whenever the count & check_every is 0), before a proof. */
static Outcome search(const Tables *t, const code_t *start, int limit, int64_t max_nodes,
                      const volatile char *stop, int64_t check_every, int8_t *path, int *length, int64_t *stored)
{
    const int k = t->snoms;
    Outcome outcome = NO_MEMORY;
    Store s = {0};
    code_t *child = malloc((size_t)k * sizeof *child);
    int *order = malloc((size_t)k * sizeof *order), *front = malloc((size_t)k * sizeof *front);
    if (!child || !order || !front || !grow(&s, k, 1 << 14) || !rehash(&s, k, 1 << 16))
        goto done;
    memcpy(s.states, start, (size_t)k * sizeof *start);
    sort_codes(s.states, k);
    s.parent[0] = -1;
    s.last[0] = -1;
    s.table[hash(s.states, k) & (s.slots - 1)] = 0;
    s.count = 1;
    outcome = EXHAUSTED;
    int need = 0;
    for (int i = 0; i < k; i++)
        need = t->runs[start[i]] > need ? t->runs[start[i]] : need;
    if (need > limit)
        goto done;
    int64_t begin = 0, end = 1;
    for (int depth = 1; depth <= limit && begin < end; depth++) {
        for (int64_t at = begin; at < end; at++) {
            for (int d = 0; d < 4; d++) {
                if (d == s.last[at]) /* repeating an order moves nothing */
                    continue;
                slide(t, s.states + at * k, d, child, order, front);
                sort_codes(child, k);
                int free_snoms = 0;
                need = 0;
                for (int i = 0; i < k; i++) {
                    if (child[i] < t->cells) {
                        free_snoms++;
                        need = t->runs[child[i]] > need ? t->runs[child[i]] : need;
                    }
                }
                if (free_snoms == 0) {
                    path[depth - 1] = (int8_t)d;
                    for (int64_t p = depth - 2, from = at; p >= 0; p--) {
                        path[p] = s.last[from];
                        from = s.parent[from];
                    }
                    *length = depth;
                    outcome = FOUND;
                    goto done;
                }
                if (depth + need > limit)
                    continue;
                const uint64_t mask = s.slots - 1;
                uint64_t slot = hash(child, k) & mask;
                int fresh = 1;
                while (s.table[slot] >= 0) {
                    if (memcmp(s.states + (int64_t)s.table[slot] * k, child, (size_t)k * sizeof *child) == 0) {
                        fresh = 0;
                        break;
                    }
                    slot = (slot + 1) & mask;
                }
                if (!fresh)
                    continue;
                if (s.count == s.capacity && !grow(&s, k, s.capacity * 2)) {
                    outcome = NO_MEMORY;
                    goto done;
                }
                memcpy(s.states + s.count * k, child, (size_t)k * sizeof *child);
                s.parent[s.count] = (int32_t)at;
                s.last[s.count] = (int8_t)d;
                s.table[slot] = (int32_t)s.count;
                s.count++;
                if (s.count >= max_nodes || ((s.count & check_every) == 0 && stop && stop[0])) {
                    outcome = LIMITED;
                    goto done;
                }
                if ((uint64_t)s.count * 2 > s.slots && !rehash(&s, k, s.slots * 4)) {
                    outcome = NO_MEMORY;
                    goto done;
                }
            }
        }
        begin = end;
        end = s.count;
    }
done:
    *stored = s.count;
    free(s.states);
    free(s.parent);
    free(s.last);
    free(s.table);
    free(child);
    free(order);
    free(front);
    return outcome;
}

/* Whether every code in `codes` is a cell of the maze (a wrong table would read outside the others). */
static int all_cells(const code_t *codes, Py_ssize_t n, int cells)
{
    for (Py_ssize_t i = 0; i < n; i++)
        if (codes[i] < 0 || codes[i] >= cells)
            return 0;
    return 1;
}

static PyObject *py_search(PyObject *module, PyObject *args)
{
    Py_buffer stops, is_goal, runs, start, flag = {0};
    int cols, limit;
    long long max_nodes, check_every;
    PyObject *stop, *result = NULL;
    (void)module;
    if (!PyArg_ParseTuple(args, "y*y*y*y*iiLOL:search", &stops, &is_goal, &runs, &start, &cols, &limit, &max_nodes,
                          &stop, &check_every))
        return NULL;
    const Py_ssize_t cells = is_goal.len, snoms = start.len / (Py_ssize_t)sizeof(code_t);
    const int shapes_agree = cells > 0 && cells <= INT16_MAX / 2 && cols > 0 && cells % cols == 0 && limit >= 0
        && runs.len == cells && stops.len == 4 * cells * (Py_ssize_t)sizeof(code_t) && snoms > 0
        && start.len == snoms * (Py_ssize_t)sizeof(code_t);
    if (!shapes_agree || !all_cells(stops.buf, 4 * cells, (int)cells) || !all_cells(start.buf, snoms, (int)cells)) {
        PyErr_SetString(PyExc_ValueError, "search: the tables do not agree with each other (see solver.py)");
        goto release;
    }
    if (stop != Py_None) {
        if (PyObject_GetBuffer(stop, &flag, PyBUF_SIMPLE) < 0)
            goto release;
        if (flag.len < 1) {
            PyErr_SetString(PyExc_ValueError, "search: the stop flag is empty");
            goto release;
        }
    }
    Tables tables = {stops.buf, is_goal.buf, runs.buf, PyMem_RawMalloc(2 * (size_t)cells * sizeof(int16_t)),
                     PyMem_RawMalloc(2 * (size_t)cells * sizeof(int16_t)), (int)cells, cols, (int)snoms};
    int8_t *path = PyMem_RawMalloc((size_t)limit + 1);
    if (!path || !tables.row || !tables.col) {
        PyErr_NoMemory();
        goto free;
    }
    for (Py_ssize_t code = 0; code < 2 * cells; code++) { /* a locked snom's code is its cell + cells */
        tables.row[code] = (int16_t)(code % cells / cols);
        tables.col[code] = (int16_t)(code % cells % cols);
    }
    int length = 0;
    int64_t stored = 0;
    Outcome outcome;
    Py_BEGIN_ALLOW_THREADS
    outcome = search(&tables, start.buf, limit, max_nodes, flag.buf, check_every, path, &length, &stored);
    Py_END_ALLOW_THREADS
    if (outcome == NO_MEMORY)
        PyErr_NoMemory();
    else if (outcome == FOUND)
        result = Py_BuildValue("(y#LO)", (const char *)path, (Py_ssize_t)length, (long long)stored, Py_False);
    else
        result = Py_BuildValue("(OLO)", Py_None, (long long)stored, outcome == LIMITED ? Py_True : Py_False);
free:
    PyMem_RawFree(path);
    PyMem_RawFree(tables.row);
    PyMem_RawFree(tables.col);
release:
    if (flag.obj)
        PyBuffer_Release(&flag);
    PyBuffer_Release(&stops);
    PyBuffer_Release(&is_goal);
    PyBuffer_Release(&runs);
    PyBuffer_Release(&start);
    return result;
}

static PyMethodDef methods[] = {
    {"search", py_search, METH_VARARGS,
     "search(stops, is_goal, runs, start, cols, limit, max_nodes, stop, check_every) -> (orders as direction "
     "indices or None, positions stored, whether a limit ended the search first)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_search", "The ice-maze search, compiled at install.",
                                    -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__search(void) { return PyModule_Create(&module); }
