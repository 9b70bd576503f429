/* memsys.h: the private interface between the per-SM memory model (smmem.c: MIO, shared memory,
 * L1, constant cache) and the memory system behind it (l2.c: L2 tags, DRAM, epoch merge).
 * Nothing outside these two files includes it; the public API is in timing.h.
 *
 * During an epoch each SM reads the MemSys (tags as of the epoch start, queueing delays) and
 * appends its L2 accesses to its own log; at its end memsys_epoch_begin merges the logs and
 * memsys_epoch_apply applies them, each part of the L2's sets on its own host thread.
 */
#ifndef FIBER_TMEM_H
#define FIBER_TMEM_H

#include "timing.h"

/* what an L2 access does to the sector */
enum L2Kind {
	L2Read,                /* a load's miss or bypass: read, allocate */
	L2Write,               /* a store (write-through from L1): allocate without reading DRAM */
	L2Atomic,              /* ATOM/RED at L2: read (from DRAM on a miss) and write */
};

/* one L2 access of an SM, in the order it made them, which is cycle order (the link to L2 sends
 * them one after the other) */
typedef struct L2Req {
	uint64_t cycle;        /* when it left the SM */
	uint64_t sector;       /* sector index: byte address / sector size */
	uint32_t set;          /* the first way of its L2 set (memsys_l2_line), found by the SM
	                          so that the epoch merge, which runs on one thread, need not */
	uint16_t slice;        /* its L2 slice */
	uint16_t kind;         /* L2Kind */
} L2Req;

/* where a line lives in the L2 */
typedef struct L2Where {
	uint32_t set;          /* the first way of its set */
	uint16_t slice;        /* its slice */
} L2Where;

/* l2.c: read-only during an epoch */
uint32_t memsys_l2_line(const MemSys *m, uint64_t line, uint64_t *delay, L2Where *at); /* the
                                    sectors of the L2 line present (bit i: sector i of the
                                    line); *delay: the queueing delay of its slice; *at: its
                                    set and slice */
void memsys_l2_prefetch(const MemSys *m, uint64_t line); /* a hint: line's set will be read */
uint64_t memsys_dram_delay(const MemSys *m);  /* queueing delay of a DRAM access */
unsigned memsys_sector_bytes(const MemSys *m);  /* a power of two */
unsigned memsys_line_shift(const MemSys *m);    /* log2 of the L2's sectors per line */

/* smmem.c: for memsys_epoch_end */
const L2Req *smmem_l2_log(const SmMem *s, size_t *n);  /* this epoch's accesses, in order */
void smmem_epoch_done(SmMem *s);                        /* forget them: a new epoch starts */

#endif /* FIBER_TMEM_H */
