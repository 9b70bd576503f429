/* cpireasons.h: the CPI-stack reasons, one row each, in the order of enum CpiReason (timing.h):
 * CPI(Enum, "json key", "the sub-partition did not issue because its first warp ...").
 * The enum, the JSON keys (cpi_name) and the meanings (cpi_meaning) are generated from it;
 * tests/check_outputs.c checks that docs/sim-stats.md, docs/sim-timing.md and man/fibersim.1 list
 * exactly these keys. Include it with CPI defined. The last three are the FIBER model's (after
 * idle, so that the SIMT reasons keep their numbers and colours).
 */
CPI(Issue, "issue", "(an instruction issued)")
CPI(Stall, "stall", "waits out the compiler's stall count (fixed-latency dependency)")
CPI(Yield, "yield", "yielded (the yield bit kept it off this cycle)")
CPI(WaitMem, "wait_memory",
    "waits on a scoreboard released by a memory instruction (its result or its source read), "
    "or at DEPBAR")
CPI(WaitLong, "wait_long_latency",
    "waits on another variable-latency result: MUFU, conversions, S2R, SHFL, ...")
CPI(WaitTensor, "wait_tensor", "waits on a tensor-core result (HMMA, IMMA, DMMA, ...)")
CPI(Pipe, "pipe_busy", "is eligible but its execution pipe is busy (throughput limit)")
CPI(MemThrottle, "memory_throttle", "is eligible but the MIO / LSU queue is full")
CPI(BankConflict, "register_bank_conflict", "the previous issue's register-bank conflict bubble")
CPI(Barrier, "barrier",
    "waits at a CTA barrier (BAR.SYNC and friends, and the barrier latency after release)")
CPI(Sync, "sync",
    "waits at WARPSYNC or BSYNC for other threads of its warp, at MEMBAR, or sleeps (NANOSLEEP)")
CPI(Fetch, "instruction_fetch", "an instruction-cache miss")
CPI(Idle, "idle", "no warp is resident on the sub-partition (or all have exited)")
CPI(BusyWait, "busy_wait", "waits on a register's empty/full state (DEPBAR.FULL/.EMPTY)")
CPI(FiberSync, "fiber_sync",
    "waits at SETFIBERNUM for the SM's other wefts, or its re-partitioning")
CPI(RemoteRead, "remote_read",
    "a remote read's crossbar or read-port conflict, or with fiber_rs = 0 its shared-memory "
    "round trip")
