/* Golf's native search, compiled: the same depth-first search as patience/golf/search.py, move for
 * move (pile moves tallest pile first, then the deal; a memo of the positions searched; the cuts of
 * positions where a pile card can never be played, or whose pile cards need more runs than there are
 * deals left or more cards to follow than there are), so the two report the same nodes and the same
 * play. The variant's rule and the pruning's tables come in made by patience.golf.search from
 * GolfDeal.rank_follows: the rule is written once, in Python.
 *
 * A position is packed in one 64-bit number (the foundation's rank, the cards dealt, the cards taken
 * from each pile, in mixed radix); patience.golf.search calls this only when that number fits. The
 * memo is an open-addressing set of those numbers that doubles until the memory limit.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "../extension.h"

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

enum { WON, LOST, NODES, WALL, CPU, MEMORY, NO_MEMORY };
static const char *STATUS[] = {"won", "lost", "nodes", "time", "cpu", "memory"};

typedef struct {
    /* the deal */
    long piles, stock_size, ranks, total;
    long *heights, *first; /* pile p's cards are ranks_of[first[p] .. first[p] + heights[p]) */
    long *pile_ranks, *stock;
    long *onto;                    /* onto[2 * base + k]: the ranks that may go onto base (-1: none) */
    long *acc_rank, *acc_below;    /* per pile card (flattened), 2 each: a rank it may follow, -1 none; */
                                   /* how many cards of that rank lie under it in its pile */
    long *watch_start, *watch_cards; /* rank -> watch_cards[watch_start[r] .. watch_start[r + 1]): the */
                                     /* pile cards that may follow rank r */
    long *left;                    /* rank -> stock and pile cards of that rank not yet played */
    long *card_pile, *card_depth;  /* flattened pile card -> its pile and depth */
    long *chain_vertices, *chain_starts, *chain_closed, chain_count; /* the follow graph's paths and */
                                   /* cycles: chain c is chain_vertices[chain_starts[c] .. chain_starts[c + 1]) */
    long *capacity;                /* vertex 2r: rank r's pile and stock cards left, and 1 for the */
                                   /* foundation's if of r (cards to follow); 2r + 1: its pile cards left */
    uint64_t *steps, dealt_step;
    /* the play */
    long *taken, dealt, base, played;
    long *path, *path_base, depth;
    long *moves, *move_count, *next_move; /* per depth: up to piles + 1 moves */
    long best, *best_path, best_depth;
    long long nodes;
} Search;

static inline int goes_onto(const Search *search, long base, long rank) {
    return search->onto[2 * base] == rank || search->onto[2 * base + 1] == rank;
}

/* whether pile card `card` (flattened) may still be played: now, or after a card left it may follow */
static inline int saved(const Search *search, long card) {
    long pile = search->card_pile[card], depth = search->card_depth[card];
    if (depth == search->taken[pile] && goes_onto(search, search->base, search->pile_ranks[card])) return 1;
    for (int k = 0; k < 2; k++) {
        long rank = search->acc_rank[2 * card + k];
        if (rank >= 0 && search->left[rank] > search->acc_below[2 * card + k]) return 1;
    }
    return 0;
}

/* whether a pile card can never be played after a move put `rank` on the foundation: only the cards
 * that may follow `rank` and the top cards (the base changed) can have become so */
static int stranded(const Search *search, long rank) {
    for (long at = search->watch_start[rank]; at < search->watch_start[rank + 1]; at++) {
        long card = search->watch_cards[at];
        if (search->card_depth[card] >= search->taken[search->card_pile[card]] && !saved(search, card)) return 1;
    }
    for (long pile = 0; pile < search->piles; pile++)
        if (search->taken[pile] < search->heights[pile] && !saved(search, search->first[pile] + search->taken[pile]))
            return 1;
    return 0;
}

/* an upper bound on the largest matching of the follow graph, vertex v taking search->capacity[v] edges
 * (as patience.golf.search.matching): greedy along each path, which is largest there, and a cycle cut
 * at an empty vertex or else given its cut edge's smaller end */
static long matching(const Search *search) {
    const long *capacity = search->capacity;
    long total = 0;
    for (long chain = 0; chain < search->chain_count; chain++) {
        const long *vertices = search->chain_vertices + search->chain_starts[chain];
        long length = search->chain_starts[chain + 1] - search->chain_starts[chain], start = 0;
        if (length == 0) continue;
        if (search->chain_closed[chain]) {
            while (start < length && capacity[vertices[start]]) start++;
            if (start == length) {
                long first = capacity[vertices[0]], last = capacity[vertices[length - 1]];
                total += first < last ? first : last;
                start = 0;
            }
        }
        long spare = capacity[vertices[start]];
        for (long at = 1; at < length; at++) {
            long index = start + at < length ? start + at : start + at - length;
            long held = capacity[vertices[index]], edge = spare < held ? spare : held;
            total += edge;
            spare = held - edge;
        }
    }
    return total;
}

/* whether no play from here puts more than `target` pile cards on the foundation (as the Python
 * search's `beaten`): each pile card played needs a card of its own to follow, a pile card, a stock card
 * or the foundation's */
static inline int beaten(const Search *search, long target) {
    return search->played + matching(search) <= target;
}

static void candidates(Search *search) {
    long *moves = search->moves + search->depth * (search->piles + 1);
    long count = 0;
    for (long pile = 0; pile < search->piles; pile++) {
        long taken = search->taken[pile];
        if (taken < search->heights[pile]
            && goes_onto(search, search->base, search->pile_ranks[search->first[pile] + taken])) {
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

/* cuts: CUT_NONE; CUT_BOUND, the longest play's bound (max-cards mode); CUT_DEAD, also the stranded
 * cards, and the bound against a win (decision mode) */
enum { CUT_NONE, CUT_BOUND, CUT_DEAD };

static int run(Search *search, Memo *memo, int cache, int cuts, long long node_limit, double wall_end,
               double cpu_end) {
    int prune = cuts == CUT_DEAD;
    uint64_t key = (uint64_t)search->base;
    if (cache && !memo_add(memo, key)) return NO_MEMORY;
    search->depth = 0;
    candidates(search);
    if (prune)
        for (long card = 0; card < search->total; card++)
            if (!saved(search, card)) search->move_count[0] = 0; /* a card no play reaches: lost as dealt */
    if (cuts != CUT_NONE && beaten(search, prune ? search->total - 1 : search->best)) search->move_count[0] = 0;
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
                search->capacity[2 * search->base + 1]++;
                key -= search->steps[index];
            }
            search->capacity[2 * before]++; /* the card it was played onto is the foundation's again */
            search->left[search->base]++;
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
            search->capacity[2 * rank + 1]--;
        }
        search->capacity[2 * search->base]--; /* the foundation's card is covered; `rank`'s card is */
                                              /* followed now from the foundation, not from where it was */
        search->left[rank]--;
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
        if ((prune && stranded(search, rank))
            || (cuts != CUT_NONE && beaten(search, prune ? search->total - 1 : search->best))) {
            /* a dead position (or, in max-cards mode, one that cannot beat the longest play): backed out
             * of at once, not a node */
            search->move_count[search->depth] = 0;
            search->next_move[search->depth] = 0;
            continue;
        }
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

/* the search's docstring: its arguments and what it returns */
static const char SEARCH_DOC[] =
    "search(pile_ranks, heights, stock_ranks, ranks, start_rank, onto, cache, cuts, acceptor_ranks, "
    "acceptors_below, watch_starts, watched_cards, left, chain_vertices, chain_starts, chain_closed, node_limit, "
    "seconds, cpu_seconds, memo_bytes) -> "
    "(status, path, most pile cards, nodes, cached positions)";

static PyObject *golf_search(PyObject *self, PyObject *args) {
    PyObject *lists[12]; /* pile ranks, heights, stock ranks, onto, acceptor ranks, acceptor counts below, */
                         /* watch starts, watched cards, cards left of each rank, the follow graph's chains */
    long ranks, start;
    int cache, cuts;
    long long node_limit, memo_bytes;
    double seconds, cpu_seconds;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOllOpiOOOOOOOOLddL", &lists[0], &lists[1], &lists[2], &ranks, &start, &lists[3],
                          &cache, &cuts, &lists[4], &lists[5], &lists[6], &lists[7], &lists[8], &lists[9], &lists[10],
                          &lists[11], &node_limit, &seconds, &cpu_seconds, &memo_bytes))
        return NULL;
    Search search;
    memset(&search, 0, sizeof search);
    long **targets[12] = {&search.pile_ranks, &search.heights, &search.stock, &search.onto, &search.acc_rank,
                          &search.acc_below, &search.watch_start, &search.watch_cards, &search.left,
                          &search.chain_vertices, &search.chain_starts, &search.chain_closed};
    Py_ssize_t lengths[12];
    int read = 0;
    while (read < 12 && int_list(lists[read], "a search table", targets[read], &lengths[read])) read++;
    if (read < 12) {
        for (int index = 0; index < read; index++) free(*targets[index]);
        return NULL;
    }
    Py_ssize_t cards_length = lengths[0], piles = lengths[1], stock_size = lengths[2];
    search.piles = (long)piles;
    search.stock_size = (long)stock_size;
    search.ranks = ranks;
    search.base = start;
    long long total = 0;
    int bad = cuts < CUT_NONE || cuts > CUT_DEAD || start < 0 || start >= ranks || piles < 1 || lengths[3] != 2 * ranks || lengths[6] != ranks + 1
              || lengths[8] != ranks;
    for (Py_ssize_t pile = 0; pile < piles; pile++) total += search.heights[pile] < 0 ? (bad = 1) : search.heights[pile];
    bad = bad || total != cards_length || lengths[4] != 2 * total || lengths[5] != 2 * total;
    for (Py_ssize_t index = 0; !bad && index < cards_length; index++)
        bad = search.pile_ranks[index] < 0 || search.pile_ranks[index] >= ranks;
    for (Py_ssize_t index = 0; !bad && index < stock_size; index++)
        bad = search.stock[index] < 0 || search.stock[index] >= ranks;
    for (Py_ssize_t index = 0; !bad && index < 2 * ranks; index++) bad = search.onto[index] < -1 || search.onto[index] >= ranks;
    for (Py_ssize_t index = 0; !bad && index < 2 * total; index++)
        bad = search.acc_rank[index] < -1 || search.acc_rank[index] >= ranks;
    for (Py_ssize_t index = 0; !bad && index <= ranks; index++)
        bad = search.watch_start[index] < 0 || search.watch_start[index] > lengths[7]
              || (index > 0 && search.watch_start[index] < search.watch_start[index - 1]);
    for (Py_ssize_t index = 0; !bad && index < lengths[7]; index++)
        bad = search.watch_cards[index] < 0 || search.watch_cards[index] >= total;
    search.chain_count = (long)lengths[11];
    bad = bad || lengths[10] != lengths[11] + 1;
    for (Py_ssize_t index = 0; !bad && index <= lengths[11]; index++)
        bad = search.chain_starts[index] < 0 || search.chain_starts[index] > lengths[9]
              || (index > 0 && search.chain_starts[index] < search.chain_starts[index - 1]);
    for (Py_ssize_t index = 0; !bad && index < lengths[9]; index++)
        bad = search.chain_vertices[index] < 0 || search.chain_vertices[index] >= 2 * ranks;
    long depth_cap = (long)total + (long)stock_size + 1;
    search.total = (long)total;
    search.first = calloc((size_t)piles, sizeof(long));
    search.capacity = calloc((size_t)(ranks > 0 ? 2 * ranks : 1), sizeof(long));
    search.card_pile = calloc((size_t)(total > 0 ? total : 1), sizeof(long));
    search.card_depth = calloc((size_t)(total > 0 ? total : 1), sizeof(long));
    search.taken = calloc((size_t)piles, sizeof(long));
    search.steps = calloc((size_t)piles, sizeof(uint64_t));
    search.path = calloc((size_t)depth_cap, sizeof(long));
    search.path_base = calloc((size_t)depth_cap, sizeof(long));
    search.best_path = calloc((size_t)depth_cap, sizeof(long));
    search.moves = calloc((size_t)depth_cap * (size_t)(piles + 1), sizeof(long));
    search.move_count = calloc((size_t)depth_cap, sizeof(long));
    search.next_move = calloc((size_t)depth_cap, sizeof(long));
    Memo memo = {0};
    int ready = search.first && search.capacity && search.card_pile && search.card_depth && search.taken && search.steps && search.path && search.path_base && search.best_path
                && search.moves && search.move_count && search.next_move && memo_init(&memo, (size_t)memo_bytes);
    /* the packing: base + ranks * (dealt + (stock + 1) * (taken[0] + (heights[0] + 1) * ...)) in 64 bits */
    double size = (double)ranks * (double)(stock_size + 1);
    search.dealt_step = (uint64_t)ranks;
    uint64_t step = (uint64_t)ranks * (uint64_t)(stock_size + 1);
    long at = 0;
    for (Py_ssize_t pile = 0; pile < piles && !bad; pile++) {
        search.first[pile] = at;
        for (long depth = 0; depth < search.heights[pile]; depth++) {
            search.card_pile[at + depth] = (long)pile;
            search.card_depth[at + depth] = depth;
            if (ready) search.capacity[2 * search.pile_ranks[at + depth] + 1]++;
        }
        at += search.heights[pile];
        search.steps[pile] = step;
        step *= (uint64_t)(search.heights[pile] + 1);
        size *= (double)(search.heights[pile] + 1);
    }
    bad = bad || size >= 9.2e18;
    int status = NO_MEMORY;
    if (ready && !bad) {
        for (long rank = 0; rank < ranks; rank++) search.capacity[2 * rank] = search.left[rank] + (rank == start);
        double wall_end = seconds > 0 ? now(CLOCK_MONOTONIC) + seconds : 0;
        double cpu_end = cpu_seconds > 0 ? now(CLOCK_THREAD_CPUTIME_ID) + cpu_seconds : 0;
        Py_BEGIN_ALLOW_THREADS
        status = run(&search, &memo, cache, cuts, node_limit, wall_end, cpu_end);
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
    for (int index = 0; index < 12; index++) free(*targets[index]);
    free(search.capacity);
    free(search.card_pile);
    free(search.card_depth);
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

PyMODINIT_FUNC PyInit__golf(void) {
    return search_module("_golf", "Golf's compiled search", golf_search, SEARCH_DOC);
}
