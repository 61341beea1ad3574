/* Worm Hole's native search, compiled: the same search as patience/worm_hole/search.py, step for step
 * (the same steps in the same order, the same reach, balance and leaf rules, the same memo of dead
 * positions, the same restarts in Luby's rounds with the same shuffles, Python's Mersenne Twister
 * seeded as random.Random(piles) is), so the two report the same verdict, the same nodes and the same
 * play. Max-cards mode decides first, then for a lost deal finds the longest play by the same dynamic
 * programme over positions.
 *
 * A step plays one card onto the foundation: a parked card (pile FROM_CELL, `how` the card), or a
 * pile's card after parking the `how` cards above it. A position (cards taken from each pile, the
 * foundation's rank, the sorted set of parked cards: the cell's content is part of the state) is
 * packed in a fixed number of 64-bit words, in bit fields wide enough for the deal (the parked cards
 * as their sorted numbers, or as a bit a card where that is shorter: many cells); the memo is an
 * open-addressing table of those keys (with a count each, in max-cards mode) that takes no more
 * positions once it holds `room` (the Python search's own bound, passed in) or would outgrow
 * `memo_bytes` (half the memory limit).
 *
 * Cards are numbers: their index in the deal's cards, pile by pile, top card first. The limits
 * (nodes, the wall clock, this process's CPU) are looked at as the Python search looks at them:
 * the nodes at every node, the clocks every CHECK_EVERY nodes.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "../extension.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK_EVERY 4096
#define FROM_CELL (-1)
#define NONE (-1)
#define LUBY_UNIT 250     /* patience.native.reference.ONE_LUBY_UNIT */
#define LUBY_PER_CARD 4   /* ONE_LUBY_PER_CARD */

enum { GOING, WON, LOST, NODES, WALL, CPU, NO_MEMORY };
static const char *STATUS[] = {"going", "won", "lost", "nodes", "time", "cpu"};

/* --- Python's random.Random: MT19937 as CPython seeds and draws it -------------------------------- */

#define MT_N 624
#define MT_M 397

typedef struct {
    uint32_t state[MT_N];
    int index;
} Twister;

static void twister_init(Twister *mt, uint32_t seed) {
    mt->state[0] = seed;
    for (int i = 1; i < MT_N; i++)
        mt->state[i] = 1812433253u * (mt->state[i - 1] ^ (mt->state[i - 1] >> 30)) + (uint32_t)i;
    mt->index = MT_N;
}

/* random.Random(n) for 0 <= n < 2**32: init_by_array with the one word n */
static void twister_seed(Twister *mt, uint32_t word) {
    twister_init(mt, 19650218u);
    uint32_t *state = mt->state;
    int i = 1;
    for (int k = MT_N; k; k--) {
        state[i] = (state[i] ^ ((state[i - 1] ^ (state[i - 1] >> 30)) * 1664525u)) + word;
        i++;
        if (i >= MT_N) {
            state[0] = state[MT_N - 1];
            i = 1;
        }
    }
    for (int k = MT_N - 1; k; k--) {
        state[i] = (state[i] ^ ((state[i - 1] ^ (state[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
        i++;
        if (i >= MT_N) {
            state[0] = state[MT_N - 1];
            i = 1;
        }
    }
    state[0] = 0x80000000u;
    mt->index = MT_N;
}

static uint32_t twister_next(Twister *mt) {
    static const uint32_t MAG[2] = {0u, 0x9908b0dfu};
    uint32_t *state = mt->state, y;
    if (mt->index >= MT_N) {
        int k;
        for (k = 0; k < MT_N - MT_M; k++) {
            y = (state[k] & 0x80000000u) | (state[k + 1] & 0x7fffffffu);
            state[k] = state[k + MT_M] ^ (y >> 1) ^ MAG[y & 1u];
        }
        for (; k < MT_N - 1; k++) {
            y = (state[k] & 0x80000000u) | (state[k + 1] & 0x7fffffffu);
            state[k] = state[k + (MT_M - MT_N)] ^ (y >> 1) ^ MAG[y & 1u];
        }
        y = (state[MT_N - 1] & 0x80000000u) | (state[0] & 0x7fffffffu);
        state[MT_N - 1] = state[MT_M - 1] ^ (y >> 1) ^ MAG[y & 1u];
        mt->index = 0;
    }
    y = state[mt->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= (y >> 18);
    return y;
}

/* Random._randbelow_with_getrandbits(n), 1 <= n < 2**32 */
static uint32_t twister_below(Twister *mt, uint32_t n) {
    int bits = 0;
    while (bits < 32 && (n >> bits)) bits++;
    uint32_t r = twister_next(mt) >> (32 - bits);
    while (r >= n) r = twister_next(mt) >> (32 - bits);
    return r;
}

/* Random.random() */
static double twister_random(Twister *mt) {
    uint32_t a = twister_next(mt) >> 5, b = twister_next(mt) >> 6;
    return ((double)a * 67108864.0 + (double)b) * (1.0 / 9007199254740992.0);
}

static long long luby(long long term) {
    for (;;) {
        int k = 1;
        while ((1LL << k) - 1 < term) k++;
        if ((1LL << k) - 1 == term) return 1LL << (k - 1);
        term -= (1LL << (k - 1)) - 1;
    }
}

/* --- the memo: keys of `words` 64-bit words, with a count each ------------------------------------- */

typedef struct {
    uint64_t *keys;
    int32_t *values;
    unsigned char *used;
    size_t mask, count, words;
    long long room;   /* the most positions it takes; -1: no bound */
    size_t cap_bytes; /* the most its table may take; 0: no bound */
    int full;         /* it would outgrow cap_bytes: it takes no more */
} Memo;

static int memo_init(Memo *memo, size_t words, long long room, size_t cap_bytes) {
    memo->words = words;
    memo->room = room;
    memo->cap_bytes = cap_bytes;
    memo->full = 0;
    memo->count = 0;
    memo->mask = (room >= 0 && room < 512) ? 1023 : (1u << 14) - 1;
    memo->keys = calloc((memo->mask + 1) * words, sizeof(uint64_t));
    memo->values = calloc(memo->mask + 1, sizeof(int32_t));
    memo->used = calloc(memo->mask + 1, 1);
    return memo->keys && memo->values && memo->used;
}

static void memo_free(Memo *memo) {
    free(memo->keys);
    free(memo->values);
    free(memo->used);
    memo->keys = NULL;
    memo->values = NULL;
    memo->used = NULL;
}

static inline size_t hash_of(const uint64_t *key, size_t words) {
    uint64_t hash = 0x9E3779B97F4A7C15ULL;
    for (size_t word = 0; word < words; word++) {
        uint64_t x = key[word] + hash;
        x ^= x >> 33;
        x *= 0xff51afd7ed558ccdULL;
        x ^= x >> 33;
        x *= 0xc4ceb9fe1a85ec53ULL;
        x ^= x >> 33;
        hash = x;
    }
    return (size_t)hash;
}

/* the slot holding `key`, or the empty slot where it would go */
static inline size_t memo_slot(const Memo *memo, const uint64_t *key) {
    size_t slot = hash_of(key, memo->words) & memo->mask;
    while (memo->used[slot] && memcmp(memo->keys + slot * memo->words, key, memo->words * sizeof(uint64_t)))
        slot = (slot + 1) & memo->mask;
    return slot;
}

/* the count kept for `key`, or -1 where it is not kept */
static inline long memo_get(const Memo *memo, const uint64_t *key) {
    size_t slot = memo_slot(memo, key);
    return memo->used[slot] ? memo->values[slot] : -1;
}

/* 1 kept (or the memo full: not kept, as the Python search's), 0 out of memory */
static int memo_put(Memo *memo, const uint64_t *key, long value) {
    if (memo->full || (memo->room >= 0 && (long long)memo->count >= memo->room)) return 1;
    if ((memo->count + 1) * 2 > memo->mask + 1) {
        size_t size = (memo->mask + 1) * 2, words = memo->words;
        if (memo->cap_bytes && size * (words * sizeof(uint64_t) + sizeof(int32_t) + 1) > memo->cap_bytes) {
            memo->full = 1;
            return 1;
        }
        uint64_t *keys = calloc(size * words, sizeof(uint64_t));
        int32_t *values = calloc(size, sizeof(int32_t));
        unsigned char *used = calloc(size, 1);
        if (!keys || !values || !used) {
            free(keys);
            free(values);
            free(used);
            return 0;
        }
        for (size_t index = 0; index <= memo->mask; index++) {
            if (!memo->used[index]) continue;
            size_t slot = hash_of(memo->keys + index * words, words) & (size - 1);
            while (used[slot]) slot = (slot + 1) & (size - 1);
            used[slot] = 1;
            values[slot] = memo->values[index];
            memcpy(keys + slot * words, memo->keys + index * words, words * sizeof(uint64_t));
        }
        memo_free(memo);
        memo->keys = keys;
        memo->values = values;
        memo->used = used;
        memo->mask = size - 1;
    }
    size_t slot = memo_slot(memo, key);
    if (!memo->used[slot]) {
        memo->used[slot] = 1;
        memcpy(memo->keys + slot * memo->words, key, memo->words * sizeof(uint64_t));
        memo->count++;
    }
    memo->values[slot] = (int32_t)value;
    return 1;
}

/* --- the position ------------------------------------------------------------------------------------ */

typedef struct {
    long card, parks, pile;       /* a pile step: the card played, the parks before it, the pile */
    long left, height, tie, rank; /* its sort key: (-left, parks, -height, tie, pile) */
} Found;

typedef struct {
    /* the deal */
    long piles, total, ranks, cells, slots;
    int cell_bits; /* the parked cards in the key as a bit a card (else as `slots` sorted numbers) */
    long *heights, *first, *rank, *card_pile; /* pile p's cards: first[p] .. first[p] + heights[p], top first */
    long *near, *near_count;                  /* rank -> its neighbours on the cycle (0 to 2 of them) */
    int leaves;
    /* the key's layout: pile fields, the hole's, the cell slots', each `bits` wide from bit `offset` */
    long *offset, *bits;
    size_t words;
    /* the position */
    long *taken, *left, *cell, parked, hole, played;
    long *tie, *bonus;
    /* the steps: a stack of (pile, how); frame d's are step_pile[start[d] .. start[d] + count[d]) */
    long *step_pile, *step_how;
    size_t step_size, step_cap;
    long *start, *count, *next, *found_after; /* per depth */
    long *path_pile, *path_how, *undo;        /* per depth */
    long depth;
    /* per-rank marks for the leaf rule, stamped so that they need no clearing */
    long *cell_mark, *general_mark, *single_mark, stamp;
    Found *found;
    /* the count and the limits */
    long long nodes, node_limit;
    double wall_end, cpu_end;
    long best;
    uint64_t *key;
} Search;

/* patience.worm_hole.search._Counter.count: GOING, or the limit reached */
static inline int count_node(Search *search) {
    search->nodes++;
    if (search->node_limit >= 0 && search->nodes > search->node_limit) return NODES;
    if (search->nodes % CHECK_EVERY == 0) {
        if (search->wall_end >= 0 && now(CLOCK_MONOTONIC) >= search->wall_end) return WALL;
        if (search->cpu_end >= 0 && now(CLOCK_PROCESS_CPUTIME_ID) >= search->cpu_end) return CPU;
    }
    return GOING;
}

static inline int follows(const Search *search, long card) {
    if (search->hole == NONE) return 1;
    long rank = search->rank[card];
    const long *near = search->near + 2 * search->hole;
    for (long k = 0; k < search->near_count[search->hole]; k++)
        if (near[k] == rank) return 1;
    return 0;
}

static void make_key(const Search *search, uint64_t *key) {
    memset(key, 0, search->words * sizeof(uint64_t));
    long fields = search->piles + 1 + (search->cell_bits ? 0 : search->slots);
    if (search->cell_bits) {
        long base = search->offset[search->piles] + search->bits[search->piles];
        for (long at = 0; at < search->parked; at++) {
            long bit = base + search->cell[at];
            key[bit / 64] |= (uint64_t)1 << (bit % 64);
        }
    }
    for (long field = 0; field < fields; field++) {
        uint64_t value;
        if (field < search->piles) value = (uint64_t)search->taken[field];
        else if (field == search->piles) value = (uint64_t)(search->hole + 1);
        else {
            long slot = field - search->piles - 1;
            value = slot < search->parked ? (uint64_t)(search->cell[slot] + 1) : 0;
        }
        long offset = search->offset[field], bits = search->bits[field];
        key[offset / 64] |= value << (offset % 64);
        if (offset % 64 + bits > 64) key[offset / 64 + 1] |= value >> (64 - offset % 64);
    }
}

static inline int found_before(const Found *a, const Found *b) {
    if (a->left != b->left) return a->left > b->left;
    if (a->parks != b->parks) return a->parks < b->parks;
    if (a->height != b->height) return a->height > b->height;
    if (a->tie != b->tie) return a->tie < b->tie;
    return a->pile < b->pile;
}

static int push_step(Search *search, long pile, long how) {
    if (search->step_size == search->step_cap) {
        size_t cap = search->step_cap * 2;
        long *piles = realloc(search->step_pile, cap * sizeof(long));
        if (!piles) return 0;
        search->step_pile = piles;
        long *hows = realloc(search->step_how, cap * sizeof(long));
        if (!hows) return 0;
        search->step_how = hows;
        search->step_cap = cap;
    }
    search->step_pile[search->step_size] = pile;
    search->step_how[search->step_size] = how;
    search->step_size++;
    return 1;
}

/* _Position.steps: frame `depth`'s steps, in the order they are tried; 0 out of memory */
static int steps(Search *search, long depth) {
    long stamp = ++search->stamp, free_cells = search->cells - search->parked;
    search->start[depth] = (long)search->step_size;
    search->next[depth] = 0;
    search->found_after[depth] = 0;
    for (long at = 0; at < search->parked; at++) {
        long card = search->cell[at], rank = search->rank[card];
        if (follows(search, card) && (!search->leaves || search->cell_mark[rank] != stamp)) {
            search->cell_mark[rank] = stamp;
            if (!push_step(search, FROM_CELL, card)) return 0;
        }
    }
    long found = 0;
    for (long pile = 0; pile < search->piles; pile++) {
        long taken = search->taken[pile], height = search->heights[pile] - taken;
        long most = free_cells < height - 1 ? free_cells : height - 1;
        for (long parks = 0; parks <= most; parks++) {
            long card = search->first[pile] + taken + parks;
            if (!follows(search, card)) continue;
            long rank = search->rank[card];
            Found entry = {card, parks, pile, search->left[rank], height + search->bonus[pile], search->tie[pile], rank};
            long at = found;
            while (at > 0 && found_before(&entry, &search->found[at - 1])) {
                search->found[at] = search->found[at - 1];
                at--;
            }
            search->found[at] = entry;
            found++;
            if (parks == 0 && height > 1) search->general_mark[rank] = stamp;
        }
    }
    for (long at = 0; at < found; at++) {
        const Found *entry = &search->found[at];
        if (search->leaves && entry->parks == 0 && search->taken[entry->pile] + 1 == search->heights[entry->pile]) {
            long rank = entry->rank;
            if (search->cell_mark[rank] == stamp || search->general_mark[rank] == stamp
                || search->single_mark[rank] == stamp)
                continue;
            search->single_mark[rank] = stamp;
        }
        if (!push_step(search, entry->pile, entry->parks)) return 0;
    }
    search->count[depth] = (long)search->step_size - search->start[depth];
    return 1;
}

static void cell_insert(Search *search, long card) {
    long at = search->parked++;
    while (at > 0 && search->cell[at - 1] > card) {
        search->cell[at] = search->cell[at - 1];
        at--;
    }
    search->cell[at] = card;
}

static void cell_remove(Search *search, long card) {
    long at = 0;
    while (search->cell[at] != card) at++;
    for (search->parked--; at < search->parked; at++) search->cell[at] = search->cell[at + 1];
}

/* _Position.make: the foundation's rank before */
static long make(Search *search, long pile, long how) {
    long before = search->hole, card;
    if (pile == FROM_CELL) {
        card = how;
        cell_remove(search, card);
    } else {
        long depth = search->taken[pile];
        for (long k = 0; k < how; k++) cell_insert(search, search->first[pile] + depth + k);
        card = search->first[pile] + depth + how;
        search->taken[pile] = depth + how + 1;
    }
    search->hole = search->rank[card];
    search->left[search->hole]--;
    search->played++;
    return before;
}

static void unmake(Search *search, long pile, long how, long before) {
    search->left[search->hole]++;
    search->played--;
    search->hole = before;
    if (pile == FROM_CELL) {
        cell_insert(search, how);
    } else {
        long depth = search->taken[pile] - how - 1;
        search->taken[pile] = depth;
        for (long k = 0; k < how; k++) cell_remove(search, search->first[pile] + depth + k);
    }
}

/* _Position.reaches_all */
static int reaches_all(const Search *search) {
    long ranks = search->ranks, hole = search->hole, reached = 0;
    const long *left = search->left;
    if (hole == NONE) return 1;
    for (int direction = 0; direction < 2; direction++) {
        long step = direction == 0 ? 1 : ranks - 1;
        long rank = (hole + step) % ranks;
        while (left[rank] && rank != hole && reached < ranks) {
            reached++;
            rank = (rank + step) % ranks;
        }
        if (rank == hole) return 1;
    }
    long wanted = 0;
    for (long rank = 0; rank < ranks; rank++) wanted += left[rank] != 0;
    if (left[hole]) wanted--;
    if (left[hole] && !reached) return 0;
    return reached >= wanted;
}

static inline int rank_unbalanced(const Search *search, long rank) {
    long next = 0, near_hole = 0;
    for (long k = 0; k < search->near_count[rank]; k++) {
        long other = search->near[2 * rank + k];
        next += search->left[other];
        near_hole |= other == search->hole;
    }
    return search->left[rank] > next + near_hole;
}

/* _Position.unbalanced; `had_hole` 0 for a `before` of None */
static int unbalanced(const Search *search, int had_hole, long before) {
    if (!had_hole) {
        for (long rank = 0; rank < search->ranks; rank++)
            if (rank_unbalanced(search, rank)) return 1;
        return 0;
    }
    for (long k = 0; k < search->near_count[search->hole]; k++)
        if (rank_unbalanced(search, search->near[2 * search->hole + k])) return 1;
    for (long k = 0; k < search->near_count[before]; k++)
        if (rank_unbalanced(search, search->near[2 * before + k])) return 1;
    return 0;
}

static inline int hopeless(const Search *search, int had_hole, long before) {
    return !reaches_all(search) || unbalanced(search, had_hole, before);
}

/* _decide: GOING never; WON with the win in path_* (depth steps), LOST, a limit, or NO_MEMORY */
static int decide(Search *search, Memo *dead, int stranded, int restarts, uint64_t *child) {
    int status = count_node(search);
    if (status != GOING) return status;
    search->depth = 0;
    if (search->played == search->total) return WON;
    if (stranded && search->hole != NONE && hopeless(search, 0, NONE)) return LOST;
    Twister twister;
    twister_seed(&twister, (uint32_t)search->piles);
    long long unit = search->total * LUBY_PER_CARD > LUBY_UNIT ? search->total * LUBY_PER_CARD : LUBY_UNIT;
    for (long long round = 1;; round++) {
        long long stop_at = restarts ? search->nodes + unit * luby(round) : -1;
        int given_up = 0;
        search->step_size = 0;
        search->depth = 0;
        if (!steps(search, 0)) return NO_MEMORY;
        while (search->depth >= 0) {
            long depth = search->depth;
            if (search->next[depth] == search->count[depth]) {
                make_key(search, search->key);
                if (!memo_put(dead, search->key, 0)) return NO_MEMORY;
                search->step_size = (size_t)search->start[depth];
                if (depth > 0)
                    unmake(search, search->path_pile[depth - 1], search->path_how[depth - 1], search->undo[depth - 1]);
                search->depth--;
                continue;
            }
            if (stop_at >= 0 && search->nodes >= stop_at) {
                given_up = 1;
                break;
            }
            long at = search->start[depth] + search->next[depth]++;
            long pile = search->step_pile[at], how = search->step_how[at];
            int had_hole = search->hole != NONE;
            long before = make(search, pile, how);
            status = count_node(search);
            if (status != GOING) return status;
            if (search->played > search->best) search->best = search->played;
            search->path_pile[depth] = pile;
            search->path_how[depth] = how;
            if (search->played == search->total) {
                search->depth = depth + 1;
                return WON;
            }
            make_key(search, child);
            if (memo_get(dead, child) >= 0 || (stranded && hopeless(search, had_hole, before))) {
                unmake(search, pile, how, before);
                continue;
            }
            search->undo[depth] = before;
            search->depth = depth + 1;
            if (!steps(search, depth + 1)) return NO_MEMORY;
        }
        if (!given_up) return LOST;
        for (long depth = search->depth - 1; depth >= 0; depth--)
            unmake(search, search->path_pile[depth], search->path_how[depth], search->undo[depth]);
        for (long pile = search->piles - 1; pile > 0; pile--) {
            long other = (long)twister_below(&twister, (uint32_t)(pile + 1)), swap = search->tie[pile];
            search->tie[pile] = search->tie[other];
            search->tie[other] = swap;
        }
        for (long pile = 0; pile < search->piles; pile++) search->bonus[pile] = twister_random(&twister) < 0.5;
    }
}

/* _longest, on the fresh position: WON or LOST with the longest play in best_* (best_depth steps) */
static int longest(Search *search, Memo *memo, long *best_pile, long *best_how, long *best_depth) {
    *best_depth = 0;
    int status = count_node(search);
    if (status != GOING) return status;
    search->step_size = 0;
    search->depth = 0;
    if (!steps(search, 0)) return NO_MEMORY;
    while (search->depth >= 0) {
        long depth = search->depth;
        long found = search->found_after[depth];
        if (search->next[depth] == search->count[depth] || found == search->total - search->played) {
            make_key(search, search->key);
            if (!memo_put(memo, search->key, found)) return NO_MEMORY;
            search->step_size = (size_t)search->start[depth];
            if (depth > 0) {
                unmake(search, search->path_pile[depth - 1], search->path_how[depth - 1], search->undo[depth - 1]);
                if (found + 1 > search->found_after[depth - 1]) search->found_after[depth - 1] = found + 1;
            }
            search->depth--;
            continue;
        }
        long at = search->start[depth] + search->next[depth]++;
        long pile = search->step_pile[at], how = search->step_how[at];
        long before = make(search, pile, how);
        status = count_node(search);
        if (status != GOING) return status;
        search->path_pile[depth] = pile;
        search->path_how[depth] = how;
        if (search->played > *best_depth) {
            *best_depth = depth + 1;
            memcpy(best_pile, search->path_pile, sizeof(long) * (size_t)(depth + 1));
            memcpy(best_how, search->path_how, sizeof(long) * (size_t)(depth + 1));
            if (*best_depth > search->best) search->best = *best_depth;
            if (search->best == search->total) break;
        }
        make_key(search, search->key);
        long known = memo_get(memo, search->key);
        if (known >= 0) {
            unmake(search, pile, how, before);
            if (known + 1 > search->found_after[depth]) search->found_after[depth] = known + 1;
            continue;
        }
        search->undo[depth] = before;
        search->depth = depth + 1;
        if (!steps(search, depth + 1)) return NO_MEMORY;
    }
    return *best_depth == search->total ? WON : LOST;
}

static long bits_for(long largest) {
    long bits = 1;
    while (bits < 62 && (1L << bits) <= largest) bits++;
    return bits;
}

static void reset(Search *search, long hole) {
    for (long pile = 0; pile < search->piles; pile++) {
        search->taken[pile] = 0;
        search->tie[pile] = pile;
        search->bonus[pile] = 0;
    }
    for (long rank = 0; rank < search->ranks; rank++) search->left[rank] = 0;
    for (long card = 0; card < search->total; card++) search->left[search->rank[card]]++;
    search->parked = 0;
    search->hole = hole;
    search->played = 0;
}

static PyObject *path_list(const long *piles, const long *hows, long length) {
    PyObject *path = PyList_New(2 * length);
    for (long index = 0; path && index < length; index++) {
        PyList_SET_ITEM(path, 2 * index, PyLong_FromLong(piles[index]));
        PyList_SET_ITEM(path, 2 * index + 1, PyLong_FromLong(hows[index]));
    }
    return path;
}

/* the search's docstring: its arguments and what it returns */
static const char SEARCH_DOC[] =
    "search(card_ranks, heights, ranks, start_rank or -1, cells, max_cards, stranded, leaves, restarts, "
    "node_limit or -1, room or -1, memo_bytes or 0, seconds or -1, cpu_seconds or -1) -> "
    "(status, [pile, how, ...] or None, most cards, nodes, remembered positions)";

static PyObject *worm_hole_search(PyObject *self, PyObject *args) {
    PyObject *rank_object, *height_object;
    long ranks, hole, cells;
    int max_cards, stranded, leaves, restarts;
    long long node_limit, room, memo_bytes;
    double seconds, cpu_seconds;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOlllppppLLLdd", &rank_object, &height_object, &ranks, &hole, &cells, &max_cards,
                          &stranded, &leaves, &restarts, &node_limit, &room, &memo_bytes, &seconds, &cpu_seconds))
        return NULL;
    Search search;
    memset(&search, 0, sizeof search);
    Py_ssize_t cards, piles;
    if (!int_list(rank_object, "the cards' ranks", &search.rank, &cards)) return NULL;
    if (!int_list(height_object, "the piles' heights", &search.heights, &piles)) {
        free(search.rank);
        return NULL;
    }
    long long total = 0;
    int bad = ranks < 1 || hole < NONE || hole >= ranks || cells < 0 || piles > 0x7fffffff;
    for (Py_ssize_t pile = 0; pile < piles; pile++) total += search.heights[pile] < 0 ? (bad = 1) : search.heights[pile];
    bad = bad || total != cards || total > 0x7fffffff;
    for (Py_ssize_t card = 0; !bad && card < cards; card++) bad = search.rank[card] < 0 || search.rank[card] >= ranks;
    if (bad) {
        free(search.rank);
        free(search.heights);
        PyErr_SetString(PyExc_ValueError, "a Worm Hole deal the compiled search cannot hold");
        return NULL;
    }
    search.piles = (long)piles;
    search.total = (long)total;
    search.ranks = ranks;
    search.cells = cells;
    search.slots = cells < search.total ? cells : search.total;
    search.leaves = leaves;
    search.node_limit = node_limit;
    size_t depth_cap = (size_t)total + 2, pile_cap = (size_t)(piles > 0 ? piles : 1);
    size_t fields = (size_t)piles + 1 + (size_t)search.slots, card_cap = (size_t)(total > 0 ? total : 1);
    search.first = calloc(pile_cap, sizeof(long));
    search.card_pile = calloc(card_cap, sizeof(long));
    search.near = calloc(2 * (size_t)ranks, sizeof(long));
    search.near_count = calloc((size_t)ranks, sizeof(long));
    search.offset = calloc(fields, sizeof(long));
    search.bits = calloc(fields, sizeof(long));
    search.taken = calloc(pile_cap, sizeof(long));
    search.left = calloc((size_t)ranks, sizeof(long));
    search.cell = calloc((size_t)search.slots + 1, sizeof(long));
    search.tie = calloc(pile_cap, sizeof(long));
    search.bonus = calloc(pile_cap, sizeof(long));
    search.step_cap = 1024;
    search.step_pile = malloc(search.step_cap * sizeof(long));
    search.step_how = malloc(search.step_cap * sizeof(long));
    long **per_depth[] = {&search.start, &search.count, &search.next, &search.found_after, &search.path_pile,
                          &search.path_how, &search.undo};
    int ready = 1;
    for (size_t index = 0; index < sizeof per_depth / sizeof *per_depth; index++)
        ready = ready && (*per_depth[index] = calloc(depth_cap, sizeof(long))) != NULL;
    long *best_pile = calloc(depth_cap, sizeof(long)), *best_how = calloc(depth_cap, sizeof(long));
    search.cell_mark = calloc((size_t)ranks, sizeof(long));
    search.general_mark = calloc((size_t)ranks, sizeof(long));
    search.single_mark = calloc((size_t)ranks, sizeof(long));
    search.found = calloc(card_cap, sizeof(Found));
    ready = ready && search.first && search.card_pile && search.near && search.near_count && search.offset
            && search.bits && search.taken && search.left && search.cell && search.tie && search.bonus
            && search.step_pile && search.step_how && best_pile && best_how && search.cell_mark
            && search.general_mark && search.single_mark && search.found;
    Memo dead = {0}, memo = {0};
    int status = NO_MEMORY;
    long best_depth = 0, result_depth = 0;
    const long *result_pile = NULL, *result_how = NULL;
    size_t cached = 0;
    if (ready) {
        long at = 0, offset = 0;
        for (long pile = 0; pile < search.piles; pile++) {
            search.first[pile] = at;
            for (long depth = 0; depth < search.heights[pile]; depth++) search.card_pile[at + depth] = pile;
            at += search.heights[pile];
            search.offset[pile] = offset;
            offset += search.bits[pile] = bits_for(search.heights[pile]);
        }
        search.offset[search.piles] = offset;
        offset += search.bits[search.piles] = bits_for(ranks);
        search.cell_bits = search.slots * bits_for(search.total) > search.total;
        for (long slot = 0; slot < search.slots; slot++) {
            search.offset[search.piles + 1 + slot] = offset + slot * bits_for(search.total);
            search.bits[search.piles + 1 + slot] = bits_for(search.total);
        }
        offset += search.cell_bits ? search.total : search.slots * bits_for(search.total);
        search.words = (size_t)(offset + 63) / 64;
        for (long rank = 0; rank < ranks; rank++) { /* sorted({rank - 1, rank + 1} mod ranks - {rank}) */
            long down = (rank + ranks - 1) % ranks, up = (rank + 1) % ranks, count = 0;
            long low = down < up ? down : up, high = down < up ? up : down;
            if (low != rank) search.near[2 * rank + count++] = low;
            if (high != rank && high != low) search.near[2 * rank + count++] = high;
            search.near_count[rank] = count;
        }
        search.key = calloc(2 * search.words, sizeof(uint64_t));
        ready = search.key && memo_init(&dead, search.words, room, (size_t)(memo_bytes > 0 ? memo_bytes : 0));
    }
    if (ready) {
        search.wall_end = seconds >= 0 ? now(CLOCK_MONOTONIC) + seconds : -1;
        search.cpu_end = cpu_seconds >= 0 ? now(CLOCK_PROCESS_CPUTIME_ID) + cpu_seconds : -1;
        Py_BEGIN_ALLOW_THREADS
        reset(&search, hole);
        status = decide(&search, &dead, stranded, restarts, search.key + search.words);
        cached = dead.count;
        if (status == WON) {
            result_pile = search.path_pile;
            result_how = search.path_how;
            result_depth = search.depth;
        } else if (status == LOST && max_cards) {
            memo_free(&dead);
            status = NO_MEMORY;
            if (memo_init(&memo, search.words, room, (size_t)(memo_bytes > 0 ? memo_bytes : 0))) {
                reset(&search, hole);
                status = longest(&search, &memo, best_pile, best_how, &best_depth);
                cached = memo.count;
                if (status == WON || status == LOST) {
                    result_pile = best_pile;
                    result_how = best_how;
                    result_depth = best_depth;
                }
            }
        }
        Py_END_ALLOW_THREADS
    }
    PyObject *result = NULL;
    if (status == NO_MEMORY) {
        PyErr_NoMemory();
    } else {
        /* a win plays every card; max-cards' lost deal its longest play; else the most any play reached */
        long most = status == WON ? search.total : status == LOST && max_cards ? best_depth : search.best;
        PyObject *path = result_pile != NULL ? path_list(result_pile, result_how, result_depth) : (Py_INCREF(Py_None), Py_None);
        if (path)
            result = Py_BuildValue("(sNlLn)", STATUS[status], path, most, search.nodes, (Py_ssize_t)cached);
    }
    memo_free(&dead);
    memo_free(&memo);
    free(search.rank);
    free(search.heights);
    free(search.first);
    free(search.card_pile);
    free(search.near);
    free(search.near_count);
    free(search.offset);
    free(search.bits);
    free(search.taken);
    free(search.left);
    free(search.cell);
    free(search.tie);
    free(search.bonus);
    free(search.step_pile);
    free(search.step_how);
    for (size_t index = 0; index < sizeof per_depth / sizeof *per_depth; index++) free(*per_depth[index]);
    free(best_pile);
    free(best_how);
    free(search.cell_mark);
    free(search.general_mark);
    free(search.single_mark);
    free(search.found);
    free(search.key);
    return result;
}

PyMODINIT_FUNC PyInit__worm_hole(void) {
    return search_module("_worm_hole", "Worm Hole's compiled search", worm_hole_search, SEARCH_DOC);
}
