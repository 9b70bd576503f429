/* regs.h: the register classes, one row per class (STYLE habit 2, like ops.h), included by
 * ir.h for `enum RegClass`, the size and unit constants and the inline helpers, and by
 * regclass.c for regtab[]. Everything that knows register classes reads them from here: the
 * parser and printer (reg_parse, reg_name), the opcode table's slot clipping, the verifier, SSA
 * and liveness (reg_unit, NumUnit), the simulator's decoder and the timing layer.
 * Rows: RC(CLASS, prefix, nreg, zero, zname, unit, bits, scope, flags)
 *   CLASS  the enum member is R<CLASS> (RR, RP, ...), the constants Num<CLASS>, Unit<CLASS>
 *   prefix spelling of a register: prefix and decimal number ("UR4")
 *   nreg   register numbers of the class, the constant register included
 *   zero   the constant register's number (reads 0 or true, writes are discarded), -1 none
 *   zname  its spelling ("RZ"), "" if none
 *   unit   first register unit (dense numbering: a class's units are unit .. unit + nreg - 1,
 *          the next class starts right after; the constant register's unit carries no value)
 *   bits   width of one register: of each lane's value for a per-lane class
 *   scope  RegScope: one value per lane of a warp, or one per warp (uniform)
 *   flags  RegClassFlag: RCSrcOnly (the class may be read, never written)
 * Order is the numbering of enum RegClass and of the units. No trailing commas.
 */
RC(R,  "R",  256,  255, "RZ",  0,   32, ScLane,    0)          /* general registers R0..R254 */
RC(P,  "P",  8,    7,   "PT",  256, 1,  ScLane,    0)          /* predicates P0..P6 */
RC(UR, "UR", 64,   63,  "URZ", 264, 32, ScUniform, 0)          /* uniform registers UR0..UR62 */
RC(UP, "UP", 8,    7,   "UPT", 328, 1,  ScUniform, 0)          /* uniform predicates UP0..UP6 */
RC(B,  "B",  16,   -1,  "",    336, 32, ScUniform, 0)          /* convergence barriers B0..B15 */
RC(V,  "V",  2048, -1,  "",    352, 32, ScLane,    RCSrcOnly)  /* FIBER: the SM's vector
                                                                  registers V0..V2047, absolute */
