/* tmem_tmp.c: TEMPORARY fixed-latency memory model for bring-up (replaced by tmem.c) */
#include "timing.h"
#include <stdlib.h>
#include <string.h>
struct MemSys { const SimConfig *c; };
struct SmMem { const SimConfig *c; uint64_t mio; };
MemSys *memsys_new(const SimConfig *c) { MemSys *m = xmalloc(sizeof *m); m->c = c; return m; }
void memsys_free(MemSys *m) { free(m); }
SmMem *smmem_new(MemSys *m, const SimConfig *c, unsigned id) { SmMem *s = xmalloc(sizeof *s); (void)m; (void)id; s->c = c; s->mio = 0; return s; }
void smmem_free(SmMem *s) { free(s); }
void smmem_access(SmMem *s, const MemLog *log, uint64_t now, MemTiming *t) {
	unsigned lat = s->c->t.lat_l1;
	if (log->acc[0].space == MSShared) lat = s->c->t.lat_lds;
	if (log->acc[0].space == MSConst) lat = s->c->t.lat_const;
	uint64_t st = now > s->mio ? now : s->mio; s->mio = st + s->c->t.mio_ii;
	t->src_read = st + s->c->t.lat_src_read; t->done = st + lat;
}
uint64_t smmem_mio_ready(const SmMem *s, unsigned p, uint64_t now) { (void)p; return s->mio > now + 8 ? s->mio - 8 : now; }
void smmem_mio_take(SmMem *s, unsigned p, uint64_t now) { (void)p; uint64_t st = now > s->mio ? now : s->mio; s->mio = st + s->c->t.mio_ii; }
void memsys_epoch_end(MemSys *m, SmMem *const *sms, unsigned n, uint64_t end) { (void)m; (void)sms; (void)n; (void)end; }
void smmem_stats(const SmMem *s, SimTStats *st) { (void)s; (void)st; }
void memsys_stats(const MemSys *m, SimTStats *st) { (void)m; (void)st; }
