/* Application-like benchmark: branchy, call-heavy code with many small basic blocks, the shape
 * of interpreters, symbol tables and tree-based indexes rather than of numerical kernels.
 * Three phases, each ROUNDS times:
 *   1. a bytecode interpreter (switch dispatch, a small stack machine) running a loop that sums
 *      the Collatz path lengths of 1..VM_N;
 *   2. a chained hash table of string keys (hashing, strcmp-like compares, inserts, lookups,
 *      deletions; about 4 keys per bucket) with KEYS keys;
 *   3. an unbalanced binary search tree of TREE_N pseudo-random keys (recursive insert, lookup
 *      and an in-order walk).
 * Helpers are noinline so the calls stay calls at -O2. Prints one checksum. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef ROUNDS
#define ROUNDS 2
#endif
#ifndef VM_N
#define VM_N 15000
#endif
#ifndef KEYS
#define KEYS 150000
#endif
#ifndef TREE_N
#define TREE_N 120000
#endif

#define NOINLINE __attribute__((noinline))

/* ---- 1. bytecode interpreter ---- */

enum op { PUSH, LOAD, STORE, ADD, SUB, MUL, DIV2, AND1, LT, JZ, JMP, DUP, POP, HALT };

struct vm {
    long stack[64];
    int sp;
    long vars[8];
};

/* steps = 0; for (i = 1; i < n; i++) { x = i; while (1 < x) { x = (x & 1) ? 3x + 1 : x / 2;
 * steps++; } } return steps. Jump targets (0 here) are instruction numbers, set by vm_fixup. */
static const int program[] = {
    PUSH, 1, STORE, 0,                             /* i = 1 */
    LOAD, 0, LOAD, 2, LT, JZ, 0,                   /* while (i < n) */
    LOAD, 0, STORE, 1,                             /* x = i */
    PUSH, 1, LOAD, 1, LT, JZ, 0,                   /* while (1 < x) */
    LOAD, 1, AND1, JZ, 0,                          /* if (x & 1) */
    LOAD, 1, PUSH, 3, MUL, PUSH, 1, ADD, STORE, 1, /* x = 3x + 1 */
    JMP, 0,                                        /* else */
    LOAD, 1, DIV2, STORE, 1,                       /* x = x / 2 */
    LOAD, 3, PUSH, 1, ADD, STORE, 3, JMP, 0,       /* steps++ */
    LOAD, 0, PUSH, 1, ADD, STORE, 0, JMP, 0,       /* i++ */
    HALT,
};

NOINLINE static long vm_run(struct vm *m, const int *code) {
    int pc = 0;
    for (;;) {
        int op = code[pc++];
        switch (op) {
        case PUSH: m->stack[m->sp++] = code[pc++]; break;
        case LOAD: m->stack[m->sp++] = m->vars[code[pc++]]; break;
        case STORE: m->vars[code[pc++]] = m->stack[--m->sp]; break;
        case ADD: m->sp--; m->stack[m->sp - 1] += m->stack[m->sp]; break;
        case SUB: m->sp--; m->stack[m->sp - 1] -= m->stack[m->sp]; break;
        case MUL: m->sp--; m->stack[m->sp - 1] *= m->stack[m->sp]; break;
        case DIV2: m->stack[m->sp - 1] /= 2; break;
        case AND1: m->stack[m->sp - 1] &= 1; break;
        case LT: m->sp--; m->stack[m->sp - 1] = m->stack[m->sp - 1] < m->stack[m->sp]; break;
        case JZ: { int t = code[pc++]; if (!m->stack[--m->sp]) pc = t; break; }
        case JMP: pc = code[pc]; break;
        case DUP: m->stack[m->sp] = m->stack[m->sp - 1]; m->sp++; break;
        case POP: m->sp--; break;
        case HALT: return m->vars[3];
        default: return -1;
        }
    }
}

/* The program with its jump targets filled in (offsets of the numbered instructions). */
static int code[sizeof program / sizeof program[0]];

static void vm_fixup(void) {
    memcpy(code, program, sizeof program);
    int at[64], n = 0;
    for (int pc = 0; pc < (int)(sizeof code / sizeof code[0]);) {
        at[n++] = pc;
        int op = code[pc];
        pc += (op == PUSH || op == LOAD || op == STORE || op == JZ || op == JMP) ? 2 : 1;
    }
    /* instruction indexes: 0 PUSH 1 STORE 2 LOAD 3 LOAD 4 LT 5 JZ 6 LOAD 7 STORE 8 PUSH 9 LOAD
     * 10 LT 11 JZ 12 LOAD 13 AND1 14 JZ 15 LOAD 16 PUSH 17 MUL 18 PUSH 19 ADD 20 STORE 21 JMP
     * 22 LOAD 23 DIV2 24 STORE 25 LOAD 26 PUSH 27 ADD 28 STORE 29 JMP 30 LOAD 31 PUSH 32 ADD
     * 33 STORE 34 JMP 35 HALT */
    code[at[5] + 1] = at[35];  /* while (i < n) exits to HALT */
    code[at[11] + 1] = at[30]; /* while (1 < x) exits to i++ */
    code[at[14] + 1] = at[22]; /* even: x / 2 */
    code[at[21] + 1] = at[25]; /* odd done: steps++ */
    code[at[29] + 1] = at[8];  /* loop to while (1 < x) */
    code[at[34] + 1] = at[2];  /* loop to while (i < n) */
}

static long phase_vm(long n) {
    struct vm m;
    memset(&m, 0, sizeof m);
    m.vars[2] = n;
    return vm_run(&m, code);
}

/* ---- 2. chained hash table of string keys ---- */

struct entry {
    struct entry *next;
    unsigned hash;
    long value;
    char key[24];
};

struct table {
    struct entry **buckets;
    unsigned mask;
    long count;
};

NOINLINE static unsigned hash_str(const char *s) {
    unsigned h = 2166136261u;
    while (*s)
        h = (h ^ (unsigned char)*s++) * 16777619u;
    return h;
}

NOINLINE static int key_eq(const char *a, const char *b) {
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return *a == *b;
}

NOINLINE static void make_key(char *out, unsigned long k) {
    static const char digits[] = "abcdefghijklmnopqrstuvwxyz012345";
    char *p = out;
    *p++ = 'k';
    do {
        *p++ = digits[k & 31];
        k >>= 5;
    } while (k);
    *p = 0;
}

NOINLINE static struct entry *table_find(struct table *t, const char *key, unsigned h) {
    for (struct entry *e = t->buckets[h & t->mask]; e; e = e->next)
        if (e->hash == h && key_eq(e->key, key))
            return e;
    return NULL;
}

NOINLINE static void table_put(struct table *t, const char *key, long value) {
    unsigned h = hash_str(key);
    struct entry *e = table_find(t, key, h);
    if (e) {
        e->value += value;
        return;
    }
    e = malloc(sizeof *e);
    e->hash = h;
    e->value = value;
    strcpy(e->key, key);
    e->next = t->buckets[h & t->mask];
    t->buckets[h & t->mask] = e;
    t->count++;
}

NOINLINE static int table_del(struct table *t, const char *key) {
    unsigned h = hash_str(key);
    struct entry **pp = &t->buckets[h & t->mask];
    for (; *pp; pp = &(*pp)->next) {
        if ((*pp)->hash == h && key_eq((*pp)->key, key)) {
            struct entry *e = *pp;
            *pp = e->next;
            free(e);
            t->count--;
            return 1;
        }
    }
    return 0;
}

static long phase_hash(long keys, unsigned long seed) {
    struct table t;
    t.mask = 1;
    while (t.mask * 4 < (unsigned long)keys) /* chains of a few keys */
        t.mask = t.mask * 2 + 1;
    t.buckets = calloc(t.mask + 1, sizeof *t.buckets);
    t.count = 0;
    char key[24];
    unsigned long x = seed;
    long sum = 0;
    for (long i = 0; i < keys; i++) {
        x = x * 6364136223846793005UL + 1442695040888963407UL;
        make_key(key, (x >> 33) % (unsigned long)(keys / 2 + 1));
        table_put(&t, key, (long)(i & 7));
    }
    for (long i = 0; i < keys; i++) {
        make_key(key, (unsigned long)i);
        struct entry *e = table_find(&t, key, hash_str(key));
        if (e)
            sum += e->value;
        else if (i % 3 == 0)
            sum -= 1;
    }
    for (long i = 0; i < keys; i += 2) {
        make_key(key, (unsigned long)i);
        sum += table_del(&t, key);
    }
    sum += t.count;
    for (unsigned b = 0; b <= t.mask; b++) {
        struct entry *e = t.buckets[b];
        while (e) {
            struct entry *n = e->next;
            free(e);
            e = n;
        }
    }
    free(t.buckets);
    return sum;
}

/* ---- 3. binary search tree ---- */

struct node {
    struct node *left, *right;
    long key;
    long count;
};

NOINLINE static struct node *tree_insert(struct node *n, long key, struct node **pool) {
    if (!n) {
        n = (*pool)++;
        n->left = n->right = NULL;
        n->key = key;
        n->count = 1;
        return n;
    }
    if (key < n->key)
        n->left = tree_insert(n->left, key, pool);
    else if (key > n->key)
        n->right = tree_insert(n->right, key, pool);
    else
        n->count++;
    return n;
}

NOINLINE static long tree_find(const struct node *n, long key) {
    while (n) {
        if (key < n->key)
            n = n->left;
        else if (key > n->key)
            n = n->right;
        else
            return n->count;
    }
    return 0;
}

NOINLINE static long tree_walk(const struct node *n, long depth) {
    if (!n)
        return 0;
    return tree_walk(n->left, depth + 1) + (n->key ^ depth) % 7 + tree_walk(n->right, depth + 1);
}

static long phase_tree(long count, unsigned long seed) {
    struct node *pool = malloc(sizeof(struct node) * (size_t)count);
    struct node *next = pool, *root = NULL;
    unsigned long x = seed | 1;
    for (long i = 0; i < count; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        root = tree_insert(root, (long)(x % (unsigned long)(count * 4)), &next);
    }
    long sum = 0;
    for (long k = 0; k < count * 4; k += 3)
        sum += tree_find(root, k);
    sum += tree_walk(root, 0);
    free(pool);
    return sum;
}

int main(void) {
    vm_fixup();
    long check = 0;
    for (int r = 0; r < ROUNDS; r++) {
        check += phase_vm(VM_N + r);
        check += phase_hash(KEYS, 12345u + (unsigned)r);
        check += phase_tree(TREE_N, 987654321u + (unsigned)r);
    }
    printf("%ld\n", check);
    return 0;
}
