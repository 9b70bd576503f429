/* cfg.c: split a function's linear instruction list into basic blocks, link them and number
 * them in reverse post-order. Blocks are slices of f->ins (no copy), in layout order; an edit
 * (edit.c) gives a block an array of its own until fn_relayout.
 *
 * A block starts at instruction 0, at a label that something refers to (a branch, BSSY, a
 * WARPSYNC.COLLECTIVE, an internal CALL) and after an instruction that ends a block (see
 * ctl_of). Labels are Ins.label, Fn.xlabel, Fn.endlabel and the ILabel items of the text
 * section (before the code, or before a directive between instructions: Item.off).
 * Control rules, checked against nvdisasm listings of sm_80..sm_90:
 *   BRA/JMP `(L)        unguarded and no operand but the label: one successor, L. Guarded, or
 *                       with a condition operand (BRA.DIV ~URZ, `@!P2 BRA !P1, L`, BRA.U UP0):
 *                       fall-through, then L.
 *   BRX/JMX, BRA Rx     indirect: with nvdisasm's annotation `(*"BRANCH_TARGETS .L_1,.L_2"*)`
 *                       (Ins.targets), exactly the listed labels; without it, every labelled
 *                       instruction of the function is a possible target (conservative; the jump
 *                       tables of .nv.info are not read). Guarded: fall-through as well.
 *   EXIT, KILL, RET     unguarded: no successor; guarded: fall-through. RET's label operand
 *                       names the function and is not a target.
 *   CALL `(L)           fall-through. If L is a label of this function (nvcc's internal
 *                       subroutines such as $__internal_0_$__cuda_sm20_rcp_rn_f32_slowpath), L
 *                       starts a block, and the call is recorded in cfg_callee(), not as a succ.
 *   BSSY Bx, `(L)       L starts a block (reconvergence point); BSSY itself falls through and
 *                       does not end its block. BSYNC, BREAK, WARPSYNC Rx: plain instructions.
 *   WARPSYNC.COLLECTIVE Rx, `(L)  like a conditional branch: the collective body, then L.
 *   ENDCOLLECTIVE       ends its block; its successor is L of the nearest collective above.
 *   other OFTerm ops    like EXIT.
 * The entry of the function and of every internal subroutine must have no predecessor, so that
 * SSA has a place for the values on entry: when such an entry is also a branch target (a loop at
 * the very top) or reached by fall-through, an empty block is put in front of it. Blocks that
 * nothing reaches keep rpo = UINT32_MAX (nvcc's trailing `BRA `(.L_x_N)` self-loop and NOPs).
 * Reachable means reachable from the entry or from the entry of a subroutine that a reachable
 * CALL enters; f->rpo holds the entry's blocks first, then each subroutine's, in call order.
 *
 * Memory: f->blk is the base of one malloc'd block that also holds f->rpo, the Blk structs, the
 * edge arrays and the callee table; dom.c's arrays hang off f->blk[0]->dom and ssa.c's off
 * f->val[0]; cfg_free releases all three.
 */
#include "ir.h"

#include <stdlib.h>
#include <string.h>

enum Ctl {
	CNone,             /* falls through, does not end a block */
	CBra,              /* direct branch with a label: BRA, JMP */
	CBrx,              /* indirect branch: BRX, JMX, or BRA/JMP without a label */
	CExit,             /* EXIT, KILL: ends the thread */
	CRet,              /* RET */
	CCall,             /* CALL: falls through */
	CBssy,             /* BSSY: its label starts a block */
	CColl,             /* WARPSYNC.COLLECTIVE Rx, `(L) */
	CEndColl,          /* ENDCOLLECTIVE */
	CTerm,             /* any other opcode flagged OFTerm */
};

enum {
	LLead = 1,         /* instruction starts a block */
	LPre = 2,          /* an empty entry block goes in front of it */
	LRoot = 4,         /* entry of the function or of an internal subroutine */
	LTarget = 8,       /* a branch (not a call or a BSSY) goes to it */
	LLabel = 16,       /* a label is defined at it */
};

static int
ctl_name(const char *s)
{
	/* most opcodes fail this first test */
	if (!strchr("BJEKRCW", s[0]))
		return CNone;
	static const struct { const char *name; int ctl; } tab[] = {
		{"BRA", CBra}, {"JMP", CBra}, {"BRX", CBrx}, {"JMX", CBrx}, {"EXIT", CExit},
		{"KILL", CExit}, {"RET", CRet}, {"CALL", CCall}, {"BSSY", CBssy},
		{"WARPSYNC", CColl}, {"ENDCOLLECTIVE", CEndColl},
	};

	for (size_t k = 0; k < sizeof tab / sizeof tab[0]; k++)
		if (strcmp(s, tab[k].name) == 0)
			return tab[k].ctl;
	return CNone;
}

/* index of the first label operand, or -1 */
static int
label_opnd(const Ins *i)
{
	for (int k = 0; k < i->nopnd; k++)
		if (i->opnd[k].kind == OLabel)
			return k;
	return -1;
}

/* control class of an opcode family: by name first, then by the table's flags */
static int
ctl_family(const char *name, uint32_t fl)
{
	int c = name ? ctl_name(name) : CNone;

	if (c != CNone)
		return c;
	if (fl & OFBranch)
		return CBra;
	if (fl & OFExit)
		return CExit;
	if (fl & OFCall)
		return CCall;
	if (fl & OFRet)
		return CRet;
	if (fl & OFTerm)
		return CTerm;
	return CNone;
}

/* the control class of i: by opcode, by name when the table has no row for it */
static int
ctl_of(const Fn *f, const Ins *i)
{
	int c;

	switch (i->op) {
	case OBRA: case OJMP: c = CBra; break;
	case OBRX: case OJMX: c = CBrx; break;
	case OEXIT: case OKILL: c = CExit; break;
	case ORET: c = CRet; break;
	case OCALL: c = CCall; break;
	case OBSSY: c = CBssy; break;
	case OWARPSYNC: c = CColl; break;
	case OENDCOLLECTIVE: c = CEndColl; break;
	case Ounknown: c = ctl_family(mstr(f->mod, i->name), 0); break;
	default: c = ctl_family(NULL, i->op < NOp ? optab[i->op].flags : 0); break;
	}
	if (c == CBra && label_opnd(i) < 0)
		c = CBrx;
	if (c == CColl && label_opnd(i) < 0)
		c = CNone;     /* a plain WARPSYNC */
	return c;
}

/* the guard is a real condition (not absent, not @PT) */
static int
guard_cond(const Ins *i)
{
	return i->guarded && !(reg_isconst(i->guard.r[0]) && !(i->guard.flags & FLNot));
}

/* a direct branch is conditional: guarded, or has an operand besides the label (BRA.DIV ~URZ) */
static int
bra_cond(const Ins *i)
{
	if (guard_cond(i))
		return 1;
	for (int k = 0; k < i->nopnd; k++) {
		const Opnd *o = &i->opnd[k];
		if (o->kind == OLabel)
			continue;
		if (o->kind == OReg && reg_isconst(o->r[0]) && RCLS(o->r[0]) != RR &&
		    !(o->flags & (FLNot | FNot)))
			continue; /* PT, UPT: always true */
		return 1;
	}
	return 0;
}

int
cfg_ends_block(const Fn *f, const Ins *i)
{
	switch (ctl_of(f, i)) {
	case CNone:
	case CBssy:
		return 0;
	default:
		return 1;
	}
}

/* ---------------------------------------------------------------------------------------------
 * Label table: atom -> instruction index (nins for the end label), open addressing.
 */
typedef struct {
	uint32_t *key;     /* atoms, 0 empty */
	uint32_t *idx;     /* instruction index */
	uint32_t mask;     /* size - 1 */
} Labels;

static uint32_t *
lab_find(Labels *t, uint32_t a)
{
	uint32_t h = (a * 2654435761u) & t->mask;

	while (t->key[h] && t->key[h] != a)
		h = (h + 1) & t->mask;
	return &t->key[h];
}

static int
lab_add(Labels *t, uint32_t a, uint32_t idx)
{
	uint32_t *k = lab_find(t, a);

	if (*k)
		return -1;
	*k = a;
	t->idx[k - t->key] = idx;
	return 0;
}

/* instruction index of label a, or -1 */
static int64_t
lab_get(Labels *t, uint32_t a)
{
	uint32_t *k = lab_find(t, a);

	return *k ? (int64_t)t->idx[k - t->key] : -1;
}

static void
labels_build(Fn *f, Labels *t, Diag *d, int *err)
{
	uint32_t n = 4, size = 16;

	for (uint32_t k = 0; k < f->nins; k++)
		n += f->ins[k].label != 0;
	n += f->nxlabel + (f->text ? f->text->nitem : 0);
	while (size < 2 * n)
		size *= 2;
	t->key = xmalloc(size * sizeof *t->key);
	t->idx = xmalloc(size * sizeof *t->idx);
	t->mask = size - 1;
	for (uint32_t k = 0; k < f->nins; k++)
		if (f->ins[k].label && lab_add(t, f->ins[k].label, k) < 0) {
			error_at(d, f->ins[k].loc, "label '%s' is defined twice",
			         mstr(f->mod, f->ins[k].label));
			*err = 1;
		}
	for (uint32_t k = 0; k < f->nxlabel; k++) {
		uint32_t at = f->xlabel[2 * k], a = f->xlabel[2 * k + 1];
		if (a && lab_add(t, a, at) < 0) {
			error_at(d, at < f->nins ? f->ins[at].loc : f->loc, "label '%s' is defined twice",
			         mstr(f->mod, a));
			*err = 1;
		}
	}
	/* labels kept as items of the text section: before the code (off -1), or before a
	 * directive between instructions (off: the instruction that follows) */
	for (uint32_t k = 0; f->text && k < f->text->nitem; k++) {
		const Item *it = &f->text->item[k];
		if (it->kind == ILabel && it->name)
			lab_add(t, it->name, it->off < 0 ? 0 : (uint32_t)it->off > f->nins ? f->nins :
			        (uint32_t)it->off);
	}
	if (f->endlabel)
		lab_add(t, f->endlabel, f->nins);
	if (f->name)
		lab_add(t, f->name, 0); /* the function's own symbol, unless a label shadows it */
}

/* ---------------------------------------------------------------------------------------------
 * Building.
 */
typedef struct {
	Fn *f;             /* the function */
	uint8_t *ctl;      /* per instruction: Ctl */
	int64_t *tgt;      /* per instruction: target index of its label operand, -1 none */
	uint8_t *lf;       /* per instruction + 1: LLead, LPre, ... */
	uint32_t *bof;     /* per leader index: id of the block that starts there */
	uint32_t *labs;    /* indices of labelled instructions (targets of indirect branches) */
	uint32_t nlabs;
	int indirect;      /* the function has an indirect branch without a target list */
	Labels *lt;        /* labels of the function */
	uint32_t ntgt;     /* labels in the target lists of indirect branches */
} Build;

/* an indirect branch with a target list (Ins.targets) */
static int
listed(const Ins *i)
{
	return i->targets && i->targets->n;
}

/* append to out[] the successors of the block ending before e (e > its start): fall-through
 * first, no duplicates */
static uint32_t
succs(Build *B, uint32_t e, uint32_t *out)
{
	Fn *f = B->f;
	const Ins *last = &f->ins[e - 1];
	uint32_t n = 0, ft = e < f->nins || (B->lf[f->nins] & LLead) ? B->bof[e] : UINT32_MAX;
	int c = B->ctl[e - 1];
	int64_t t = B->tgt[e - 1];

#define ADD(b) do { uint32_t b_ = (b), k_; \
		for (k_ = 0; k_ < n && out[k_] != b_; k_++) ; \
		if (k_ == n) out[n++] = b_; } while (0)
	switch (c) {
	case CBra:
		if (bra_cond(last) && ft != UINT32_MAX)
			ADD(ft);
		if (t >= 0)
			ADD(B->bof[t]);
		break;
	case CBrx:
		if (guard_cond(last) && ft != UINT32_MAX)
			ADD(ft);
		if (listed(last)) {
			for (uint32_t k = 0; k < last->targets->n; k++)
				if ((t = lab_get(B->lt, last->targets->label[k])) >= 0)
					ADD(B->bof[t]);
			break;
		}
		for (uint32_t k = 0; k < B->nlabs; k++)
			ADD(B->bof[B->labs[k]]);
		break;
	case CExit:
	case CRet:
	case CTerm:
		if (guard_cond(last) && ft != UINT32_MAX)
			ADD(ft);
		break;
	case CColl:
		if (ft != UINT32_MAX)
			ADD(ft);
		if (t >= 0)
			ADD(B->bof[t]);
		break;
	case CEndColl:
		if (t >= 0)
			ADD(B->bof[t]);
		else if (ft != UINT32_MAX)
			ADD(ft);
		break;
	default:
		if (ft != UINT32_MAX)
			ADD(ft);
		break;
	}
#undef ADD
	return n;
}

/* pass 1: classify, resolve labels, mark leaders; returns -1 after reporting */
static int
mark(Build *B, Labels *lt, Diag *d)
{
	Fn *f = B->f;
	int err = 0;
	int64_t coll = -1;

	for (uint32_t k = 0; k < f->nins; k++) {
		Ins *i = &f->ins[k];
		int c = ctl_of(f, i), lo = label_opnd(i);
		int64_t t = -1;

		B->ctl[k] = (uint8_t)c;
		if (i->label)
			B->lf[k] |= LLabel;
		if (lo >= 0 && c != CRet) {
			uint32_t a = i->opnd[lo].atom;
			t = lab_get(lt, a);
			if (t < 0 && (c == CBra || c == CBssy || c == CColl)) {
				error_at(d, i->loc, "label '%s' is never defined", mstr(f->mod, a));
				err = 1;
			}
			if (t == (int64_t)f->nins && c == CCall)
				t = -1;   /* calling the end of the function: treat as external */
		}
		if (c == CEndColl)
			t = coll;
		if (c == CColl)
			coll = t;
		B->tgt[k] = t;
		if (t >= 0) {
			B->lf[t] |= LLead;
			if (c == CCall)
				B->lf[t] |= LRoot;
			else if (c != CBssy)
				B->lf[t] |= LTarget;
		}
		if (c != CNone && c != CBssy)
			B->lf[k + 1] |= LLead;
		if (c == CBrx && listed(i)) {
			for (uint32_t j = 0; j < i->targets->n; j++) {
				uint32_t a = i->targets->label[j];
				if ((t = lab_get(lt, a)) < 0) {
					error_at(d, i->loc, "label '%s' is never defined", mstr(f->mod, a));
					err = 1;
					continue;
				}
				B->lf[t] |= LLead | LTarget;
			}
			B->ntgt += i->targets->n;
		} else if (c == CBrx) {
			B->indirect = 1;
		}
	}
	for (uint32_t k = 0; k < f->nxlabel; k++)
		if (f->xlabel[2 * k] < f->nins)
			B->lf[f->xlabel[2 * k]] |= LLabel;
	/* label items: between instructions, or local (.L) ones before the code; the symbols of
	 * the function before its code are no jump targets */
	for (uint32_t k = 0; f->text && k < f->text->nitem; k++) {
		const Item *it = &f->text->item[k];
		if (it->kind == ILabel && it->off < (int32_t)f->nins &&
		    (it->off >= 0 || strncmp(mstr(f->mod, it->name), ".L", 2) == 0))
			B->lf[it->off < 0 ? 0 : it->off] |= LLabel;
	}
	if (B->indirect) {
		/* every labelled instruction may be a target */
		for (uint32_t k = 0; k < f->nins; k++)
			if (B->lf[k] & LLabel) {
				B->lf[k] |= LLead | LTarget;
				B->labs[B->nlabs++] = k;
			}
	}
	B->lf[0] |= LLead | LRoot;
	/* the end label is a block only if a branch goes there */
	if (!(B->lf[f->nins] & LTarget))
		B->lf[f->nins] &= (uint8_t)~LLead;
	/* entries reached by a branch or by fall-through get an empty block in front */
	for (uint32_t k = 0; k < f->nins; k++) {
		if (!(B->lf[k] & LRoot))
			continue;
		if (B->lf[k] & LTarget)
			B->lf[k] |= LPre;
		else if (k > 0) {
			const Ins *p = &f->ins[k - 1];
			int pc = B->ctl[k - 1], ends;
			switch (pc) {
			case CBra: ends = !bra_cond(p); break;
			case CBrx: case CExit: case CRet: case CTerm: ends = !guard_cond(p); break;
			case CEndColl: ends = B->tgt[k - 1] >= 0 && B->tgt[k - 1] != (int64_t)k; break;
			default: ends = 0; break;
			}
			if (!ends)
				B->lf[k] |= LPre;
		}
	}
	return err ? -1 : 0;
}

/* depth-first search from root over unvisited blocks; appends the reverse post-order to rpo */
static void
dfs(Fn *f, Blk *root, Blk **rpo, uint32_t *nrpo, Blk **stk, uint32_t *pos)
{
	uint32_t sp = 0, base = *nrpo, npost = 0;

	root->rpo = 0;  /* visited */
	stk[sp] = root;
	pos[sp++] = 0;
	while (sp) {
		Blk *b = stk[sp - 1];
		if (pos[sp - 1] < b->nsucc) {
			Blk *s = b->succ[pos[sp - 1]++];
			if (s->rpo == UINT32_MAX) {
				s->rpo = 0;
				stk[sp] = s;
				pos[sp++] = 0;
			}
		} else {
			rpo[base + npost++] = b; /* post-order, reversed below */
			sp--;
		}
	}
	for (uint32_t a = 0, z = npost - 1; a < z; a++, z--) {
		Blk *t = rpo[base + a];
		rpo[base + a] = rpo[base + z];
		rpo[base + z] = t;
	}
	for (uint32_t k = 0; k < npost; k++)
		rpo[base + k]->rpo = base + k;
	*nrpo = base + npost;
	(void)f;
}

int
cfg_build(Fn *f, Diag *d)
{
	Labels lt = {0};
	Build B = {.f = f, .lt = &lt};
	uint32_t nins = f->nins, nblk = 0, nedge = 0, *sbuf, *scnt, *pcnt;
	size_t size;
	char *p;
	Blk *blks, **edges;
	int rc = 0;

	cfg_free(f);
	labels_build(f, &lt, d, &rc);
	B.ctl = xmalloc(nins + 1);
	B.tgt = xmalloc((nins + 1) * sizeof *B.tgt);
	B.lf = xmalloc(nins + 2);
	B.bof = xmalloc((nins + 1) * sizeof *B.bof);
	B.labs = xmalloc((nins + 1) * sizeof *B.labs);
	if (mark(&B, &lt, d) < 0 || rc) {
		rc = -1;
		goto out;
	}
	if (nins == 0)
		B.lf[0] = LLead | LRoot;
	/* number the blocks: [pre-block] block, in layout order */
	for (uint32_t k = 0; k <= nins; k++) {
		if (!(B.lf[k] & LLead))
			continue;
		if (k == nins && nins > 0 && !(B.lf[k] & LTarget))
			continue;
		if (B.lf[k] & LPre)
			nblk++;
		B.bof[k] = nblk++;
	}
	/* successors, counted into a scratch buffer first */
	sbuf = xmalloc(((size_t)nblk * 2 + (size_t)nblk * (B.nlabs + 1) + B.ntgt) * sizeof *sbuf);
	scnt = xmalloc((nblk + 1) * sizeof *scnt);
	pcnt = xmalloc((nblk + 1) * sizeof *pcnt);
	{
		uint32_t off = 0, s = 0;
		for (uint32_t k = 0; k <= nins; k++) {
			if (!(B.lf[k] & LLead) || (k == nins && nins > 0 && !(B.lf[k] & LTarget)))
				continue;
			uint32_t e = k + 1, id = B.bof[k];
			while (e < nins && !(B.lf[e] & LLead))
				e++;
			if (k == nins)
				e = k;
			if (B.lf[k] & LPre) {
				scnt[id - 1] = 1;
				sbuf[off++] = id;
			}
			s = off;
			if (e > k)
				off += succs(&B, e, sbuf + off);
			scnt[id] = off - s;
		}
		nedge = off;
	}
	for (uint32_t k = 0; k < nedge; k++)
		pcnt[sbuf[k]]++;

	size = (size_t)nblk * 3 * sizeof(Blk *) + (size_t)nblk * sizeof(Blk) +
	       (size_t)nedge * 2 * sizeof(Blk *);
	p = xmalloc(size);
	f->blk = (Blk **)p;
	f->rpo = f->blk + nblk;
	blks = (Blk *)(p + (size_t)nblk * 3 * sizeof(Blk *));
	edges = (Blk **)(blks + nblk);
	f->nblk = nblk;
	for (uint32_t b = 0; b < nblk; b++) {
		f->blk[b] = &blks[b];
		blks[b].id = b;
		blks[b].rpo = UINT32_MAX;
	}
	/* succs, and room for preds */
	{
		Blk **se = edges, **pe = edges + nedge;
		uint32_t off = 0;
		for (uint32_t b = 0; b < nblk; b++) {
			blks[b].succ = se;
			blks[b].nsucc = scnt[b];
			for (uint32_t k = 0; k < scnt[b]; k++)
				se[k] = &blks[sbuf[off + k]];
			se += scnt[b];
			off += scnt[b];
			blks[b].pred = pe;
			pe += pcnt[b];
		}
	}
	for (uint32_t k = 0; k <= nins; k++) {
		if (!(B.lf[k] & LLead) || (k == nins && nins > 0 && !(B.lf[k] & LTarget)))
			continue;
		uint32_t e = k + 1;
		while (e < nins && !(B.lf[e] & LLead))
			e++;
		if (k == nins)
			e = k;
		Blk *b = &blks[B.bof[k]];
		b->ins = f->ins ? f->ins + k : NULL;
		b->nins = e - k;
		if (B.lf[k] & LPre) {
			blks[B.bof[k] - 1].ins = b->ins;
			blks[B.bof[k] - 1].nins = 0;
		}
	}
	/* preds in block id order: walk the sources in id order */
	for (uint32_t b = 0; b < nblk; b++)
		for (uint32_t k = 0; k < blks[b].nsucc; k++) {
			Blk *s = blks[b].succ[k];
			s->pred[s->npred++] = &blks[b];
		}
	/* internal calls: callee[b] is the entry block of the subroutine b's last CALL enters */
	{
		Blk **callee = f->rpo + nblk;
		for (uint32_t b = 0; b < nblk; b++) {
			Blk *x = &blks[b];
			if (!x->nins)
				continue;
			uint32_t last = (uint32_t)(x->ins - f->ins) + x->nins - 1;
			if (B.ctl[last] == CCall && B.tgt[last] >= 0) {
				uint32_t t = (uint32_t)B.tgt[last];
				callee[b] = &blks[B.bof[t] - ((B.lf[t] & LPre) ? 1 : 0)];
			}
		}
	}
	/* reverse post-order: the entry's blocks, then every subroutine that they call */
	{
		Blk **stk = xmalloc((nblk + 1) * sizeof *stk), **callee = f->rpo + nblk;
		uint32_t *pos = xmalloc((nblk + 1) * sizeof *pos), n = 0;
		if (nblk) {
			dfs(f, f->blk[0], f->rpo, &n, stk, pos);
			for (uint32_t k = 0; k < n; k++) {
				Blk *c = callee[f->rpo[k]->id];
				if (c && c->rpo == UINT32_MAX)
					dfs(f, c, f->rpo, &n, stk, pos);
			}
		}
		f->nrpo = n;
		free(stk);
		free(pos);
	}
	free(sbuf);
	free(scnt);
	free(pcnt);
out:
	free(lt.key);
	free(lt.idx);
	free(B.ctl);
	free(B.tgt);
	free(B.lf);
	free(B.bof);
	free(B.labs);
	return rc;
}

Blk *
cfg_callee(const Fn *f, const Blk *b)
{
	if (!f->blk || b->id >= f->nblk)
		return NULL;
	return f->rpo[f->nblk + b->id];
}

void
cfg_free(Fn *f)
{
	if (!f->blk)
		return;
	fn_relayout(f);    /* edits not laid out yet (edit.c) reach Fn.ins before the blocks go */
	ssa_release(f);
	if (f->nblk)
		free(f->blk[0]->dom);
	free(f->blk);
	f->blk = NULL;
	f->rpo = NULL;
	f->nblk = 0;
	f->nrpo = 0;
	f->in_ssa = 0;
	f->nval = 0;       /* values point at blocks */
}

/* ---------------------------------------------------------------------------------------------
 * Graphviz: one box per block with its phis and instructions; dashed edges for internal calls.
 */
static void
dot_str(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')   /* box nodes: only these need escaping */
			fputc('\\', out);
		fputc(*s, out);
	}
	fputs("\\l", out);
}

static void
dot_val(char *buf, size_t n, const Fn *f, uint32_t v)
{
	char r[16];

	if (!v || v >= f->nval) {
		snprintf(buf, n, "_");
		return;
	}
	reg_name(f->val[v].reg, r, sizeof r);
	snprintf(buf, n, "%s<%u>", r, f->val[v].ver);
}

int
cfg_dot(FILE *out, Fn *f)
{
	char buf[512], a[32];

	fprintf(out, "digraph \"%s\" {\n", mstr(f->mod, f->name));
	fprintf(out, "\tnode [shape=box fontname=\"monospace\" fontsize=10];\n");
	for (uint32_t b = 0; b < f->nblk; b++) {
		Blk *x = f->blk[b];
		fprintf(out, "\tbb%u [label=\"", b);
		snprintf(buf, sizeof buf, "bb%u%s", b, x->rpo == UINT32_MAX ? " (unreachable)" : "");
		dot_str(out, buf);
		for (Phi *p = f->in_ssa ? x->phi : NULL; p; p = p->link) {
			int n;
			dot_val(a, sizeof a, f, p->to);
			n = snprintf(buf, sizeof buf, "%s = phi(", a);
			for (uint32_t k = 0; k < p->narg && n < (int)sizeof buf; k++) {
				dot_val(a, sizeof a, f, p->arg[k]);
				n += snprintf(buf + n, sizeof buf - n, "%sbb%u: %s", k ? ", " : "",
				              k < x->npred ? x->pred[k]->id : 0, a);
			}
			if (n < (int)sizeof buf)
				snprintf(buf + n, sizeof buf - n, ")");
			dot_str(out, buf);
		}
		for (uint32_t k = 0; k < x->nins; k++) {
			fmt_ins(buf, sizeof buf, f, &x->ins[k], f->in_ssa);
			dot_str(out, buf);
		}
		fprintf(out, "\"%s];\n", x->rpo == UINT32_MAX ? " style=dashed color=gray" : "");
	}
	for (uint32_t b = 0; b < f->nblk; b++) {
		Blk *x = f->blk[b], *c = cfg_callee(f, x);
		for (uint32_t k = 0; k < x->nsucc; k++)
			fprintf(out, "\tbb%u -> bb%u;\n", b, x->succ[k]->id);
		if (c)
			fprintf(out, "\tbb%u -> bb%u [style=dashed label=\"call\"];\n", b, c->id);
	}
	fprintf(out, "}\n");
	return ferror(out) ? -1 : 0;
}
