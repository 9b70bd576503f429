/* nvinfo.c: kernel metadata from the data sections of an nvdisasm listing, into Fn.info.
 *
 * .nv.info and .nv.info.<fn> hold attributes, each printed after a `//----- nvinfo : EIATTR_X`
 * comment as `.byte FMT, ATTR` then a value: FMT 1 none, 2 a byte, 3 a half (.short), 4 a size
 * (.short, often `(.L_1 - .L_0)`) and that many bytes of payload. The attribute is identified by
 * its ATTR byte, not by the comment. Also read: `.sectioninfo @"SHI_REGISTERS=N"` and
 * `.other fn,@"STO_CUDA_ENTRY ..."` of the text section, and the `.zero` size of .nv.shared.<fn>.
 */
#include "parse.h"

#include <stdlib.h>
#include <string.h>

enum {
	EiMaxThreads = 0x05,
	EiParamCbank = 0x0a,
	EiReqntid = 0x10,
	EiFrameSize = 0x11,
	EiMinStackSize = 0x12,
	EiKparamInfo = 0x17,
	EiCbankParamSize = 0x19,
	EiMaxregCount = 0x1b,
	EiExitInstrOffsets = 0x1c,
	EiRegcount = 0x2f,
};

enum { MaxPayload = 4096 };

/* one attribute: its bytes, and the symbolic value (if any) that starts at each byte */
typedef struct Attr {
	int fmt;           /* EIFMT: 1..4 */
	int attr;          /* EIATTR code */
	uint32_t n;        /* payload bytes */
	uint8_t b[MaxPayload];       /* payload */
	const Expr *sym[MaxPayload]; /* a non-numeric value starting at this byte */
} Attr;

static int
dirsize(const char *d)
{
	if (strcmp(d, ".byte") == 0)
		return 1;
	if (strcmp(d, ".short") == 0)
		return 2;
	if (strcmp(d, ".word") == 0)
		return 4;
	if (strcmp(d, ".dword") == 0)
		return 8;
	return 0;
}

static void
put(Attr *a, const Expr *e, int size)
{
	uint64_t v = e->kind == ENum ? (uint64_t)e->num : 0;

	if (a->n + (uint32_t)size > MaxPayload)
		return;
	a->sym[a->n] = e->kind == ENum ? NULL : e;
	for (int k = 0; k < size; k++)
		a->b[a->n++] = (uint8_t)(v >> (8 * k));
}

static uint32_t
rd(const Attr *a, uint32_t at, int size)
{
	uint32_t v = 0;

	for (int k = size - 1; k >= 0; k--)
		v = v << 8 | (at + (uint32_t)k < a->n ? a->b[at + (uint32_t)k] : 0);
	return v;
}

/* the function named by a symbolic value: index@(fn), index@(.nv.constant0.fn) */
static Fn *
fn_of_sym(Module *m, const Expr *e)
{
	const char *s;

	if (!e)
		return NULL;
	if (e->kind == EFunc && e->a)
		e = e->a;
	if (e->kind != ESym)
		return NULL;
	s = mstr(m, e->atom);
	if (strncmp(s, ".nv.constant", 12) == 0 && (s = strchr(s + 12, '.')))
		s++;
	return module_fn(m, s);
}

/* byte address of label a in f, -1 if f has no such label */
static int64_t
label_addr(const Fn *f, uint32_t a)
{
	uint32_t at = UINT32_MAX;

	for (uint32_t k = 0; k < f->nins && at == UINT32_MAX; k++)
		if (f->ins[k].label == a)
			at = k;
	for (uint32_t k = 0; k < f->nxlabel && at == UINT32_MAX; k++)
		if (f->xlabel[2 * k + 1] == a)
			at = f->xlabel[2 * k];
	if (at == UINT32_MAX && f->endlabel == a)
		at = f->nins;
	if (at == UINT32_MAX)
		return a == f->name ? 0 : -1;
	if (at < f->nins && f->ins[at].addr >= 0)
		return f->ins[at].addr;
	if (at == f->nins && f->nins && f->ins[f->nins - 1].addr >= 0)
		return f->ins[f->nins - 1].addr + 16;
	return 16 * (int64_t)at;
}

static void
decode(Module *m, Fn *owner, Attr *a)
{
	KInfo *k;
	Fn *f = owner;

	switch (a->attr) {
	case EiRegcount:
	case EiFrameSize:
	case EiMinStackSize:
		/* global .nv.info: index@(fn), value */
		if (a->n >= 8 && a->sym[0])
			f = fn_of_sym(m, a->sym[0]);
		if (!f || a->n < 8)
			return;
		k = &f->info;
		if (a->attr == EiRegcount)
			k->regcount = (int)rd(a, 4, 4);
		else if (a->attr == EiFrameSize)
			k->frame_size = (int)rd(a, 4, 4);
		else
			k->min_stack_size = (int)rd(a, 4, 4);
		return;
	default:
		break;
	}
	if (!f)
		return;
	k = &f->info;
	switch (a->attr) {
	case EiMaxThreads:
	case EiReqntid:
		for (int j = 0; j < 3 && (uint32_t)(4 * j + 4) <= a->n; j++)
			(a->attr == EiMaxThreads ? k->max_threads : k->reqntid)[j] = (int)rd(a, 4u * (uint32_t)j, 4);
		return;
	case EiKparamInfo: {
		Param *p;
		if (a->n < 12)
			return;
		p = arena_alloc(m->arena, (k->nparam + 1) * sizeof *p);
		if (k->nparam)
			memcpy(p, k->param, k->nparam * sizeof *p);
		k->param = p;
		p = &k->param[k->nparam++];
		p->ordinal = rd(a, 4, 2);
		p->offset = rd(a, 6, 2);
		p->flags = rd(a, 8, 4);
		p->size = (p->flags >> 18) & 0x3fff;
		/* keep them sorted by ordinal (nvcc lists them last first) */
		for (uint32_t j = k->nparam - 1; j > 0 && k->param[j - 1].ordinal > k->param[j].ordinal; j--) {
			Param t = k->param[j];
			k->param[j] = k->param[j - 1];
			k->param[j - 1] = t;
		}
		return;
	}
	case EiCbankParamSize:
		k->cbank_param_size = (int)rd(a, 0, 2);
		return;
	case EiParamCbank:
		if (a->n >= 8) {
			k->param_cbank_off = (int)rd(a, 4, 2);
			k->param_cbank_size = (int)rd(a, 6, 2);
		}
		return;
	case EiMaxregCount:
		k->maxreg = (int)rd(a, 0, 2);
		return;
	case EiExitInstrOffsets: {
		uint32_t n = a->n / 4;
		k->exit_off = arena_alloc(m->arena, n * sizeof *k->exit_off);
		k->nexit = 0;
		for (uint32_t j = 0; j < n; j++) {
			const Expr *e = a->sym[4 * j];
			int64_t v = rd(a, 4 * j, 4);
			if (e && e->kind == EFunc && e->a && (e->a->kind == ESym))
				v = label_addr(f, e->a->atom);
			else if (e)
				v = -1;
			if (v >= 0)
				k->exit_off[k->nexit++] = (uint32_t)v;
		}
		return;
	}
	default:
		return;
	}
}

static void
info_section(Module *m, Section *s, Attr *a)
{
	const char *name = mstr(m, s->name);
	Fn *owner = strncmp(name, ".nv.info.", 9) == 0 ? module_fn(m, name + 9) : NULL;
	int state = 0;     /* 0: outside, 1: header expected, 2: size expected, 3: payload */
	uint32_t want = 0;

	for (uint32_t k = 0; k <= s->nitem; k++) {
		const Item *it = k < s->nitem ? &s->item[k] : NULL;
		int sz;

		if (!it || it->kind == INvinfo) {
			if (state >= 2 || (state == 1 && a->fmt))
				decode(m, owner, a);
			memset(a->sym, 0, a->n * sizeof a->sym[0]);
			memset(a, 0, offsetof(Attr, b));
			state = 1;
			want = 0;
			continue;
		}
		if (it->kind != IDir || state == 0)
			continue;
		sz = dirsize(mstr(m, it->name));
		if (!sz)
			continue;
		for (uint32_t j = 0; j < it->narg; j++) {
			const Expr *e = it->arg[j];
			if (state == 1) {
				if (!a->fmt)
					a->fmt = (int)e->num;
				else
					a->attr = (int)e->num, state = 2;
				continue;
			}
			if (state == 2) {
				if (a->fmt == 3 || a->fmt == 2) {
					put(a, e, sz);
					state = 3;
					want = 0;
					continue;
				}
				if (a->fmt != 4) {
					state = 3;
					continue;
				}
				/* the size: a number, or (.L_b - .L_a) which the payload itself measures */
				want = e->kind == ENum ? (uint32_t)e->num : UINT32_MAX;
				state = 3;
				continue;
			}
			if (a->fmt == 4 && a->n < want)
				put(a, e, sz);
		}
	}
}

/* `.other fn,@"STO_CUDA_ENTRY STV_DEFAULT"` and `.sectioninfo @"SHI_REGISTERS=N"` */
static void
text_section(Module *m, Section *s)
{
	Fn *f = s->fn;

	if (!f)
		return;
	for (uint32_t k = 0; k < s->nitem; k++) {
		const Item *it = &s->item[k];
		const char *d = mstr(m, it->name), *v;
		if (it->kind != IDir)
			continue;
		if (strcmp(d, ".other") == 0 && it->narg == 2 && it->arg[0]->kind == ESym
		    && it->arg[0]->atom == f->name && it->arg[1]->kind == EAttr
		    && strstr(mstr(m, it->arg[1]->atom), "STO_CUDA_ENTRY"))
			f->info.is_entry = 1;
		if (strcmp(d, ".sectioninfo") == 0 && it->narg == 1 && it->arg[0]->kind == EAttr
		    && (v = strstr(mstr(m, it->arg[0]->atom), "SHI_REGISTERS=")) && f->info.regcount < 0)
			f->info.regcount = atoi(v + 14);
	}
}

static void
shared_section(Module *m, Section *s)
{
	Fn *f = module_fn(m, mstr(m, s->name) + 11);
	int size = 0;

	if (!f)
		return;
	for (uint32_t k = 0; k < s->nitem; k++) {
		const Item *it = &s->item[k];
		if (it->kind == IDir && strcmp(mstr(m, it->name), ".zero") == 0 && it->narg == 1
		    && it->arg[0]->kind == ENum)
			size += (int)it->arg[0]->num;
	}
	f->info.shared_size = size;
}

void
nvinfo_decode(Module *m, Diag *d)
{
	/* .nv.info precedes the text sections: SHI_REGISTERS only fills a regcount it left unknown */
	Attr *a = xmalloc(sizeof *a);

	(void)d;
	for (uint32_t k = 0; k < m->nsec; k++) {
		Section *s = m->sec[k];
		switch (s->kind) {
		case SecInfo: info_section(m, s, a); break;
		case SecText: text_section(m, s); break;
		case SecShared: shared_section(m, s); break;
		default: break;
		}
	}
	free(a);
}
