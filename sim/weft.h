/* weft.h: FIBER register windows and empty/full state of an SM (weft.c), and the FIBER
 * instructions' waits (exec_fiber.c). Shared by the functional driver (launch.c) and the
 * timing driver (timing/launch.c, timing/sm.c). Only used when GpuConfig.fiber is set.
 *
 * The SM file (Sm.rf, 2048 vector registers) is cut into nsub slices of slice_regs registers;
 * slice s is V[s*slice_regs .. (s+1)*slice_regs - 1]. Pools lie at the top of their slice
 * (Fn.pool[k].base/size, computed by the front end); a weft's window lies in the slice of its
 * sub-partition, weft % nsub, at the lowest free run of registers (first fit from the bottom).
 */
#ifndef FIBER_WEFT_H
#define FIBER_WEFT_H

#include "sim.h"

#include <stddef.h>

/* every register of the SM free and Empty (before a launch's first CTA) */
void weft_reset(Sm *sm);
/* reserve fn's pools (their registers Empty): 0, or -1 with why filled ("pool kv (slice 0,
 * V480..V511) overlaps ...") */
int weft_pools(Sm *sm, const Fn *fn, char *why, size_t n);
/* Window of nreg registers for weft (CTA-relative index): first fit from the bottom of slice
 * weft % nsub over registers held by neither a pool nor another window. On success *base is
 * its first register (absolute), the registers are marked held, zeroed and Empty, and 0 is
 * returned; -1 when no run of nreg free registers is left in the slice, with why filled
 * ("slice 1 has no 40 free registers (12 free, largest run 12)"). nsub and slice_regs 0 mean
 * 4 and 512. nreg 0 succeeds with *base = the slice's bottom. */
int weft_place(Sm *sm, uint32_t nsub, uint32_t slice_regs, uint32_t nreg, uint32_t weft,
               uint32_t *base, char *why, size_t n);
/* free the window [base, base+nreg): the registers become free and Empty. Sm.nwin counts the
 * windows (weft contexts) of each slice: weft_place adds one, weft_free takes it back */
void weft_free(Sm *sm, uint32_t base, uint32_t nreg);
/* vector registers held by windows and pools */
uint32_t weft_used(const Sm *sm);

/* Busy-bit waits (exec_fiber.c). A weft whose lanes wait at DEPBAR.FULL/.EMPTY has them in
 * Warp.wait_busy (the warp is PeekBlocked). fiber_busy_recheck re-tests the condition of w's
 * waiting lanes and wakes them when it holds: 1 if it woke lanes. x->sm, x->prog must be set,
 * x->w may be any warp. The functional driver calls it for every weft with wait_busy before
 * stepping it; the timing driver must call it for blocked wefts of an SM with
 * Sm.busy_waiters != 0 whenever a register's state may have changed (any issue). */
int fiber_busy_recheck(Exec *x, Warp *w);
/* CTA c waits at a growing SETFIBERNUM its SM could not hold (Cta.fnum_wait; timing only,
 * while other CTAs were resident: docs/fiber-sm.md, "SM ownership"): try the release again
 * (after another CTA of the SM ended). 1 if it released the wefts (their wake-up is the
 * caller's: none of them issued), 0 if it still waits or faulted (alone on the SM, it does not
 * fit: FaultFiber as at the first try). Sets x->cta, x->w (NULL) and x->pc. */
int fiber_grow_retry(Exec *x, Cta *c);
/* the FIBER part of a deadlock report of CTA c (busy-bit and SETFIBERNUM waiters), appended to
 * buf; returns the new length */
int fiber_deadlock_text(Exec *x, Cta *c, char *buf, int len, int size);
/* a vector-register write by d for some lanes: its R destinations become Full (the FIBER
 * copies of sim_step and sim_run, chosen when Exec.fiber, call it after every instruction) */
void fiber_mark_full(Exec *x, const DIns *d);
/* Before d runs for a weft whose window is smaller than the kernel's (Warp.nreg < Prog.nreg:
 * only SETFIBERNUM's nreg makes one; the FIBER copies of sim_step and sim_run test that): every
 * R operand of d (destinations, sources, address and constant-bank index registers) lies in the
 * window. 0, or -1 after FaultFiber: a destination past it is a remote write, a source past it
 * a read outside the window (docs/fiber-isa.md section 2) */
int fiber_window_check(Exec *x, const DIns *d, uint32_t mask);
/* the semantics of an instruction with a pool destination (DFPoolDst; decode.c installs it and
 * keeps the family's in Prog.pool_exec): FaultFiber unless the weft's sub-partition owns the
 * pool's slice, else the family's semantics on a copy whose pool destinations are window
 * registers (the pool lies above every window of its slice) */
void fiber_pool_exec(Exec *x, const DIns *d, uint32_t mask);

#endif /* FIBER_WEFT_H */
