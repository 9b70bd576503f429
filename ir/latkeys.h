/* latkeys.h: the configuration keys (configs/NAME.cfg, docs/sim-config.md) that an instruction's
 * result latency is taken from, one row each: LK(Name, key) gives enum OpLatKey its member
 * LkName (ir.h), the column of ir/ops.h that names each opcode's key. Included by ir.h, by
 * timing/config.c (where each key is in SimTiming), by scripts/gen-opcodes.c (the doc table), and
 * read by the Makefile, which compiles each configuration's values of these keys into the
 * compiler (build/ir/latcfg.c, ir/latency.h). No trailing commas: the rows are macro arguments.
 */
/* VOTE is fixed, lat_int: nvcc reads its result 4 cycles later without a scoreboard
 * (docs/calibration.md) */
LK(Int,        lat_int)          /* INT32 ALU; the misc pipe: VOTE, CS2R, POPC, FLO, CREDUX, NOP */
LK(Fp32,       lat_fp32)         /* FADD, FMUL, FFMA; IMUL32I, IDP (FMA pipe, not IMAD, IMUL) */
LK(Imad,       lat_imad)         /* IMAD, IMUL */
LK(Fp16,       lat_fp16)         /* the FP16x2 pipe: HADD2, HFMA2, HSETP2, ... */
LK(Fp64,       lat_fp64)         /* DADD, DMUL, DFMA, DMNMX, DSETP */
LK(Uniform,    lat_uniform)      /* the uniform datapath but its moves */
LK(Umov,       lat_umov)         /* ULDC, UMOV, VOTEU */
LK(Hmma,       lat_hmma)         /* HMMA, QMMA of HMMA.16816's operand volume; the warpgroup MMAs */
LK(HmmaSmall,  lat_hmma_small)   /* any MMA of half that volume (lat_mma_key) */
LK(Imma,       lat_imma)         /* IMMA, BMMA of the full volume */
LK(MmaQuarter, lat_mma_quarter)  /* any MMA of a quarter of it (lat_mma_key) */
LK(Dmma,       lat_dmma)         /* DMMA, every shape */
LK(Mufu,       lat_mufu)         /* MUFU */
LK(Conv,       lat_conv)         /* I2F, F2I, F2F, FRND */
LK(S2r,        lat_s2r)          /* S2R, S2UR */
LK(Shfl,       lat_shfl)         /* SHFL */
LK(Vote,       lat_vote)         /* REDUX, MATCH; the MIO's other non-memory rows (FENCE, ...) */
LK(Branch,     lat_branch)       /* the branch unit: BRA, BSSY, BMOV, BAR, ... */
