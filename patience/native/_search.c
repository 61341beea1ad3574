/* The compiled native search: the same depth-first search as reference.py, in C.
 *
 * Cards are indices 0..n-1 (n <= 64), pile by pile, top card first; a state is the 64-bit set of
 * cards played plus the hole's rank, and states that failed are kept in an open-addressing hash
 * set so that they are never searched again. Pruning rules (conditional symmetry, Wolter's two
 * rules, rank reachability) are switched by flags so that their effect can be measured. The
 * search runs without the GIL and stops itself at a node or time limit.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_CARDS 64
#define CLOCK_EVERY 4096
#define TABLE_START_BITS 16
#define TABLE_MAX_BITS 30

enum { FAILED = 0, SOLVED = 1, LIMIT = -1, INTERRUPTED = -2 };

typedef struct {
    uint64_t set;
    uint32_t hole; /* hole rank + 1; 0 marks an empty slot */
} Entry;

typedef struct {
    /* the deal */
    int n, ranks, piles, start_rank;
    int rank[MAX_CARDS], pile_of[MAX_CARDS], unit[MAX_CARDS];
    int pile_start[MAX_CARDS], pile_size[MAX_CARDS];
    /* switches and limits */
    int cache, symmetry, wolter, reach, max_cards;
    uint64_t node_limit;
    double deadline;
    PyThreadState *thread; /* saved while the search runs without the GIL */
    /* the state */
    uint64_t played, all;
    int hole;
    int top[MAX_CARDS];  /* depth of each pile's top card; pile_size = empty */
    int *counts;         /* cards left per rank */
    int path[MAX_CARDS], best[MAX_CARDS], best_length;
    uint64_t nodes;
    /* the failure cache */
    Entry *table;
    uint64_t mask, used;
    int bits, max_bits, full;
} Search;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Take the GIL back for a moment so that Ctrl-C (or any signal with a Python handler) stops the search. */
static int interrupted(Search *s)
{
    PyEval_RestoreThread(s->thread);
    int failed = PyErr_CheckSignals();
    s->thread = PyEval_SaveThread();
    return failed;
}

static uint64_t mix(uint64_t set, uint32_t hole)
{
    uint64_t x = set ^ ((uint64_t)hole * 0x9E3779B97F4A7C15ULL);
    x ^= x >> 30; x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 27; x *= 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

static int cache_has(const Search *s, uint64_t set, int rank)
{
    uint32_t hole = (uint32_t)rank + 1;
    for (uint64_t i = mix(set, hole) & s->mask;; i = (i + 1) & s->mask) {
        const Entry *e = &s->table[i];
        if (e->hole == 0) return 0;
        if (e->hole == hole && e->set == set) return 1;
    }
}

static void cache_put_raw(Entry *table, uint64_t mask, uint64_t set, uint32_t hole)
{
    uint64_t i = mix(set, hole) & mask;
    while (table[i].hole != 0) i = (i + 1) & mask;
    table[i].set = set;
    table[i].hole = hole;
}

/* Record a failed state. Once the table may not grow any more, a new state takes the place of
 * the one in its home slot (an empty home slot stays empty, so every probe still ends): the
 * cache forgets, but it never claims a state it does not hold. */
static void cache_add(Search *s, uint64_t set, int rank)
{
    uint32_t hole = (uint32_t)rank + 1;
    if (!s->full && 2 * (s->used + 1) > s->mask + 1) {
        uint64_t mask = (s->mask << 1) | 1;
        Entry *table = s->bits < s->max_bits ? calloc(mask + 1, sizeof(Entry)) : NULL;
        if (table) {
            for (uint64_t i = 0; i <= s->mask; i++)
                if (s->table[i].hole) cache_put_raw(table, mask, s->table[i].set, s->table[i].hole);
            free(s->table);
            s->table = table;
            s->mask = mask;
            s->bits++;
        } else {
            s->full = 1;
        }
    }
    if (s->full) {
        Entry *home = &s->table[mix(set, hole) & s->mask];
        if (home->hole == 0) return;
        home->set = set;
        home->hole = hole;
        return;
    }
    cache_put_raw(s->table, s->mask, set, hole);
    s->used++;
}

static int follows(const Search *s, int hole, int rank)
{
    if (hole < 0) return 1;
    int difference = ((hole - rank) % s->ranks + s->ranks) % s->ranks;
    return s->ranks > 1 && (difference == 1 || difference == s->ranks - 1);
}

/* Every rank with cards left must lie on one unbroken run of the cycle through the hole. */
static int ranks_reachable(const Search *s, int hole)
{
    int r = s->ranks, left = 0, forward = 0, backward = 0;
    for (int k = 0; k < r; k++) left += s->counts[k] != 0;
    while (forward < r - 1 && s->counts[(hole + forward + 1) % r]) forward++;
    while (backward < r - 1 - forward && s->counts[((hole - backward - 1) % r + r) % r]) backward++;
    int own = s->counts[hole] && forward + backward;
    return forward + backward + own == left;
}

typedef struct { int card, height; } Move;

/* Playable cards, tallest pile first, less those a kept same-rank move makes redundant. */
static int moves_now(const Search *s, Move *out)
{
    int count = 0;
    for (int p = 0; p < s->piles; p++) {
        if (s->top[p] == s->pile_size[p]) continue;
        int card = s->pile_start[p] + s->top[p];
        if (!follows(s, s->hole, s->rank[card])) continue;
        Move m = { card, s->pile_size[p] - s->top[p] };
        int k = count++;
        while (k > 0 && out[k - 1].height < m.height) { out[k] = out[k - 1]; k--; }
        out[k] = m;
    }
    if (!s->symmetry && !s->wolter) return count;
    uint64_t general = 0, tall = 0, unit_seen = 0, single_seen = 0; /* by rank, ranks < 64 */
    for (int k = 0; k < count; k++) {
        int r = s->rank[out[k].card] & 63;
        if (!s->unit[out[k].card]) general |= 1ULL << r;
        if (out[k].height > 1) tall |= 1ULL << r;
    }
    int kept = 0;
    for (int k = 0; k < count; k++) {
        int card = out[k].card;
        uint64_t bit = 1ULL << (s->rank[card] & 63);
        if (s->symmetry && s->unit[card]) {
            if ((general | unit_seen) & bit) continue;
            unit_seen |= bit;
        }
        if (s->wolter && out[k].height == 1) {
            if ((tall | single_seen) & bit) continue;
            single_seen |= bit;
        }
        out[kept++] = out[k];
    }
    return kept;
}

static int dfs(Search *s, int depth)
{
    if (s->played == s->all) return SOLVED;
    Move moves[MAX_CARDS];
    int count = moves_now(s, moves);
    for (int k = 0; k < count; k++) {
        int card = moves[k].card, r = s->rank[card], p = s->pile_of[card];
        uint64_t set = s->played | (1ULL << card);
        if (s->cache && cache_has(s, set, r)) continue;
        s->counts[r]--;
        if (s->reach && !ranks_reachable(s, r)) { s->counts[r]++; continue; }
        int stop = s->node_limit && s->nodes >= s->node_limit ? LIMIT : 0;
        if (!stop && s->nodes % CLOCK_EVERY == 0)
            stop = s->deadline > 0 && now() > s->deadline ? LIMIT : interrupted(s) ? INTERRUPTED : 0;
        if (stop) {
            s->counts[r]++;
            return stop;
        }
        s->nodes++;
        int hole = s->hole;
        s->played = set;
        s->hole = r;
        s->top[p]++;
        s->path[depth] = card;
        if (depth + 1 > s->best_length) {
            s->best_length = depth + 1;
            memcpy(s->best, s->path, sizeof(int) * (size_t)(depth + 1));
        }
        int result = dfs(s, depth + 1);
        s->top[p]--;
        s->hole = hole;
        s->played &= ~(1ULL << card);
        s->counts[r]++;
        if (result != FAILED) return result;
    }
    if (s->cache) cache_add(s, s->played, s->hole);
    return FAILED;
}

static int read_ints(PyObject *sequence, int *out, Py_ssize_t n, const char *what)
{
    PyObject *fast = PySequence_Fast(sequence, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: expected %zd numbers", what, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long value = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (value == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        out[i] = (int)value;
    }
    Py_DECREF(fast);
    return 0;
}

static PyObject *search(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *ranks_of, *above, *piles_of;
    int ranks, start_rank, cache, symmetry, wolter, reach, max_cards, max_bits;
    unsigned long long node_limit;
    double seconds;
    if (!PyArg_ParseTuple(args, "OOOiipppppKdi", &ranks_of, &above, &piles_of, &ranks, &start_rank,
                          &cache, &symmetry, &wolter, &reach, &max_cards, &node_limit, &seconds,
                          &max_bits))
        return NULL;
    Py_ssize_t n = PySequence_Size(ranks_of);
    if (n < 0) return NULL;
    if (n < 1 || n > MAX_CARDS || ranks < 1) {
        PyErr_SetString(PyExc_ValueError, "the compiled search takes 1 to 64 cards");
        return NULL;
    }
    Search *s = calloc(1, sizeof(Search));
    if (!s) return PyErr_NoMemory();
    int above_of[MAX_CARDS];
    if (read_ints(ranks_of, s->rank, n, "ranks") || read_ints(above, above_of, n, "above")
        || read_ints(piles_of, s->pile_of, n, "piles")) {
        free(s);
        return NULL;
    }
    s->n = (int)n;
    s->ranks = ranks;
    s->start_rank = start_rank;
    for (int i = 0; i < s->n; i++) {
        int p = s->pile_of[i];
        if (p < 0 || p >= MAX_CARDS || s->rank[i] < 0 || s->rank[i] >= ranks) {
            free(s);
            PyErr_SetString(PyExc_ValueError, "card with a bad pile or rank");
            return NULL;
        }
        if (above_of[i] < 0) { s->pile_start[p] = i; s->piles = p + 1 > s->piles ? p + 1 : s->piles; }
        s->pile_size[p]++;
    }
    for (int i = s->n - 1; i >= 0; i--) /* unit: only its own rank beneath it */
        s->unit[i] = (i + 1 == s->n || s->pile_of[i + 1] != s->pile_of[i])
                     || (s->unit[i + 1] && s->rank[i + 1] == s->rank[i]);
    s->cache = cache;
    /* the symmetry rules keep per-rank bit masks of 64 bits; with more ranks they stay off */
    s->symmetry = symmetry && ranks <= 64;
    s->wolter = wolter && ranks <= 64;
    s->reach = reach && !max_cards;
    s->max_cards = max_cards;
    s->node_limit = node_limit;
    s->hole = start_rank;
    s->all = s->n == 64 ? ~0ULL : (1ULL << s->n) - 1;
    s->nodes = 1;
    s->counts = calloc((size_t)ranks, sizeof(int));
    s->mask = (1ULL << TABLE_START_BITS) - 1;
    s->bits = TABLE_START_BITS;
    s->max_bits = max_bits < TABLE_START_BITS ? TABLE_START_BITS : max_bits > TABLE_MAX_BITS ? TABLE_MAX_BITS : max_bits;
    s->table = calloc(s->mask + 1, sizeof(Entry));
    if (!s->counts || !s->table) {
        free(s->counts); free(s->table); free(s);
        return PyErr_NoMemory();
    }
    for (int i = 0; i < s->n; i++) s->counts[s->rank[i]]++;
    int result;
    s->thread = PyEval_SaveThread();
    s->deadline = seconds > 0 ? now() + seconds : 0;
    result = dfs(s, 0);
    PyEval_RestoreThread(s->thread);
    if (result == INTERRUPTED) goto fail; /* the signal handler's exception is set */
    const char *status = result == SOLVED ? "solved" : result == LIMIT ? "limit" : "unsolvable";
    PyObject *order = Py_None;
    int length = result == SOLVED ? s->n : s->best_length;
    int *cards = result == SOLVED ? s->path : s->best;
    if (result == SOLVED || (result == FAILED && max_cards)) {
        order = PyList_New(length);
        if (!order) goto fail;
        for (int i = 0; i < length; i++) PyList_SET_ITEM(order, i, PyLong_FromLong(cards[i]));
    } else {
        Py_INCREF(order);
    }
    PyObject *answer = Py_BuildValue("(sNKiK)", status, order, (unsigned long long)s->nodes, length,
                                     (unsigned long long)s->used);
    free(s->counts); free(s->table); free(s);
    return answer;
fail:
    free(s->counts); free(s->table); free(s);
    return NULL;
}

static PyMethodDef methods[] = {
    {"search", search, METH_VARARGS,
     "search(ranks, above, piles, rank_count, start_rank, cache, symmetry, wolter, reach, max_cards, "
     "node_limit, seconds, cache_bits) -> (status, cards or None, nodes, longest play, cached states)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_search", "Compiled Black Hole search.", -1, methods,
                                     NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__search(void) { return PyModule_Create(&module); }
