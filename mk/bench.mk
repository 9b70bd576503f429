# mk/bench.mk: speed, memory and model figures, never part of `make check` (always -O2, never SAN):
#   make bench        fiberc on a generated 70,000-instruction listing (bench_fiberc), the PTX
#                     front end and code generator (bench-ptx), the functional simulator
#                     (simbench), the timing simulator (timebench) and the simulator's speed
#                     against TIMEBENCH_BASE in one run (timebench-ab)
#   make fiber-bench  CUDA-native FIBER against SIMT, cycles per example (scripts/fiber-bench.sh)
#   make ptx-bench    the PTX code generator against nvcc: cycles, registers, spills per example
#   make calibrate    the microbenchmarks of examples/microbench/ on each configuration against
#                     their published values (docs/calibration.md)
#   make hazards      hazards_by_opcode over the hazard corpus (docs/calibration.md)
.PHONY: bench bench-ptx simbench timebench timebench-ab fiber-bench ptx-bench calibrate hazards
BENCH_B := build/bench

ifeq ($(SAN),1)
bench bench-ptx simbench timebench timebench-ab:
	@$(MAKE) --no-print-directory SAN=0 $@
else
# --- bench_fiberc: throughput and memory on a generated kernel ---------------------------------
#   make bench [BENCH_N=70000] [BENCH_REPS=7]
BENCH_N    ?= 70000
BENCH_REPS ?= 7
$(BENCH_B)/gen_large: $(B)/bench/gen_large.o
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
$(BENCH_B)/bench_fiberc: $(B)/bench/bench_fiberc.o $(B)/bench/spawn.o $(LIBFIBER)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
$(BENCH_B)/large-$(BENCH_N).sass: $(BENCH_B)/gen_large
	$(BENCH_B)/gen_large -n $(BENCH_N) -o $@.tmp
	mv -f $@.tmp $@
bench: $(BENCH_B)/bench_fiberc $(BENCH_B)/large-$(BENCH_N).sass $(FIBERC)
	$(BENCH_B)/bench_fiberc -r $(BENCH_REPS) -R 5 --fiberc $(FIBERC) $(BENCH_B)/large-$(BENCH_N).sass
	$(BENCH_B)/bench_fiberc -r 1 -R 5 --fiberc $(FIBERC) --mode cuda-native $(BENCH_B)/large-$(BENCH_N).sass | \
	  grep -E 'fiberc|bench_fiberc'
	@$(FIBERC) $(BENCH_B)/large-$(BENCH_N).sass --emit=sass -o $(BENCH_B)/large.out.sass
	@sh scripts/sass-normalize.sh $(BENCH_B)/large-$(BENCH_N).sass > $(BENCH_B)/large.in.norm
	@sh scripts/sass-normalize.sh $(BENCH_B)/large.out.sass > $(BENCH_B)/large.out.norm
	@cmp -s $(BENCH_B)/large.in.norm $(BENCH_B)/large.out.norm && \
	  echo 'bench: fiberc re-emits the generated listing identically (normalised)' || \
	  { echo 'bench: the re-emitted listing DIFFERS from the generated one'; exit 1; }

# --- bench-ptx: the PTX front end and code generator (make bench-ptx [BENCH_PTX_LINES=75000]) --
#   the parser's throughput on a generated nvcc-style kernel (bench/gen_large_ptx.c), CPU time of
#   the fastest of BENCH_REPS runs (bench/bench_ptx.c), target 1,000,000 PTX instructions/s; then
#   fiberc PTX -> SASS (bench/bench_ptxc.c), target 200,000/s, beside ptxas when it is there
BENCH_PTX_LINES ?= 75000
# PTXAS: NVIDIA's, timed side by side when it is there (not on CI)
PTXAS ?= $(firstword $(wildcard /usr/local/cuda/bin/ptxas) $(shell command -v ptxas 2>/dev/null))
$(BENCH_B)/gen_large_ptx: $(B)/bench/gen_large_ptx.o
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
$(BENCH_B)/bench_ptx: $(B)/bench/bench_ptx.o $(LIBFIBER)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
$(BENCH_B)/large-$(BENCH_PTX_LINES).ptx: $(BENCH_B)/gen_large_ptx
	$(BENCH_B)/gen_large_ptx -n $(BENCH_PTX_LINES) -o $@.tmp
	mv -f $@.tmp $@
$(BENCH_B)/bench_ptxc: $(B)/bench/bench_ptxc.o $(B)/bench/spawn.o $(LIBFIBER)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
bench-ptx: $(BENCH_B)/bench_ptx $(BENCH_B)/bench_ptxc $(BENCH_B)/large-$(BENCH_PTX_LINES).ptx $(FIBERC)
	$(BENCH_B)/bench_ptx -r $(BENCH_REPS) $(BENCH_B)/large-$(BENCH_PTX_LINES).ptx
	$(BENCH_B)/bench_ptxc -r 5 --fiberc $(FIBERC) $(if $(PTXAS),--ptxas $(PTXAS)) \
	  $(BENCH_B)/large-$(BENCH_PTX_LINES).ptx
bench: bench-ptx

# --- simbench: functional-mode warp instructions per second ------------------------------------
#   median of SIMBENCH_REPS launches, one thread, and peak RSS, on bench/alu_loop.cu (ALU),
#   bench/stream.cu (memory), examples/silu_ffn and examples/gemm_tc scaled up
SIMBENCH_REPS ?= 5
$(BENCH_B)/simbench: $(B)/bench/simbench.o $(B)/bench/benchutil.o $(LIBFIBERRT)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(RT_LIBS) $(LDLIBS)
simbench: $(BENCH_B)/simbench
	$(BENCH_B)/simbench -r $(SIMBENCH_REPS) --root $(CURDIR)
bench: simbench

# --- timebench: the timing simulator's speed ---------------------------------------------------
#   warp instructions and cycles per second, one thread and TIMEBENCH_THREADS threads, identical
#   results checked, on a tensor-core GEMM, attention, a memory-bound and an elementwise kernel,
#   and the error of the sampling extrapolations
TIMEBENCH_REPS ?= 3
TIMEBENCH_THREADS ?= 2
$(BENCH_B)/timebench: $(B)/bench/timebench.o $(B)/bench/benchutil.o $(LIBFIBERRT)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(RT_LIBS) $(LDLIBS)
timebench: $(BENCH_B)/timebench
	$(BENCH_B)/timebench -r $(TIMEBENCH_REPS) -t $(TIMEBENCH_THREADS) --root $(CURDIR)
bench: timebench
# timebench-ab: before (TIMEBENCH_BASE, built once in $(BENCH_B)/ab-BASE with this timebench.c)
#   and after (this build) in one run, alternating launches (scripts/timebench-ab.sh); the base
#   is main before issue 24's speed work; TIMEBENCH_BASE= skips it
TIMEBENCH_BASE ?= e1a8620
timebench-ab: $(BENCH_B)/timebench
	$(if $(TIMEBENCH_BASE),sh scripts/timebench-ab.sh $(TIMEBENCH_BASE) $(TIMEBENCH_REPS) \
	  $(TIMEBENCH_THREADS),@echo 'timebench-ab: no TIMEBENCH_BASE: skipped')
bench: timebench-ab
endif

# --- fiber-bench, ptx-bench: cycles of compiled examples ---------------------------------------
fiber-bench: deps
	@$(MAKE) --no-print-directory $(FIBERC) $(FIBERSIM)
	@FIBERC=$(FIBERC) FIBERSIM=$(FIBERSIM) sh scripts/fiber-bench.sh $(B)/fiber-bench
ptx-bench: deps
	@$(MAKE) --no-print-directory $(FIBERC) $(FIBERSIM)
	@FIBERC=$(FIBERC) FIBERSIM=$(FIBERSIM) sh scripts/ptx-bench.sh $(B)/ptx-bench

# --- calibrate: make calibrate [CALIBRATE_ARGS='--config h100 --markdown'] ---------------------
CALIBRATE_ARGS ?=
$(B)/bench/calibrate: $(B)/bench/calibrate.o $(LIBFIBERRT)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(RT_LIBS) $(LDLIBS) -lpthread
calibrate: $(B)/bench/calibrate
	$(B)/bench/calibrate --root $(CURDIR) $(CALIBRATE_ARGS)

# --- hazards: every kernel of the hazard corpus (tests/corpus/latency/, the examples and the
# microbenchmarks) on the configuration of its architecture, hazards_by_opcode summed over them
#   make hazards [HAZARDS_ARGS='--set lat_fp64=8']
HAZARDS_ARGS ?=
HAZARD_FILES = $(sort $(wildcard tests/corpus/latency/*.sass tests/corpus/mma.*.sass \
                 tests/corpus/fp8.*.sass examples/*/*.sm_80.sass examples/*/*.sm_90.sass))
$(B)/bench/hazards: $(B)/bench/hazards.o $(LIBFIBERRT)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(RT_LIBS) $(LDLIBS) -lpthread
hazards: $(B)/bench/hazards
	$(B)/bench/hazards $(HAZARDS_ARGS) $(HAZARD_FILES)
