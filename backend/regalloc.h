/* regalloc.h: the state shared by the register allocator's files: raweb.c (live ranges split
 * into webs), regalloc.c (colouring, spill decisions, the pass) and rawrite.c (the rewrite:
 * registers, spill code, the frame, the listing). docs/pass-regalloc.md describes the method.
 *
 * Points: instruction g (layout order over the blocks) has two, 2g where it reads (its sources
 * and what lives across it) and 2g+1 where it writes (its results and what lives across it).
 * A value occupies a register over segments of points; two values may share a register when
 * their segments of it never meet. A web is what one register must hold as one: the segments
 * of a declaration that definitions and uses connect (across block edges, a guarded write and
 * the value it keeps, the registers of one tuple operand). Each web is a node to colour.
 */
#ifndef FIBER_REGALLOC_H
#define FIBER_REGALLOC_H

#include "codegen.h"

enum {
	RaPhysR = 255,     /* units 0..254: R0..R254 named by the text */
	RaPhysP = 255,     /* units 255..261: P0..P6 */
	RaVirt = 262,      /* the first unit of the virtual registers, then of the predicates */
	RaChunk = 16,      /* points per occupancy chunk */
	RaLateWin = 64,    /* instructions before a value's definition whose late reads it avoids */
	RaLateLevels = 4,  /* ... in windows of RaLateWin, /2, /4, /8 instructions, widest first */
	RaSysSaved0 = 16,  /* R16 .. */
	RaSysSaved1 = 31,  /* .. R31: saved by a system call's callee (ra_sys_saved) */
	RaGranule = 8,     /* registers a thread is given in (256 a warp: reg_alloc_unit) */
	RaNone = 0xffffffffu,
};

typedef struct RaSeg { uint32_t from, to; } RaSeg;   /* points, both included */

enum RaKind {
	NkDecl,            /* a web of a .vreg or .vpred declaration */
	NkHome,            /* the R register a spilled predicate web lives in */
	NkTemp,            /* a spill temporary at one instruction */
};

enum RaRefFlag {
	RfUse = 1,         /* the instruction reads it */
	RfDef = 2,         /* writes it */
	RfOld = 4,         /* writes it conditionally (a guard): the old value is read too */
	RfWide = 8,        /* a wide (2+ register) result: overlaps none of the sources */
};

/* one instruction's use of a node */
typedef struct RaRef {
	uint32_t ins;      /* instruction, global index in layout order */
	uint8_t fl;        /* RaRefFlag */
	uint32_t temp;     /* the node spilled: its temporary here */
} RaRef;

typedef struct RaNode {
	uint8_t cls;       /* RR or RP */
	uint8_t kind;      /* RaKind */
	uint8_t spilled;   /* spilled: its references go through temporaries */
	uint8_t failed;    /* found no register this round */
	uint16_t size;     /* registers */
	uint16_t align;    /* its first register is a multiple of this */
	int col;           /* first register, -1 none */
	uint32_t unit;     /* NkDecl, NkHome: the first unit of the declaration */
	uint32_t e0;       /* NkDecl, NkHome: its element e's segments are RA.seg[eoff[e0 + e] ..
	                      eoff[e0 + e + 1]) */
	RaSeg tseg;        /* NkTemp: the points it occupies */
	uint32_t start;    /* first point occupied, RaNone none */
	uint32_t len;      /* points occupied (spill choice) */
	uint32_t ref, nref; /* its references: RA.ref[ref .. ref + nref), by instruction */
	uint32_t home;     /* a spilled predicate: its NkHome node */
	int32_t slot;      /* a spilled R node: byte offset in the spill area */
} RaNode;

/* the occupancy of one register class over the points: per point a mask of the registers
 * taken, per chunk of RaChunk points the union (any) and what is taken over all of it (full) */
typedef struct RaOcc {
	unsigned w;        /* words per mask: 4 (R) or 1 (P) */
	uint32_t npt;      /* points */
	uint32_t nch;      /* chunks */
	uint64_t *pt, *any, *full;
} RaOcc;

typedef struct RA RA;

/* the FIBER window target (rawin.c, docs/pass-regalloc.md "The window target"): what regalloc
 * does differently for --mode=fiber-native. RA.win is NULL for the SIMT target (ptxas's
 * conventions: R0..R(maxreg-3), the count stated as the highest R + 3). */
typedef struct RaWin {
	int r1;            /* R1 is reserved as the stack pointer (spill code needs it) */
	uint64_t pin[4];   /* R registers pinned to a declaration another weft reads (rapin.c):
	                      reserved from the allocation, outside its pressure */
	int npin;          /* how many */
	int tuples_first;  /* colour larger nodes first, then in node order (else by first point) */
	int window;        /* the result: one past the highest R the function names */
	const uint8_t *cap; /* per instruction (global index g): the R registers it may name are
	                      R0..R(cap-1), its phase's window (rawin.c); 0 or NULL: no cap */
	int trial;         /* a search: a node that finds no register fails the solve (failed)
	                      instead of being spilled */
	int failed;        /* the trial found a node without a register */
	int spool;         /* the spill area is the pool f->pool[spool - 1] (rapool.c): MOVs to and
	                      from it instead of STL/LDL, RaNode.slot / 4 its register; 0: memory */
} RaWin;

struct RA {
	Fn *f;
	Diag *d;
	RaWin *win;        /* the FIBER window target, NULL for SIMT */
	int maxreg;        /* register count limit: highest R at most maxreg - 3 */
	int top;           /* highest R a virtual register may take */
	uint8_t *cap;      /* SIMT with setmaxnreg (ramaxreg.c): per instruction g the least
	                      register count that may reach it; a value live at g takes only
	                      R0..R(cap[g]-3); NULL: none */
	uint32_t nins;     /* instructions (all blocks) */
	Ins **ins;         /* nins: instruction g */
	uint32_t *gblk;    /* nblk: global index of each block's first instruction */
	uint32_t nrv;      /* virtual R numbers used (RegVirt .. RegVirt + nrv) */
	uint32_t npv;      /* virtual P numbers used */
	uint32_t nunit;    /* RaVirt + nrv + npv */
	uint32_t *udecl;   /* nunit: declaration of a virtual unit, RaNone none */
	uint32_t *slot0;   /* nins + 1: the first global slot index of instruction g */
	uint32_t *snode;   /* per global slot: the node of its (first) virtual unit, RaNone */
	int32_t *sunit;    /* per global slot: the unit of its first register, -1 none */
	RaSeg *seg;        /* the nodes' segments, by node and element (RaNode.e0) */
	uint32_t nseg;
	uint32_t *eoff;    /* segment ranges per (node, element) */
	uint32_t neoff;
	RaSeg *pseg;       /* the text's registers' segments by unit: upseg[u] .. upseg[u + 1] */
	uint32_t *upseg;   /* RaVirt + 1 */
	RaNode *node;
	uint32_t nnode, cnode;
	RaRef *ref;
	uint32_t nref, cref;
	uint32_t *pair;    /* copies: (node, elem, partner node or RaNone, partner elem or physical
	                      register) quadruples, by node at colouring */
	uint32_t npair, cpair;
	uint32_t *pairof;  /* nnode + 1 at colouring: first quadruple of node n */
	uint32_t *clob;    /* points where everything is clobbered (calls out of the function) */
	uint32_t nclob, cclob;
	uint32_t *sclob;   /* points of system calls (vprintf, __assertfail; SIMT target): all
	                      is clobbered but the callee-saved R registers (ra_sys_saved) */
	uint32_t nsclob, csclob;
	uint32_t *lateg;   /* the instructions that read registers late (lat_late_read), by index;
	                      made at the first colouring (SIMT target) */
	uint32_t nlate;
	RaOcc occ[2];      /* R, P */
	uint64_t physr[4]; /* R registers the text names */
	uint64_t res[2][4]; /* registers no virtual one may take: R1, past top, RZ; past P6 */
	int maxlive[2];    /* at most this many R (R1 aside) and P registers are live at a point
	                      (an upper bound from raweb.c's walk) */
	int frame;         /* bytes of spill area */
	int nspill;        /* nodes spilled */
	int rounds;        /* colouring rounds */
};

/* raweb.c */
int ra_unit(const RA *ra, Reg r);     /* the unit of register r; -1: RZ, PT, another class */
int ra_copy_of(const Fn *f, const Ins *i, Reg *d, Reg *s); /* a plain copy of one R register:
                                         MOV d, s or IMAD.MOV.U32 d, RZ, RZ, s (unguarded) */
uint32_t ra_new_node(RA *ra);         /* a zeroed node: col -1, start RaNone */
int ra_build(RA *ra);                 /* slots, liveness, webs, nodes, references, copies; -1
                                         after a located error */
uint32_t ra_opnd_node(const RA *ra, uint32_t g, unsigned j, int fl); /* the node operand j
                                         (SlotGuard: the guard) field fl of instruction g names,
                                         RaNone if none */
/* regalloc.c */
int ra_sys_saved(unsigned r);         /* R register r keeps its value across a system call */
int ra_refs_at(const RA *ra, const RaNode *v, uint32_t g); /* index in RA.ref of v's reference
                                                         at instruction g, -1 none */
int ra_setup(RA *ra, int maxreg);     /* units, instructions, reserved registers for a limit of
                                         maxreg (8..255); -1 after an error */
int ra_solve(RA *ra);                 /* webs, spills, colours, spill slots; -1 after an error */
void ra_free(RA *ra);                 /* what ra_setup and ra_solve made; f, d, win kept */
int ra_launch_limit(const Fn *f);     /* registers a thread may have so that one CTA of the
                                         launch bound (.reqntid, else .maxntid) fits the SM's
                                         file (Arch.regs_sm, .reg_unit a warp): 384 -> 168;
                                         255 without a bound */
/* ramaxreg.c (the SIMT target) */
int ra_maxreg_caps(RA *ra, int entry, int *most); /* RA.cap from the USETMAXREGs (left NULL
                                         without them), `entry` at the entry; *most: the largest
                                         count; -1 after a located error */
/* rapin.c (the window target) */
int ra_pin(Fn *f, Diag *d, RaWin *w, int limit); /* declarations read remotely (%x@W) or by a
                                         busy-bit instruction onto registers of their own in
                                         R0..R(limit-1), free of those the text names: w->pin;
                                         -1 after an error */
void ra_remote(Fn *f, int n);         /* after the allocation, windows of n: each remote read
                                         R(c)@W -> V(base(W) + c) */
/* rapool.c (the window target) */
int ra_pool_spill(RA *ra);            /* after a solve with spills: where legal and cheaper (one
                                         weft, a kernel that owns its SM, room in slice 0) the
                                         spill area becomes a pool (RaWin.spool, frame 0); 1 if so */
/* rawrite.c */
int ra_rewrite(RA *ra, int *copies);  /* registers and spill code into the function; -1 after
                                         a located error */

#endif
