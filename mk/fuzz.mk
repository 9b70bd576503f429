# mk/fuzz.mk: libFuzzer + ASan + UBSan on every parser (clang):
#   make fuzz                          build the targets in build/fuzz: fuzz_sass (the SASS and IR
#                                      readers and the lifting pipeline), fuzz_fsass (FIBER-native
#                                      listings through the FIBER pipelines), fuzz_ptx (the PTX
#                                      reader, its check and the code generator), fuzz_load (the
#                                      runtime's module loader: SASS, IR text, cubin ELF, and a
#                                      launch of what loads), fuzz_args (fibersim's command line,
#                                      --arg SPEC and configuration files), fuzz_sweep (the
#                                      sweep spec reader, driver/sweepspec.c)
#   make fuzz-run FUZZ_SECONDS=60      seed each from the committed inputs and fuzz; fails on any
#                                      crash, leak or timeout (input kept in build/fuzz/artifacts/)
#   build/fuzz/fuzz_sass FILE...       replay inputs
.PHONY: fuzz fuzz-run
FUZZ_CC      ?= clang
FUZZ_B       := build/fuzz
FUZZ_SECONDS ?= 60
FUZZ_TIMEOUT ?= 10
# a fixed seed makes a run repeat the same inputs: CI's run is a prefix of a longer local one
FUZZ_SEED    ?= 1
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS  := -std=c11 -g -O1 -MMD -MP $(FUZZ_SAN) -fsanitize=fuzzer-no-link
# the same objects as the libraries, built again in $(FUZZ_B) (generated sources: from $(B))
fuzz_objs     = $(patsubst $(B)/%,$(FUZZ_B)/%,$(foreach l,$(1),$(call objs_of,$(l))))
FUZZ_OBJS    := $(call fuzz_objs,$(FIBERC_LAYERS))
FUZZ_RT_OBJS := $(call fuzz_objs,sim timing runtime)
FUZZ_BINS    := $(addprefix $(FUZZ_B)/,fuzz_sass fuzz_fsass fuzz_ptx fuzz_load fuzz_args fuzz_sweep)
# the sweep reader is small: a third of the others' time finds what there is
FUZZ_SWEEP_SECONDS ?= $(shell expr $(FUZZ_SECONDS) / 3 + 1)
FUZZ_SEEDS    = $(shell find examples -name '*.sass' 2>/dev/null | sort) \
                $(wildcard tests/golden/*.sass)
PTX_FILES     = $(sort $(wildcard examples/*/*.ptx tests/corpus/*.ptx bench/ptx/*/*.ptx))

fuzz: $(FUZZ_BINS)

$(FUZZ_B)/%.o: %.c | $(PARSER_HDRS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(call incs,$<) $(FUZZ_CFLAGS) $(WARN) -c -o $@ $<
$(FUZZ_B)/%.o: $(B)/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(call incs,$<) $(FUZZ_CFLAGS) $(WARN) -c -o $@ $<
$(patsubst $(B)/%,$(FUZZ_B)/%,$(PARSER_OBJS)): WARN := $(GEN_WARN)
$(FUZZ_B)/fuzz_sass: $(FUZZ_B)/fuzz/fuzz_sass.o $(FUZZ_B)/driver/passlist.o $(FUZZ_OBJS)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)
$(FUZZ_B)/fuzz_fsass $(FUZZ_B)/fuzz_ptx: $(FUZZ_B)/%: $(FUZZ_B)/fuzz/%.o $(FUZZ_OBJS)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)
$(FUZZ_B)/fuzz_load $(FUZZ_B)/fuzz_args: $(FUZZ_B)/%: $(FUZZ_B)/fuzz/%.o $(FUZZ_OBJS) $(FUZZ_RT_OBJS)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(RT_LIBS) $(LDLIBS)
$(FUZZ_B)/fuzz_sweep: $(FUZZ_B)/fuzz/fuzz_sweep.o $(FUZZ_B)/driver/sweepspec.o
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

FUZZ_ENV := ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
FUZZ_RUN  = -max_len=65536 -max_total_time=$(FUZZ_SECONDS) -seed=$(FUZZ_SEED) -timeout=$(FUZZ_TIMEOUT) \
            -rss_limit_mb=2048
# seeds: the listings cut into pieces, and the IR text fiberc makes of the sm_80 ones; then the
# runtime's targets, FUZZ_SECONDS each (fuzz_load also launches every kernel that loads, on the
# timing driver), each writing its own built-in seeds (a small cubin and listing; command lines
# and configuration files) into FUZZ_SEED_DIR before it starts
fuzz-run: $(FUZZ_BINS) $(FIBERC)
	rm -rf $(FUZZ_B)/seed $(FUZZ_B)/ir
	mkdir -p $(FUZZ_B)/seed $(FUZZ_B)/ir $(FUZZ_B)/corpus $(FUZZ_B)/artifacts
	@for f in $(filter %.sm_80.sass,$(FUZZ_SEEDS)); do \
	  $(FIBERC) $$f --emit=ir -o $(FUZZ_B)/ir/$$(basename $$f .sass).ir 2>/dev/null || true; done
	sh scripts/fuzz-seed.sh $(FUZZ_B)/seed $(FUZZ_SEEDS) $(FUZZ_B)/ir/*.ir
	@echo '== replaying fuzz/regress (inputs that once crashed)'
	$(FUZZ_ENV) $(FUZZ_B)/fuzz_sass fuzz/regress/*
	$(FUZZ_ENV) $(FUZZ_B)/fuzz_sass $(FUZZ_RUN) -print_final_stats=1 \
	  -artifact_prefix=$(FUZZ_B)/artifacts/ $(FUZZ_B)/corpus $(FUZZ_B)/seed
	@echo '== fuzz_ptx (seeds: the committed .ptx files, cut by scripts/fuzz-seed-ptx.sh)'
	rm -rf $(FUZZ_B)/seed-ptx
	mkdir -p $(FUZZ_B)/seed-ptx $(FUZZ_B)/corpus-ptx
	sh scripts/fuzz-seed-ptx.sh $(FUZZ_B)/seed-ptx $(PTX_FILES)
	$(FUZZ_ENV) $(FUZZ_B)/fuzz_ptx $(FUZZ_RUN) -artifact_prefix=$(FUZZ_B)/artifacts/ptx- \
	  $(FUZZ_B)/corpus-ptx $(FUZZ_B)/seed-ptx
	@echo '== fuzz_fsass (seeds: tests/fsass)'
	mkdir -p $(FUZZ_B)/corpus-fsass
	$(FUZZ_ENV) $(FUZZ_B)/fuzz_fsass $(FUZZ_RUN) -artifact_prefix=$(FUZZ_B)/artifacts/fsass- \
	  $(FUZZ_B)/corpus-fsass tests/fsass tests/fsass/fail examples/fiber-native
	@for t in fuzz_load fuzz_args; do \
	  rm -rf $(FUZZ_B)/seed-$$t; mkdir -p $(FUZZ_B)/seed-$$t $(FUZZ_B)/corpus-$$t || exit 1; \
	  echo "== $$t"; \
	  FUZZ_SEED_DIR=$(FUZZ_B)/seed-$$t $(FUZZ_ENV) FIBER_NVDISASM= FIBER_FUZZ_LAUNCH=1 \
	  $(FUZZ_B)/$$t $(FUZZ_RUN) -print_final_stats=1 -artifact_prefix=$(FUZZ_B)/artifacts/$$t- \
	  $(FUZZ_B)/corpus-$$t $(FUZZ_B)/seed-$$t $$([ $$t = fuzz_load ] && echo $(FUZZ_B)/seed) \
	  || exit 1; done
	@echo '== fuzz_sweep (seeds: examples/sweep, tests/sweep)'
	mkdir -p $(FUZZ_B)/corpus-sweep
	$(FUZZ_ENV) $(FUZZ_B)/fuzz_sweep -max_len=8192 -max_total_time=$(FUZZ_SWEEP_SECONDS) \
	  -seed=$(FUZZ_SEED) -timeout=$(FUZZ_TIMEOUT) -rss_limit_mb=2048 \
	  -artifact_prefix=$(FUZZ_B)/artifacts/sweep- $(FUZZ_B)/corpus-sweep examples/sweep tests/sweep
