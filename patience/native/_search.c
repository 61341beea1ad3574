/* The compiled native search: the same depth-first search as reference.py, in C, for deals of any
 * size and with one or more foundations.
 *
 * Cards are indices 0..n-1, pile by pile, top card first. Cards leave a pile in order, so the set
 * of cards played is the number taken from each pile: a state's key packs those counts (a field of
 * just enough bits per pile) with the foundations' top ranks (sorted, since the foundations obey
 * the same rule and are interchangeable) into as few 64-bit words as it needs. A Black Hole deal's
 * key is one word, and the search is compiled twice: once for one-word keys, once for any width.
 * Deals of up to MAX_CARDS cards, any number of piles.
 * States that failed are kept in an open-addressing hash set so that they are never searched again,
 * even after a restart: the search gives up a round after a budget of nodes (Luby's sequence) and
 * starts again with its ties broken in a shuffled pile order and a few piles counted one card taller
 * (next_round), so one unlucky early choice does not cost the whole search (wins are heavy-tailed
 * in nodes); with noise on, the later rounds also put a random move first at some nodes (shake).
 * Pruning rules (conditional symmetry, Wolter's two rules, rank reachability) are switched by flags
 * so that their effect can be measured. The search runs without the GIL and stops itself at a node
 * or time limit. `closure` walks every position a board's plays reach, for a certificate of a loss.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <limits.h>
#include <sys/mman.h>

#define MAX_FOUNDATIONS 4
#define MAX_CARDS 8192  /* the search recurses once per card played: a few hundred bytes of stack each */
#define MAX_RANKS (1 << 14)
#define CLOCK_EVERY 4096
#define TABLE_START_BITS 9   /* a new table's size: most deals fail at a few hundred states */
#define TABLE_MIN_BITS 12    /* the least a memory limit leaves a table to grow to */
#define TABLE_MAX_BITS 32
#define ONE_LUBY_UNIT 250      /* restarts, one foundation: rounds of Luby's sequence times this many nodes, */
#define ONE_LUBY_PER_CARD 4    /* or this many a card if more: a round must be able to play a large deal */
#define ONE_BONUS_ONE_IN 2     /* restarts, one foundation: the share of piles counted one card taller */
#define LUBY_UNIT 1000         /* restarts with several foundations: the same */
#define BONUS_ONE_IN 4
#define RANDOM_STEP 0x9E3779B97F4A7C15ULL /* the restarts' shuffles' stream (splitmix64) */
#define NOISE_ONE_IN 2          /* noise: the share of nodes whose move order it changes */
#define MEMO_BITS 13           /* the balance bound's memo: 2^this many entries */
#define BALANCE_SETS 6         /* one foundation: the balance bound tries sets of up to this many ranks */

/* LIMIT: the node limit or the wall-clock deadline; CPU_LIMIT: the CPU budget */
enum { FAILED = 0, SOLVED = 1, LIMIT = -1, INTERRUPTED = -2, NO_MEMORY = -3, RESTART = -4, CPU_LIMIT = -5, ENOUGH = -6 };

typedef struct { int card, pile, foundation, height; uint64_t hash; } Move;

typedef struct { uint64_t general, tall, unit, single; } RankMarks;

/* The failure cache: keys of `words` words each, all-zero words marking an empty slot (every key
 * has its lowest bit set). It outlives a search so that a batch of deals reuses it. */
typedef struct {
    uint64_t *slots, mask, used;
    int words, bits, max_bits, full;
} Cache;

/* The balance bound's memo (balance_cut): direct-mapped entries of a key (the cards left per rank and the
 * top, packed; bit 63 set, so an empty entry matches none) and its largest excess, a function of the key
 * alone for a given rank count and field width. So a memo is kept from search to search (memo_take,
 * memo_give: a small pool, used with the GIL held) and cleared only when it goes to a search of another
 * layout: a deal's search does not zero 2^MEMO_BITS entries before its first node. */
typedef struct { uint64_t key; int value; } MemoEntry;
typedef struct MemoBuffer { MemoEntry *entries; int ranks, count_bits; } MemoBuffer;

typedef struct {
    /* the deal */
    int n, ranks, piles, foundations;
    int end;              /* one foundation: the rank the last card played must be next to, -1 for any */
    int *rank, *pile_start, *pile_size;
    unsigned char *unit;  /* only cards of its own rank lie beneath it */
    int *up, *down;       /* the ranks that may follow a rank; -1 when none */
    int small_ranks;      /* ranks fit in one 64-bit mask */
    int by_masks;         /* one foundation, piles and ranks fit in 64-bit masks: moves_by_masks */
    int tallest;
    int *order;           /* the piles in this round's tie-break order */
    int *bonus;           /* this round's extra height of each pile in the move order (0 or 1) */
    int *slot;            /* by_masks: each pile's bit in the masks, its place in this round's order */
    uint64_t bonus_bits;  /* by_masks: the piles counted one card taller, as bits */
    uint64_t budget;
    uint64_t all_ranks;
    /* the key: sentinel bit, foundation tops, then one field per pile */
    int words, top_bits;
    uint64_t tops_mask;
    int *pile_word;
    uint64_t *pile_step;
    /* switches and limits */
    int cache, symmetry, wolter, reach, max_cards, restarts, noise;
    int round;            /* the restarts' round under way (0: the first) */
    int enough;           /* max-cards mode: a play of this many cards ends the search (ENOUGH), 0: none */
    int balance;          /* several foundations, decision mode, reach on: the balance test */
    int one_balance;      /* one foundation, 3 to 64 ranks, reach on: reachability and the balance bound */
    int wide_balance;     /* the same past 64 ranks (rule wide): the balance bound by unplayable_excess_any */
    int balance_bound;    /* one_balance's balance bound runs: max-cards mode, or at most 64 cards, or no live-card
                           * bound (past that the live-card bound decides the same deals, sooner in CPU) */
    int live_any;         /* one foundation, 3 or more ranks, reach and wide on, not by_masks: live_cards_any */
    int live_bound;       /* the live-card bound runs (live_cut): one_balance and by_masks, or live_any */
    /* one_balance: the balance bound's memo, by the cards left per rank (packed, count_bits a rank) and
     * the top, when they fit in a word (NULL otherwise) */
    uint64_t packed;
    struct MemoBuffer *memo;
    int count_bits, memo_top_shift;
    uint64_t node_limit;
    double deadline;     /* CLOCK_MONOTONIC, 0: none */
    double cpu_deadline; /* this thread's CPU clock, 0: none */
    PyThreadState *thread; /* saved while the search runs without the GIL */
    /* the state */
    int *taken; /* cards played from each pile */
    int tops[MAX_FOUNDATIONS];
    int *counts;      /* cards left per rank */
    uint64_t present; /* ranks with cards left, when ranks fit in a mask */
    int ranks_out;    /* ranks with no cards left */
    uint64_t *topped; /* by_masks: per rank, the piles whose top card has it (bits by slot) */
    uint64_t *key, *scratch;
    int *path, *path_foundation, *best, *best_foundation, best_length;
    int *live_floor;  /* live_bound: per depth, a floor of the state's live cards (live_cut) */
    /* live_any: per rank the piles whose top card has it (a count), and live_cards_any's scratch: per rank
     * whether it may be played (a stamp) and the piles waiting on it (a list through live_next, valid at
     * its stamp), per pile the first card not yet live, and the ranks still to look at */
    int *top_count, *live_head, *live_next, *live_pos, *live_stack;
    uint64_t *live_seen, *live_head_stamp, live_stamp;
    /* by_masks and at most 64 cards: cards as bits (card i, bit i), for live_cards_by_bits */
    int card_bits;
    uint64_t cards_left, top_cards, *rank_cards, *near_cards, pile_parity[2];
    uint64_t *ranks_cards; /* at most 16 ranks: the cards of any set of ranks, by its two bytes (2 x 256) */
    uint64_t nodes, stamp;
    RankMarks *marks;
    Move *moves;
    size_t moves_used, moves_size;
    Cache *table;
    /* learning (learn_*, off unless _search.learning(True)): failures whose refutation stayed within an arc
     * of ranks, kept by the piles whose tops lie in that arc (one table per radius and rest flag) */
    int learn, learn_classes, learn_ret_a, learn_ret_b; /* learn_ret_*: the failed child's arc, -1: the whole cycle */
    int learn_radius[16];
    Cache learned[16][2];
    int *learn_bucket, *learn_start, *learn_size, *learn_pos; /* per rank the piles whose top has it */
    uint64_t *learn_key;
} Search;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
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

/* Checked every CLOCK_EVERY nodes: the wall-clock deadline, the CPU budget (this thread's own CPU
 * time, which a loaded machine does not eat into as it does the wall clock), then Ctrl-C. */
static int clock_stop(Search *s)
{
    if (s->deadline > 0 && now() > s->deadline) return LIMIT;
    if (s->cpu_deadline > 0 && cpu_now() > s->cpu_deadline) return CPU_LIMIT;
    return interrupted(s) ? INTERRUPTED : 0;
}

static inline uint64_t mix(uint64_t x)
{
    x ^= x >> 30; x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 27; x *= 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

/* The bits set in a word, without a library call where the compiler may not use the instruction. */
static inline int bit_count(uint64_t x)
{
#ifdef __POPCNT__
    return __builtin_popcountll(x);
#else
    x -= (x >> 1) & 0x5555555555555555ULL;
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
#endif
}

/* A key's hash for the tables. A one-word key (Black Hole's, All in a Row's) takes one multiplication, its
 * high half folded onto the low bits that index a table. */
static inline uint64_t hash_key(const uint64_t *key, int words)
{
    if (words == 1) {
        uint64_t h = key[0] * 0x9E3779B97F4A7C15ULL;
        return h ^ (h >> 32);
    }
    uint64_t h = key[0];
    for (int i = 1; i < words; i++) h = mix(h) ^ key[i];
    return mix(h);
}

static inline int same_key(const uint64_t *a, const uint64_t *b, int words)
{
    for (int i = 0; i < words; i++)
        if (a[i] != b[i]) return 0;
    return 1;
}

/* ---- the failure cache ---- */

#define HUGE_PAGE (2u << 20)

/* A zeroed table; a large one on huge pages where the system grants them, since probes land on
 * random pages and would otherwise miss the TLB on most of them. */
static uint64_t *table_alloc(uint64_t entries, int words)
{
    size_t bytes = (size_t)entries * (size_t)words * sizeof(uint64_t);
#ifdef MADV_HUGEPAGE
    if (bytes >= HUGE_PAGE) {
        void *memory = NULL;
        if (posix_memalign(&memory, HUGE_PAGE, bytes)) return NULL;
        madvise(memory, bytes, MADV_HUGEPAGE);
        memset(memory, 0, bytes);
        return memory;
    }
#endif
    return calloc(bytes / sizeof(uint64_t), sizeof(uint64_t));
}

static int cache_reset(Cache *c, int words, int max_bits)
{
    size_t want = (size_t)1 << TABLE_START_BITS;
    if (c->slots && c->words == words && c->bits == TABLE_START_BITS) {
        if (c->used) memset(c->slots, 0, want * (size_t)words * sizeof(uint64_t));
    } else {
        free(c->slots);
        c->slots = table_alloc(want, words);
        if (!c->slots) return -1;
    }
    c->words = words;
    c->bits = TABLE_START_BITS;
    c->mask = want - 1;
    c->max_bits = max_bits < TABLE_MIN_BITS ? TABLE_MIN_BITS : max_bits > TABLE_MAX_BITS ? TABLE_MAX_BITS : max_bits;
    c->used = 0;
    c->full = 0;
    return 0;
}

static inline int cache_has(const Cache *c, const uint64_t *key, uint64_t hash, const int words)
{
    for (uint64_t i = hash & c->mask;; i = (i + 1) & c->mask) {
        const uint64_t *slot = c->slots + i * (uint64_t)words;
        if (slot[0] == 0) return 0;
        if (same_key(slot, key, words)) return 1;
    }
}

static inline void prefetch_slot(const Cache *c, uint64_t hash, const int words)
{
    __builtin_prefetch(c->slots + (hash & c->mask) * (uint64_t)words);
}

static void cache_put_raw(uint64_t *slots, uint64_t mask, const uint64_t *key, uint64_t hash, int words)
{
    uint64_t i = hash & mask;
    while (slots[i * (uint64_t)words] != 0) i = (i + 1) & mask;
    for (int w = 0; w < words; w++) slots[i * (uint64_t)words + (uint64_t)w] = key[w];
}

/* Record a failed state. Once the table may not grow any more, a new state takes the place of
 * the one in its home slot (an empty home slot stays empty, so every probe still ends): the
 * cache forgets, but it never claims a state it does not hold. */
static void cache_add(Cache *c, const uint64_t *key, uint64_t hash, const int words)
{
    if (!c->full && 2 * (c->used + 1) > c->mask + 1) {
        uint64_t mask = (c->mask << 1) | 1;
        uint64_t *slots = c->bits < c->max_bits ? table_alloc(mask + 1, words) : NULL;
        if (slots) {
            for (uint64_t i = 0; i <= c->mask; i++) {
                const uint64_t *old = c->slots + i * (uint64_t)words;
                if (old[0]) cache_put_raw(slots, mask, old, hash_key(old, words), words);
            }
            free(c->slots);
            c->slots = slots;
            c->mask = mask;
            c->bits++;
        } else {
            c->full = 1;
        }
    }
    if (c->full) {
        uint64_t *home = c->slots + (hash & c->mask) * (uint64_t)words;
        if (home[0] != 0) memcpy(home, key, sizeof(uint64_t) * (size_t)words);
        return;
    }
    cache_put_raw(c->slots, c->mask, key, hash, words);
    c->used++;
}

/* ---- rules ---- */

static inline int follows(const Search *s, int top, int rank)
{
    return top < 0 || rank == s->up[top] || rank == s->down[top];
}

/* The foundations' tops as a key field: sorted, each top rank + 1 (0: empty). */
static inline uint64_t tops_field(const Search *s, const int *tops)
{
    if (s->foundations == 1) return (uint64_t)(tops[0] + 1) << 1;
    int sorted[MAX_FOUNDATIONS];
    for (int f = 0; f < s->foundations; f++) {
        int k = f;
        while (k > 0 && sorted[k - 1] > tops[f]) { sorted[k] = sorted[k - 1]; k--; }
        sorted[k] = tops[f];
    }
    uint64_t field = 0;
    for (int f = 0; f < s->foundations; f++) field |= (uint64_t)(sorted[f] + 1) << (1 + f * s->top_bits);
    return field;
}

static inline uint64_t rotate_right(uint64_t x, int by, int width, uint64_t all)
{
    return by == 0 ? x : ((x >> by) | (x << (width - by))) & all;
}

/* The ranks a foundation with top `top` can still reach: the unbroken runs of ranks with cards left
 * on either side of it on the cycle, and its own rank when it can step away and back. */
static inline uint64_t reachable_mask(const Search *s, int top, uint64_t present)
{
    int r = s->ranks;
    if (top < 0) return s->all_ranks;
    if (r == 1) return 0;
    uint64_t q = rotate_right(present, top, r, s->all_ranks); /* bit 0: the top's rank */
    int forward = __builtin_ctzll(~(q >> 1));
    if (forward > r - 1) forward = r - 1;
    int backward = r - 1 - (63 - __builtin_clzll((~q & s->all_ranks) | 1));
    if (backward > r - 1 - forward) backward = r - 1 - forward;
    uint64_t around = ((1ULL << forward) - 1) << 1;
    if (backward) around |= ((1ULL << backward) - 1) << (r - backward);
    if ((q & 1) && forward + backward) around |= 1;
    return rotate_right(around, (r - top) % r, r, s->all_ranks);
}

/* The same for any number of ranks: marks the reachable ranks with `stamp`, returns how many
 * cards they hold and sets *ranks_covered. */
static int reachable_walk(Search *s, uint64_t stamp, int *ranks_covered)
{
    int r = s->ranks, covered = 0, cards = 0;
    for (int f = 0; f < s->foundations; f++) {
        int top = s->tops[f];
        if (top < 0) {
            for (int k = 0; k < r; k++)
                if (s->counts[k] && s->marks[k].general != stamp) {
                    s->marks[k].general = stamp; covered++; cards += s->counts[k];
                }
            continue;
        }
        if (r == 1) continue;
        int forward = 0, backward = 0, k = s->up[top];
        while (forward < r - 1 && s->counts[k]) {
            if (s->marks[k].general != stamp) { s->marks[k].general = stamp; covered++; cards += s->counts[k]; }
            forward++; k = s->up[k];
        }
        k = s->down[top];
        while (backward < r - 1 - forward && s->counts[k]) {
            if (s->marks[k].general != stamp) { s->marks[k].general = stamp; covered++; cards += s->counts[k]; }
            backward++; k = s->down[k];
        }
        if (s->counts[top] && forward + backward && s->marks[top].general != stamp) {
            s->marks[top].general = stamp; covered++; cards += s->counts[top];
        }
    }
    *ranks_covered = covered;
    return cards;
}

/* With the move just made (`left` cards still in the piles): whether every rank with cards left is
 * still reachable (a win stays possible), or in max-cards mode how many cards could still be played
 * at most. */
static int reach_test(Search *s, int left, int *cards)
{
    if (s->small_ranks) {
        uint64_t covered = 0;
        for (int f = 0; f < s->foundations; f++) covered |= reachable_mask(s, s->tops[f], s->present);
        uint64_t stranded = s->present & ~covered;
        if (cards) {
            for (uint64_t bits = stranded; bits; bits &= bits - 1) left -= s->counts[__builtin_ctzll(bits)];
            *cards = left;
        }
        return stranded == 0;
    }
    int covered, ranks_left = 0, total = reachable_walk(s, ++s->stamp, &covered);
    for (int k = 0; k < s->ranks; k++) ranks_left += s->counts[k] != 0;
    if (cards) *cards = total;
    return covered == ranks_left;
}

/* The cards of `rank` and the foundation tops of that rank: each can come just before one card. */
static inline int predecessors(const Search *s, int rank)
{
    int count = s->counts[rank];
    for (int f = 0; f < s->foundations; f++) count += s->tops[f] == rank;
    return count;
}

/* Several foundations: whether the cards left can still all be played, counted by rank. In a win
 * every card left comes right after a card of a neighbouring rank or onto a foundation top of a
 * neighbouring rank (or an empty foundation), and no card or top comes before two cards, so for
 * every set of ranks S the cards of S are at most the cards and tops of the ranks next to S (plus
 * the empty foundations). Tested on the sets r, r+2, ..., r+2k whose neighbours r-1, ..., r+2k+1
 * are all distinct ranks: three 3s left with no 2 or 4 and one foundation on 4 cannot all go. */
static int balanced(const Search *s)
{
    if (s->ranks < 3) return 1; /* no set with distinct neighbours */
    int empty = 0;
    for (int f = 0; f < s->foundations; f++) empty += s->tops[f] < 0;
    for (int start = 0; start < s->ranks; start++) {
        if (!s->counts[start]) continue; /* a set from an empty rank is weaker than from the next */
        int cards = 0, before = empty + predecessors(s, s->down[start]);
        for (int k = 0, rank = start; 2 * k + 3 <= s->ranks; k++, rank = s->up[s->up[rank]]) {
            cards += s->counts[rank];
            before += predecessors(s, s->up[rank]);
            if (cards > before) return 0;
        }
    }
    return 1;
}

/* One foundation: the balance test as a bound. In any play from here each card of a set S of ranks
 * comes right after a card of a rank next to it or after the foundation's top, and no card comes
 * right before two, so for S = r, r+2, ..., r+2k (its neighbours r-1, ..., r+2k+1 distinct ranks)
 * the cards of S played are at most the cards left of the neighbours' ranks plus one if the top has
 * one of them (or the foundation is empty). Cards of `within` (the ranks still reachable) beyond that
 * can never be played: the largest such excess over the sets tried. */
static int unplayable_excess(const Search *s, uint64_t within, int enough)
{
    int r = s->ranks, top = s->tops[0], empty = top < 0, best = 0;
    int cards[64], before[64]; /* per rank: its cards that count in S, its cards and top that may precede */
    for (int k = 0; k < r; k++) {
        before[k] = s->counts[k];
        cards[k] = within >> k & 1 ? s->counts[k] : 0;
    }
    if (!empty) before[top]++;
    for (int start = 0; start < r; start++) {
        int low = start ? start - 1 : r - 1;
        /* a set from `start` is no worse than the same set less `start` unless start's cards outnumber
         * those before it: only such starts can give the largest excess */
        if (cards[start] <= before[low]) continue;
        int excess = -before[low] - empty;
        for (int k = 0, rank = start; k < BALANCE_SETS && 2 * k + 3 <= r; k++) {
            int high = rank + 1 < r ? rank + 1 : 0;
            excess += cards[rank] - before[high];
            if (excess > best && (best = excess) >= enough) return best;
            rank = high + 1 < r ? high + 1 : 0;
        }
    }
    return best;
}

/* One foundation, ranks in a mask: whether the move just made strands a rank (decision mode) or
 * leaves too few reachable cards to beat the longest play (max-cards mode); else the ranks still
 * reachable and their cards, for balance_cut. */
static inline int one_foundation_reach(Search *s, int depth, uint64_t *within, int *cards)
{
    *within = s->present;
    *cards = s->n - depth - 1;
    if (s->present != s->all_ranks) { /* every rank left: all reachable */
        uint64_t stranded = s->present & ~reachable_mask(s, s->tops[0], s->present);
        if (stranded && !s->max_cards) return 1;
        for (uint64_t bits = stranded; bits; bits &= bits - 1) *cards -= s->counts[__builtin_ctzll(bits)];
        *within &= ~stranded;
    }
    return s->max_cards && depth + 1 + *cards <= s->best_length;
}

/* The balance bound after one_foundation_reach: whether it cuts the move. Run after the cache,
 * which answers most children more cheaply. The bound depends only on the cards left per rank and the
 * top (`within` follows from them), which many states share that differ in the piles the cards came
 * from: a direct-mapped memo of the largest excess saves most of its work. */
static inline int balance_cut(Search *s, int depth, uint64_t within, int cards)
{
    int spare = s->max_cards ? depth + 1 + cards - s->best_length : 1; /* what the bound may take and not cut */
    if (!s->memo) return unplayable_excess(s, within, spare) >= spare;
    uint64_t key = s->packed | (uint64_t)(s->tops[0] + 1) << s->memo_top_shift | 1ULL << 63;
    MemoEntry *entry = s->memo->entries + (mix(key) & ((1ULL << MEMO_BITS) - 1));
    if (entry->key != key) {
        entry->key = key;
        entry->value = unplayable_excess(s, within, INT_MAX);
    }
    return entry->value >= spare;
}

/* One foundation, piles and ranks in masks: how many cards can still be played at all after move m,
 * counted up to `need`. A card can be played only after every card above it in its pile, and right
 * after a card of a neighbouring rank (or onto the top) that is not beneath it; the cards that pass
 * are the least fixpoint of that rule, grown from the ranks next to the top with a worklist of ranks
 * (each card looked at once). Every card of a play from here is among them, so their count bounds
 * the play: a card under a card that can never go, or whose neighbours' cards all lie under such
 * cards, is not counted. */
static inline int live_cards(const Search *s, const Move *m, int need)
{
    int r = s->ranks, top = s->tops[0], count = 0, pos[64];
    uint64_t all = s->all_ranks, waiting[64], touched = 0; /* waiting: per rank, the piles stopped at it (slots) */
    for (int k = 0; k < r; k++) waiting[k] = s->topped[k];
    uint64_t moved = 1ULL << s->slot[m->pile];
    waiting[s->rank[m->card]] &= ~moved;
    if (m->height > 1) waiting[s->rank[m->card + 1]] |= moved;
    uint64_t frontier = top < 0 ? all : (1ULL << s->up[top]) | (1ULL << s->down[top]), pending = frontier;
    while (pending) {
        int q = __builtin_ctzll(pending);
        pending &= pending - 1;
        uint64_t piles = waiting[q];
        waiting[q] = 0;
        for (; piles; piles &= piles - 1) {
            int slot = __builtin_ctzll(piles), p = s->order[slot];
            int i = touched >> slot & 1 ? pos[slot] : s->pile_start[p] + s->taken[p] + (p == m->pile);
            int end = s->pile_start[p] + s->pile_size[p];
            touched |= 1ULL << slot;
            for (;;) {
                uint64_t bit = 1ULL << s->rank[i];
                if (++count >= need) return count;
                uint64_t grow = ((bit << 1) | (bit >> (r - 1)) | (bit >> 1) | (bit << (r - 1))) & all & ~frontier;
                frontier |= grow;
                pending |= grow;
                if (++i == end) break;
                if (!(frontier >> s->rank[i] & 1)) { waiting[s->rank[i]] |= 1ULL << slot; break; }
            }
            pos[slot] = i;
        }
    }
    return count;
}

/* live_cards for at most 64 cards, the same count with the cards as bits of a word (pile by pile, top
 * first) and no worklist: given the ranks that may be played (the frontier), a pile's live cards are
 * the run of cards of those ranks from its top, and an addition finds every pile's run at once (a
 * carry runs through the run and stops at its first other card; the piles of even and of odd number
 * are added apart, so that a run stops at its pile's end). The live cards' neighbouring ranks join
 * the frontier, until it grows no more: the least fixpoint of live_cards, so the same count (up to
 * `need`). */
static inline int live_cards_by_bits(const Search *s, const Move *m, int need)
{
    int top = s->tops[0], r = s->ranks;
    uint64_t card = 1ULL << m->card, left = s->cards_left & ~card, live = 0, all = s->all_ranks;
    uint64_t tops = (s->top_cards & ~card) | (m->height > 1 ? card << 1 : 0);
    uint64_t frontier = top < 0 ? s->all_ranks : (1ULL << s->up[top]) | (1ULL << s->down[top]);
    const uint64_t even = s->pile_parity[0], odd = s->pile_parity[1];
    for (;;) {
        uint64_t playable = 0;
        if (s->ranks_cards) {
            playable = s->ranks_cards[frontier & 255] | s->ranks_cards[256 + (frontier >> 8 & 255)];
        } else {
            for (uint64_t ranks = frontier; ranks; ranks &= ranks - 1) playable |= s->rank_cards[__builtin_ctzll(ranks)];
        }
        uint64_t candidates = playable & left, starts = tops & candidates;
        uint64_t e = candidates & even, o = candidates & odd;
        uint64_t runs = (e & ~(e + (starts & even))) | (o & ~(o + (starts & odd)));
        if (runs == live || runs == left) { /* no new card, or every card: the fixpoint */
            live = runs;
            break;
        }
        live = runs;
        /* the ranks with cards left, not yet in the frontier, next to a live card: live cards have ranks
         * of the frontier, so only the ranks next to the frontier can be */
        uint64_t grown = 0, beside = ((frontier << 1) | (frontier >> (r - 1)) | (frontier >> 1) | (frontier << (r - 1))) & all;
        for (uint64_t ranks = s->present & beside & ~frontier; ranks; ranks &= ranks - 1) {
            int q = __builtin_ctzll(ranks);
            if (live & s->near_cards[q]) grown |= 1ULL << q;
        }
        if (!grown) break;
        frontier |= grown;
    }
    int count = bit_count(live);
    return count < need ? count : need;
}

/* live_cards on any board (rule wide: more than 64 piles or ranks, or a pile of more than 64 cards):
 * the same least fixpoint and the same count up to `need`, with the ranks that may be played marked
 * by a stamp and the piles waiting on a rank in a list, each card looked at once. `enough`: the old
 * top's rank when the parent's floor less one reaches `need` (else -1): a card of it found live
 * makes the child's live cards the parent's less m's, as a card of it in sight does in live_cut, so
 * the count stops there. */
static int live_cards_any(Search *s, const Move *m, int need, int enough)
{
    int top = s->tops[0], count = 0, pending = 0;
    uint64_t stamp = ++s->live_stamp;
#define LIVE_GROW(q) do { int q_ = (q); if (s->live_seen[q_] != stamp) { \
        s->live_seen[q_] = stamp; s->live_stack[pending++] = q_; } } while (0)
    if (top < 0) {
        for (int k = 0; k < s->ranks; k++) LIVE_GROW(k);
    } else {
        LIVE_GROW(s->up[top]);
        LIVE_GROW(s->down[top]);
    }
    for (int p = 0; p < s->piles; p++) { /* every pile waits on the rank of its top card */
        int i = s->pile_start[p] + s->taken[p] + (p == m->pile);
        if (i == s->pile_start[p] + s->pile_size[p]) continue;
        int q = s->rank[i];
        s->live_pos[p] = i;
        s->live_next[p] = s->live_head_stamp[q] == stamp ? s->live_head[q] : -1;
        s->live_head[q] = p;
        s->live_head_stamp[q] = stamp;
    }
    while (pending) {
        int q = s->live_stack[--pending];
        if (s->live_head_stamp[q] != stamp) continue;
        int p = s->live_head[q];
        s->live_head_stamp[q] = 0; /* the list is taken */
        while (p >= 0) {
            int next = s->live_next[p], i = s->live_pos[p], end = s->pile_start[p] + s->pile_size[p];
            for (;;) {
                int rank = s->rank[i];
                if (++count >= need || rank == enough) return need;
                LIVE_GROW(s->up[rank]);
                LIVE_GROW(s->down[rank]);
                if (++i == end) break;
                int below = s->rank[i];
                if (s->live_seen[below] != stamp) { /* wait on it */
                    s->live_pos[p] = i;
                    s->live_next[p] = s->live_head_stamp[below] == stamp ? s->live_head[below] : -1;
                    s->live_head[below] = p;
                    s->live_head_stamp[below] = stamp;
                    break;
                }
            }
            p = next;
        }
    }
#undef LIVE_GROW
    return count;
}

/* unplayable_excess on any number of ranks (rule wide, past 64): `within` is the ranks reachable_walk
 * marked with the stamp now current, or every rank (`every`: each has cards left). The same sets, the
 * same largest excess. */
static int unplayable_excess_any(const Search *s, int every, int enough)
{
    int r = s->ranks, top = s->tops[0], empty = top < 0, best = 0;
    uint64_t stamp = s->stamp;
    for (int start = 0; start < r; start++) {
        int low = s->down[start];
        int cards = every || s->marks[start].general == stamp ? s->counts[start] : 0;
        int before_low = s->counts[low] + (low == top);
        if (cards <= before_low) continue; /* as in unplayable_excess */
        int excess = -before_low - empty;
        for (int k = 0, rank = start; k < BALANCE_SETS && 2 * k + 3 <= r; k++) {
            int high = s->up[rank];
            int here = every || s->marks[rank].general == stamp ? s->counts[rank] : 0;
            excess += here - s->counts[high] - (high == top);
            if (excess > best && (best = excess) >= enough) return best;
            rank = s->up[high];
        }
    }
    return best;
}

/* The live-card bound on move m (one foundation, masks): whether it cuts the move, and the child's
 * floor of live cards for its own children. Most children need no count: when a card of the old top's
 * rank t is in sight after the move (m put a card of rank t+1 or t-1 on t), the child can play that
 * card first and so every card the parent could, but m's: the parent's live cards less one, which
 * live_floor[depth] bounds from below. Only the others are counted. */
static inline int live_cut(Search *s, const Move *m, int depth, int top)
{
    int need = s->max_cards ? s->best_length - depth : s->n - depth - 1; /* live cards that avoid the cut */
    if (need <= 0) {
        s->live_floor[depth + 1] = 0;
        return 0;
    }
    if (top >= 0 && s->live_floor[depth] - 1 >= need
        && ((s->by_masks ? s->topped[top] != 0 : s->top_count[top] > 0)
            || (m->height > 1 && s->rank[m->card + 1] == top))) {
        s->live_floor[depth + 1] = s->live_floor[depth] - 1;
        return 0;
    }
    int live = s->card_bits ? live_cards_by_bits(s, m, need) : s->by_masks ? live_cards(s, m, need)
             : live_cards_any(s, m, need, top >= 0 && s->live_floor[depth] - 1 >= need ? top : -1);
    s->live_floor[depth + 1] = live;
    return live < need;
}

/* Put the moves of the ranks with the most cards left first, keeping the order within a rank (a
 * stable insertion sort: the lists are short). Playing from an abundant rank keeps the scarce ones
 * as bridges: a rank played out cuts the cycle of ranks, and two cuts strand every card beyond them.
 * On Black Hole 1..3000 it took 40% fewer nodes than the tallest pile alone, on Binary Star 1..400
 * 92% fewer, and it wins random deals of hundreds of cards that the tallest pile never does
 * (docs/native.md, "Abundant ranks first"). */
static void abundant_first(const Search *s, Move *out, int count)
{
    for (int k = 1; k < count; k++) {
        Move m = out[k];
        int left = s->counts[s->rank[m.card]], j = k;
        while (j > 0 && s->counts[s->rank[out[j - 1].card]] < left) { out[j] = out[j - 1]; j--; }
        out[j] = m;
    }
}

/* Playable (card, foundation) pairs, the most cards left of their rank first, then the tallest pile,
 * one foundation of each top rank, less the cards that a kept same-rank move makes redundant. */
static int moves_now(Search *s, Move *out)
{
    int count = 0;
    for (int i = 0; i < s->piles; i++) {
        int p = s->order[i], taken = s->taken[p];
        if (taken == s->pile_size[p]) continue;
        int card = s->pile_start[p] + taken, rank = s->rank[card], height = s->pile_size[p] - taken;
        int rise = height + s->bonus[p]; /* the height the move order sees */
        for (int f = 0; f < s->foundations; f++) {
            if (!follows(s, s->tops[f], rank)) continue;
            int twin = 0;
            for (int g = 0; g < f; g++) twin |= s->tops[g] == s->tops[f];
            if (twin) continue;
            Move m = { card, p, f, height, 0 };
            int k = count++;
            while (k > 0 && out[k - 1].height + s->bonus[out[k - 1].pile] < rise) {
                out[k] = out[k - 1];
                k--;
            }
            out[k] = m;
        }
    }
    abundant_first(s, out, count);
    if (!s->symmetry && !s->wolter) return count;
    uint64_t stamp = ++s->stamp;
    for (int k = 0; k < count; k++) {
        RankMarks *mark = &s->marks[s->rank[out[k].card]];
        if (!s->unit[out[k].card]) mark->general = stamp;
        if (out[k].height > 1) mark->tall = stamp;
    }
    int kept = 0, last_card = -1, last_kept = 0;
    for (int k = 0; k < count; k++) {
        int card = out[k].card;
        if (card == last_card) { /* the same card onto another foundation */
            if (last_kept) out[kept++] = out[k];
            continue;
        }
        last_card = card;
        last_kept = 0;
        RankMarks *mark = &s->marks[s->rank[card]];
        int unit = s->symmetry && s->unit[card], single = s->wolter && out[k].height == 1;
        if ((unit && (mark->general == stamp || mark->unit == stamp))
            || (single && (mark->tall == stamp || mark->single == stamp)))
            continue; /* marked only once kept: a one-card pile dropped for a taller unit pile of its rank
                         must not then stand in for that pile (the bonus can order it first) */
        if (unit) mark->unit = stamp;
        if (single) mark->single = stamp;
        last_kept = 1;
        out[kept++] = out[k];
    }
    return kept;
}

/* The moves from the piles `playable` (bits by slot), tallest first as the round counts them, ties in
 * slot order, appended to out[count...]; marks the ranks with a general card and with a tall pile. */
static inline int moves_by_height(const Search *s, uint64_t playable, Move *out, int count, uint64_t *general,
                                  uint64_t *tall)
{
    int first = count;
    for (; playable; playable &= playable - 1) { /* by slot, each put after the moves it is not taller than */
        int slot = __builtin_ctzll(playable), p = s->order[slot], card = s->pile_start[p] + s->taken[p];
        int height = s->pile_size[p] - s->taken[p], seen = height + (int)(s->bonus_bits >> slot & 1);
        uint64_t bit = 1ULL << s->rank[card];
        if (!s->unit[card]) *general |= bit;
        if (height > 1) *tall |= bit;
        int k = count++;
        while (k > first && out[k - 1].height + (int)(s->bonus_bits >> s->slot[out[k - 1].pile] & 1) < seen) {
            out[k] = out[k - 1];
            k--;
        }
        Move m = { card, p, 0, height, 0 };
        out[k] = m;
    }
    return count;
}

/* The same for one foundation, from the masks of piles by top rank. With a top only
 * the two ranks next to it can be played, so abundant_first's order is the abundant rank's moves
 * and then the other's (in one pass when the two have as many cards left), with no sort. */
static int moves_by_masks(Search *s, Move *out)
{
    int top = s->tops[0], count = 0;
    uint64_t general = 0, tall = 0;
    if (top < 0) {
        uint64_t playable = 0;
        for (int r = 0; r < s->ranks; r++) playable |= s->topped[r];
        count = moves_by_height(s, playable, out, 0, &general, &tall);
        abundant_first(s, out, count);
    } else if (s->up[top] >= 0) {
        int up = s->up[top], down = s->down[top];
        if (s->counts[up] == s->counts[down]) {
            count = moves_by_height(s, s->topped[up] | s->topped[down], out, 0, &general, &tall);
        } else {
            int first = s->counts[up] > s->counts[down] ? up : down, second = first == up ? down : up;
            count = moves_by_height(s, s->topped[first], out, 0, &general, &tall);
            count = moves_by_height(s, s->topped[second], out, count, &general, &tall);
        }
    }
    if (!s->symmetry && !s->wolter) return count;
    uint64_t unit_seen = 0, single_seen = 0;
    int kept = 0;
    for (int k = 0; k < count; k++) {
        int card = out[k].card;
        uint64_t bit = 1ULL << s->rank[card];
        int unit = s->symmetry && s->unit[card], single = s->wolter && out[k].height == 1;
        if ((unit && ((general | unit_seen) & bit)) || (single && ((tall | single_seen) & bit))) continue;
        if (unit) unit_seen |= bit; /* only once kept, as in moves_now */
        if (single) single_seen |= bit;
        out[kept++] = out[k];
    }
    return kept;
}

/* The masks of moves_by_masks after a card leaves pile p (taken: cards gone before it), or before it comes back. */
static inline void uncover(Search *s, int p, int card, int height)
{
    uint64_t bit = 1ULL << s->slot[p];
    s->topped[s->rank[card]] &= ~bit;
    if (height > 1) s->topped[s->rank[card + 1]] |= bit;
    if (s->card_bits) {
        uint64_t gone = 1ULL << (card & 63);
        s->cards_left &= ~gone;
        s->top_cards = (s->top_cards & ~gone) | (height > 1 ? gone << 1 : 0);
    }
}

static inline void cover(Search *s, int p, int card, int height)
{
    uint64_t bit = 1ULL << s->slot[p];
    if (height > 1) s->topped[s->rank[card + 1]] &= ~bit;
    s->topped[s->rank[card]] |= bit;
    if (s->card_bits) {
        uint64_t back = 1ULL << (card & 63);
        s->cards_left |= back;
        s->top_cards = (s->top_cards & ~(height > 1 ? back << 1 : 0)) | back;
    }
}

/* Noise, in the rounds after the first: at one node in NOISE_ONE_IN (chosen by a hash of the node's
 * number, which no two nodes of a search share, so that a search is repeatable) a move drawn at
 * random goes first, the others keep their order. The restarts' shuffles only break ties of the move
 * order, so every round tries the same first plays; noise lets a round leave the order anywhere.
 * Binary Star deal 732673, open after 2.5 billion nodes without it, is won in 1.3M nodes with it. */
static inline void shake(const Search *s, Move *moves, int count)
{
    if (count < 2) return;
    uint64_t x = mix(s->nodes * RANDOM_STEP);
    if (x % (uint64_t)NOISE_ONE_IN) return;
    int k = (int)((x >> 32) % (uint64_t)count);
    Move first = moves[k];
    memmove(moves + 1, moves, sizeof(Move) * (size_t)k);
    moves[0] = first;
}

/* The child's key: one more card taken from the pile, the new foundation tops. */
static inline void child_key(const Search *s, const Move *m, int rank, uint64_t *out, const int words)
{
    for (int i = 0; i < words; i++) out[i] = s->key[i];
    out[s->pile_word[m->pile]] += s->pile_step[m->pile];
    int tops[MAX_FOUNDATIONS];
    for (int f = 0; f < s->foundations; f++) tops[f] = s->tops[f];
    tops[m->foundation] = rank;
    out[0] = (out[0] & ~s->tops_mask) | tops_field(s, tops);
}

static inline void take(Search *s, int rank)
{
    s->packed -= 1ULL << (rank * s->count_bits & 63);
    if (--s->counts[rank] == 0) {
        s->present &= ~(1ULL << (rank & 63));
        s->ranks_out++;
    }
}

static inline void give_back(Search *s, int rank)
{
    s->packed += 1ULL << (rank * s->count_bits & 63);
    if (s->counts[rank]++ == 0) {
        if (s->small_ranks) s->present |= 1ULL << rank;
        s->ranks_out--;
    }
}

/* ---- learning: failures that hold beyond their position (issue 55 item 1) ----
 * With one foundation, a state s fails and its refutation (every play tried, none cut by a bound,
 * by the exact failure cache or by the end rank) kept the foundation within the arc A of ranks
 * within d of its top f. A pile whose top lies outside W, A widened by one rank each way, is next to
 * no rank of A, so no play of that refutation took a card from it, nor could have. So every state
 * s' with the same top, the same piles with tops in W at the same heights, no other pile with a top
 * in W, and cards left outside those piles just when s has them, fails too: its plays are s's plays
 * (the piles outside W stay as they are and are never playable there), each child of s' is then
 * such a state for s's child's reason (by induction on the refutation; a child cut by a learned
 * reason counts that reason's arc), and no play of s' ends with no cards left where s's does not.
 * The learned key is s's top and, for each pile whose top lies in W, its cards taken plus one (0 for
 * every other pile), in one table a radius d and a rest flag (cards left outside those piles). A
 * failure whose arc is wider than the widest radius, or that rested on any other cut, goes to the
 * exact cache as before. Off unless _search.learning(True): measured in docs/hardness.md. */
static int learning_on = 0;
static unsigned long long learn_added = 0, learn_hits = 0, learn_whole = 0;
static const int LEARN_RADII[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32};
#define LEARN_BYTES (64ULL << 20) /* all the learned tables of a search together, at most */
static int table_bits(unsigned long long bytes, int words);

static int learn_setup(Search *s)
{
    int radii = (int)(sizeof(LEARN_RADII) / sizeof(LEARN_RADII[0]));
    s->learn = learning_on && s->foundations == 1 && s->ranks >= 7 && s->cache && !s->max_cards;
    if (!s->learn) return 0;
    s->learn_classes = 0;
    for (int i = 0; i < radii && 2 * LEARN_RADII[i] + 3 < s->ranks; i++) s->learn_radius[s->learn_classes++] = LEARN_RADII[i];
    size_t rank_count = (size_t)s->ranks, pile_count = (size_t)s->piles;
    s->learn_start = calloc(rank_count + 1, sizeof(int));
    s->learn_size = calloc(rank_count, sizeof(int));
    s->learn_pos = calloc(pile_count, sizeof(int));
    s->learn_key = calloc((size_t)s->words, sizeof(uint64_t));
    if (!s->learn_start || !s->learn_size || !s->learn_pos || !s->learn_key) return -1;
    for (int r = 0; r < s->ranks; r++) /* at most min(cards of the rank, piles) tops of a rank at once */
        s->learn_start[r + 1] = s->learn_start[r] + (s->counts[r] < s->piles ? s->counts[r] : s->piles);
    s->learn_bucket = calloc((size_t)s->learn_start[s->ranks] + 1, sizeof(int));
    if (!s->learn_bucket) return -1;
    for (int p = 0; p < s->piles; p++) {
        int r = s->rank[s->pile_start[p]];
        s->learn_bucket[s->learn_start[r] + s->learn_size[r]] = p;
        s->learn_pos[p] = s->learn_size[r]++;
    }
    int bits = table_bits(LEARN_BYTES / (2ULL * (unsigned long long)s->learn_classes), s->words);
    for (int c = 0; c < s->learn_classes; c++)
        for (int rest = 0; rest < 2; rest++)
            if (cache_reset(&s->learned[c][rest], s->words, bits)) return -1;
    return 0;
}

static void learn_free(Search *s)
{
    free(s->learn_start); free(s->learn_size); free(s->learn_pos); free(s->learn_key); free(s->learn_bucket);
    for (int c = 0; c < 16; c++)
        for (int rest = 0; rest < 2; rest++) free(s->learned[c][rest].slots);
}

static inline void learn_bucket_drop(Search *s, int p, int r)
{
    int i = s->learn_pos[p], last = s->learn_bucket[s->learn_start[r] + --s->learn_size[r]];
    s->learn_bucket[s->learn_start[r] + i] = last;
    s->learn_pos[last] = i;
}

static inline void learn_bucket_add(Search *s, int p, int r)
{
    s->learn_bucket[s->learn_start[r] + s->learn_size[r]] = p;
    s->learn_pos[p] = s->learn_size[r]++;
}

/* pile p's top card `card` (of `height` cards left) played, or put back */
static inline void learn_play(Search *s, int p, int card, int height)
{
    learn_bucket_drop(s, p, s->rank[card]);
    if (height > 1) learn_bucket_add(s, p, s->rank[card + 1]);
}

static inline void learn_unplay(Search *s, int p, int card, int height)
{
    if (height > 1) learn_bucket_drop(s, p, s->rank[card + 1]);
    learn_bucket_add(s, p, s->rank[card]);
}

static inline int learn_near(const Search *s, int r, int top, int within)
{
    int distance = r - top;
    if (distance < 0) distance += s->ranks;
    return distance <= within || distance >= s->ranks - within;
}

/* The learned key of a state with top `top`, radius d, into s->learn_key; its hash; *rest: cards
 * left outside the piles of the arc. The state is the search's, or its child by a play from pile
 * `moved` (-1: none) whose card `card` left `height` cards there, `left` the state's cards left. */
static uint64_t learn_key_of(Search *s, int top, int d, int moved, int card, int height, int left, int *rest)
{
    uint64_t *key = s->learn_key;
    memset(key, 0, sizeof(uint64_t) * (size_t)s->words);
    key[0] = 1 | (uint64_t)(top + 1) << 1;
    int within = d + 1, inside = 0;
    for (int k = -within; k <= within; k++) {
        int r = ((top + k) % s->ranks + s->ranks) % s->ranks;
        for (int i = 0; i < s->learn_size[r]; i++) {
            int p = s->learn_bucket[s->learn_start[r] + i];
            if (p == moved) continue;
            key[s->pile_word[p]] += (uint64_t)(s->taken[p] + 1) * s->pile_step[p];
            inside += s->pile_size[p] - s->taken[p];
        }
    }
    if (moved >= 0 && height > 1 && learn_near(s, s->rank[card + 1], top, within)) {
        key[s->pile_word[moved]] += (uint64_t)(s->taken[moved] + 2) * s->pile_step[moved];
        inside += height - 1;
    }
    *rest = inside < left;
    return hash_key(key, s->words);
}

/* Before a play of m from a state at `depth`: the radius of a learned failure its child matches, or -1. */
static int learn_probe(Search *s, const Move *m, int depth)
{
    int top = s->rank[m->card], left = s->n - depth - 1;
    for (int c = 0; c < s->learn_classes; c++) {
        if (!s->learned[c][0].used && !s->learned[c][1].used) continue;
        int rest;
        uint64_t hash = learn_key_of(s, top, s->learn_radius[c], m->pile, m->card, m->height, left, &rest);
        if (s->learned[c][rest].used && cache_has(&s->learned[c][rest], s->learn_key, hash, s->words)) {
            learn_hits++;
            return s->learn_radius[c];
        }
    }
    return -1;
}

/* A child's arc (-1: the whole cycle), ca down and cb up from its top `child`, into the state's (*a, *b) from
 * its top `top`; -1 in *a once wider than the widest radius. */
static inline void learn_merge(const Search *s, int *a, int *b, int top, int child, int ca, int cb)
{
    if (*a < 0) return;
    if (ca < 0) { *a = -1; return; }
    int up = child == s->up[top];
    int na = up ? ca - 1 : ca + 1, nb = up ? cb + 1 : cb - 1;
    if (na > *a) *a = na;
    if (nb > *b) *b = nb;
    int widest = s->learn_classes ? s->learn_radius[s->learn_classes - 1] : 0;
    if (*a > widest || *b > widest) *a = -1;
}

/* A failed state at `depth` whose refutation kept to the arc (a, b): recorded by the smallest radius
 * that holds it. */
static void learn_add(Search *s, int depth, int a, int b)
{
    int most = a > b ? a : b, c = 0;
    while (s->learn_radius[c] < most) c++;
    int rest;
    uint64_t hash = learn_key_of(s, s->tops[0], s->learn_radius[c], -1, 0, 0, s->n - depth, &rest);
    cache_add(&s->learned[c][rest], s->learn_key, hash, s->words);
    learn_added++;
}

/* One node. `WORDS` is the key width when known at compile time (1), else 0 (read from the search);
 * `BALANCE` is whether the balance test runs (a constant, so Black Hole's search does not test it);
 * `ONE`: the search is one of a single foundation in one-word keys with the moves, the live cards and
 * the balance bound by masks and no learning (one_mask_search: Black Hole and All in a Row), whose
 * keys and tests take no loop over foundations and no test of the other cases. */
static inline __attribute__((always_inline)) int dfs_body(Search *s, int depth, const int WORDS,
                                                          const int BALANCE, const int ONE, uint64_t hash,
                                                          int (*recurse)(Search *, int, uint64_t))
{
    const int words = WORDS ? WORDS : s->words;
    if (depth == s->n && (s->end < 0 || follows(s, s->end, s->rank[s->path[depth - 1]]))) return SOLVED;
    if (s->enough && depth >= s->enough) return ENOUGH;
    size_t base = s->moves_used, room = (size_t)s->piles * (size_t)s->foundations;
    if (base + room > s->moves_size) {
        size_t size = 2 * (base + room);
        Move *grown = realloc(s->moves, size * sizeof(Move));
        if (!grown) return NO_MEMORY;
        s->moves = grown;
        s->moves_size = size;
    }
    /* with an end rank, a state without cards next to it left has failed (as has a full play ending elsewhere) */
    int end_cut = s->end >= 0 && !s->counts[s->up[s->end]] && !s->counts[s->down[s->end]];
    int count = end_cut ? 0 : ONE || s->by_masks ? moves_by_masks(s, s->moves + base) : moves_now(s, s->moves + base);
    /* learning: the arc of ranks this state's refutation keeps to (learn_a down, learn_b up), -1: any */
    int learn_a = end_cut || s->tops[0] < 0 ? -1 : 0, learn_b = 0;
    if (s->noise && s->round > 0) shake(s, s->moves + base, count);
    s->moves_used = base + (size_t)count;
    uint64_t one_word[1], *child = WORDS ? one_word : s->scratch; /* used before any recursion */
    if (s->cache)
        for (int k = 0; k < count; k++) {
            Move *m = &s->moves[base + k];
            if (ONE) child[0] = ((s->key[0] + s->pile_step[m->pile]) & ~s->tops_mask) | (uint64_t)(s->rank[m->card] + 1) << 1;
            else child_key(s, m, s->rank[m->card], child, words);
            m->hash = hash_key(child, words);
            prefetch_slot(s->table, m->hash, words);
            if (s->memo) {
                int rank = s->rank[m->card];
                uint64_t key = (s->packed - (1ULL << (rank * s->count_bits & 63))) | (uint64_t)(rank + 1) << s->memo_top_shift | 1ULL << 63;
                __builtin_prefetch(s->memo->entries + (mix(key) & ((1ULL << MEMO_BITS) - 1)));
            }
        }
    int result = FAILED;
    for (int k = 0; k < count; k++) {
        Move m = s->moves[base + k];
        int rank = s->rank[m.card], top = s->tops[m.foundation];
        s->tops[m.foundation] = rank;
        take(s, rank);
        int pruned = 0, reach_cards = 0;
        uint64_t within = 0;
        if (!ONE && s->learn) {
            int radius = learn_probe(s, &m, depth);
            if (radius >= 0) {
                learn_merge(s, &learn_a, &learn_b, top, rank, radius, radius);
                s->tops[m.foundation] = top;
                give_back(s, rank);
                continue;
            }
        }
        if (ONE || s->one_balance) {
            pruned = one_foundation_reach(s, depth, &within, &reach_cards);
        } else if (s->reach) {
            /* every rank left: all reachable, no walk */
            int every = s->ranks > 1 && (s->small_ranks ? s->present == s->all_ranks : s->ranks_out == 0);
            reach_cards = s->n - depth - 1;
            if (!every && s->max_cards) {
                reach_test(s, s->n - depth - 1, &reach_cards);
                pruned = depth + 1 + reach_cards <= s->best_length;
            } else if (!every) {
                pruned = !reach_test(s, s->n - depth - 1, NULL);
            }
            if (!pruned && s->wide_balance) { /* past 64 ranks: reach_test has marked the reachable ranks */
                int spare = s->max_cards ? depth + 1 + reach_cards - s->best_length : 1;
                pruned = unplayable_excess_any(s, every, spare) >= spare;
            }
        }
        if (BALANCE && !pruned) pruned = !balanced(s);
        if (!pruned && s->cache) { /* before the live-card bound, which costs more; the child's floor (live_cut)
                                    * is wanted only when it is searched */
            if (ONE) {
                child[0] = ((s->key[0] + s->pile_step[m.pile]) & ~s->tops_mask) | (uint64_t)(rank + 1) << 1;
            } else {
                s->tops[m.foundation] = top;
                child_key(s, &m, rank, child, words);
                s->tops[m.foundation] = rank;
            }
            pruned = cache_has(s->table, child, m.hash, words);
        }
        if (!pruned && (ONE || s->live_bound)) pruned = live_cut(s, &m, depth, top);
        if (!pruned && s->balance_bound) pruned = balance_cut(s, depth, within, reach_cards);
        if (!pruned) {
            int stop = s->node_limit && s->nodes >= s->node_limit ? LIMIT : s->budget && s->nodes >= s->budget ? RESTART : 0;
            if (!stop && s->nodes % CLOCK_EVERY == 0)
                stop = clock_stop(s);
            if (stop) result = stop;
        }
        if (pruned || result != FAILED) {
            if (pruned) learn_a = -1; /* cut for a reason of the whole state */
            s->tops[m.foundation] = top;
            give_back(s, rank);
            if (result != FAILED) break;
            continue;
        }
        s->nodes++;
        uint64_t *word = &s->key[s->pile_word[m.pile]];
        uint64_t old_tops = s->key[0] & s->tops_mask;
        *word += s->pile_step[m.pile];
        s->key[0] = (s->key[0] & ~s->tops_mask) | (ONE ? (uint64_t)(rank + 1) << 1 : tops_field(s, s->tops));
        s->taken[m.pile]++;
        if (ONE || s->by_masks) uncover(s, m.pile, m.card, m.height);
        if (!ONE && s->learn) learn_play(s, m.pile, m.card, m.height);
        if (!ONE && s->live_any) {
            s->top_count[rank]--;
            if (m.height > 1) s->top_count[s->rank[m.card + 1]]++;
        }
        s->path[depth] = m.card;
        s->path_foundation[depth] = m.foundation;
        if (depth + 1 > s->best_length) {
            s->best_length = depth + 1;
            memcpy(s->best, s->path, sizeof(int) * (size_t)(depth + 1));
            memcpy(s->best_foundation, s->path_foundation, sizeof(int) * (size_t)(depth + 1));
        }
        result = recurse(s, depth + 1, m.hash);
        if (!ONE && s->learn) {
            learn_unplay(s, m.pile, m.card, m.height);
            if (result == FAILED) learn_merge(s, &learn_a, &learn_b, top, rank, s->learn_ret_a, s->learn_ret_b);
        }
        if (ONE || s->by_masks) cover(s, m.pile, m.card, m.height);
        if (!ONE && s->live_any) {
            if (m.height > 1) s->top_count[s->rank[m.card + 1]]--;
            s->top_count[rank]++;
        }
        s->taken[m.pile]--;
        *word -= s->pile_step[m.pile];
        s->key[0] = (s->key[0] & ~s->tops_mask) | old_tops;
        s->tops[m.foundation] = top;
        give_back(s, rank);
        if (result != FAILED) break;
    }
    s->moves_used = base;
    if (!ONE && result == FAILED && s->learn) {
        s->learn_ret_a = learn_a;
        s->learn_ret_b = learn_b;
        if (learn_a >= 0) {
            learn_add(s, depth, learn_a, learn_b);
            return result;
        }
        learn_whole++;
    }
    if (result == FAILED && s->cache) cache_add(s->table, s->key, hash, words);
    return result;
}

/* `hash`: the state's key's hash, which its parent computed for the cache's probe */
static int dfs_one_mask(Search *s, int depth, uint64_t hash) { return dfs_body(s, depth, 1, 0, 1, hash, dfs_one_mask); }
static int dfs_one_word(Search *s, int depth, uint64_t hash) { return dfs_body(s, depth, 1, 0, 0, hash, dfs_one_word); }
static int dfs_any_width(Search *s, int depth, uint64_t hash) { return dfs_body(s, depth, 0, 0, 0, hash, dfs_any_width); }
static int dfs_balanced(Search *s, int depth, uint64_t hash) { return dfs_body(s, depth, 0, 1, 0, hash, dfs_balanced); }

/* Whether dfs_one_mask may search s (dfs_body's ONE). */
static int one_mask_search(const Search *s)
{
    return s->words == 1 && s->foundations == 1 && s->by_masks && s->card_bits && s->one_balance && s->live_bound
           && !s->learn && !s->live_any && !s->balance;
}

/* ---- setting a search up ---- */

#define MEMO_POOL 4
static MemoBuffer *memo_pool[MEMO_POOL];
static int memo_pooled;

/* A memo for a search of `ranks` ranks and fields of `count_bits` bits, cleared unless its last search had
 * that layout; NULL when out of memory. The GIL is held (search_new). */
static MemoBuffer *memo_take(int ranks, int count_bits)
{
    MemoBuffer *memo = memo_pooled ? memo_pool[--memo_pooled] : NULL;
    size_t bytes = sizeof(MemoEntry) << MEMO_BITS;
    if (!memo) {
        memo = calloc(1, sizeof(MemoBuffer));
        if (!memo) return NULL;
        memo->entries = calloc(1, bytes);
        if (!memo->entries) { free(memo); return NULL; }
    } else if (memo->ranks != ranks || memo->count_bits != count_bits) {
        memset(memo->entries, 0, bytes);
    }
    memo->ranks = ranks;
    memo->count_bits = count_bits;
    return memo;
}

/* Back to the pool (or freed when it is full); the GIL is held (search_free). */
static void memo_give(MemoBuffer *memo)
{
    if (!memo) return;
    if (memo_pooled < MEMO_POOL) {
        memo_pool[memo_pooled++] = memo;
        return;
    }
    free(memo->entries);
    free(memo);
}

static void search_free(Search *s)
{
    if (!s) return;
    free(s->rank); free(s->pile_start); free(s->pile_size); free(s->unit); free(s->up); free(s->down);
    free(s->pile_word); free(s->pile_step); free(s->taken); free(s->counts); free(s->key); free(s->scratch);
    free(s->path); free(s->path_foundation); free(s->best); free(s->best_foundation); free(s->live_floor);
    free(s->marks); free(s->moves); free(s->topped); free(s->order); free(s->bonus); free(s->slot);
    learn_free(s);
    memo_give(s->memo); free(s->rank_cards); free(s->near_cards); free(s->ranks_cards);
    free(s->top_count); free(s->live_head); free(s->live_next); free(s->live_pos); free(s->live_stack);
    free(s->live_seen); free(s->live_head_stamp);
    free(s);
}

static int read_ints(PyObject *sequence, int **out, Py_ssize_t *length, const char *what)
{
    PyObject *fast = PySequence_Fast(sequence, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    *out = malloc(sizeof(int) * (size_t)(n ? n : 1));
    if (!*out) { Py_DECREF(fast); PyErr_NoMemory(); return -1; }
    for (Py_ssize_t i = 0; i < n; i++) {
        long value = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (value == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        if (value < INT_MIN || value > INT_MAX) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "%s: number out of range", what);
            return -1;
        }
        (*out)[i] = (int)value;
    }
    *length = n;
    Py_DECREF(fast);
    return 0;
}

static int bit_length(unsigned value)
{
    int bits = 0;
    while (value) { bits++; value >>= 1; }
    return bits;
}

typedef struct { int cache, symmetry, wolter, reach, max_cards, restarts, noise, wide; } Rules;

/* A search of one deal: card ranks pile by pile (top first), pile sizes, the rank count and the
 * foundations' top ranks (-1: empty). Sets a Python exception and returns NULL on bad input. */
static Search *search_new(PyObject *ranks_of, PyObject *sizes_of, int ranks, PyObject *tops_of, Rules rules)
{
    Search *s = calloc(1, sizeof(Search));
    if (!s) { PyErr_NoMemory(); return NULL; }
    Py_ssize_t n, piles, foundations;
    int *tops = NULL;
    if (read_ints(ranks_of, &s->rank, &n, "ranks") || read_ints(sizes_of, &s->pile_size, &piles, "pile sizes")
        || read_ints(tops_of, &tops, &foundations, "foundations"))
        goto fail;
    if (n < 1 || n > MAX_CARDS || ranks < 1 || ranks > MAX_RANKS || foundations < 1 || foundations > MAX_FOUNDATIONS) {
        PyErr_Format(PyExc_ValueError, "the compiled search takes 1 to %d cards, 1 to %d ranks and 1 to %d "
                     "foundations", MAX_CARDS, MAX_RANKS, MAX_FOUNDATIONS);
        goto fail;
    }
    s->n = (int)n;
    s->ranks = ranks;
    s->piles = (int)piles;
    s->foundations = (int)foundations;
    Py_ssize_t total = 0;
    for (int p = 0; p < s->piles; p++) {
        if (s->pile_size[p] < 1) { PyErr_SetString(PyExc_ValueError, "a pile may not be empty"); goto fail; }
        total += s->pile_size[p];
    }
    if (total != n) { PyErr_SetString(PyExc_ValueError, "pile sizes do not add up to the cards"); goto fail; }
    for (int i = 0; i < s->n; i++)
        if (s->rank[i] < 0 || s->rank[i] >= ranks) { PyErr_SetString(PyExc_ValueError, "card with a bad rank"); goto fail; }
    for (int f = 0; f < s->foundations; f++) {
        if (tops[f] < -1 || tops[f] >= ranks) { PyErr_SetString(PyExc_ValueError, "foundation with a bad rank"); goto fail; }
        s->tops[f] = tops[f];
    }
    free(tops);
    tops = NULL;
    size_t cards = (size_t)s->n, pile_count = (size_t)(s->piles ? s->piles : 1), rank_count = (size_t)ranks;
    s->pile_start = calloc(pile_count, sizeof(int));
    s->unit = calloc(cards, 1);
    s->up = malloc(rank_count * sizeof(int));
    s->down = malloc(rank_count * sizeof(int));
    s->pile_word = calloc(pile_count, sizeof(int));
    s->pile_step = calloc(pile_count, sizeof(uint64_t));
    s->taken = calloc(pile_count, sizeof(int));
    s->counts = calloc(rank_count, sizeof(int));
    s->path = malloc(cards * sizeof(int));
    s->path_foundation = malloc(cards * sizeof(int));
    s->best = malloc(cards * sizeof(int));
    s->best_foundation = malloc(cards * sizeof(int));
    s->live_floor = calloc(cards + 1, sizeof(int)); /* 0 at the start: nothing known */
    s->marks = calloc(rank_count, sizeof(RankMarks));
    s->moves_size = 64;
    s->moves = malloc(s->moves_size * sizeof(Move));
    if (!s->pile_start || !s->unit || !s->up || !s->down || !s->pile_word || !s->pile_step || !s->taken
        || !s->counts || !s->path || !s->path_foundation || !s->best || !s->best_foundation || !s->live_floor || !s->marks || !s->moves) {
        PyErr_NoMemory();
        goto fail;
    }
    for (int p = 1; p < s->piles; p++) s->pile_start[p] = s->pile_start[p - 1] + s->pile_size[p - 1];
    for (int p = 0; p < s->piles; p++) /* unit: only its own rank beneath it */
        for (int i = s->pile_start[p] + s->pile_size[p] - 1; i >= s->pile_start[p]; i--)
            s->unit[i] = i + 1 == s->pile_start[p] + s->pile_size[p] || (s->unit[i + 1] && s->rank[i + 1] == s->rank[i]);
    for (int k = 0; k < ranks; k++) {
        s->up[k] = ranks > 1 ? (k + 1) % ranks : -1;
        s->down[k] = ranks > 1 ? (k + ranks - 1) % ranks : -1;
    }
    s->small_ranks = ranks <= 64;
    s->all_ranks = ranks == 64 ? ~0ULL : (1ULL << (ranks & 63)) - 1;
    for (int i = 0; i < s->n; i++) s->counts[s->rank[i]]++;
    for (int k = 0; k < ranks && s->small_ranks; k++)
        if (s->counts[k]) s->present |= 1ULL << k;
    for (int k = 0; k < ranks; k++) s->ranks_out += !s->counts[k];
    /* the key's layout: no field straddles two words */
    s->top_bits = bit_length((unsigned)ranks);
    int used = 1 + s->foundations * s->top_bits, word = 0;
    s->tops_mask = ((s->foundations * s->top_bits == 64 ? 0 : 1ULL << (s->foundations * s->top_bits)) - 1) << 1;
    for (int p = 0; p < s->piles; p++) {
        int width = bit_length((unsigned)s->pile_size[p]);
        if (used + width > 64) { word++; used = 0; }
        s->pile_word[p] = word;
        s->pile_step[p] = 1ULL << used;
        used += width;
    }
    s->words = word + 1;
    for (int p = 0; p < s->piles; p++) s->tallest = s->pile_size[p] > s->tallest ? s->pile_size[p] : s->tallest;
    s->by_masks = s->foundations == 1 && s->piles <= 64 && s->small_ranks && s->tallest <= 64;
    s->card_bits = s->by_masks && s->n <= 64;
    if (s->card_bits) { /* the cards as bits: live_cards_by_bits */
        s->rank_cards = calloc(rank_count, sizeof(uint64_t));
        s->near_cards = calloc(rank_count, sizeof(uint64_t));
        if (!s->rank_cards || !s->near_cards) { PyErr_NoMemory(); goto fail; }
        for (int p = 0; p < s->piles; p++) {
            s->top_cards |= 1ULL << s->pile_start[p];
            for (int i = s->pile_start[p]; i < s->pile_start[p] + s->pile_size[p]; i++) {
                s->pile_parity[p & 1] |= 1ULL << i;
                s->rank_cards[s->rank[i]] |= 1ULL << i;
            }
        }
        for (int k = 0; k < ranks && ranks > 1; k++) s->near_cards[k] = s->rank_cards[s->up[k]] | s->rank_cards[s->down[k]];
        if (ranks <= 16) {
            s->ranks_cards = calloc(512, sizeof(uint64_t));
            if (!s->ranks_cards) { PyErr_NoMemory(); goto fail; }
            for (int half = 0; half < 2; half++)
                for (int set = 1; set < 256; set++) {
                    int k = 8 * half + __builtin_ctz((unsigned)set);
                    s->ranks_cards[256 * half + set] = s->ranks_cards[256 * half + (set & (set - 1))]
                                                     | (k < ranks ? s->rank_cards[k] : 0);
                }
        }
        s->cards_left = s->n == 64 ? ~0ULL : (1ULL << s->n) - 1;
    }
    s->order = calloc(pile_count, sizeof(int));
    s->bonus = calloc(pile_count, sizeof(int));
    if (!s->order || !s->bonus) { PyErr_NoMemory(); goto fail; }
    if (s->by_masks) { /* filled in by next_round */
        s->topped = calloc(rank_count, sizeof(uint64_t));
        s->slot = calloc(pile_count, sizeof(int));
        if (!s->topped || !s->slot) { PyErr_NoMemory(); goto fail; }
    }
    s->key = calloc((size_t)s->words, sizeof(uint64_t));
    s->scratch = calloc((size_t)s->words, sizeof(uint64_t));
    if (!s->key || !s->scratch) { PyErr_NoMemory(); goto fail; }
    s->key[0] = 1 | tops_field(s, s->tops);
    s->cache = rules.cache;
    s->symmetry = rules.symmetry;
    s->wolter = rules.wolter;
    s->reach = rules.reach;
    s->balance = rules.reach && !rules.max_cards && s->foundations > 1;
    s->one_balance = rules.reach && s->foundations == 1 && s->small_ranks && ranks >= 3;
    s->live_any = rules.reach && rules.wide && s->foundations == 1 && ranks >= 3 && !s->by_masks;
    /* in decision mode on boards of more than 64 cards the live-card bound, where it runs, decides the same
     * deals as it and the balance bound together, in 10-20% less CPU (docs/native.md) */
    s->live_bound = (s->one_balance && s->by_masks) || s->live_any;
    int keep_balance = rules.max_cards || s->n <= 64 || !s->live_bound;
    s->balance_bound = s->one_balance && keep_balance;
    s->wide_balance = rules.reach && rules.wide && s->foundations == 1 && !s->small_ranks && keep_balance;
    if (s->live_any) {
        s->top_count = calloc(rank_count, sizeof(int));
        s->live_head = calloc(rank_count, sizeof(int));
        s->live_stack = calloc(rank_count, sizeof(int));
        s->live_seen = calloc(rank_count, sizeof(uint64_t));
        s->live_head_stamp = calloc(rank_count, sizeof(uint64_t));
        s->live_next = calloc(pile_count, sizeof(int));
        s->live_pos = calloc(pile_count, sizeof(int));
        if (!s->top_count || !s->live_head || !s->live_stack || !s->live_seen || !s->live_head_stamp
            || !s->live_next || !s->live_pos) { PyErr_NoMemory(); goto fail; }
        for (int p = 0; p < s->piles; p++) s->top_count[s->rank[s->pile_start[p]]]++;
    }
    if (s->balance_bound) { /* balance_cut's memo */
        int most = 0;
        for (int k = 0; k < ranks; k++) most = s->counts[k] > most ? s->counts[k] : most;
        s->count_bits = bit_length((unsigned)most);
        s->memo_top_shift = ranks * s->count_bits;
        if (s->memo_top_shift + s->top_bits < 64) {
            s->memo = memo_take(ranks, s->count_bits);
            if (!s->memo) { PyErr_NoMemory(); goto fail; }
            for (int k = 0; k < ranks; k++) s->packed += (uint64_t)s->counts[k] << (k * s->count_bits);
        }
    }
    s->max_cards = rules.max_cards;
    s->restarts = rules.restarts;
    s->noise = rules.noise && rules.restarts;
    s->nodes = 1;
    s->end = -1;
    if (learn_setup(s)) { PyErr_NoMemory(); goto fail; }
    return s;
fail:
    free(tops);
    search_free(s);
    return NULL;
}

/* The Luby sequence 1 1 2 1 1 2 4 1 1 2 ...: term i >= 1. */
static uint64_t luby(uint64_t i)
{
    for (;;) {
        int k = 1;
        while ((1ULL << k) - 1 < i) k++;
        if ((1ULL << k) - 1 == i) return 1ULL << (k - 1);
        i -= (1ULL << (k - 1)) - 1;
    }
}

/* The restarts' unit of nodes: with one foundation ONE_LUBY_UNIT, or ONE_LUBY_PER_CARD a card when
 * that is more (from 63 cards on: Black Hole and All in a Row keep 250), since a round of 250 nodes
 * cannot play an 831-card deal through; with several, LUBY_UNIT. */
static uint64_t luby_unit(int foundations, int cards)
{
    if (foundations != 1) return LUBY_UNIT;
    uint64_t per_card = (uint64_t)ONE_LUBY_PER_CARD * (uint64_t)cards;
    return per_card > ONE_LUBY_UNIT ? per_card : ONE_LUBY_UNIT;
}

/* A round's move order and its budget of nodes, at the start of the search (nothing played). The
 * first round takes the tallest pile first, ties in pile order; every later one shuffles the tie
 * order and counts some piles (one in ONE_BONUS_ONE_IN, or BONUS_ONE_IN with several foundations)
 * one card taller than they are, both from a fixed pseudo-random stream so that a search is
 * repeatable. Budgets follow Luby's sequence (in luby_unit's nodes): most rounds
 * short, a few ever longer, since wins are many but one early choice can bury them; the failed
 * states stay known from round to round. On PySolFC Black Hole deals 1..3000 this takes 40% fewer
 * nodes than rounds doubling from 2,000 nodes with the tie order rotated (docs/native.md). */
static uint64_t next_round(Search *s, int round, uint64_t *random)
{
    int one = s->foundations == 1;
    for (int p = 0; p < s->piles; p++) s->order[p] = p;
    for (int p = s->piles - 1; round > 0 && p > 0; p--) {
        *random += RANDOM_STEP;
        int q = (int)(mix(*random) % (uint64_t)(p + 1)), swapped = s->order[p];
        s->order[p] = s->order[q];
        s->order[q] = swapped;
    }
    for (int p = 0; round > 0 && p < s->piles; p++) {
        *random += RANDOM_STEP;
        s->bonus[p] = mix(*random) % (one ? ONE_BONUS_ONE_IN : BONUS_ONE_IN) == 0;
    }
    if (s->by_masks) { /* the masks' bits follow the order, so that ties go in it */
        memset(s->topped, 0, (size_t)s->ranks * sizeof(uint64_t));
        s->bonus_bits = 0;
        for (int i = 0; i < s->piles; i++) {
            int p = s->order[i];
            s->slot[p] = i;
            s->topped[s->rank[s->pile_start[p]]] |= 1ULL << i;
            if (s->bonus[p]) s->bonus_bits |= 1ULL << i;
        }
    }
    return luby_unit(s->foundations, s->n) * luby((uint64_t)round + 1);
}

/* One round of a search set up by run or run_both, from the start (nothing played): RESTART when
 * the round's budget of nodes runs out, else what the search found. */
static int run_round(Search *s, int round, uint64_t *random)
{
    uint64_t budget = next_round(s, round, random);
    s->round = round;
    s->budget = s->restarts ? s->nodes + budget : 0;
    uint64_t hash = hash_key(s->key, s->words);
    return s->balance ? dfs_balanced(s, 0, hash) : one_mask_search(s) ? dfs_one_mask(s, 0, hash)
           : s->words == 1 ? dfs_one_word(s, 0, hash) : dfs_any_width(s, 0, hash);
}

/* Run a search already set up, the GIL released by the caller; `seconds` of wall clock and
 * `cpu_seconds` of this thread's CPU (each 0: none), whichever ends first. */
static int run(Search *s, Cache *table, uint64_t node_limit, double seconds, double cpu_seconds)
{
    s->table = table;
    s->node_limit = node_limit;
    s->deadline = seconds > 0 ? now() + seconds : 0;
    s->cpu_deadline = cpu_seconds > 0 ? cpu_now() + cpu_seconds : 0;
    uint64_t random = 0;
    for (int round = 0;; round++) {
        int result = run_round(s, round, &random);
        if (result != RESTART) return result;
    }
}

/* Two searches of one deal, from the front (s[0]) and from the back (s[1]), each with its own
 * failure cache, taking turns round by round (a round of each in turn, each on its own Luby
 * sequence), until one decides or the limits, shared, end both: the same as the two searches run
 * side by side on half the time each, but a deal one of them decides at once is decided at once.
 * `which` says which decided; a node limit counts both searches' nodes. */
static int run_both(Search *s[2], Cache table[2], uint64_t node_limit, double seconds, double cpu_seconds,
                    int *which)
{
    double deadline = seconds > 0 ? now() + seconds : 0, cpu_deadline = cpu_seconds > 0 ? cpu_now() + cpu_seconds : 0;
    for (int d = 0; d < 2; d++) {
        s[d]->table = &table[d];
        s[d]->deadline = deadline;
        s[d]->cpu_deadline = cpu_deadline;
    }
    uint64_t random[2] = {0, 0};
    for (int round = 0;; round++) {
        for (int d = 0; d < 2; d++) {
            uint64_t other = s[1 - d]->nodes; /* the limit is shared: this turn may take what the other left */
            *which = d;
            if (node_limit && other >= node_limit) return LIMIT;
            s[d]->node_limit = node_limit ? node_limit - other : 0;
            int result = run_round(s[d], round, &random[d]);
            if (result != RESTART) return result;
        }
    }
}

static const char *status_name(int result)
{
    return result == SOLVED ? "solved" : result == LIMIT ? "limit" : result == CPU_LIMIT ? "cpu" : "unsolvable";
}

static int table_bits(unsigned long long bytes, int words)
{
    unsigned long long entries = bytes / (8ULL * (unsigned long long)words);
    int bits = 0;
    while (entries > 1) { bits++; entries >>= 1; }
    return bits;
}

/* The play a search ends with as two new lists, the cards and the foundation each went onto: the
 * win, or in max-cards mode the longest play (also when cut short); else None twice. -1 when out of
 * memory (the exception set). */
static int play_lists(Search *s, int result, PyObject **order, PyObject **onto)
{
    int length = result == SOLVED ? s->n : s->best_length;
    int *cards = result == SOLVED ? s->path : s->best;
    int *foundations = result == SOLVED ? s->path_foundation : s->best_foundation;
    if (result != SOLVED && !s->max_cards) {
        Py_INCREF(Py_None);
        Py_INCREF(Py_None);
        *order = *onto = Py_None;
        return 0;
    }
    *order = PyList_New(length);
    *onto = PyList_New(length);
    if (!*order || !*onto) { Py_XDECREF(*order); Py_XDECREF(*onto); return -1; }
    for (int i = 0; i < length; i++) {
        PyList_SET_ITEM(*order, i, PyLong_FromLong(cards[i]));
        PyList_SET_ITEM(*onto, i, PyLong_FromLong(foundations[i]));
    }
    return 0;
}

static PyObject *kept_records(const Search *s, const Cache *c, int *width);

/* search() and search_kept(): `keep` adds the failure cache of a lost deal to the answer (kept_records) */
static PyObject *searched(PyObject *args, int keep)
{
    PyObject *ranks_of, *sizes_of, *tops_of;
    int ranks;
    Rules rules;
    unsigned long long node_limit, cache_bytes;
    double seconds, cpu_seconds;
    int end = -1;
    if (!PyArg_ParseTuple(args, "OOiOppppppppKddK|i", &ranks_of, &sizes_of, &ranks, &tops_of, &rules.cache,
                          &rules.symmetry, &rules.wolter, &rules.reach, &rules.restarts, &rules.noise, &rules.wide,
                          &rules.max_cards,
                          &node_limit,
                          &seconds, &cpu_seconds, &cache_bytes, &end))
        return NULL;
    int learned = learning_on;
    if (keep) learning_on = 0; /* learned cuts are no rule a certificate's checker knows */
    Search *s = search_new(ranks_of, sizes_of, ranks, tops_of, rules);
    learning_on = learned;
    if (!s) return NULL;
    if (end != -1 && (end < 0 || end >= ranks || ranks < 2 || s->foundations != 1 || rules.max_cards)) {
        search_free(s);
        PyErr_SetString(PyExc_ValueError, "an end rank needs one foundation, 2 or more ranks and decision mode");
        return NULL;
    }
    s->end = end;
    if (keep && s->foundations != 1) {
        search_free(s);
        PyErr_SetString(PyExc_ValueError, "search_kept takes one foundation");
        return NULL;
    }
    Cache table = {0};
    if (cache_reset(&table, s->words, table_bits(cache_bytes, s->words))) {
        search_free(s);
        return PyErr_NoMemory();
    }
    s->thread = PyEval_SaveThread();
    int result = run(s, &table, node_limit, seconds, cpu_seconds);
    PyEval_RestoreThread(s->thread);
    PyObject *answer = NULL;
    if (result == NO_MEMORY) PyErr_NoMemory();
    if (result == INTERRUPTED || result == NO_MEMORY) goto done; /* the exception is set */
    PyObject *order, *onto;
    if (play_lists(s, result, &order, &onto)) goto done;
    int length = result == SOLVED ? s->n : s->best_length;
    if (!keep) {
        answer = Py_BuildValue("(sNNKiK)", status_name(result), order, onto, (unsigned long long)s->nodes, length,
                               (unsigned long long)table.used);
        goto done;
    }
    int width = 0;
    PyObject *records = result == FAILED && !table.full ? kept_records(s, &table, &width) : (Py_INCREF(Py_None), Py_None);
    if (!records) {
        Py_DECREF(order);
        Py_DECREF(onto);
        goto done;
    }
    answer = Py_BuildValue("(sNNKiKiN)", status_name(result), order, onto, (unsigned long long)s->nodes, length,
                           (unsigned long long)table.used, width, records);
done:
    free(table.slots);
    search_free(s);
    return answer;
}

static PyObject *search(PyObject *self, PyObject *args)
{
    (void)self;
    return searched(args, 0);
}

static PyObject *search_kept(PyObject *self, PyObject *args)
{
    (void)self;
    return searched(args, 1);
}

/* A deal from the front and from the back in turn (run_both): the front's board, the back's
 * (the piles turned over, an empty foundation) and its end rank; each search gets half the cache. */
static PyObject *both(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *ranks_of[2], *sizes_of[2], *tops_of[2];
    int ranks, end;
    Rules rules;
    unsigned long long node_limit, cache_bytes;
    double seconds, cpu_seconds;
    if (!PyArg_ParseTuple(args, "OOOOiOOipppppppKddK", &ranks_of[0], &sizes_of[0], &ranks_of[1], &sizes_of[1],
                          &ranks, &tops_of[0], &tops_of[1], &end, &rules.cache, &rules.symmetry, &rules.wolter,
                          &rules.reach, &rules.restarts, &rules.noise, &rules.wide, &node_limit, &seconds,
                          &cpu_seconds, &cache_bytes))
        return NULL;
    rules.max_cards = 0;
    Search *s[2] = {NULL, NULL};
    Cache table[2] = {{0}, {0}};
    PyObject *answer = NULL;
    for (int d = 0; d < 2; d++) {
        s[d] = search_new(ranks_of[d], sizes_of[d], ranks, tops_of[d], rules);
        if (!s[d]) goto done;
        if (cache_reset(&table[d], s[d]->words, table_bits(cache_bytes / 2, s[d]->words))) {
            PyErr_NoMemory();
            goto done;
        }
    }
    if (end < -1 || end >= ranks || (end >= 0 && ranks < 2) || s[1]->foundations != 1 || s[0]->n != s[1]->n) {
        PyErr_SetString(PyExc_ValueError, "the back's board needs one foundation, the front's cards and an end rank "
                                          "(-1: any)");
        goto done;
    }
    s[1]->end = end;
    int which = 0;
    s[0]->thread = PyEval_SaveThread();
    s[1]->thread = s[0]->thread;
    int result = run_both(s, table, node_limit, seconds, cpu_seconds, &which);
    PyEval_RestoreThread(s[0]->thread);
    if (result == NO_MEMORY) PyErr_NoMemory();
    if (result == INTERRUPTED || result == NO_MEMORY) goto done; /* the exception is set */
    PyObject *order, *onto;
    if (play_lists(s[which], result, &order, &onto)) goto done;
    answer = Py_BuildValue("(siNNKK)", status_name(result), which, order, onto, (unsigned long long)s[0]->nodes,
                           (unsigned long long)s[1]->nodes);
done:
    for (int d = 0; d < 2; d++) {
        free(table[d].slots);
        if (s[d]) search_free(s[d]);
    }
    return answer;
}

/* Many deals in one call: per deal (status, most cards played, nodes, CPU seconds). The cache's
 * table is kept from deal to deal. */
static PyObject *batch(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *deals;
    Rules rules;
    unsigned long long node_limit, cache_bytes;
    double seconds, cpu_seconds;
    if (!PyArg_ParseTuple(args, "OppppppppKddK", &deals, &rules.cache, &rules.symmetry, &rules.wolter, &rules.reach,
                          &rules.restarts, &rules.noise, &rules.wide, &rules.max_cards, &node_limit, &seconds, &cpu_seconds,
                          &cache_bytes))
        return NULL;
    PyObject *fast = PySequence_Fast(deals, "deals");
    if (!fast) return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(fast);
    PyObject *answers = PyList_New(count);
    Cache table = {0};
    if (!answers) goto fail;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *ranks_of, *sizes_of, *tops_of;
        int ranks;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "OOiO", &ranks_of, &sizes_of, &ranks, &tops_of))
            goto fail;
        Search *s = search_new(ranks_of, sizes_of, ranks, tops_of, rules);
        if (!s) goto fail;
        if (cache_reset(&table, s->words, table_bits(cache_bytes, s->words))) {
            search_free(s);
            PyErr_NoMemory();
            goto fail;
        }
        s->thread = PyEval_SaveThread();
        double started = cpu_now();
        int result = run(s, &table, node_limit, seconds, cpu_seconds);
        double spent = cpu_now() - started;
        PyEval_RestoreThread(s->thread);
        int length = result == SOLVED ? s->n : s->best_length;
        uint64_t nodes = s->nodes;
        search_free(s);
        if (result == NO_MEMORY) PyErr_NoMemory();
        if (result == INTERRUPTED || result == NO_MEMORY) goto fail;
        PyObject *row = Py_BuildValue("(siKd)", status_name(result), length, (unsigned long long)nodes, spent);
        if (!row) goto fail;
        PyList_SET_ITEM(answers, i, row);
        if (PyErr_CheckSignals()) goto fail;
    }
    free(table.slots);
    Py_DECREF(fast);
    return answers;
fail:
    free(table.slots);
    Py_XDECREF(answers);
    Py_DECREF(fast);
    return NULL;
}

/* ---- the survey's search of a numbered deal (patience/survey/decide.py, decide_numbered) ---- */

/* A deal of one foundation, its most cards: s[0] searches it from the front in max-cards mode, alone
 * for its first `alone` nodes, then in turn with s[1], the back in decision mode (the piles turned
 * over, an empty foundation, the front's top rank as the end rank), a round of each (each on its own
 * Luby sequence, with its own failure cache), until one decides or the limits, shared, end both (a
 * node limit counts both searches' nodes); with `share` > 0 the back takes its turn only while
 * `share` times its nodes are at most the front's (Black Hole: 3, a quarter of the nodes). The front's
 * end is the deal's: a win, or the most cards proved. A win from the back is the deal's win. A loss
 * from the back proves the deal lost, and the back stops: then the front's longest play is the most
 * cards once it leaves one card (at once, or the front goes on alone and stops, ENOUGH, the moment it
 * does), else the front goes on alone to its end. The two
 * directions spend their nodes on different deals (docs/survey.md, "Throughput"). Returns the result
 * of the search that ended it and sets *which to that search, *back_ran to whether the back ran. */
static int survey_turns(Search *s[2], Cache table[2], uint64_t node_limit, double seconds, double cpu_seconds,
                        uint64_t alone, uint64_t share, int *which, int *back_ran)
{
    double deadline = seconds > 0 ? now() + seconds : 0, cpu_deadline = cpu_seconds > 0 ? cpu_now() + cpu_seconds : 0;
    for (int d = 0; d < 2; d++) {
        s[d]->table = &table[d];
        s[d]->deadline = deadline;
        s[d]->cpu_deadline = cpu_deadline;
    }
    uint64_t random[2] = {0, 0};
    int round[2] = {0, 0}, lost = 0, most = s[0]->n - 1;
    for (;;) {
        for (int d = 0; d < 2; d++) {
            if (d == 1 && (lost || s[0]->nodes <= alone || (share && share * s[1]->nodes > s[0]->nodes))) continue;
            *back_ran |= d;
            uint64_t other = d == 0 && !*back_ran ? 0 : s[1 - d]->nodes; /* a search yet to run has searched none */
            *which = d;
            if (node_limit && other >= node_limit) return LIMIT;
            s[d]->node_limit = node_limit ? node_limit - other : 0;
            int result = run_round(s[d], round[d]++, &random[d]);
            if (d == 1 && result == FAILED) {
                lost = 1;
                s[0]->enough = most; /* the front may stop at its first play of `most` cards */
            } else if (d == 0 && result == ENOUGH) {
                *which = 0;
                return FAILED;
            } else if (result != RESTART) return result;
            if (lost && s[0]->best_length == most) {
                *which = 0;
                return FAILED;
            }
        }
    }
}

/* survey_turns on a deal: (status, which: 0 the front, 1 the back, the front's longest play (its win when
 * it won), the back's win or None, the front's nodes, the back's (0 if it never ran), the longest play's
 * length). */
/* survey() and survey_kept(): `keep` adds, of a lost deal, the failure cache of a search that proved it
 * lost to the answer (kept_records; the smaller when both did, none when it had to forget states) */
static PyObject *surveyed(PyObject *args, int keep)
{
    PyObject *ranks_of[2], *sizes_of, *tops_of[2] = {NULL, NULL};
    int ranks, top, end;
    Rules rules;
    unsigned long long node_limit, cache_bytes, alone, share = 0;
    double seconds, cpu_seconds;
    if (!PyArg_ParseTuple(args, "OOOiiipppppppKddKK|K", &ranks_of[0], &sizes_of, &ranks_of[1], &ranks, &top, &end,
                          &rules.cache, &rules.symmetry, &rules.wolter, &rules.reach, &rules.restarts, &rules.noise,
                          &rules.wide, &node_limit, &seconds, &cpu_seconds, &cache_bytes, &alone, &share))
        return NULL;
    Search *s[2] = {NULL, NULL};
    Cache table[2] = {{0}, {0}};
    PyObject *answer = NULL;
    tops_of[0] = Py_BuildValue("(i)", top);
    tops_of[1] = Py_BuildValue("(i)", -1);
    if (!tops_of[0] || !tops_of[1]) goto done;
    int learned = learning_on;
    if (keep) learning_on = 0; /* learned cuts are no rule a certificate's checker knows */
    for (int d = 0; d < 2; d++) {
        rules.max_cards = d == 0;
        s[d] = search_new(ranks_of[d], sizes_of, ranks, tops_of[d], rules);
        if (!s[d]) break;
        if (cache_reset(&table[d], s[d]->words, table_bits(cache_bytes, s[d]->words))) {
            PyErr_NoMemory();
            break;
        }
    }
    learning_on = learned;
    if (!s[0] || !s[1] || PyErr_Occurred()) goto done;
    if (end < -1 || end >= ranks || (end >= 0 && ranks < 2) || s[0]->foundations != 1 || s[0]->n != s[1]->n) {
        PyErr_SetString(PyExc_ValueError, "survey takes one foundation, the back's cards as many as the front's and "
                                          "an end rank (-1: any)");
        goto done;
    }
    s[1]->end = end;
    int which = 0, back_ran = 0;
    s[0]->thread = PyEval_SaveThread();
    s[1]->thread = s[0]->thread;
    int result = survey_turns(s, table, node_limit, seconds, cpu_seconds, alone, share, &which, &back_ran);
    PyEval_RestoreThread(s[0]->thread);
    if (result == NO_MEMORY) PyErr_NoMemory();
    if (result == INTERRUPTED || result == NO_MEMORY) goto done; /* the exception is set */
    Search *front = s[0];
    int front_won = result == SOLVED && which == 0, length = front_won ? front->n : front->best_length;
    PyObject *longest = PyList_New(length), *back_win = Py_None;
    if (!longest) goto done;
    for (int i = 0; i < length; i++) PyList_SET_ITEM(longest, i, PyLong_FromLong(front_won ? front->path[i] : front->best[i]));
    if (result == SOLVED && which == 1) {
        back_win = PyList_New(s[1]->n);
        if (!back_win) { Py_DECREF(longest); goto done; }
        for (int i = 0; i < s[1]->n; i++) PyList_SET_ITEM(back_win, i, PyLong_FromLong(s[1]->path[i]));
    } else {
        Py_INCREF(Py_None);
    }
    if (!keep) {
        answer = Py_BuildValue("(siNNKKi)", status_name(result), which, longest, back_win,
                               (unsigned long long)s[0]->nodes, (unsigned long long)(back_ran ? s[1]->nodes : 0), length);
        goto done;
    }
    int kept = -1, width = 0; /* a search proved the deal lost when its start is in its cache */
    for (int d = 0; d < 2 && result == FAILED; d++)
        if (!table[d].full && cache_has(&table[d], s[d]->key, hash_key(s[d]->key, s[d]->words), s[d]->words)
            && (kept < 0 || table[d].used < table[kept].used))
            kept = d;
    PyObject *records = kept >= 0 ? kept_records(s[kept], &table[kept], &width) : (Py_INCREF(Py_None), Py_None);
    if (!records) {
        Py_DECREF(longest);
        Py_DECREF(back_win);
        goto done;
    }
    answer = Py_BuildValue("(siNNKKiiiN)", status_name(result), which, longest, back_win,
                           (unsigned long long)s[0]->nodes, (unsigned long long)(back_ran ? s[1]->nodes : 0), length,
                           kept, width, records);
done:
    Py_XDECREF(tops_of[0]);
    Py_XDECREF(tops_of[1]);
    for (int d = 0; d < 2; d++) {
        free(table[d].slots);
        if (s[d]) search_free(s[d]);
    }
    return answer;
}

static PyObject *survey(PyObject *self, PyObject *args)
{
    (void)self;
    return surveyed(args, 0);
}

static PyObject *survey_kept(PyObject *self, PyObject *args)
{
    (void)self;
    return surveyed(args, 1);
}

/* ---- a certificate's positions (patience.certificates, docs/certificates.md) ---- */

/* Every position of one board (one foundation) that the plays reach from its start, each as the
 * certificate lists it: the foundation's rank + 1 (0: no card), then the cards taken from each pile.
 * A position is a key of `words` words, its numbers laid from the top bit of word 0 down (no number
 * across two words) and bit 0 of word 0 set (the cache's mark of a used slot), so that keys compare
 * word by word as the records compare byte by byte. With `cut`, a position reached that the live-card
 * bound proves lost (closure_cut) is not entered: the certificate's checker recomputes that bound. */
typedef struct {
    int n, piles, ranks, end, cut, words, left;
    int *rank, *start, *size;  /* each card's rank, pile by pile, top card first; each pile's first card, its size */
    int *word, *shift, *bits;  /* each number's word, shift and width in bits in the key (number 0: foundation) */
    int *taken, *depth, *moved, *next, *was;
    uint64_t *key, *open, stamp, steps;
    int begun, d, foundation;  /* the walk so far: under way, its depth, the foundation's rank + 1 */
    double deadline, cpu_deadline;
    PyThreadState *thread;
    Cache set, cuts;  /* the positions listed; those the bound cuts */
} Closure;

static inline int closure_adjacent(const Closure *c, int a, int b)
{
    int d = ((a - b) % c->ranks + c->ranks) % c->ranks;
    return c->ranks > 1 && (d == 1 || d == c->ranks - 1);
}

/* The live-card bound of the position reached: a card is live when every card above it is live and its
 * rank is next to the foundation's (any, with none) or to a live card's; a play from the position
 * plays only live cards. Lost (1) when fewer are live than cards left, or, with an end rank, none is
 * next to it (the last card of a play is live). */
static int closure_cut(Closure *c, int foundation)
{
    uint64_t stamp = ++c->stamp;
    for (int r = 0; r < c->ranks; r++)
        if (foundation == 0 || closure_adjacent(c, foundation - 1, r)) c->open[r] = stamp;
    memcpy(c->depth, c->taken, sizeof(int) * (size_t)c->piles);
    int live = 0, near = c->end < 0, grown = 1;
    while (grown) {
        grown = 0;
        for (int p = 0; p < c->piles; p++) {
            while (c->depth[p] < c->size[p] && c->open[c->rank[c->start[p] + c->depth[p]]] == stamp) {
                int r = c->rank[c->start[p] + c->depth[p]++];
                live++;
                grown = 1;
                if (!near && closure_adjacent(c, r, c->end)) near = 1;
                if (c->ranks > 1) c->open[(r + 1) % c->ranks] = c->open[(r + c->ranks - 1) % c->ranks] = stamp;
            }
            if (live >= c->left && near) return 0;
        }
    }
    return 1;
}

static inline void closure_set(Closure *c, int number, int value)
{
    uint64_t mask = ((1ULL << c->bits[number]) - 1) << c->shift[number];
    c->key[c->word[number]] = (c->key[c->word[number]] & ~mask) | ((uint64_t)value << c->shift[number]);
}

static inline int closure_get(const Closure *c, const uint64_t *key, int number)
{
    return (int)((key[c->word[number]] >> c->shift[number]) & ((1ULL << c->bits[number]) - 1));
}

/* The walk, depth first from the start: FAILED when every position reached is listed and none is
 * won, SOLVED at a won one, RESTART when more than `budget` positions are listed (the walk stays
 * where it is, to go on at the next call), LIMIT at the wall clock, CPU_LIMIT, NO_MEMORY, INTERRUPTED.
 * Positions cut by the bound are kept apart (`cuts`), so that the bound is worked out once a position. */
static int closure_walk(Closure *c, uint64_t budget)
{
    int d = c->d, foundation = c->foundation;
    if (!c->begun) {
        c->begun = 1;
        closure_set(c, 0, foundation);
        cache_add(&c->set, c->key, hash_key(c->key, c->words), c->words);
        if (c->left == 0 && (c->end < 0 || (foundation > 0 && closure_adjacent(c, foundation - 1, c->end))))
            return SOLVED;
        c->next[0] = 0;
    }
    while (d >= 0) {
        int p = c->next[d];
        while (p < c->piles && !(c->taken[p] < c->size[p] && (foundation == 0 ||
                                 closure_adjacent(c, foundation - 1, c->rank[c->start[p] + c->taken[p]])))) p++;
        if (p == c->piles) { /* every move tried: back to the position before */
            if (--d < 0) break;
            p = c->moved[d];
            c->taken[p]--;
            c->left++;
            foundation = c->was[d];
            closure_set(c, 1 + p, c->taken[p]);
            closure_set(c, 0, foundation);
            continue;
        }
        c->next[d] = p + 1;
        c->was[d] = foundation;
        c->moved[d] = p;
        foundation = c->rank[c->start[p] + c->taken[p]] + 1;
        c->taken[p]++;
        c->left--;
        closure_set(c, 1 + p, c->taken[p]);
        closure_set(c, 0, foundation);
        if ((++c->steps & (CLOCK_EVERY - 1)) == 0) {
            if (c->deadline > 0 && now() > c->deadline) return LIMIT;
            if (c->cpu_deadline > 0 && cpu_now() > c->cpu_deadline) return CPU_LIMIT;
            PyEval_RestoreThread(c->thread);
            int stop = PyErr_CheckSignals();
            c->thread = PyEval_SaveThread();
            if (stop) return INTERRUPTED;
        }
        uint64_t hash = hash_key(c->key, c->words);
        int enter = !cache_has(&c->set, c->key, hash, c->words) && !(c->cut && cache_has(&c->cuts, c->key, hash,
                                                                                         c->words));
        if (enter && c->left == 0 && (c->end < 0 || closure_adjacent(c, foundation - 1, c->end))) return SOLVED;
        if (enter && c->cut && closure_cut(c, foundation)) { /* lost by the bound: not listed */
            cache_add(&c->cuts, c->key, hash, c->words);
            if (c->cuts.full) return NO_MEMORY;
            enter = 0;
        }
        if (enter) {
            cache_add(&c->set, c->key, hash, c->words);
            if (c->set.full) return NO_MEMORY;
            d++;
            c->next[d] = 0;
            if (c->set.used > budget) {
                c->d = d;
                c->foundation = foundation;
                return RESTART;
            }
        } else {
            c->taken[p]--;
            c->left++;
            foundation = c->was[d];
            closure_set(c, 1 + p, c->taken[p]);
            closure_set(c, 0, foundation);
        }
    }
    c->d = -1;
    return FAILED;
}

static int closure_compare_one(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int closure_words;  /* the keys' words, for closure_compare (qsort takes no context) */

static int closure_compare(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    for (int w = 0; w < closure_words; w++)
        if (x[w] != y[w]) return x[w] < y[w] ? -1 : 1;
    return 0;
}

/* The listed positions as the certificate's body: each number big-endian in `width` bytes (the
 * fewest that hold the largest), the records sorted. NULL when out of memory (the exception set). */
static PyObject *closure_records(Closure *c, int *width)
{
    uint64_t count = c->set.used, at = 0;
    int words = c->words, numbers = 1 + c->piles, largest = 0;
    uint64_t *keys = malloc(sizeof(uint64_t) * (size_t)(count ? count : 1) * (size_t)words);
    if (!keys) return PyErr_NoMemory();
    for (uint64_t i = 0; i <= c->set.mask; i++) {
        const uint64_t *slot = c->set.slots + i * (uint64_t)words;
        if (!slot[0]) continue;
        memcpy(keys + at * (uint64_t)words, slot, sizeof(uint64_t) * (size_t)words);
        at++;
        for (int k = 0; k < numbers; k++) {
            int value = closure_get(c, slot, k);
            if (value > largest) largest = value;
        }
    }
    closure_words = words;
    qsort(keys, (size_t)count, sizeof(uint64_t) * (size_t)words, words == 1 ? closure_compare_one : closure_compare);
    *width = 1;
    while (*width < 8 && (largest >> (8 * *width)) > 0) (*width)++;
    PyObject *body = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(count * (uint64_t)numbers * (uint64_t)*width));
    if (body) {
        unsigned char *out = (unsigned char *)PyBytes_AS_STRING(body);
        for (uint64_t i = 0; i < count; i++)
            for (int k = 0; k < numbers; k++) {
                int value = closure_get(c, keys + i * (uint64_t)words, k);
                for (int b = *width - 1; b >= 0; b--) *out++ = (unsigned char)(value >> (8 * b));
            }
    }
    free(keys);
    return body;
}

static void closure_free(Closure *c)
{
    free(c->rank); free(c->start); free(c->size); free(c->word); free(c->shift); free(c->bits); free(c->taken);
    free(c->depth); free(c->moved); free(c->next); free(c->was); free(c->open); free(c->key);
    free(c->set.slots); free(c->cuts.slots);
}

/* The search's own certificate (search_kept): the failure cache of a lost deal, one foundation, each
 * state a position as the certificate lists it (the foundation's rank + 1, the cards taken from each
 * pile), the records sorted. Every state in the cache failed, and failed with each move the search kept
 * leading to a cached state or one its bounds cut (the live-card bound, rank reachability, which the
 * live-card bound implies, and the balance bound, which the checker works out too); a move it left out
 * plays a unit card (only its rank beneath it) of a rank another move kept plays, which the checker
 * accepts (docs/certificates.md). A cache that forgot states (full) gives no certificate. */
static void radix_sort(uint64_t *keys, uint64_t *spare, uint64_t count, int bits)
{
    for (int shift = 0; shift < bits; shift += 8) {
        uint64_t at[257] = {0};
        for (uint64_t i = 0; i < count; i++) at[((keys[i] >> shift) & 255) + 1]++;
        for (int b = 0; b < 256; b++) at[b + 1] += at[b];
        for (uint64_t i = 0; i < count; i++) spare[at[(keys[i] >> shift) & 255]++] = keys[i];
        uint64_t *swap = keys; keys = spare; spare = swap;
    }
    if ((bits + 7) / 8 % 2) memcpy(spare, keys, sizeof(uint64_t) * (size_t)count); /* the result in the first */
}

static size_t record_size;  /* for compare_records (qsort takes no context) */

static int compare_records(const void *a, const void *b)
{
    return memcmp(a, b, record_size);
}

static PyObject *kept_records(const Search *s, const Cache *c, int *width)
{
    int numbers = 1 + s->piles, words = c->words, bits = s->top_bits, largest = 0;
    int *shift = malloc(sizeof(int) * (size_t)numbers), *size = malloc(sizeof(int) * (size_t)numbers);
    uint64_t count = c->used, at = 0, room = count ? count : 1;
    if (!shift || !size) { free(shift); free(size); return PyErr_NoMemory(); }
    shift[0] = 1;
    size[0] = s->top_bits;
    for (int p = 0; p < s->piles; p++) {
        shift[1 + p] = __builtin_ctzll(s->pile_step[p]);
        size[1 + p] = bit_length((unsigned)s->pile_size[p]);
        bits += size[1 + p];
    }
    /* a record that fits a word as a number, its fields from the top bit down (sorted as numbers sort the
     * records), else its numbers (sorted as bytes) */
    uint64_t *keys = bits <= 64 ? malloc(sizeof(uint64_t) * 2 * (size_t)room) : NULL;
    int *values = bits > 64 ? malloc(sizeof(int) * (size_t)numbers * (size_t)room) : NULL;
    if (!keys && !values) { free(shift); free(size); return PyErr_NoMemory(); }
    for (uint64_t i = 0; i <= c->mask; i++) {
        const uint64_t *slot = c->slots + i * (uint64_t)words;
        if (!slot[0]) continue;
        uint64_t key = 0;
        for (int k = 0; k < numbers; k++) {
            int value = (int)((slot[k ? s->pile_word[k - 1] : 0] >> shift[k]) & ((1ULL << size[k]) - 1));
            if (value > largest) largest = value;
            if (keys) key = (key << size[k]) | (uint64_t)value;
            else values[at * (uint64_t)numbers + (uint64_t)k] = value;
        }
        if (keys) keys[at] = key;
        at++;
    }
    *width = 1;
    while (*width < 8 && (largest >> (8 * *width)) > 0) (*width)++;
    record_size = (size_t)numbers * (size_t)*width;
    PyObject *body = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(count * record_size));
    unsigned char *out = body ? (unsigned char *)PyBytes_AS_STRING(body) : NULL;
    if (out && keys) {
        radix_sort(keys, keys + count, count, bits);
        for (uint64_t i = 0; i < count; i++) {
            int rest = bits;
            for (int k = 0; k < numbers; k++) {
                rest -= size[k];
                int value = (int)((keys[i] >> rest) & ((1ULL << size[k]) - 1));
                for (int b = *width - 1; b >= 0; b--) *out++ = (unsigned char)(value >> (8 * b));
            }
        }
    } else if (out) {
        for (uint64_t i = 0; i < count * (uint64_t)numbers; i++)
            for (int b = *width - 1; b >= 0; b--) *out++ = (unsigned char)(values[i] >> (8 * b));
        qsort(PyBytes_AS_STRING(body), (size_t)count, record_size, compare_records);
    }
    free(keys); free(values); free(shift); free(size);
    return body;
}

/* One board, (ranks, pile sizes, top, end), read into `c` ready to walk; -1 with the exception set. */
static int closure_init(Closure *c, PyObject *board, int ranks, int cut)
{
    PyObject *ranks_of, *sizes_of, *rank_seq = NULL, *size_seq = NULL;
    int top, end, failed = -1;
    if (!PyArg_ParseTuple(board, "OOii", &ranks_of, &sizes_of, &top, &end)) return -1;
    rank_seq = PySequence_Fast(ranks_of, "ranks");
    size_seq = rank_seq ? PySequence_Fast(sizes_of, "pile sizes") : NULL;
    if (!size_seq) goto done;
    c->n = (int)PySequence_Fast_GET_SIZE(rank_seq);
    c->piles = (int)PySequence_Fast_GET_SIZE(size_seq);
    c->ranks = ranks;
    c->end = end;
    c->cut = cut;
    c->left = c->n;
    c->foundation = top + 1;
    if (ranks < 1 || ranks > MAX_RANKS || c->piles < 1 || c->n > MAX_CARDS || top < -1 || top >= ranks || end < -1
        || end >= ranks) {
        PyErr_SetString(PyExc_ValueError, "closure takes up to MAX_CARDS cards, a pile or more, and ranks in range");
        goto done;
    }
    size_t piles = (size_t)c->piles + 1, cards = (size_t)c->n + 2;
    c->rank = calloc(cards, sizeof(int));
    c->start = calloc(piles, sizeof(int));
    c->size = calloc(piles, sizeof(int));
    c->word = calloc(piles, sizeof(int));
    c->shift = calloc(piles, sizeof(int));
    c->bits = calloc(piles, sizeof(int));
    c->taken = calloc(piles, sizeof(int));
    c->depth = calloc(piles, sizeof(int));
    c->moved = calloc(cards, sizeof(int));
    c->next = calloc(cards, sizeof(int));
    c->was = calloc(cards, sizeof(int));
    c->open = calloc((size_t)ranks, sizeof(uint64_t));
    if (!c->rank || !c->start || !c->size || !c->word || !c->shift || !c->bits || !c->taken || !c->depth
        || !c->moved || !c->next || !c->was || !c->open) {
        PyErr_NoMemory();
        goto done;
    }
    int total = 0;
    for (int p = 0; p < c->piles; p++) {
        long size = PyLong_AsLong(PySequence_Fast_GET_ITEM(size_seq, p));
        if (size < 0 || total + size > c->n) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "pile sizes must add up to the cards");
            goto done;
        }
        c->start[p] = total;
        c->size[p] = (int)size;
        total += (int)size;
    }
    for (int i = 0; i < c->n; i++) {
        long r = PyLong_AsLong(PySequence_Fast_GET_ITEM(rank_seq, i));
        if (r < 0 || r >= ranks) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a card's rank out of range");
            goto done;
        }
        c->rank[i] = (int)r;
    }
    if (total != c->n) {
        PyErr_SetString(PyExc_ValueError, "pile sizes must add up to the cards");
        goto done;
    }
    /* the key's layout: from the top bit of word 0 down, bit 0 of word 0 kept for the mark */
    int free_bits = 63, word = 0;
    for (int k = 0; k <= c->piles; k++) {
        int most = k == 0 ? ranks : c->size[k - 1], bits = 1;
        while ((most >> bits) > 0) bits++;
        if (bits > free_bits) { word++; free_bits = 64; }
        free_bits -= bits;
        c->word[k] = word;
        c->shift[k] = free_bits + (word == 0 ? 1 : 0);
        c->bits[k] = bits;
    }
    c->words = word + 1;
    c->key = calloc((size_t)c->words, sizeof(uint64_t));
    if (!c->key || cache_reset(&c->set, c->words, TABLE_MAX_BITS) || cache_reset(&c->cuts, c->words, TABLE_MAX_BITS)) {
        PyErr_NoMemory();
        goto done;
    }
    c->key[0] = 1;
    failed = 0;
done:
    Py_XDECREF(rank_seq);
    Py_XDECREF(size_seq);
    return failed;
}

/* closure(boards, rank_count, cut, first, growth, most, seconds, cpu_seconds): the walk of each board,
 * (ranks, pile sizes, top, end), in turns, each turn `growth` times the positions of the last (the
 * first, `first`), each board's walk going on where it stopped, until one ends. A board: each card's
 * rank, pile by pile, top card first; the piles' sizes; the foundation's rank (-1: none); won when
 * every pile is empty and (end >= 0) the last card is next to rank `end`. (status, board, positions,
 * width, records): `lost` with every position that board's plays reach, sorted and packed as the
 * certificate's body; `won`; `positions` (every board past `most` positions, 0: no limit), `limit`
 * (the wall clock) or `cpu`, with no records. */
static PyObject *closure(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *boards_of;
    int ranks, cut;
    unsigned long long first, growth, most;
    double seconds, cpu_seconds;
    if (!PyArg_ParseTuple(args, "OipKKKdd", &boards_of, &ranks, &cut, &first, &growth, &most, &seconds,
                          &cpu_seconds))
        return NULL;
    PyObject *boards = PySequence_Fast(boards_of, "boards");
    if (!boards) return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(boards);
    Closure *c = count >= 1 && count <= 2 ? calloc((size_t)count, sizeof(Closure)) : NULL;
    PyObject *answer = NULL;
    if (!c) {
        if (count >= 1 && count <= 2) PyErr_NoMemory();
        else PyErr_SetString(PyExc_ValueError, "closure walks one board or two");
        goto done;
    }
    for (Py_ssize_t b = 0; b < count; b++)
        if (closure_init(&c[b], PySequence_Fast_GET_ITEM(boards, b), ranks, cut)) goto done;
    double deadline = seconds > 0 ? now() + seconds : 0, cpu_deadline = cpu_seconds > 0 ? cpu_now() + cpu_seconds : 0;
    PyThreadState *thread = PyEval_SaveThread();
    int result = RESTART, which = 0, capped = 0;
    uint64_t budget = first ? first : 1;
    while (result == RESTART) {
        if (most && budget > most) budget = most;
        for (which = 0; which < count && result == RESTART; which++) {
            c[which].deadline = deadline;
            c[which].cpu_deadline = cpu_deadline;
            c[which].thread = thread;
            result = closure_walk(&c[which], budget);
            thread = c[which].thread;
        }
        if (result == RESTART && most && budget >= most) { /* every board past `most` positions */
            result = LIMIT;
            capped = 1;
        }
        budget *= growth > 1 ? growth : 2;
    }
    which--;
    PyEval_RestoreThread(thread);
    if (result == NO_MEMORY) PyErr_NoMemory();
    if (result == INTERRUPTED || result == NO_MEMORY) goto done;
    if (result != FAILED) {
        answer = Py_BuildValue("(siKiy)", result == SOLVED ? "won" : result == CPU_LIMIT ? "cpu" : capped ? "positions"
                               : "limit", which,
                               (unsigned long long)c[which].set.used, 0, "");
        goto done;
    }
    int width;
    PyObject *body = closure_records(&c[which], &width);
    if (body) answer = Py_BuildValue("(siKiN)", "lost", which, (unsigned long long)c[which].set.used, width, body);
done:
    if (c)
        for (Py_ssize_t b = 0; b < count; b++) closure_free(&c[b]);
    free(c);
    Py_DECREF(boards);
    return answer;
}

/* learning(on) -> (learned failures added, learned cuts, failures of the whole state) since the last call;
 * on: whether the searches set up from now on learn (learn_setup). An experiment's switch, off by default. */
static PyObject *learning(PyObject *self, PyObject *args)
{
    (void)self;
    int on;
    if (!PyArg_ParseTuple(args, "p", &on)) return NULL;
    learning_on = on;
    PyObject *answer = Py_BuildValue("(KKK)", learn_added, learn_hits, learn_whole);
    learn_added = learn_hits = learn_whole = 0;
    return answer;
}

static PyMethodDef methods[] = {
    {"learning", learning, METH_VARARGS,
     "learning(on) -> (learned failures added, learned cuts, whole-state failures) since the last call: whether "
     "searches set up from now on keep failures by the arc of ranks their refutation kept to (docs/hardness.md)"},
    {"search", search, METH_VARARGS,
     "search(ranks, pile_sizes, rank_count, foundation_tops, cache, symmetry, wolter, reach, restarts, noise, "
     "wide, max_cards, "
     "node_limit, seconds, cpu_seconds, cache_bytes[, end]) -> (status, cards or None, foundations or None, nodes, longest play, "
     "cached states); end: the rank the last card must be next to (-1: any)"},
    {"search_kept", search_kept, METH_VARARGS,
     "search_kept(ranks, pile_sizes, rank_count, foundation_tops, cache, symmetry, wolter, reach, restarts, noise, "
     "wide, max_cards, node_limit, seconds, cpu_seconds, cache_bytes[, end]) -> search's answer and (width, "
     "records or None): one foundation; a lost deal's failure cache as a certificate's body (docs/certificates.md)"},
    {"both", both, METH_VARARGS,
     "both(ranks, pile_sizes, back_ranks, back_pile_sizes, rank_count, foundation_tops, back_tops, end, cache, "
     "symmetry, wolter, reach, restarts, noise, wide, node_limit, seconds, cpu_seconds, cache_bytes) -> (status, "
     "which (0 front, 1 back), cards or None, foundations or None, front nodes, back nodes): the search from the "
     "front and from the back, a round of each in turn"},
    {"batch", batch, METH_VARARGS,
     "batch([(ranks, pile_sizes, rank_count, foundation_tops), ...], cache, symmetry, wolter, reach, restarts, "
     "noise, wide, max_cards, "
     "node_limit, seconds, cpu_seconds, cache_bytes) -> [(status, longest play, nodes, cpu seconds), ...]"},
    {"survey_kept", survey_kept, METH_VARARGS,
     "survey_kept(the arguments of survey) -> survey's answer and (the search kept: 0 front, 1 back, -1 none; width, "
     "records or None): of a lost deal, the failure cache of a search that proved it lost, as a certificate's body "
     "(docs/certificates.md; the smaller of the two; none when its cache had to forget states)"},
    {"survey", survey, METH_VARARGS,
     "survey(ranks, pile_sizes, back_ranks, rank_count, top, end, cache, symmetry, wolter, reach, restarts, noise, "
     "wide, node_limit, seconds, cpu_seconds, cache_bytes, alone) -> (status, which (0 front, 1 back), the front's "
     "longest play, the back's win or None, front nodes, back nodes, longest): a deal's most cards from the front "
     "(max-cards mode, alone for its first `alone` nodes) and the back (decision mode) in turn"},
    {"closure", closure, METH_VARARGS,
     "closure([(ranks, pile_sizes, top, end), ...], rank_count, cut, first, growth, most, seconds, cpu_seconds) -> "
     "(status, board, positions, width, records): every position a board's plays reach (a certificate's body, "
     "docs/certificates.md), the boards walked in turns; cut: leave out the positions the live-card bound "
     "proves lost"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_search", "Compiled Black Hole search.", -1, methods,
                                     NULL, NULL, NULL, NULL};

#ifndef PATIENCE_SEARCH_SOURCE
#define PATIENCE_SEARCH_SOURCE "unknown"
#endif

/* SOURCE: the digest of the _search.c this module was built from (setup.py passes it), so that an
   editable checkout whose source moved on since its last build is caught, not called wrongly. */
PyMODINIT_FUNC PyInit__search(void) {
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddStringConstant(m, "SOURCE", PATIENCE_SEARCH_SOURCE) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
