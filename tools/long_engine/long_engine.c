/* Long nardy self-play for training: a move generator, the input encoding and TD(lambda)
 * training of a one-hidden-layer net, all in C for throughput.
 *
 * The rules are the package's (RULES.md, "Long nardy"; nardy_analysis/game/long.py): no
 * hitting, a point with any opposing checker is closed (also the first die's point of a
 * checker playing both), at most `head_limit` checkers leave the head (24) per turn, bearing
 * off only with all checkers home (exact, or larger from the highest point), the forced-play
 * rules (most dice, else the larger die) applied after refusing plays that end with six
 * points in a row that no opposing checker has passed.  tests/test_long_engine.py checks the
 * plays against LongPosition.legal_plays and the encoding against
 * nardy_analysis.analysis.long_engine.encode.
 *
 * A side is 25 bytes in its owner's numbering: [0] borne off, [1..24] points.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NFEAT 221
#define SIDE_FEAT 110
#define NOUT 5
#define MAXPLAYS 4096
#define MAXPLIES 1500

static const int FACING[25] = {0, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
                                1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
#define facing(p) FACING[p]

int n_features(void) { return NFEAT; }

/* ---------------------------------------------------------------- move generator */

typedef struct {
    uint8_t board[25];
    uint8_t steps, biggest;
} Found;

typedef struct {
    const uint8_t *opm;     /* opponent's checkers on my points 1..24 */
    int head_floor;         /* the head may not go below this many checkers */
    Found found[MAXPLAYS];
    int nfound;
    int table[8192];        /* open addressing: index+1 into found, 0 empty */
    uint64_t seen[16384];   /* hashes of (board, remaining) visited */
    uint8_t me[25];
    int overflow;
    int used[8192], nused;      /* slots of table in use, cleared after each call */
    int used_seen[16384], nseen;
} Gen;

static uint64_t hash_board(const uint8_t *b) {
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < 25; i++) h = (h ^ b[i]) * 1099511628211ULL;
    return h;
}

static void record(Gen *g, int steps, int biggest) {
    uint64_t h = hash_board(g->me);
    unsigned slot = (unsigned)(h >> 17) & 8191;
    while (g->table[slot]) {
        Found *f = &g->found[g->table[slot] - 1];
        if (!memcmp(f->board, g->me, 25)) {
            if (steps > f->steps || (steps == f->steps && biggest > f->biggest)) {
                f->steps = steps;
                f->biggest = biggest;
            }
            return;
        }
        slot = (slot + 1) & 8191;
    }
    if (g->nfound >= MAXPLAYS) { g->overflow = 1; return; }
    Found *f = &g->found[g->nfound++];
    memcpy(f->board, g->me, 25);
    f->steps = steps;
    f->biggest = biggest;
    g->table[slot] = g->nfound;
    g->used[g->nused++] = slot;
}

/* true when (board, remaining) was seen before; marks it seen otherwise */
static int visited(Gen *g, uint64_t key) {
    if (g->nseen >= 12000) return 0;         /* full: search on without pruning */
    key |= 1;
    unsigned slot = (unsigned)(key >> 20) & 16383;
    while (g->seen[slot]) {
        if (g->seen[slot] == key) return 1;
        slot = (slot + 1) & 16383;
    }
    g->seen[slot] = key;
    g->used_seen[g->nseen++] = slot;
    return 0;
}

/* where a checker from start lands with die: 0 off, -1 illegal */
static int land(const uint8_t *me, const uint8_t *opm, int start, int die) {
    if (!me[start]) return -1;
    int end = start - die;
    if (end > 0) return opm[end] ? -1 : end;
    for (int p = 7; p <= 24; p++) if (me[p]) return -1;
    if (end < 0) for (int p = start + 1; p <= 6; p++) if (me[p]) return -1;
    return 0;
}

static void search(Gen *g, int *dice, int ndice, int steps, int biggest) {
    uint64_t key = hash_board(g->me);
    int code = 0;
    for (int i = 0; i < ndice; i++) code = code * 7 + dice[i];
    key = (key ^ (uint64_t)code * 0x9E3779B97F4A7C15ULL) * 0xBF58476D1CE4E5B9ULL;
    if (visited(g, key)) return;
    record(g, steps, biggest);
    for (int i = 0; i < ndice; i++) {
        int die = dice[i], dup = 0;
        for (int j = 0; j < i; j++) if (dice[j] == die) dup = 1;
        if (dup) continue;
        int rest[4], nrest = 0;
        for (int j = 0; j < ndice; j++) if (j != i) rest[nrest++] = dice[j];
        for (int start = 24; start >= 1; start--) {
            if (!g->me[start]) continue;
            if (start == 24 && g->me[24] <= g->head_floor) continue;
            int end = land(g->me, g->opm, start, die);
            if (end < 0) continue;
            g->me[start]--;
            g->me[end]++;
            search(g, rest, nrest, steps + 1, die > biggest ? die : biggest);
            g->me[end]--;
            g->me[start]++;
        }
    }
}

/* six points in a row held by me (my side, my numbering) along op's path with no checker of
 * op past them (on a lower point of its own, or borne off) */
static int unpassed_block(const uint8_t *me, const uint8_t *op) {
    int lowest = 0;                  /* op's lowest occupied point (0: some borne off) */
    while (lowest <= 24 && !op[lowest]) lowest++;
    int run = 0;
    for (int q = 1; q <= 24; q++) {
        if (me[facing(q)]) {
            if (++run == 6) return q - 5 <= lowest;
        } else run = 0;
    }
    return 0;
}

/* Every legal play of the roll (d1, d2) for me against op: the boards of me after each,
 * 25 bytes each, into out (room for `room`); returns how many, -1 on overflow.  A single
 * board equal to me is a play of no step (a dance). */
int legal_afters(const uint8_t *me, const uint8_t *op, int d1, int d2, int head_limit,
                 uint8_t *out, int room) {
    static Gen g;
    uint8_t opm[25] = {0};
    for (int p = 1; p <= 24; p++) opm[p] = op[facing(p)];
    for (int i = 0; i < g.nused; i++) g.table[g.used[i]] = 0;
    for (int i = 0; i < g.nseen; i++) g.seen[g.used_seen[i]] = 0;
    g.nused = g.nseen = 0;
    g.nfound = 0;
    g.overflow = 0;
    g.opm = opm;
    g.head_floor = me[24] - head_limit;
    memcpy(g.me, me, 25);
    int dice[4], ndice;
    if (d1 == d2) { dice[0] = dice[1] = dice[2] = dice[3] = d1; ndice = 4; }
    else { dice[0] = d1 > d2 ? d1 : d2; dice[1] = d1 > d2 ? d2 : d1; ndice = 2; }
    search(&g, dice, ndice, 0, 0);
    if (g.overflow) return -1;
    for (;;) {
        int best = -1;              /* the best key left: steps * 8 + biggest */
        for (int i = 0; i < g.nfound; i++) {
            int k = g.found[i].steps * 8 + g.found[i].biggest;
            if (k > best) best = k;
        }
        if (best < 0) return 0;
        int n = 0;
        for (int i = 0; i < g.nfound; i++) {
            Found *f = &g.found[i];
            if (f->steps * 8 + f->biggest != best) continue;
            f->steps = 0;           /* taken out of later rounds */
            f->biggest = 0;
            if (f->board[0] == 255) continue;
            if (unpassed_block(f->board, op)) { f->board[0] = 255; continue; }
            if (n >= room) return -1;
            memcpy(out + 25 * n++, f->board, 25);
            f->board[0] = 255;
        }
        if (n) return n;
        if (best == 0) return 0;
    }
}

/* ---------------------------------------------------------------- encoding */

static void encode_side(const uint8_t *a, const uint8_t *b, float *x) {
    int pips = 0, home = 0, outer = 0;
    for (int p = 1; p <= 24; p++) {
        int n = a[p];
        x[4 * (p - 1)] = n >= 1;
        x[4 * (p - 1) + 1] = n >= 2;
        x[4 * (p - 1) + 2] = n >= 3;
        x[4 * (p - 1) + 3] = n > 3 ? (float)((n - 3) / 12.0) : 0.0f;
        pips += p * n;
        if (p <= 6) home += n;
        if (p >= 13) outer += n;
    }
    float *e = x + 96;
    int allhome = home + a[0] == 15;
    e[0] = (float)(a[0] / 15.0);
    e[1] = (float)(pips / 360.0);
    e[2] = (float)(home / 15.0);
    e[3] = allhome;
    e[4] = (float)(outer / 15.0);
    /* the longest run of points held along b's path (b's points 1..24) and b's checkers
     * behind it (on b's points above it) */
    int run = 0, longest = 0, top = 0;
    for (int q = 1; q <= 24; q++) {
        run = a[facing(q)] ? run + 1 : 0;
        if (run && run >= longest) { longest = run; top = q; }
    }
    int behind = 0;
    for (int q = top + 1; q <= 24; q++) behind += b[q];
    int capped = longest < 6 ? longest : 6;
    e[5] = (float)(capped / 6.0);
    e[6] = (float)(behind * capped / 90.0);
    /* checkers that can move each die (one from the head), and dice none can move */
    int zero = 0, free[25];
    for (int p = 1; p <= 24; p++) free[p] = !b[facing(p)];
    int movable[25];            /* checkers that may move from each point: one from the head */
    for (int p = 1; p <= 24; p++) movable[p] = p == 24 && a[p] ? 1 : a[p];
    for (int d = 1; d <= 6; d++) {
        int count = 0;
        for (int p = 1; p <= d; p++) count += allhome ? movable[p] : 0;
        for (int p = d + 1; p <= 24; p++) count += free[p - d] ? movable[p] : 0;
        e[6 + d] = (float)(count / 15.0);
        zero += count == 0;
    }
    e[13] = (float)(zero / 6.0);
}

/* the inputs of the position with `me` on roll against `op` */
void encode(const uint8_t *me, const uint8_t *op, float *x) {
    encode_side(me, op, x);
    encode_side(op, me, x + SIDE_FEAT);
    int race = 1;
    for (int p = 13; p <= 24; p++) if (me[p] || op[p]) race = 0;
    x[2 * SIDE_FEAT] = race;
}

void encode_many(const uint8_t *sides, int n, float *x) {
    for (int i = 0; i < n; i++) encode(sides + 50 * i, sides + 50 * i + 25, x + NFEAT * i);
}

/* ---------------------------------------------------------------- the net */

typedef struct {
    int nh;
    float *w1t;   /* NFEAT x nh: input i's weights at w1t[i * nh] */
    float *b1;    /* nh */
    float *w2;    /* NOUT x nh */
    float *b2;    /* NOUT */
} Net;

static float sigm(float v) { return 1.0f / (1.0f + expf(-v)); }

/* forward from the nonzero inputs; h (nh) and y (NOUT) filled */
static void forward(const Net *net, const float *x, float *restrict h, float *restrict y) {
    int nh = net->nh;
    memcpy(h, net->b1, nh * sizeof(float));
    for (int i = 0; i < NFEAT; i++) {
        float v = x[i];
        if (v == 0.0f) continue;
        const float *restrict w = net->w1t + (size_t)i * nh;
        for (int j = 0; j < nh; j++) h[j] += v * w[j];
    }
    for (int j = 0; j < nh; j++) h[j] = sigm(h[j]);
    for (int k = 0; k < NOUT; k++) {
        const float *w = net->w2 + k * nh;
        float s = net->b2[k];
        for (int j = 0; j < nh; j++) s += w[j] * h[j];
        y[k] = sigm(s);
    }
}

/* the net's chances of a batch of positions (sides: n x 2 x 25) */
void evaluate_many(float *w1t, float *b1, float *w2, float *b2, int nh, const uint8_t *sides,
                   int n, float *out) {
    Net net = {nh, w1t, b1, w2, b2};
    float x[NFEAT], h[1024];
    for (int i = 0; i < n; i++) {
        encode(sides + 50 * i, sides + 50 * i + 25, x);
        forward(&net, x, h, out + NOUT * i);
    }
}

/* one gradient step of the cross-entropy of each output towards target */
static void update(Net *net, const float *x, const float *target, float alpha, float *h,
                   float *dh) {
    int nh = net->nh;
    float y[NOUT], d[NOUT];
    forward(net, x, h, y);
    for (int k = 0; k < NOUT; k++) d[k] = alpha * (target[k] - y[k]);
    for (int j = 0; j < nh; j++) {
        float s = 0.0f;
        for (int k = 0; k < NOUT; k++) s += d[k] * net->w2[k * nh + j];
        dh[j] = s * h[j] * (1.0f - h[j]);
    }
    for (int k = 0; k < NOUT; k++) {
        float *w = net->w2 + k * nh;
        for (int j = 0; j < nh; j++) w[j] += d[k] * h[j];
        net->b2[k] += d[k];
    }
    for (int i = 0; i < NFEAT; i++) {
        float v = x[i];
        if (v == 0.0f) continue;
        float *w = net->w1t + (size_t)i * nh;
        for (int j = 0; j < nh; j++) w[j] += v * dh[j];
    }
    for (int j = 0; j < nh; j++) net->b1[j] += dh[j];
}

/* ---------------------------------------------------------------- self-play */

static uint64_t next_random(uint64_t *s) {  /* splitmix64 */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int die(uint64_t *s) { return 1 + (int)((next_random(s) >> 11) % 6); }

static void swap_chances(const float *v, float *out) {
    float t[NOUT] = {1.0f - v[0], v[3], v[4], v[1], v[2]};
    memcpy(out, t, sizeof t);
}

/* the certain outcome for the side on roll when `winner` (the other side) has borne off
 * all: lose by mars when `loser` has borne off none, by home mars when also all home */
static void lost(const uint8_t *loser, float *z) {
    int home = 0;
    for (int p = 1; p <= 6; p++) home += loser[p];
    z[0] = z[1] = z[2] = 0.0f;
    z[3] = loser[0] == 0;
    z[4] = loser[0] == 0 && home == 15;
}

static float money(const float *y) { /* equity of the side the chances belong to */
    return 2.0f * y[0] - 1.0f + y[1] + y[2] - y[3] - y[4];
}

typedef struct {
    uint8_t sides[2][25];       /* [mover, other] */
    float x[NFEAT], y[NOUT];
    float ply1[NOUT];           /* 1-ply chances (training towards them) */
    int over;
} Ply;

static uint8_t play_buf[MAXPLAYS * 25];
static float cand_x[NFEAT], cand_h[1024];

/* the chosen play of `mover` (side of the player on roll) against `other` with the dice,
 * by `net` at 0-ply: the next ply's record (the opponent on roll), its chances; returns -1
 * on overflow.  With `random_play` a uniform choice among the legal plays. */
static int choose(const Net *net, const uint8_t *mover, const uint8_t *other, int d1, int d2,
                  uint64_t *rng, int random_play, Ply *next) {
    int head_limit = mover[24] == 15 ? 2 : 1;
    int n = legal_afters(mover, other, d1, d2, head_limit, play_buf, MAXPLAYS);
    if (n < 0) return -1;
    int best = 0;
    float best_equity = -1e9f;
    float y[NOUT];
    if (random_play) best = (int)(next_random(rng) % (uint64_t)n);
    for (int i = 0; i < n; i++) {
        if (random_play && i != best) continue;
        const uint8_t *after = play_buf + 25 * i;
        if (after[0] == 15) lost(other, y);
        else if (random_play) memset(y, 0, sizeof y);
        else {
            encode(other, after, cand_x);
            forward(net, cand_x, cand_h, y);
        }
        float equity = -money(y);
        if (random_play || equity > best_equity) {
            best_equity = equity;
            best = i;
            memcpy(next->y, y, sizeof y);
            if (after[0] != 15) memcpy(next->x, cand_x, sizeof cand_x);
        }
    }
    const uint8_t *after = play_buf + 25 * best;
    memcpy(next->sides[0], other, 25);
    memcpy(next->sides[1], after, 25);
    next->over = after[0] == 15;
    return 0;
}

static Ply game[MAXPLIES + 1];

static void start_ply(const Net *net, Ply *p) {
    memset(p->sides, 0, sizeof p->sides);
    p->sides[0][24] = p->sides[1][24] = 15;
    p->over = 0;
    float h[1024];
    encode(p->sides[0], p->sides[1], p->x);
    forward(net, p->x, h, p->y);
}

/* the 1-ply chances of the side on roll (`mover` against `other`): over the 21 rolls
 * (doubles 1/36, others 2/36) the chances after the mover's best 0-ply play, turned round
 * to the mover; returns -1 on overflow */
static int one_ply(const Net *net, const uint8_t *mover, const uint8_t *other, float *out) {
    Ply next;
    uint64_t unused = 0;
    float turned[NOUT];
    memset(out, 0, NOUT * sizeof(float));
    for (int d1 = 1; d1 <= 6; d1++)
        for (int d2 = d1; d2 <= 6; d2++) {
            if (choose(net, mover, other, d1, d2, &unused, 0, &next)) return -1;
            swap_chances(next.y, turned);
            float w = d1 == d2 ? 1.0f / 36.0f : 2.0f / 36.0f;
            for (int k = 0; k < NOUT; k++) out[k] += w * turned[k];
        }
    return 0;
}

/* the 1-ply chances of a batch of positions (sides: n x 2 x 25, the side on roll first) */
int one_ply_many(float *w1t, float *b1, float *w2, float *b2, int nh, const uint8_t *sides,
                 int n, float *out) {
    Net net = {nh, w1t, b1, w2, b2};
    for (int i = 0; i < n; i++)
        if (one_ply(&net, sides + 50 * i, sides + 50 * i + 25, out + NOUT * i)) return -1;
    return n;
}

/* Self-play training of `games` games; the weights are updated in place after each game,
 * each position's chances towards `outcome` times its lambda-return (the forward view: G_t =
 * swap((1 - lambda) V_{t+1} + lambda G_{t+1}), the last G the certain outcome) plus (1 -
 * `outcome`) times its 1-ply chances (one_ply, by the net as it was at the game's start);
 * `outcome` 1 is TD(lambda).  stats: [0] plies, [1] games player 0 (the starter) won, [2]
 * mars, [3] home mars, [4] games dropped (too long or overflow).  Returns the games played. */
int train(float *w1t, float *b1, float *w2, float *b2, int nh, int games, uint64_t seed,
          float alpha, float lambda, float outcome, double *stats) {
    Net net = {nh, w1t, b1, w2, b2};
    uint64_t rng = seed;
    float h[1024], dh[1024], target[NOUT], mixed[NOUT], goal[NOUT];
    for (int g = 0; g < games; g++) {
        start_ply(&net, &game[0]);
        int t = 0, bad = 0;
        while (!game[t].over) {
            if (t == MAXPLIES) { bad = 1; break; }
            if (outcome < 1.0f && one_ply(&net, game[t].sides[0], game[t].sides[1],
                                          game[t].ply1)) { bad = 1; break; }
            if (choose(&net, game[t].sides[0], game[t].sides[1], die(&rng), die(&rng), &rng,
                       0, &game[t + 1])) { bad = 1; break; }
            t++;
        }
        if (bad) { stats[4] += 1; continue; }
        /* game[t] is over: the side on roll there lost */
        float z[NOUT];
        lost(game[t].sides[0], z);
        stats[0] += t;
        stats[1] += (t % 2) == 1;       /* player 0 moved at even plies, so won at odd t */
        stats[2] += z[3];
        stats[3] += z[4];
        memcpy(target, z, sizeof z);    /* G_T */
        const float *value = z;         /* V_T */
        for (int s = t - 1; s >= 0; s--) {
            for (int k = 0; k < NOUT; k++) mixed[k] = (1.0f - lambda) * value[k]
                                                      + lambda * target[k];
            swap_chances(mixed, target);
            value = game[s].y;
            for (int k = 0; k < NOUT; k++)
                goal[k] = outcome >= 1.0f ? target[k] : outcome * target[k]
                                                        + (1.0f - outcome) * game[s].ply1[k];
            update(&net, game[s].x, goal, alpha, h, dh);
        }
    }
    return games;
}

/* Games between two nets (or random play: a NULL w1t), 0-ply, sides alternating: net A
 * starts the even games.  points[i]: A's points in game i (+-1, 2, 3). */
int match(float *aw1t, float *ab1, float *aw2, float *ab2, int anh, float *bw1t, float *bb1,
          float *bw2, float *bb2, int bnh, int games, uint64_t seed, int *points) {
    Net a = {anh, aw1t, ab1, aw2, ab2}, b = {bnh, bw1t, bb1, bw2, bb2};
    uint64_t rng = seed;
    Ply cur, next;
    for (int g = 0; g < games; g++) {
        memset(cur.sides, 0, sizeof cur.sides);
        cur.sides[0][24] = cur.sides[1][24] = 15;
        cur.over = 0;
        int t = 0;
        points[g] = 0;
        while (!cur.over && t < 4 * MAXPLIES) {
            int a_moves = (t % 2 == 0) == (g % 2 == 0);
            const Net *net = a_moves ? &a : &b;
            if (choose(net, cur.sides[0], cur.sides[1], die(&rng), die(&rng), &rng,
                       net->w1t == NULL, &next)) break;
            cur = next;
            t++;
        }
        if (!cur.over) continue;
        int home = 0;
        for (int p = 1; p <= 6; p++) home += cur.sides[0][p];
        int value = cur.sides[0][0] ? 1 : home == 15 ? 3 : 2;
        int a_won = (t % 2 == 1) == (g % 2 == 0);
        points[g] = a_won ? value : -value;
    }
    return games;
}

/* Random self-play positions for tests: up to n boards (n x 2 x 25, side on roll first)
 * from games of uniformly random plays, every ply's position. */
int random_positions(int n, uint64_t seed, uint8_t *out) {
    uint64_t rng = seed;
    Net none = {0, NULL, NULL, NULL, NULL};
    Ply cur, next;
    int count = 0;
    while (count < n) {
        memset(cur.sides, 0, sizeof cur.sides);
        cur.sides[0][24] = cur.sides[1][24] = 15;
        cur.over = 0;
        while (!cur.over && count < n) {
            memcpy(out + 50 * count++, cur.sides, 50);
            if (choose(&none, cur.sides[0], cur.sides[1], die(&rng), die(&rng), &rng, 1,
                       &next)) break;
            cur = next;
        }
    }
    return count;
}
