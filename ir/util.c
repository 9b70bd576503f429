/* util.c: memory (xmalloc, arenas, growable vectors), string interning and fatal errors.
 *
 * Arenas follow QBE's per-function pools: everything a module owns is carved from its arena and
 * released at once by arena_free. Atoms intern strings so that names compare as integers.
 */
#define _POSIX_C_SOURCE 200809L
#include "ir.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

void
die_(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fiber: internal error at %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

void *
xmalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

char *
xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

/* ------------------------------------------------------------------------------------------ */

typedef struct Chunk Chunk;

struct Chunk {
	Chunk *next;       /* previous chunk */
	size_t size;       /* usable bytes in data */
	size_t used;       /* bytes handed out */
	_Alignas(16) unsigned char data[];
};

struct Arena {
	Chunk *head;       /* current chunk */
	size_t total;      /* bytes reserved from the system */
};

enum { ChunkSize = 256 * 1024 };

Arena *
arena_new(void)
{
	return xmalloc(sizeof(Arena));
}

void *
arena_alloc(Arena *a, size_t n)
{
	Chunk *c = a->head;
	size_t sz;
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (!c || c->size - c->used < n) {
		sz = n > ChunkSize / 4 ? n : ChunkSize;
		/* zeroed once here (fresh pages from the system need no clearing), so that no
		 * allocation has to clear its bytes: each is handed out once */
		c = calloc(1, sizeof(Chunk) + sz);
		if (!c)
			die("out of memory (%zu bytes)", sz);
		c->size = sz;
		c->used = 0;
		if (sz == n && a->head) {
			/* a big block: put it behind the current chunk so its free space stays usable */
			c->next = a->head->next;
			a->head->next = c;
		} else {
			c->next = a->head;
			a->head = c;
		}
		a->total += sizeof(Chunk) + sz;
	}
	p = c->data + c->used;
	c->used += n;
	return p;
}

ArenaMark
arena_mark(const Arena *a)
{
	return (ArenaMark){ a->head, a->head ? a->head->next : NULL, a->head ? a->head->used : 0 };
}

void
arena_release(Arena *a, ArenaMark mk)
{
	Chunk *c = a->head;

	/* only when the current chunk is still the one marked: a new chunk, or a big block put
	 * behind it, stays allocated (as if not released) */
	if (!c || c != mk.chunk || c->used < mk.used || c->next != mk.next)
		return;
	memset(c->data + mk.used, 0, c->used - mk.used);   /* handed out again: zeroed */
	c->used = mk.used;
}

char *
arena_strndup(Arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);

	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

void
arena_free(Arena *a)
{
	Chunk *c, *next;

	if (!a)
		return;
	for (c = a->head; c; c = next) {
		next = c->next;
		free(c);
	}
	free(a);
}

size_t
arena_bytes(const Arena *a)
{
	return a ? a->total : 0;
}

/* ------------------------------------------------------------------------------------------ */

struct Atoms {
	Arena *arena;      /* string storage */
	const char **str;  /* atom -> string; str[0] = "" */
	uint32_t *len;     /* atom -> length */
	uint32_t *hash;    /* atom -> hash */
	uint32_t n;        /* atoms used, including 0 */
	uint32_t cap;      /* atoms allocated */
	uint32_t *slot;    /* open-addressing table of atoms, 0 = empty */
	uint32_t nslot;    /* power of two */
};

static uint32_t
hash_bytes(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

Atoms *
atoms_new(void)
{
	Atoms *t = xmalloc(sizeof *t);

	t->arena = arena_new();
	t->cap = 256;
	t->str = xmalloc(t->cap * sizeof *t->str);
	t->len = xmalloc(t->cap * sizeof *t->len);
	t->hash = xmalloc(t->cap * sizeof *t->hash);
	t->str[0] = "";
	t->n = 1;
	t->nslot = 512;
	t->slot = xmalloc(t->nslot * sizeof *t->slot);
	return t;
}

void
atoms_free(Atoms *t)
{
	if (!t)
		return;
	arena_free(t->arena);
	free(t->str);
	free(t->len);
	free(t->hash);
	free(t->slot);
	free(t);
}

static void
atoms_rehash(Atoms *t)
{
	uint32_t nslot = t->nslot * 2, *slot = xmalloc(nslot * sizeof *slot);

	for (uint32_t a = 1; a < t->n; a++) {
		uint32_t k = t->hash[a] & (nslot - 1);
		while (slot[k])
			k = (k + 1) & (nslot - 1);
		slot[k] = a;
	}
	free(t->slot);
	t->slot = slot;
	t->nslot = nslot;
}

uint32_t
atom(Atoms *t, const char *s, size_t n)
{
	uint32_t h = hash_bytes(s, n), k, a;

	for (k = h & (t->nslot - 1); (a = t->slot[k]); k = (k + 1) & (t->nslot - 1))
		if (t->hash[a] == h && t->len[a] == n && memcmp(t->str[a], s, n) == 0)
			return a;
	if (t->n == t->cap) {
		t->cap *= 2;
		t->str = xrealloc(t->str, t->cap * sizeof *t->str);
		t->len = xrealloc(t->len, t->cap * sizeof *t->len);
		t->hash = xrealloc(t->hash, t->cap * sizeof *t->hash);
	}
	a = t->n++;
	t->str[a] = arena_strndup(t->arena, s, n);
	t->len[a] = (uint32_t)n;
	t->hash[a] = h;
	t->slot[k] = a;
	if (t->n * 2 > t->nslot)
		atoms_rehash(t);
	return a;
}

uint32_t
atomz(Atoms *t, const char *s)
{
	return atom(t, s, strlen(s));
}

const char *
atomstr(const Atoms *t, uint32_t a)
{
	return a < t->n ? t->str[a] : "";
}

uint32_t
atomlen(const Atoms *t, uint32_t a)
{
	return a < t->n ? t->len[a] : 0;
}

/* ------------------------------------------------------------------------------------------ */

void
vgrow(void *pp, uint32_t *cap, uint32_t n, size_t sz)
{
	void **p = pp;
	uint32_t c = *cap;

	if (n <= c && *p)
		return;
	if (c < 8)
		c = 8;
	while (c < n)
		c *= 2;
	*p = xrealloc(*p, c * sz);
	memset((char *)*p + (size_t)*cap * sz, 0, (size_t)(c - *cap) * sz);
	*cap = c;
}

double
now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* the width of one value of a data directive of a section (.byte 1, .short 2, .word 4, .dword
 * 8); 0 for any other directive */
unsigned
data_dir_width(const char *dir)
{
	static const struct { const char *name; unsigned width; } dirs[] = {
		{ ".byte", 1 }, { ".short", 2 }, { ".word", 4 }, { ".dword", 8 },
	};
	for (size_t k = 0; k < sizeof dirs / sizeof *dirs; k++)
		if (strcmp(dir, dirs[k].name) == 0)
			return dirs[k].width;
	return 0;
}
