/* check.c: compute-sanitizer's checks as a launch-time variant of a kernel (fibersim --racecheck).
 * sim_check_new makes, for one launch, a copy of the kernel's decoded program whose memory,
 * barrier and exit instructions run through wrappers here: they call the instruction's own
 * semantics, then hand what it did (the accesses it logged in a MemLog, a barrier it released)
 * to the check (racecheck.c). The plain program is untouched, so an unchecked launch runs exactly
 * the code it ran before, with no test per access. Each CTA slot gets its state when cta_start
 * places a CTA there (the only hook in the drivers); the findings are kept per launch, merged
 * per pair of instructions, and printed in compute-sanitizer's style by sim_check_report.
 */
#include "sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

struct SimChecker {
	unsigned checks;       /* SimCheck bits */
	Prog prog;             /* the checked variant: Prog's fields, its own ins[] */
	ExecFn *orig;          /* per instruction, its own semantics */
	uint8_t *spin;         /* per instruction, 1: a load that polls a flag (spin_loads) */
	uint8_t *sync;         /* per instruction: SyncBar, SyncWarp or 0 (synccheck.c checks) */
	mtx_t lock;            /* SMs simulated in parallel: slots and findings */
	ChkCta **slot;         /* the state of every CTA slot seen, by Cta address */
	uint32_t nslot, cslot;
	ChkFind *find;         /* findings, one per (kind, instruction pair, address) */
	uint32_t nfind, cfind;
	uint64_t dropped;      /* hazards of pairs past ChkMaxFind */
};

enum { ChkMaxFind = 1024 };   /* distinct pairs kept; the rest are counted */
enum { SyncBar = 1, SyncWarp, SyncExit };  /* Checker.sync: BAR.SYNC/.RED, WARPSYNC with a
                                              mask, EXIT */

/* the wrapped semantics of memory instructions: the accesses they log go to the checks */
static void
chk_mem(Exec *x, const DIns *d, uint32_t mask)
{
	SimChecker *k = x->gpu->chk;
	MemLog local, *saved = x->mlog, *l = saved ? saved : &local;
	unsigned n0;

	if (!saved) {
		local.n = 0;
		local.warp = 0;
		x->mlog = &local;
	}
	n0 = l->n;
	k->orig[d->pc](x, d, mask);
	x->mlog = saved;
	if (x->fault->kind != FaultNone || !x->cta->chk)
		return;
	for (unsigned i = n0; i < l->n && i < 2; i++) {
		if (k->checks & SimCheckRace)
			race_access(x, x->cta->chk, d, &l->acc[i], k->spin[d->pc]);
		if (k->checks & SimCheckInit)
			init_access(x, d, &l->acc[i]);
	}
}

/* barriers, exits and fences: a CTA barrier that completes orders what came before it; so does
 * a fence (MEMBAR), taken as ordering the CTA's accesses before it with those after it: the flag
 * it publishes (cooperative groups' tile barriers: MEMBAR, ATOM, a polling load) is not followed,
 * so no hazard is reported across a fence (some may be missed). A group of lanes that a WARPSYNC
 * releases (here, or when lanes of its mask exit) has passed a warp barrier; so have the lanes
 * running a NOP, which is what ptxas makes of a full-mask __syncwarp() in converged code
 * (docs/sim.md "Checks") */
static void
chk_sync(Exec *x, const DIns *d, uint32_t mask)
{
	SimChecker *k = x->gpu->chk;
	uint32_t before = x->bar_progress, waiting = x->w->wait_warpsync;

	x->bar_progress = 0;
	if ((k->checks & SimCheckSync) && k->sync[d->pc] == SyncBar)
		sync_bar(x, d, mask);
	else if ((k->checks & SimCheckSync) && k->sync[d->pc] == SyncWarp)
		sync_warpsync(x, d, mask);
	else if ((k->checks & SimCheckSync) && k->sync[d->pc] == SyncExit)
		sync_exit(x, d, mask);
	k->orig[d->pc](x, d, mask);
	if (x->cta->chk && x->fault->kind == FaultNone && (k->checks & SimCheckRace)) {
		if (d->op == OWARPSYNC)
			waiting |= mask;
		if (d->op == ONOP)
			race_warp_sync(x->cta->chk, x->w->id, mask);
		else if (d->op == OWARPSYNC || d->op == OEXIT)
			race_warp_sync(x->cta->chk, x->w->id, waiting & ~x->w->wait_warpsync);
	}
	if ((x->bar_progress || d->op == OMEMBAR) && x->cta->chk && x->fault->kind == FaultNone)
		race_barrier(x->cta->chk);
	x->bar_progress |= before;
}

/* the branch target of d (an instruction index), or -1 */
static int64_t
target(const DIns *d)
{
	for (unsigned k = 0; k < d->nsrc; k++)
		if (d->src[k].kind == DLabel)
			return d->src[k].imm;
	return -1;
}

/* Loads that poll a flag: a load inside a loop of at most SpinLoop instructions that stores
 * nothing (`while (flag != v);`, `LDS R0, [R2]; YIELD; ISETP; @P1 BRA` back), and a load of the
 * same address operand at most SpinLoop instructions before such a loop (its first iteration,
 * which the compiler peels). Their reads are how the threads synchronise, not hazards. */
enum { SpinLoop = 8 };

static int
same_addr(const DIns *a, const DIns *b)
{
	return a->op == b->op && a->nsrc == b->nsrc && a->nsrc > 0 &&
	       memcmp(&a->src[0], &b->src[0], sizeof a->src[0]) == 0;
}

static void
spin_loads(const Prog *p, uint8_t *spin)
{
	for (uint32_t j = 0; j < p->nins; j++) {
		int64_t t = target(&p->ins[j]);
		int stores = 0;
		if (p->ins[j].op != OBRA || t < 0 || t > j || j - t > SpinLoop)
			continue;
		for (uint32_t i = (uint32_t)t; i <= j; i++)
			stores |= (optab[p->ins[i].op].flags & OFStore) != 0;
		if (stores)
			continue;
		for (uint32_t i = (uint32_t)t; i < j; i++) {
			const DIns *d = &p->ins[i];
			if (!(optab[d->op].flags & OFLoad))
				continue;
			spin[i] = 1;
			for (uint32_t b = t > SpinLoop ? (uint32_t)t - SpinLoop : 0; b < t; b++)
				if (same_addr(&p->ins[b], d))
					spin[b] = 1;
		}
	}
}

static int
has_mod(const Prog *p, const Ins *i, const char *m)
{
	for (unsigned k = 0; k < i->nmod; k++)
		if (strcmp(mstr(p->fn->mod, i->mod[k]), m) == 0)
			return 1;
	return 0;
}

/* what synccheck checks before instruction d */
static uint8_t
sync_kind(const Prog *p, const DIns *d)
{
	if (!d->ir)
		return 0;
	if (d->op == OBAR && !has_mod(p, d->ir, "ARV"))
		return SyncBar;
	if (d->op == OWARPSYNC && !has_mod(p, d->ir, "ALL"))
		return SyncWarp;
	if (d->op == OEXIT)
		return SyncExit;
	return 0;
}

SimChecker *
sim_check_new(Gpu *g, const Prog *p, unsigned checks)
{
	SimChecker *k = xmalloc(sizeof *k);

	memset(k, 0, sizeof *k);
	k->checks = checks;
	if (mtx_init(&k->lock, mtx_plain) != thrd_success)
		die("check: mtx_init failed");
	k->prog = *p;
	k->prog.orig = p;
	k->prog.ins = xmalloc(((size_t)p->nins + 1) * sizeof *k->prog.ins);
	memcpy(k->prog.ins, p->ins, ((size_t)p->nins + 1) * sizeof *k->prog.ins);
	k->orig = xmalloc(((size_t)p->nins + 1) * sizeof *k->orig);
	k->spin = xmalloc((size_t)p->nins + 1);
	memset(k->spin, 0, (size_t)p->nins + 1);
	spin_loads(p, k->spin);
	k->sync = xmalloc((size_t)p->nins + 1);
	for (uint32_t i = 0; i <= p->nins; i++)
		k->sync[i] = i == p->nins ? 0 : sync_kind(p, &p->ins[i]);
	for (uint32_t i = 0; i <= p->nins; i++) {
		DIns *d = &k->prog.ins[i];
		uint32_t f = d->op < NOp ? optab[d->op].flags : 0;
		k->orig[i] = d->exec;
		if (i == p->nins || !d->exec)
			continue;
		if (f & (OFLoad | OFStore))
			d->exec = chk_mem;
		else if ((f & (OFBarrier | OFExit)) || d->op == OMEMBAR || d->op == ONOP)
			d->exec = chk_sync;
	}
	g->chk = k;
	return k;
}

const Prog *
sim_check_prog(const SimChecker *k)
{
	return &k->prog;
}

void
sim_check_free(Gpu *g)
{
	SimChecker *k = g->chk;

	if (!k)
		return;
	for (uint32_t i = 0; i < k->nslot; i++)
		race_cta_free(k->slot[i]);
	free(k->slot);
	free(k->find);
	free(k->prog.ins);
	free(k->orig);
	free(k->spin);
	free(k->sync);
	mtx_destroy(&k->lock);
	free(k);
	g->chk = NULL;
}

/* cta_start: the state of the slot c, now holding a new CTA */
void
sim_check_cta(Exec *x, Cta *c)
{
	SimChecker *k = x->gpu->chk;
	ChkCta *s = NULL;

	mtx_lock(&k->lock);
	for (uint32_t i = 0; i < k->nslot; i++)
		if (race_cta_of(k->slot[i]) == c)
			s = k->slot[i];
	if (!s) {
		s = race_cta_new(c, c->smem_size);
		vgrow(&k->slot, &k->cslot, k->nslot + 1, sizeof *k->slot);
		k->slot[k->nslot++] = s;
	}
	mtx_unlock(&k->lock);
	race_cta_start(s, c);
	c->chk = s;
}

/* whether hazard a is in a CTA before b's (z, y, x): the example kept, the same for any number
 * of host threads */
static int
cta_before(const ChkFind *a, const ChkFind *b)
{
	for (int j = 2; j >= 0; j--)
		if (a->cta[j] != b->cta[j])
			return a->cta[j] < b->cta[j];
	return 0;
}

/* one hazard of the pair f names at its address (its kind, instructions; the details of the one
 * in the first CTA kept) */
void
sim_check_find(Exec *x, const ChkFind *f)
{
	SimChecker *k = x->gpu->chk;

	mtx_lock(&k->lock);
	for (uint32_t i = 0; i < k->nfind; i++) {
		ChkFind *e = &k->find[i];
		if (e->kind == f->kind && e->pc[0] == f->pc[0] && e->pc[1] == f->pc[1] &&
		    e->addr == f->addr) {
			uint64_t n = e->n + 1;
			if (cta_before(f, e))
				*e = *f;
			e->n = n;
			mtx_unlock(&k->lock);
			return;
		}
	}
	if (k->nfind >= ChkMaxFind) {
		k->dropped++;
	} else {
		vgrow(&k->find, &k->cfind, k->nfind + 1, sizeof *k->find);
		k->find[k->nfind] = *f;
		k->find[k->nfind++].n = 1;
	}
	mtx_unlock(&k->lock);
}

static int
find_cmp(const void *a, const void *b)
{
	const ChkFind *p = a, *q = b;

	if (p->kind != q->kind)
		return p->kind < q->kind ? -1 : 1;
	if (p->pc[0] != q->pc[0])
		return p->pc[0] < q->pc[0] ? -1 : 1;
	if (p->pc[1] != q->pc[1])
		return p->pc[1] < q->pc[1] ? -1 : 1;
	return p->addr < q->addr ? -1 : p->addr > q->addr;
}

/* the thread index of lane l of warp w in a block of ntid */
static void
thread_of(const uint32_t ntid[3], uint32_t w, uint32_t l, uint32_t t[3])
{
	uint64_t lin = (uint64_t)w * WarpSize + l;

	t[0] = (uint32_t)(lin % ntid[0]);
	t[1] = (uint32_t)(lin / ntid[0] % ntid[1]);
	t[2] = (uint32_t)(lin / ((uint64_t)ntid[0] * ntid[1]));
}

static const char *const access_name[] = { "Read", "Write" };

/* whether shared offset a was polled by a spin load in some CTA (then its hazards are the
 * synchronisation of a flag, not reported) */
static int
polled(const SimChecker *k, uint32_t a)
{
	for (uint32_t i = 0; i < k->nslot; i++)
		if (race_polled(k->slot[i], a))
			return 1;
	return 0;
}

static void
print_pair(const SimChecker *k, FILE *f, const ChkFind *e, uint64_t n, const uint32_t ntid[3])
{
	const Prog *p = &k->prog;
	char ins[2][160] = { "", "" };
	uint32_t t[2][3];

	for (int j = 0; j < 2; j++) {
		const DIns *d = &p->ins[e->pc[j]];
		if (d->ir)
			fmt_ins(ins[j], sizeof ins[j], p->fn, d->ir, 0);
		thread_of(ntid, e->warp[j], e->lane[j], t[j]);
	}
	fprintf(f, "========= Error: Race reported between %s access at 0x%04x `%s` in '%s'\n"
	        "=========     and %s access at 0x%04x `%s` in '%s' [%llu hazard%s, %s]\n"
	        "=========     for example: __shared__ 0x%x in block (%u,%u,%u): %s by thread "
	        "(%u,%u,%u) (warp %u lane %u), then %s by thread (%u,%u,%u) (warp %u lane %u)\n",
	        access_name[e->write[0]], p->ins[e->pc[0]].addr, ins[0], p->name,
	        access_name[e->write[1]], p->ins[e->pc[1]].addr, ins[1], p->name,
	        (unsigned long long)n, n == 1 ? "" : "s", race_kind_name(e->kind), e->addr,
	        e->cta[0], e->cta[1], e->cta[2], e->write[0] ? "write" : "read", t[0][0], t[0][1],
	        t[0][2], e->warp[0], e->lane[0], e->write[1] ? "write" : "read", t[1][0], t[1][1],
	        t[1][2], e->warp[1], e->lane[1]);
}

static void
print_uninit(const SimChecker *k, FILE *f, const ChkFind *e, uint64_t n, const uint32_t ntid[3])
{
	const Prog *p = &k->prog;
	char ins[160] = "";
	uint32_t t[3];

	if (p->ins[e->pc[0]].ir)
		fmt_ins(ins, sizeof ins, p->fn, p->ins[e->pc[0]].ir, 0);
	thread_of(ntid, e->warp[0], e->lane[0], t);
	fprintf(f, "========= Uninitialized __global__ memory read of size %u bytes\n"
	        "=========     at 0x%04x `%s` in '%s' [%llu time%s]\n"
	        "=========     by thread (%u,%u,%u) (warp %u lane %u) in block (%u,%u,%u): address "
	        "0x%llx\n", e->size, p->ins[e->pc[0]].addr, ins, p->name, (unsigned long long)n,
	        n == 1 ? "" : "s", t[0], t[1], t[2], e->warp[0], e->lane[0], e->cta[0], e->cta[1],
	        e->cta[2], (unsigned long long)e->daddr);
}

static void
print_sync(const SimChecker *k, FILE *f, const ChkFind *e, uint64_t n, const uint32_t ntid[3])
{
	static const char *const what[] = {
		[ChkDivBar] = "Divergent thread(s) in warp",
		[ChkBarCount] = "Mismatched barrier thread counts",
		[ChkWarpsync] = "Invalid arguments",
	};
	const Prog *p = &k->prog;
	char ins[160] = "";
	uint32_t t[3];

	if (p->ins[e->pc[0]].ir)
		fmt_ins(ins, sizeof ins, p->fn, p->ins[e->pc[0]].ir, 0);
	thread_of(ntid, e->warp[0], e->lane[0], t);
	fprintf(f, "========= Barrier error detected. %s\n"
	        "=========     at 0x%04x `%s` in '%s' [%llu time%s]\n"
	        "=========     by thread (%u,%u,%u) (warp %u lane %u) in block (%u,%u,%u): ",
	        what[e->kind], p->ins[e->pc[0]].addr, ins, p->name, (unsigned long long)n,
	        n == 1 ? "" : "s", t[0], t[1], t[2], e->warp[0], e->lane[0], e->cta[0], e->cta[1],
	        e->cta[2]);
	if (e->kind == ChkDivBar)
		fprintf(f, "only the threads of lanes 0x%08x reach it\n", e->addr);
	else if (e->kind == ChkBarCount)
		fprintf(f, "count %u, other threads wait with another\n", e->addr);
	else
		fprintf(f, "WARPSYNC mask 0x%08x does not include the calling thread\n", e->addr);
}

/* Print the findings to f (compute-sanitizer's lines, "========= " first), one report per kind
 * and pair of instructions, in a fixed order (kind, the instructions' addresses) whatever order
 * the SMs found them in, leaving out the addresses of polled flags; the number of hazards
 * reported. ntid is the launch's block. */
uint64_t
sim_check_report(SimChecker *k, FILE *f, const uint32_t ntid[3])
{
	uint64_t total = k->dropped;
	uint32_t npair = 0, nsync = 0, ninit = 0;

	if (k->nfind)
		qsort(k->find, k->nfind, sizeof *k->find, find_cmp);
	for (uint32_t i = 0; i < k->nfind;) {
		const ChkFind *e = &k->find[i], *first = NULL;
		uint64_t n = 0;
		uint32_t j = i;
		for (; j < k->nfind && k->find[j].kind == e->kind && k->find[j].pc[0] == e->pc[0] &&
		       k->find[j].pc[1] == e->pc[1]; j++) {
			if (e->kind <= ChkWaw && polled(k, k->find[j].addr))
				continue;
			if (!first)
				first = &k->find[j];
			n += k->find[j].n;
		}
		i = j;
		if (!first)
			continue;
		if (e->kind <= ChkWaw) {
			print_pair(k, f, first, n, ntid);
			npair++;
		} else if (e->kind == ChkUninit) {
			print_uninit(k, f, first, n, ntid);
			ninit++;
		} else {
			print_sync(k, f, first, n, ntid);
			nsync++;
		}
		total += n;
	}
	if (k->dropped)
		fprintf(f, "=========     and %llu hazards past the first %d addresses and pairs\n",
		        (unsigned long long)k->dropped, ChkMaxFind);
	if (k->checks & SimCheckRace)
		fprintf(f, "========= RACECHECK SUMMARY: %u hazard%s displayed (%u error%s, 0 warnings)\n",
		        npair, npair == 1 ? "" : "s", npair, npair == 1 ? "" : "s");
	if (k->checks & SimCheckSync)
		fprintf(f, "========= SYNCCHECK SUMMARY: %u error%s\n", nsync, nsync == 1 ? "" : "s");
	if (k->checks & SimCheckInit)
		fprintf(f, "========= INITCHECK SUMMARY: %u error%s\n", ninit, ninit == 1 ? "" : "s");
	return total;
}
