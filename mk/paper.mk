# mk/paper.mk: `make paper-table` (docs/paper-table.md): the SIMT baselines of examples/paper run
# on a100/h100/b200 (nvcc's SASS) and on a100-fiber/h100-fiber/b200-fiber (fiberc
# --mode=cuda-native), every output checked against its CPU reference, each run a point of a
# `fibersim sweep` (locally, or SLURM=1 through Slurm); writes
# $(B)/paper/table.csv, table.json and table.svg and prints the table. QUICK=1: small shapes of
# every workload (the smoke test tests/paper.sh runs). ONLY=TEXT: workloads whose name has TEXT.
.PHONY: paper-table
PAPER_SRCS  := $(wildcard examples/paper/*.c)
PAPER_OBJS  := $(PAPER_SRCS:%.c=$(B)/%.o)
PAPER_TABLE := $(B)/paper/paper_table
# the most CTAs a launch of each kernel has in the table (fiberc --fiber-grid)
PAPER_GRID_attn_fwd := 1024
PAPER_GRID_w4a16_gemm := 11008
PAPER_GRID_flash_decode := 4096
PAPER_GRID_gemm_f16 := 3072
PAPER_GRID_awq_gemm := 5504
PAPER_GRID_aqlm_gemm := 5504
PAPER_STEMS := $(patsubst examples/paper/%.sm_80.sass,%,$(wildcard examples/paper/*.sm_80.sass))
PAPER_FSASS := $(foreach s,$(PAPER_STEMS),$(B)/paper/$(s).sm_80.fsass $(B)/paper/$(s).sm_90.fsass)
# the FIBER-native versions: CUDA C++ with fiber_device.cuh, committed as nvcc -arch=sm_80 -ptx
PAPER_FIBER_STEMS := flash_decode_fiber flash_decode_busy_fiber
PAPER_FSASS += $(foreach s,$(PAPER_FIBER_STEMS),$(B)/paper/$(s).sm_80.fsass $(B)/paper/$(s).sm_90.fsass)

$(B)/examples/paper/%.o: examples/paper/%.c examples/paper/paper.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Iruntime $(CFLAGS) $(WARN) -c -o $@ $<

$(PAPER_TABLE): $(PAPER_OBJS) $(LIBFIBERRT)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $(PAPER_OBJS) $(LIBFIBERRT) $(RT_LIBS) $(LDLIBS)

$(B)/paper/%.fsass: examples/paper/%.sass $(FIBERC)
	@mkdir -p $(@D)
	$(FIBERC) $< --mode=cuda-native --fiber-grid=$(PAPER_GRID_$(basename $(basename $*))) -o $@

$(B)/paper/%_fiber.sm_80.fsass: examples/paper/%_fiber.ptx $(FIBERC)
	@mkdir -p $(@D)
	$(FIBERC) $< --mode=fiber-native --arch=sm_80 -o $@

$(B)/paper/%_fiber.sm_90.fsass: examples/paper/%_fiber.ptx $(FIBERC)
	@mkdir -p $(@D)
	$(FIBERC) $< --mode=fiber-native --arch=sm_90 -o $@

# the table's runs are the points of a sweep (docs/paper-table.md): paper_table --spec writes them,
# `fibersim sweep` runs them (-j JOBS, resumable; SLURM=1 SLURM_ARGS='--partition P --time T
# --chunk N' submits them as a Slurm job array and waits), paper_table --collect builds the
# table from the points. A sweep exits 3 when a point failed: the table then says which.
# New harness or listings: the points of the older ones are removed (PAPER_SWEEP/inputs.stamp).
PAPER_FLAGS := $(if $(filter 1,$(QUICK)),--quick) $(if $(ONLY),--only '$(ONLY)')
PAPER_SWEEP := $(B)/paper/sweep$(if $(filter 1,$(QUICK)),-quick)
PAPER_SASS  := $(wildcard examples/paper/*.sass)

$(PAPER_SWEEP)/inputs.stamp: $(PAPER_TABLE) $(PAPER_FSASS) $(PAPER_SASS)
	rm -rf $(PAPER_SWEEP)/points
	@mkdir -p $(@D)
	touch $@

paper-table: $(PAPER_TABLE) $(PAPER_FSASS) $(FIBERSIM) $(PAPER_SWEEP)/inputs.stamp
	$(PAPER_TABLE) $(PAPER_FLAGS) --fsass $(B)/paper --program $(PAPER_TABLE) \
	  --spec $(PAPER_SWEEP)/paper.sweep
	$(call sweep_run,$(PAPER_SWEEP)/paper.sweep,$(PAPER_SWEEP)) || [ $$? = 3 ]
	$(PAPER_TABLE) $(PAPER_FLAGS) --collect $(PAPER_SWEEP) --out $(B)/paper

# make check's smoke test (tests/paper.sh) runs the harness on the QUICK=1 shapes
run-tests: $(PAPER_TABLE) $(PAPER_FSASS)
