/* Golf's native search, compiled: the same depth-first search as patience/golf/search.py, move for
 * move (pile moves tallest pile first, then the deal; a memo of the positions searched), so the two
 * report the same nodes and the same play. The variant's rule comes in as a table made by
 * GolfDeal.rank_follows: the rule is written once, in Python.
 *
 * A position is packed in one 64-bit number (the foundation's rank, the cards dealt, the cards taken
 * from each pile, in mixed radix); patience.golf.search calls this only when that number fits. The
 * memo is an open-addressing set of those numbers that doubles until the memory limit.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK_EVERY 4096

typedef struct {
    uint64_t *slots; /* key + 1; 0 = empty */
    size_t mask;
    size_t count;
    size_t cap_bytes; /* 0: no limit */
} Memo;

static int memo_init(Memo *memo, size_t cap_bytes) {
    memo->mask = (1u << 16) - 1;
    memo->count = 0;
    memo->cap_bytes = cap_bytes;
    memo->slots = calloc(memo->mask + 1, sizeof(uint64_t));
    return memo->slots != NULL;
}

static inline size_t slot_of(uint64_t key, size_t mask) {
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdULL;
    key ^= key >> 33;
    return (size_t)key & mask;
}

static inline int memo_has(const Memo *memo, uint64_t key) {
    size_t slot = slot_of(key, memo->mask);
    while (memo->slots[slot]) {
        if (memo->slots[slot] == key + 1) return 1;
        slot = (slot + 1) & memo->mask;
    }
    return 0;
}

/* 1 added, 0 out of memory (the set stays as it was) */
static int memo_add(Memo *memo, uint64_t key) {
    if ((memo->count + 1) * 2 > memo->mask + 1) {
        size_t size = (memo->mask + 1) * 2;
        if (memo->cap_bytes && size * sizeof(uint64_t) > memo->cap_bytes) return 0;
        uint64_t *slots = calloc(size, sizeof(uint64_t));
        if (!slots) return 0;
        for (size_t index = 0; index <= memo->mask; index++) {
            uint64_t stored = memo->slots[index];
            if (stored) {
                size_t slot = slot_of(stored - 1, size - 1);
                while (slots[slot]) slot = (slot + 1) & (size - 1);
                slots[slot] = stored;
            }
        }
        free(memo->slots);
        memo->slots = slots;
        memo->mask = size - 1;
    }
    size_t slot = slot_of(key, memo->mask);
    while (memo->slots[slot]) slot = (slot + 1) & memo->mask;
    memo->slots[slot] = key + 1;
    memo->count++;
    return 1;
}

static double now(clockid_t clock) {
    struct timespec spec;
    clock_gettime(clock, &spec);
    return (double)spec.tv_sec + (double)spec.tv_nsec * 1e-9;
}

static int int_list(PyObject *object, const char *what, long **out, Py_ssize_t *length) {
    PyObject *fast = PySequence_Fast(object, what);
    if (!fast) return 0;
    *length = PySequence_Fast_GET_SIZE(fast);
    *out = malloc(sizeof(long) * (size_t)(*length > 0 ? *length : 1));
    if (!*out) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return 0;
    }
    for (Py_ssize_t index = 0; index < *length; index++) {
        (*out)[index] = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, index));
        if ((*out)[index] == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            free(*out);
            return 0;
        }
    }
    Py_DECREF(fast);
    return 1;
}

enum { WON, LOST, NODES, WALL, CPU, MEMORY, NO_MEMORY };
static const char *STATUS[] = {"won", "lost", "nodes", "time", "cpu", "memory"};

typedef struct {
    /* the deal */
    long piles, stock_size, ranks, total;
    long *heights, *first; /* pile p's cards are ranks_of[first[p] .. first[p] + heights[p]) */
    long *pile_ranks, *stock;
    const unsigned char *follows; /* follows[base * ranks + rank] */
    uint64_t *steps, dealt_step;
    /* the play */
    long *taken, dealt, base, played;
    long *path, *path_base, depth;
    long *moves, *move_count, *next_move; /* per depth: up to piles + 1 moves */
    long best, *best_path, best_depth;
    long long nodes;
} Search;

static void candidates(Search *search) {
    long *moves = search->moves + search->depth * (search->piles + 1);
    long count = 0;
    const unsigned char *row = search->follows + search->base * search->ranks;
    for (long pile = 0; pile < search->piles; pile++) {
        long taken = search->taken[pile];
        if (taken < search->heights[pile] && row[search->pile_ranks[search->first[pile] + taken]]) {
            /* stable insertion by (taken - height): the tallest pile left first, ties in pile order */
            long key = taken - search->heights[pile], at = count;
            while (at > 0 && search->taken[moves[at - 1]] - search->heights[moves[at - 1]] > key) {
                moves[at] = moves[at - 1];
                at--;
            }
            moves[at] = pile;
            count++;
        }
    }
    if (search->dealt < search->stock_size) moves[count++] = -1;
    search->move_count[search->depth] = count;
    search->next_move[search->depth] = 0;
}

static int run(Search *search, Memo *memo, int cache, long long node_limit, double wall_end, double cpu_end) {
    uint64_t key = (uint64_t)search->base;
    if (cache && !memo_add(memo, key)) return NO_MEMORY;
    search->depth = 0;
    candidates(search);
    for (;;) {
        long depth = search->depth;
        if (search->next_move[depth] == search->move_count[depth]) {
            if (depth == 0) return LOST;
            long index = search->path[depth - 1], before = search->path_base[depth - 1];
            if (index < 0) {
                search->dealt--;
                key -= search->dealt_step;
            } else {
                search->taken[index]--;
                search->played--;
                key -= search->steps[index];
            }
            key = key + (uint64_t)before - (uint64_t)search->base;
            search->base = before;
            search->depth--;
            continue;
        }
        long index = search->moves[depth * (search->piles + 1) + search->next_move[depth]++];
        long rank;
        uint64_t new_key;
        if (index < 0) {
            rank = search->stock[search->dealt];
            new_key = key + search->dealt_step + (uint64_t)rank - (uint64_t)search->base;
        } else {
            rank = search->pile_ranks[search->first[index] + search->taken[index]];
            new_key = key + search->steps[index] + (uint64_t)rank - (uint64_t)search->base;
        }
        if (cache && memo_has(memo, new_key)) continue;
        search->path[depth] = index;
        search->path_base[depth] = search->base;
        if (index < 0) {
            search->dealt++;
        } else {
            search->taken[index]++;
            search->played++;
        }
        key = new_key;
        search->base = rank;
        search->depth = depth + 1;
        if (search->played > search->best) {
            search->best = search->played;
            search->best_depth = search->depth;
            memcpy(search->best_path, search->path, sizeof(long) * (size_t)search->depth);
            if (search->played == search->total) return WON;
        }
        if (cache && !memo_add(memo, key)) return MEMORY;
        search->nodes++;
        if (search->nodes % CHECK_EVERY == 0) {
            if (node_limit >= 0 && search->nodes >= node_limit) return NODES;
            if (wall_end > 0 && now(CLOCK_MONOTONIC) >= wall_end) return WALL;
            if (cpu_end > 0 && now(CLOCK_THREAD_CPUTIME_ID) >= cpu_end) return CPU;
        } else if (node_limit >= 0 && search->nodes >= node_limit) {
            return NODES;
        }
        candidates(search);
    }
}

static PyObject *golf_search(PyObject *self, PyObject *args) {
    PyObject *pile_object, *height_object, *stock_object;
    long ranks, start;
    const char *follows;
    Py_ssize_t follows_length;
    int cache;
    long long node_limit, memo_bytes;
    double seconds, cpu_seconds;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOlly#pLddL", &pile_object, &height_object, &stock_object, &ranks, &start,
                          &follows, &follows_length, &cache, &node_limit, &seconds, &cpu_seconds, &memo_bytes))
        return NULL;
    Search search;
    memset(&search, 0, sizeof search);
    Py_ssize_t cards_length, piles, stock_size;
    if (!int_list(pile_object, "pile ranks", &search.pile_ranks, &cards_length)) return NULL;
    if (!int_list(height_object, "pile heights", &search.heights, &piles)) {
        free(search.pile_ranks);
        return NULL;
    }
    if (!int_list(stock_object, "stock ranks", &search.stock, &stock_size)) {
        free(search.pile_ranks);
        free(search.heights);
        return NULL;
    }
    search.piles = (long)piles;
    search.stock_size = (long)stock_size;
    search.ranks = ranks;
    search.base = start;
    search.follows = (const unsigned char *)follows;
    long long total = 0;
    int bad = follows_length != (Py_ssize_t)ranks * ranks || start < 0 || start >= ranks || piles < 1;
    for (Py_ssize_t pile = 0; pile < piles; pile++) total += search.heights[pile] < 0 ? (bad = 1) : search.heights[pile];
    bad = bad || total != cards_length;
    for (Py_ssize_t index = 0; index < cards_length; index++) bad = bad || search.pile_ranks[index] < 0 || search.pile_ranks[index] >= ranks;
    for (Py_ssize_t index = 0; index < stock_size; index++) bad = bad || search.stock[index] < 0 || search.stock[index] >= ranks;
    long depth_cap = (long)total + (long)stock_size + 1;
    search.total = (long)total;
    search.first = calloc((size_t)piles, sizeof(long));
    search.taken = calloc((size_t)piles, sizeof(long));
    search.steps = calloc((size_t)piles, sizeof(uint64_t));
    search.path = calloc((size_t)depth_cap, sizeof(long));
    search.path_base = calloc((size_t)depth_cap, sizeof(long));
    search.best_path = calloc((size_t)depth_cap, sizeof(long));
    search.moves = calloc((size_t)depth_cap * (size_t)(piles + 1), sizeof(long));
    search.move_count = calloc((size_t)depth_cap, sizeof(long));
    search.next_move = calloc((size_t)depth_cap, sizeof(long));
    Memo memo = {0};
    int ready = search.first && search.taken && search.steps && search.path && search.path_base && search.best_path
                && search.moves && search.move_count && search.next_move && memo_init(&memo, (size_t)memo_bytes);
    /* the packing: base + ranks * (dealt + (stock + 1) * (taken[0] + (heights[0] + 1) * ...)) in 64 bits */
    double size = (double)ranks * (double)(stock_size + 1);
    search.dealt_step = (uint64_t)ranks;
    uint64_t step = (uint64_t)ranks * (uint64_t)(stock_size + 1);
    long at = 0;
    for (Py_ssize_t pile = 0; pile < piles && !bad; pile++) {
        search.first[pile] = at;
        at += search.heights[pile];
        search.steps[pile] = step;
        step *= (uint64_t)(search.heights[pile] + 1);
        size *= (double)(search.heights[pile] + 1);
    }
    bad = bad || size >= 9.2e18;
    int status = NO_MEMORY;
    if (ready && !bad) {
        double wall_end = seconds > 0 ? now(CLOCK_MONOTONIC) + seconds : 0;
        double cpu_end = cpu_seconds > 0 ? now(CLOCK_THREAD_CPUTIME_ID) + cpu_seconds : 0;
        Py_BEGIN_ALLOW_THREADS
        status = run(&search, &memo, cache, node_limit, wall_end, cpu_end);
        Py_END_ALLOW_THREADS
    }
    PyObject *result = NULL;
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "a Golf board the compiled search cannot hold");
    } else if (status == NO_MEMORY) {
        PyErr_NoMemory();
    } else {
        PyObject *path = PyList_New(search.best_depth);
        for (long index = 0; path && index < search.best_depth; index++)
            PyList_SET_ITEM(path, index, PyLong_FromLong(search.best_path[index]));
        if (path)
            result = Py_BuildValue("(sNlLn)", STATUS[status], path, search.best, search.nodes, (Py_ssize_t)memo.count);
    }
    free(memo.slots);
    free(search.pile_ranks);
    free(search.heights);
    free(search.stock);
    free(search.first);
    free(search.taken);
    free(search.steps);
    free(search.path);
    free(search.path_base);
    free(search.best_path);
    free(search.moves);
    free(search.move_count);
    free(search.next_move);
    return result;
}

static PyMethodDef METHODS[] = {
    {"search", golf_search, METH_VARARGS,
     "search(pile_ranks, heights, stock_ranks, ranks, start_rank, follows, cache, node_limit, seconds, "
     "cpu_seconds, memo_bytes) -> (status, path, most pile cards, nodes, cached positions)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {PyModuleDef_HEAD_INIT, "_golf", "Golf's compiled search", -1, METHODS,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__golf(void) {
    PyObject *module = PyModule_Create(&MODULE);
#ifdef PATIENCE_GOLF_SOURCE
    if (module && PyModule_AddStringConstant(module, "SOURCE", PATIENCE_GOLF_SOURCE) < 0) {
        Py_DECREF(module);
        return NULL;
    }
#endif
    return module;
}
