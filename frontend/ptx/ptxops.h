/* ptxops.h: the PTX instructions fiber knows, one row each (an X-macro list, included by
 * ptxcheck.c), and the modifier words, each in one class.
 *
 *   P(name, min, max, classes, "extra modifiers", flags)
 *     min, max    operand count range
 *     classes     Mx bits: which classes of modifier words (M rows below) the opcode takes
 *     extra       modifiers it takes beyond its classes, space separated, without dots
 *     flags       Fd: the first operand is written (a register, vector, pair or `_`, never an
 *                 immediate or address); Fa: one operand is an address `[...]`; Fb: the last
 *                 operand is a branch target (label or register); Fp: the first operand is a
 *                 predicate (or a pair with one)
 *
 *   M(word, class)    a modifier word and its class. Besides these, the checker accepts by shape:
 *                     m<M>n<N>k<K> and m<M>n<N> (MShape), x<N> (MShape), <N>d (MShape), and
 *                     any type word of the M rows.
 */
#ifndef P
#define P(name, min, max, classes, extra, flags)
#endif
#ifndef M
#define M(word, class)
#endif

/* modifier classes */
#define MT    (1u << 0)   /* types: .u32 .f16x2 .pred ... */
#define MR    (1u << 1)   /* rounding and float modes: .rn .ftz .sat .approx ... */
#define MA    (1u << 2)   /* integer forms: .lo .hi .wide .cc */
#define MC    (1u << 3)   /* comparisons and boolean combiners: .eq .ltu .and ... */
#define MS    (1u << 4)   /* state spaces: .global .shared::cta .param ... */
#define MM    (1u << 5)   /* memory: vectors, ordering, scope, cache and eviction */
#define MO    (1u << 6)   /* atomic operations: .add .exch .cas ... */
#define MW    (1u << 7)   /* warp: .sync .aligned .uni .bfly .any ... */
#define MX    (1u << 8)   /* matrix: .row .col .trans, shapes ... */
#define MShape MX
#define Fd    (1u << 0)
#define Fa    (1u << 1)
#define Fb    (1u << 2)
#define Fp    (1u << 3)

/* --- integer and float arithmetic ------------------------------------------------------- */
P(add,       3, 3,  MT|MR|MA, "", Fd)
P(sub,       3, 3,  MT|MR|MA, "", Fd)
P(mul,       3, 3,  MT|MR|MA, "", Fd)
P(mad,       4, 4,  MT|MR|MA, "", Fd)
P(mul24,     3, 3,  MT|MA, "", Fd)
P(mad24,     4, 4,  MT|MA|MR, "", Fd)
P(addc,      3, 3,  MT|MA, "", Fd)
P(subc,      3, 3,  MT|MA, "", Fd)
P(madc,      4, 4,  MT|MA, "", Fd)
P(sad,       4, 4,  MT, "", Fd)
P(div,       3, 3,  MT|MR, "", Fd)
P(rem,       3, 3,  MT, "", Fd)
P(abs,       2, 2,  MT|MR, "", Fd)
P(neg,       2, 2,  MT|MR, "", Fd)
P(min,       3, 4,  MT|MR, "relu", Fd)
P(max,       3, 4,  MT|MR, "relu", Fd)
P(fma,       4, 4,  MT|MR, "relu oob", Fd)
P(rcp,       2, 2,  MT|MR, "", Fd)
P(sqrt,      2, 2,  MT|MR, "", Fd)
P(rsqrt,     2, 2,  MT|MR, "", Fd)
P(ex2,       2, 2,  MT|MR, "", Fd)
P(lg2,       2, 2,  MT|MR, "", Fd)
P(sin,       2, 2,  MT|MR, "", Fd)
P(cos,       2, 2,  MT|MR, "", Fd)
P(tanh,      2, 2,  MT|MR, "", Fd)
P(copysign,  3, 3,  MT, "", Fd)
P(testp,     2, 2,  MT, "finite infinite number notanumber normal subnormal", Fd|Fp)
P(dp4a,      4, 4,  MT, "", Fd)
P(dp2a,      4, 4,  MT|MA, "", Fd)
P(popc,      2, 2,  MT, "", Fd)
P(clz,       2, 2,  MT, "", Fd)
P(brev,      2, 2,  MT, "", Fd)
P(bfind,     2, 2,  MT, "shiftamt", Fd)
P(fns,       4, 4,  MT, "", Fd)
P(bmsk,      3, 3,  MT, "clamp wrap", Fd)
P(szext,     3, 3,  MT, "clamp wrap", Fd)
P(vabsdiff4, 4, 4,  MT|MR|MA, "add", Fd)
P(vabsdiff2, 4, 4,  MT|MR|MA, "add", Fd)
P(vadd4,     4, 4,  MT|MR|MA, "add", Fd)
P(vmax4,     4, 4,  MT|MR|MA, "add", Fd)
P(vmin4,     4, 4,  MT|MR|MA, "add", Fd)
/* --- conversion and moves ---------------------------------------------------------------- */
P(cvt,       2, 4,  MT|MR, "relu pack", Fd)
P(cvta,      2, 2,  MT|MS, "to", Fd)
P(mov,       2, 2,  MT, "", Fd)
P(shf,       4, 4,  MT, "l r clamp wrap", Fd)
P(shl,       3, 3,  MT, "", Fd)
P(shr,       3, 3,  MT, "", Fd)
P(prmt,      4, 4,  MT, "f4e b4e rc8 ecl ecr rc16", Fd)
P(bfe,       4, 4,  MT, "", Fd)
P(bfi,       5, 5,  MT, "", Fd)
P(lop3,      5, 6,  MT, "or and", Fd)
P(and,       3, 3,  MT, "", Fd)
P(or,        3, 3,  MT, "", Fd)
P(xor,       3, 3,  MT, "", Fd)
P(not,       2, 2,  MT, "", Fd)
P(cnot,      2, 2,  MT, "", Fd)
P(setp,      3, 5,  MT|MC|MR, "lo hi", Fd|Fp)
P(set,       3, 5,  MT|MC|MR, "lo hi", Fd)
P(selp,      4, 4,  MT, "", Fd)
P(slct,      4, 4,  MT|MR, "", Fd)
/* --- memory ---------------------------------------------------------------------------------- */
P(ld,        2, 4,  MT|MS|MM, "", Fd|Fa)
P(ldu,       2, 2,  MT|MS|MM, "", Fd|Fa)
P(st,        2, 3,  MT|MS|MM, "mbarrier::complete_tx::bytes", Fa)
P(prefetch,  1, 1,  MS|MM, "tensormap L1", Fa)
P(prefetchu, 1, 1,  MM, "L1", Fa)
P(applypriority, 2, 2, MS|MM, "", Fa)
P(discard,   2, 2,  MS|MM, "L2", Fa)
P(createpolicy, 2, 4, MT|MM, "fractional range L2 evict_last evict_normal evict_first evict_unchanged", Fd)
P(isspacep,  2, 2,  MS, "", Fd|Fp)
P(mapa,      3, 3,  MT|MS, "", Fd)
P(getctarank, 2, 2, MT|MS, "", Fd)
P(atom,      3, 5,  MT|MS|MM|MO|MR, "", Fd|Fa)
P(red,       2, 4,  MT|MS|MM|MO|MR, "mbarrier::complete_tx::bytes", Fa)
P(multimem,  2, 4,  MT|MS|MM|MO|MR, "ld_reduce st red", Fa)
P(cp,        0, 6,  MT|MS|MM|MO|MX, "async commit_group wait_group wait_all bulk tensor reduce"
                    " prefetch im2col tile bulk_group mbarrier::complete_tx::bytes"
                    " multicast::cluster L2::cache_hint ignore_src mbarrier arrive noinc read", 0)
P(mbarrier,  1, 4,  MT|MS|MM|MW, "init inval arrive arrive_drop test_wait try_wait pending_count"
                    " expect_tx complete_tx noComplete parity", 0)
P(fence,     0, 2,  MM|MS, "proxy async tensormap alias acquire release mbarrier_init", 0)
P(membar,    0, 0,  MM, "gl cta sys", 0)
/* --- control --------------------------------------------------------------------------------- */
P(bra,       1, 2,  MW, "", Fb)
P(brx,       2, 2,  MW, "idx", 0)
P(call,      1, 4,  MW, "", 0)
P(ret,       0, 0,  MW, "", 0)
P(exit,      0, 0,  0, "", 0)
P(trap,      0, 0,  0, "", 0)
P(brkpt,     0, 0,  0, "", 0)
P(nanosleep, 1, 1,  MT, "", 0)
P(pmevent,   1, 1,  0, "mask", 0)
P(bar,       0, 4,  MT|MW|MS, "sync arrive red warp cta popc and or", 0)
P(barrier,   0, 4,  MT|MW|MS, "sync arrive red cluster popc and or wait relaxed acquire release", 0)
P(griddepcontrol, 0, 0, 0, "launch_dependents wait", 0)
P(elect,     1, 2,  MW, "", Fd)
P(setmaxnreg, 1, 1, MT|MW, "inc dec", 0)
P(activemask, 1, 1, MT, "", Fd)
/* --- warp ------------------------------------------------------------------------------------ */
P(shfl,      4, 5,  MT|MW, "", Fd)
P(vote,      2, 3,  MT|MW, "", Fd)
P(match,     3, 4,  MT|MW, "", Fd)
P(redux,     3, 3,  MT|MW|MO|MR, "", Fd)
/* --- matrix and tensor ----------------------------------------------------------------------- */
P(mma,       4, 7,  MT|MW|MX|MR|MO, "sp sp::ordered_metadata xor and", Fd)
P(wmma,      2, 4,  MT|MW|MX|MS|MR, "load store mma a b c d", 0)
P(wgmma,     0, 10, MT|MW|MX|MR, "fence commit_group wait_group mma_async sp popc and", 0)
P(ldmatrix,  2, 2,  MT|MW|MX|MS, "", Fd|Fa)
P(stmatrix,  2, 2,  MT|MW|MX|MS, "", Fa)
P(movmatrix, 2, 2,  MT|MW|MX, "", Fd)
P(tensormap, 2, 3,  MT|MS|MM, "replace cp_fenceproxy tile global_address rank box_dim", 0)
/* --- FIBER extensions (docs/fiber-cuda.md; fiber_device.cuh writes them as inline asm) ------- */
P(setfibernum, 1, 2, MT, "", 0)
P(maxfibers, 1, 1,  0, "", 0)
P(stslot,    2, 2,  MT, "", 0)
P(ldslot,    3, 3,  MT, "", Fd)
P(waitslot,  1, 2,  MT, "full empty", 0)
P(setslot,   1, 2,  MT, "full empty", 0)
P(declpool,  2, 3,  0, "", 0)
P(ldpool,    3, 3,  MT, "", Fd)
P(stpool,    3, 3,  MT, "", 0)
P(waitpool,  2, 3,  MT, "full empty", 0)
P(setpool,   2, 3,  MT, "full empty", 0)
P(mmapool,   5, 5,  MT|MW|MX, "", Fd)
/* --- textures and surfaces ------------------------------------------------------------------- */
P(tex,       2, 6,  MT|MX|MM, "base level grad 1d 2d 3d a1d a2d cube acube 2dms a2dms", Fd|Fa)
P(tld4,      2, 6,  MT|MX|MM, "r g b a 2d a2d cube acube", Fd|Fa)
P(txq,       2, 2,  MT, "width height depth channel_data_type channel_order normalized_coords"
                    " filter_mode addr_mode_0 addr_mode_1 addr_mode_2 samples array_size"
                    " num_mipmap_levels num_samples level", Fd|Fa)
P(suld,      2, 2,  MT|MX|MM, "b 1d 2d 3d a1d a2d trap clamp zero", Fd|Fa)
P(sust,      2, 2,  MT|MX|MM, "b p 1d 2d 3d a1d a2d trap clamp zero", Fa)
P(suq,       2, 2,  MT, "width height depth channel_data_type channel_order array_size"
                    " memory_layout", Fd|Fa)
P(istypep,   2, 2,  0, "texref samplerref surfref", Fd|Fp)

/* --- modifier words -------------------------------------------------------------------------- */
M(b1, MT) M(b4, MT) M(b8, MT) M(b16, MT) M(b32, MT) M(b64, MT) M(b128, MT)
M(u2, MT) M(u4, MT) M(u8, MT) M(u16, MT) M(u32, MT) M(u64, MT)
M(s2, MT) M(s4, MT) M(s8, MT) M(s16, MT) M(s32, MT) M(s64, MT)
M(f16, MT) M(f16x2, MT) M(bf16, MT) M(bf16x2, MT) M(f32, MT) M(f64, MT) M(tf32, MT)
M(e4m3, MT) M(e5m2, MT) M(e4m3x2, MT) M(e5m2x2, MT) M(e2m1, MT) M(e2m1x2, MT) M(e3m2, MT)
M(e2m3, MT) M(e3m2x2, MT) M(e2m3x2, MT) M(ue8m0x2, MT) M(f32x2, MT) M(s16x2, MT) M(u16x2, MT)
M(pred, MT) M(b16x2, MT) M(b8x16, MT) M(b6x16_p32, MT) M(b4x16_p64, MT)
M(rn, MR) M(rz, MR) M(rm, MR) M(rp, MR) M(rni, MR) M(rzi, MR) M(rmi, MR) M(rpi, MR)
M(rna, MR) M(rs, MR) M(approx, MR) M(full, MR) M(ftz, MR) M(sat, MR) M(satfinite, MR)
M(nan, MR) M(xorsign, MR) M(abs, MR) M(noftz, MR)
M(lo, MA) M(hi, MA) M(wide, MA) M(cc, MA)
M(eq, MC) M(ne, MC) M(lt, MC) M(le, MC) M(gt, MC) M(ge, MC) M(ls, MC) M(hs, MC)
M(equ, MC) M(neu, MC) M(ltu, MC) M(leu, MC) M(gtu, MC) M(geu, MC) M(num, MC)
M(and, MC) M(or, MC) M(xor, MC)
M(global, MS) M(shared, MS) M(local, MS) M(const, MS) M(param, MS) M(generic, MS)
M(shared::cta, MS) M(shared::cluster, MS) M(param::entry, MS) M(param::func, MS)
M(v2, MM) M(v4, MM) M(v8, MM) M(volatile, MM) M(relaxed, MM) M(acquire, MM) M(release, MM)
M(acq_rel, MM) M(weak, MM) M(mmio, MM) M(sc, MM) M(cta, MM) M(cluster, MM) M(gpu, MM)
M(sys, MM) M(nc, MM) M(ca, MM) M(cg, MM) M(cs, MM) M(lu, MM) M(cv, MM) M(wb, MM) M(wt, MM)
M(L1::evict_normal, MM) M(L1::evict_unchanged, MM) M(L1::evict_first, MM)
M(L1::evict_last, MM) M(L1::no_allocate, MM) M(L2::evict_first, MM) M(L2::evict_last, MM)
M(L2::evict_normal, MM) M(L2::cache_hint, MM) M(L2::64B, MM) M(L2::128B, MM)
M(L2::256B, MM) M(unified, MM) M(proxy, MM) M(async, MM) M(L2, MM)
M(and, MO) M(or, MO) M(xor, MO) M(NaN, MR)
M(add, MO) M(inc, MO) M(dec, MO) M(min, MO) M(max, MO) M(exch, MO) M(cas, MO) M(popc, MO)
M(sync, MW) M(aligned, MW) M(uni, MW) M(up, MW) M(down, MW) M(bfly, MW) M(idx, MW)
M(any, MW) M(all, MW) M(ballot, MW) M(collective, MW)
M(row, MX) M(col, MX) M(trans, MX)

#undef P
#undef M
