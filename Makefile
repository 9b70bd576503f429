# Makefile: the whole fiber build (non-recursive, out of tree in build/, automatic dependencies).
#
#   make            build build/bin/fiberc and the libraries
#   make check      install missing packages (Debian), build, run every test
#   make check SAN=1  the same with -fsanitize=address,undefined, in build/san
#   make demo       compile a bundled example kernel and show its IR and re-emitted SASS
#   make bench      throughput and memory of fiberc on a generated 70,000-instruction kernel
#   make fuzz       build the libFuzzer target for the SASS parser (needs clang)
#   make install PREFIX=/usr/local
#   make layers     check that each directory includes only the layers below it

PREFIX  ?= /usr/local
SAN     ?= 0
CC      ?= cc
BISON   ?= bison
FLEX    ?= flex
VERSION := 0.1.0

ifeq ($(SAN),1)
B := build/san
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
OPT := -O1 -g
else
B := build
SANFLAGS :=
OPT := -O2 -g
endif

WARN := -Wall -Wextra -Wshadow -Wundef -Wwrite-strings -Wmissing-prototypes \
        -Wstrict-prototypes -Wold-style-definition -Wno-unused-parameter
ifeq ($(WERROR),1)
WARN += -Werror
endif
CPPFLAGS += -DFIBER_VERSION='"$(VERSION)"'
# Include paths per layer (docs/architecture.md): a file sees only its own folder and the layers it
# builds on, so the compiler refuses a forbidden include; `make layers` also refuses relative
# includes ("../x.h"), which would get around this. The layer of a source is its first folder
# ($(B)/ stripped for generated files); the programs, tests, benchmarks and fuzzers see all.
INC_ir       := -Iir
INC_frontend := -Iir -Ifrontend -I$(B)/frontend
INC_passes   := -Iir -Ipasses
INC_backend  := -Iir -Ibackend
INC_sim      := -Iir -Isim
INC_timing   := -Iir -Isim -Itiming
INC_runtime  := -Iir -Ifrontend -I$(B)/frontend -Isim -Itiming -Iruntime
INC_all      := -Iir -Ifrontend -I$(B)/frontend -Ipasses -Ibackend -Isim -Itiming -Iruntime
layer_of = $(firstword $(subst /, ,$(patsubst $(B)/%,%,$(patsubst $(FUZZ_B)/%,%,$(1)))))
incs = $(or $(INC_$(call layer_of,$(1))),$(INC_all))
CFLAGS   ?= $(OPT)
CFLAGS   += -std=c11 -MMD -MP $(SANFLAGS)
LDFLAGS  += $(SANFLAGS)
LDLIBS   += -lm
CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck)

# --- sources, one list per layer ---------------------------------------------------------------
IR_SRCS   := $(wildcard ir/*.c)
FE_SRCS   := $(wildcard frontend/*.c)
PASS_SRCS := $(wildcard passes/*.c)
BE_SRCS   := $(wildcard backend/*.c)
SIM_SRCS  := $(wildcard sim/*.c)
TIM_SRCS  := $(wildcard timing/*.c)
RT_SRCS   := $(wildcard runtime/*.c)
FE_GEN    := $(B)/frontend/sass.tab.c $(B)/frontend/sass.lex.c $(B)/frontend/ptx.tab.c $(B)/frontend/ptx.lex.c

IR_OBJS   := $(IR_SRCS:%.c=$(B)/%.o)
FE_OBJS   := $(FE_SRCS:%.c=$(B)/%.o) $(FE_GEN:.c=.o)
PASS_OBJS := $(PASS_SRCS:%.c=$(B)/%.o)
BE_OBJS   := $(BE_SRCS:%.c=$(B)/%.o)
# the built-in device configurations: configs/*.cfg as C strings (timing/config.c reads them)
CFG_FILES := $(sort $(wildcard configs/*.cfg))
CFG_GEN   := $(B)/timing/configs.c
SIM_OBJS  := $(SIM_SRCS:%.c=$(B)/%.o)
TIM_OBJS  := $(TIM_SRCS:%.c=$(B)/%.o) $(if $(TIM_SRCS),$(CFG_GEN:.c=.o))
RT_OBJS   := $(RT_SRCS:%.c=$(B)/%.o)
LIB_OBJS  := $(IR_OBJS) $(FE_OBJS) $(PASS_OBJS) $(BE_OBJS)
LIBFIBER  := $(B)/lib/libfiber.a
# the runtime library: simulator + runtime + what it loads modules with (front end, IR)
LIBFIBERRT := $(B)/lib/libfiberrt.a
RT_LIBS   := -lelf -pthread

FIBERC    := $(B)/bin/fiberc
FIBERSIM  := $(B)/bin/fibersim
TEST_SRCS := $(wildcard tests/check_*.c)
TEST_OBJS := $(TEST_SRCS:%.c=$(B)/%.o) $(B)/tests/check.o $(if $(SIM_SRCS),$(B)/tests/kernrun.o $(B)/tests/ptxrun.o)
TEST_BIN  := $(B)/tests/check_all

.PHONY: all deps check run-tests demo bench fuzz install uninstall clean layers ptx-bench 80
all: $(FIBERC) $(if $(wildcard driver/fibersim.c),$(FIBERSIM))

# --- objects ------------------------------------------------------------------------------------
$(B)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(call incs,$<) $(CFLAGS) $(WARN) -c -o $@ $<

# the simulator's 32-lane loops: let GCC vectorise them even when its cost model hesitates
VECT_FLAG := $(shell $(CC) -fvect-cost-model=cheap -E -x c /dev/null >/dev/null 2>&1 && echo -fvect-cost-model=cheap)
$(B)/sim/%.o $(B)/timing/%.o: CFLAGS += $(VECT_FLAG)

# generated parser and scanner: fewer warnings (the generated code is not ours)
$(B)/frontend/sass.tab.c $(B)/frontend/sass.tab.h &: frontend/sass.y
	@mkdir -p $(@D)
	$(BISON) -Wall -Werror -o $(B)/frontend/sass.tab.c -H$(B)/frontend/sass.tab.h $<
$(B)/frontend/sass.lex.c: frontend/sass.l $(B)/frontend/sass.tab.h
	@mkdir -p $(@D)
	$(FLEX) -o $@ $<
$(B)/frontend/sass.tab.o: $(B)/frontend/sass.tab.c
	$(CC) $(CPPFLAGS) $(call incs,$<) $(CFLAGS) -Wall -Wno-unused-function -c -o $@ $<
$(B)/frontend/sass.lex.o: $(B)/frontend/sass.lex.c
	$(CC) $(CPPFLAGS) $(call incs,$<) $(CFLAGS) -Wall -Wno-unused-function -Wno-sign-compare -c -o $@ $<
# the PTX scanner and parser (issue 11), built like the SASS ones
$(B)/frontend/ptx.tab.c $(B)/frontend/ptx.tab.h &: frontend/ptx.y
	@mkdir -p $(@D)
	$(BISON) -Wall -Werror -o $(B)/frontend/ptx.tab.c -H$(B)/frontend/ptx.tab.h $<
$(B)/frontend/ptx.lex.c: frontend/ptx.l $(B)/frontend/ptx.tab.h
	@mkdir -p $(@D)
	$(FLEX) -o $@ $<
$(B)/frontend/ptx.tab.o: $(B)/frontend/ptx.tab.c
	$(CC) $(CPPFLAGS) $(call incs,$<) $(CFLAGS) -Wall -Wno-unused-function -c -o $@ $<
$(B)/frontend/ptx.lex.o: $(B)/frontend/ptx.lex.c
	$(CC) $(CPPFLAGS) $(call incs,$<) $(CFLAGS) -Wall -Wno-unused-function -Wno-sign-compare -c -o $@ $<
# every front-end object may include the generated headers
$(FE_SRCS:%.c=$(B)/%.o): $(B)/frontend/sass.tab.h $(B)/frontend/ptx.tab.h

# each configs/NAME.cfg becomes {"NAME", "line\n" "line\n" ...}; \ " and ? are escaped (no
# trigraphs); POSIX sed only, no xxd
$(CFG_GEN): $(CFG_FILES) Makefile
	@mkdir -p $(@D)
	{ echo '/* generated by the Makefile from configs/NAME.cfg: the built-in configurations */'; \
	  echo 'const char *const simcfg_builtin_text[][2] = {'; \
	  for f in $(CFG_FILES); do \
	    echo "{\"$$(basename $$f .cfg)\","; \
	    sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' -e 's/^/"/' -e 's/$$/\\n"/' $$f; \
	    echo '},'; \
	  done; \
	  echo '{0, 0},'; echo '};'; } > $@.tmp
	mv $@.tmp $@
$(CFG_GEN:.c=.o): $(CFG_GEN)
	$(CC) $(CPPFLAGS) $(call incs,$<) $(CFLAGS) $(WARN) -c -o $@ $<

$(LIBFIBER): $(LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

# fiberc writes its files as fibersim does: through runtime/outfile.c (libc only)
$(FIBERC): $(B)/driver/fiberc.o $(B)/driver/passlist.o $(B)/driver/fstats.o $(B)/runtime/outfile.o $(LIBFIBER)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(LIBFIBERRT): $(RT_OBJS) $(TIM_OBJS) $(SIM_OBJS) $(IR_OBJS) $(FE_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(FIBERSIM): $(B)/driver/fibersim.o $(LIBFIBERRT)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(RT_LIBS) $(LDLIBS)

# --- tests --------------------------------------------------------------------------------------
# the runner calls every `Suite *NAME_suite(void)` defined in tests/check_*.c
$(B)/tests/suites.h: $(TEST_SRCS)
	@mkdir -p $(@D)
	sed -n 's/^\(Suite \*\)\{0,1\}\([a-z0-9_]*_suite\)(void)$$/SUITE(\2)/p' $(TEST_SRCS) > $@.tmp
	mv $@.tmp $@
$(B)/tests/check.o: tests/check.c $(B)/tests/suites.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(call incs,$<) -I$(B)/tests $(CHECK_CFLAGS) $(CFLAGS) $(WARN) -c -o $@ $<
$(B)/tests/kernrun.o: tests/kernrun.c tests/kernrun.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(call incs,$<) $(CFLAGS) $(WARN) -c -o $@ $<
$(B)/tests/ptxrun.o: tests/ptxrun.c tests/ptxrun.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(call incs,$<) $(CFLAGS) $(WARN) -c -o $@ $<
$(B)/tests/check_%.o: tests/check_%.c $(B)/frontend/sass.tab.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(call incs,$<) $(CHECK_CFLAGS) $(CFLAGS) $(WARN) -Wno-missing-prototypes -c -o $@ $<
$(TEST_BIN): $(TEST_OBJS) $(LIBFIBER) $(if $(SIM_SRCS),$(LIBFIBERRT))
	$(CC) $(LDFLAGS) -o $@ $(TEST_OBJS) $(LIBFIBER) $(if $(SIM_SRCS),$(RT_OBJS) $(TIM_OBJS) $(SIM_OBJS)) $(CHECK_LIBS) $(if $(SIM_SRCS),$(RT_LIBS)) $(LDLIBS)

deps:
	@sh scripts/deps.sh

check: deps
	@$(MAKE) --no-print-directory layers run-tests

# every suite and script runs, even after a failure; the last line is the total over all of them,
# `N passed, M failed, K skipped`, and the status is non-zero if anything failed (scripts/run-tests.sh)
run-tests: all $(TEST_BIN)
	@FIBER_ROOT=$(CURDIR) FIBERC=$(CURDIR)/$(FIBERC) FIBERSIM=$(CURDIR)/$(FIBERSIM) B=$(B) \
	  sh scripts/run-tests.sh $(TEST_BIN)

# the FIBER-native kernels (examples/fiber-native) against their SIMT examples, and each ablation
.PHONY: fiber-demo fiber-bench
# CUDA-native FIBER against SIMT, cycles per example (scripts/fiber-bench.sh)
fiber-bench: deps
	@$(MAKE) --no-print-directory $(FIBERC) $(FIBERSIM)
	@FIBERC=$(FIBERC) FIBERSIM=$(FIBERSIM) sh scripts/fiber-bench.sh $(B)/fiber-bench

# the PTX code generator against nvcc: cycles, registers, spills per example (issue 11)
ptx-bench: deps
	@$(MAKE) --no-print-directory $(FIBERC) $(FIBERSIM)
	@FIBERC=$(FIBERC) FIBERSIM=$(FIBERSIM) sh scripts/ptx-bench.sh $(B)/ptx-bench

fiber-demo: deps
	@$(MAKE) --no-print-directory $(FIBERSIM)
	@FIBERSIM=$(FIBERSIM) sh scripts/fiber-demo.sh

demo: deps
	@$(MAKE) --no-print-directory $(FIBERC)
	@echo '== fiberc examples/softmax/softmax.sm_80.sass --emit=ir (first kernel, head)'
	@$(FIBERC) examples/softmax/softmax.sm_80.sass --emit=ir --stats | sed -n '/\.text\./,$$p' | head -80
	@echo '== fiberc --emit=sass: re-emitted listing equals the input (modulo whitespace)?'
	@$(FIBERC) examples/softmax/softmax.sm_80.sass --emit=sass -o $(B)/demo.sass
	@sh scripts/sass-normalize.sh examples/softmax/softmax.sm_80.sass > $(B)/demo.in.norm
	@sh scripts/sass-normalize.sh $(B)/demo.sass > $(B)/demo.out.norm
	@cmp -s $(B)/demo.in.norm $(B)/demo.out.norm && echo 'yes: identical' || { echo 'NO: differs'; exit 1; }
	@$(MAKE) --no-print-directory $(FIBERSIM) $(LIBFIBERRT)
	@echo '== fibersim times the SASS that fiberc emitted on an A100 model: softmax of 8 zero rows'
	@echo '   of 256 (each 1/256); the summary is on stderr, everything in the stats JSON'
	$(FIBERSIM) run $(B)/demo.sass --kernel softmax_rows --grid 2 --block 128 --arg zeros:8192 \
	  --arg zeros:8192 --arg i32:8 --arg i32:256 --out 1:$(B)/demo.y.bin --stats $(B)/demo.stats.json \
	  --cpi-svg $(B)/demo.cpi.svg
	@od -A d -t f4 -N 16 $(B)/demo.y.bin
	@echo '   statistics: $(B)/demo.stats.json (docs/sim-stats.md); CPI chart: $(B)/demo.cpi.svg'
	@echo '== the same kernel on the H100 and B200 models (sm_90 listing)'
	@for c in h100 b200; do $(FIBERSIM) run examples/softmax/softmax.sm_90.sass --config $$c \
	  --kernel softmax_rows --grid 2 --block 128 --arg zeros:8192 --arg zeros:8192 --arg i32:8 \
	  --arg i32:256 2>&1 | sed -n 1,2p; done
	@echo '== examples/host: a host program on runtime/fiber.h, random input, checked against a CPU softmax'
	@$(MAKE) --no-print-directory -C examples/host FIBER_ROOT=$(CURDIR) FIBER_BUILD=$(CURDIR)/$(B) run
	@echo '== fiberc --mode=cuda-native: nvcc SASS of examples/bias_silu compiled for the FIBER SM'
	@$(FIBERC) examples/bias_silu/bias_silu.sm_80.sass --mode=cuda-native --fiber-grid=4 --stats \
	  -o $(B)/demo.bias.fsass 2>&1 | sed -n '/FIBER:/,$$p'
	@awk 'BEGIN { for (i = 0; i < 16384; i++) printf "%c%c%c%c", 0, 0, 128, 63 }' > $(B)/demo.x.bin
	@echo '   nvcc SASS on a100, then fiberc output on a100-fiber (x = 1, bias = 0: y = silu(1))'
	@for run in "examples/bias_silu/bias_silu.sm_80.sass a100 demo.y1" "$(B)/demo.bias.fsass a100-fiber demo.y2"; do \
	  set -- $$run; $(FIBERSIM) run $$1 --config $$2 --kernel bias_silu_f32 --grid 4 --block 128 \
	  --arg buf:$(B)/demo.x.bin --arg zeros:16384 --arg zeros:65536 --out 2:$(B)/$$3.bin 2>&1 | sed -n 1,2p; done
	@cmp -s $(B)/demo.y1.bin $(B)/demo.y2.bin && echo '   outputs identical' || { echo '   outputs DIFFER'; exit 1; }
	@echo '== fiberc compiles PTX: examples/bias_silu from nvcc -ptx output, run beside nvcc'"'"'s SASS'
	@$(FIBERC) examples/bias_silu/bias_silu.sm_80.ptx --arch=sm_80 -o $(B)/demo.ptx.sass
	@$(FIBERC) examples/bias_silu/bias_silu.sm_80.ptx --emit=isel | sed -n '/^\.text\.bias/,/^\/\/ 5[5-9]:/p' | head -24
	@for run in "examples/bias_silu/bias_silu.sm_80.sass nvcc demo.y1" "$(B)/demo.ptx.sass fiberc demo.y3"; do \
	  set -- $$run; echo "   $$2:"; $(FIBERSIM) run $$1 --config a100 --kernel bias_silu_f32 --grid 4 --block 128 \
	  --arg buf:$(B)/demo.x.bin --arg zeros:16384 --arg zeros:65536 --out 2:$(B)/$$3.bin 2>&1 | sed -n 1,2p; done
	@cmp -s $(B)/demo.y1.bin $(B)/demo.y3.bin && echo '   outputs identical' || { echo '   outputs DIFFER'; exit 1; }

# the include graph must follow the layering (docs/architecture.md). The compiler enforces it (each
# layer is built with only its own include paths, INC_* above); this target also refuses relative or
# path includes ("../sim/sim.h", "sim/sim.h"), which the compiler would otherwise resolve, and
# checks that each layer's public header names no header of a layer above it.
LAYER_DIRS := ir frontend passes backend sim timing runtime driver
layers:
	@! grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*/' $(foreach d,$(LAYER_DIRS),$(wildcard $(d)/*.[chly])) || { echo 'layers: includes name a bare header, never a path'; exit 1; }
	@! grep -nE '#include "(frontend|parse|passes|backend|sim|timing|fiber|rt)\.h' ir/*.[ch] || { echo 'ir/ must include nothing of ours'; exit 1; }
	@! grep -nE '#include "(passes|backend|sim|timing|fiber|rt)\.h' frontend/*.[chly] || { echo 'frontend/ must build on ir/ only'; exit 1; }
	@! grep -nE '#include "(frontend|parse|backend|sim|timing|fiber|rt)\.h' passes/*.[ch] || { echo 'passes/ must build on ir/ only'; exit 1; }
	@! grep -nE '#include "(frontend|parse|passes|sim|timing|fiber|rt)\.h' backend/*.[ch] || { echo 'backend/ must build on ir/ only'; exit 1; }
	@! grep -nE '#include "(frontend|parse|passes|backend|timing|tcore|simcfg|smmodel|fiber|rt)\.h' sim/*.[ch] || { echo 'sim/ must build on ir/ only'; exit 1; }
	@! grep -nE '#include "(frontend|parse|passes|backend|fiber|rt)\.h' timing/*.[ch] || { echo 'timing/ builds on sim/ and ir/ only'; exit 1; }
	@! grep -nE '#include "(passes|backend)\.h' runtime/*.[ch] || { echo 'runtime/ builds on timing/, sim/, frontend/ and ir/ only'; exit 1; }
	@echo 'layers: ok'

80:
	@grep -nE '^.{101,}' ir/*.[ch] frontend/*.[chly] passes/*.[ch] backend/*.[ch] timing/*.[ch] driver/*.c || echo 'no line over 100 columns'

clean:
	rm -rf build

-include $(shell find $(B) -name '*.d' 2>/dev/null)

# =================================================================================================
# Appended by the infra helper: install/uninstall, fuzz/fuzz-run, bench.
# =================================================================================================
.PHONY: fuzz-run

# --- install / uninstall (PREFIX, DESTDIR) -------------------------------------------------------
INSTALL     ?= install
BINDIR      := $(PREFIX)/bin
LIBDIR      := $(PREFIX)/lib
INCDIR      := $(PREFIX)/include/fiber
DATADIR     := $(PREFIX)/share/fiber
MAN1DIR     := $(PREFIX)/share/man/man1
PUBLIC_HDRS := ir/ir.h ir/enc.h ir/ops.h ir/regs.h frontend/frontend.h

install: $(FIBERC) $(LIBFIBER)
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR) \
	  $(DESTDIR)$(DATADIR) $(DESTDIR)$(MAN1DIR)
	$(INSTALL) -m 755 $(FIBERC) $(DESTDIR)$(BINDIR)/fiberc
	$(INSTALL) -m 644 $(LIBFIBER) $(DESTDIR)$(LIBDIR)/libfiber.a
	$(INSTALL) -m 644 $(PUBLIC_HDRS) $(DESTDIR)$(INCDIR)/
	$(INSTALL) -m 644 mk/fiber.mk $(DESTDIR)$(DATADIR)/fiber.mk
	$(INSTALL) -m 644 man/fiberc.1 $(DESTDIR)$(MAN1DIR)/fiberc.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/fiberc $(DESTDIR)$(LIBDIR)/libfiber.a \
	  $(addprefix $(DESTDIR)$(INCDIR)/,$(notdir $(PUBLIC_HDRS))) \
	  $(DESTDIR)$(DATADIR)/fiber.mk $(DESTDIR)$(MAN1DIR)/fiberc.1
	@rmdir $(DESTDIR)$(INCDIR) $(DESTDIR)$(DATADIR) 2>/dev/null || true

# --- fuzz: libFuzzer + ASan + UBSan on the SASS front end and the lifting pipeline (clang) -----
#   make fuzz                          build build/fuzz/fuzz_sass
#   make fuzz-run FUZZ_SECONDS=60      seed a corpus from the examples (SASS and IR) and fuzz;
#                                      fails on any crash, leak or timeout (input kept in
#                                      build/fuzz/artifacts/)
#   build/fuzz/fuzz_sass FILE...       replay inputs
FUZZ_CC      ?= clang
FUZZ_B       := build/fuzz
FUZZ_SECONDS ?= 60
FUZZ_TIMEOUT ?= 10
# a fixed seed makes a run repeat the same inputs: CI's run is a prefix of a longer local one
FUZZ_SEED    ?= 1
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS  := -std=c11 -g -O1 -MMD -MP $(FUZZ_SAN) -fsanitize=fuzzer-no-link
FUZZ_SRCS    := $(IR_SRCS) $(FE_SRCS) $(PASS_SRCS) $(BE_SRCS)
FUZZ_OBJS    := $(FUZZ_SRCS:%.c=$(FUZZ_B)/%.o) $(FUZZ_B)/gen/sass.tab.o $(FUZZ_B)/gen/sass.lex.o \
                $(FUZZ_B)/gen/ptx.tab.o $(FUZZ_B)/gen/ptx.lex.o
FUZZ_BIN     := $(FUZZ_B)/fuzz_sass
# the runtime's targets (runtime helper): the module loader (SASS, IR text, cubin ELF; decoding
# by the simulator) and fibersim's command line, --arg SPEC and configuration file parsers
FUZZ_RT_OBJS := $(addprefix $(FUZZ_B)/,$(SIM_SRCS:.c=.o) $(TIM_SRCS:.c=.o) $(RT_SRCS:.c=.o)) $(FUZZ_B)/gen/configs.o
FUZZ_RT_BINS := $(if $(RT_SRCS),$(FUZZ_B)/fuzz_load $(FUZZ_B)/fuzz_args)
FUZZ_SEEDS    = $(shell find examples -name '*.sass' 2>/dev/null | sort) \
               $(wildcard tests/golden/*.sass)

fuzz: $(FUZZ_BIN) $(FUZZ_RT_BINS) $(FUZZ_B)/fuzz_fsass $(FUZZ_B)/fuzz_ptx

$(FUZZ_B)/%.o: %.c $(B)/frontend/sass.tab.h $(B)/frontend/ptx.tab.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(call incs,$<) $(FUZZ_CFLAGS) $(WARN) -c -o $@ $<
$(FUZZ_B)/gen/sass.tab.o: $(B)/frontend/sass.tab.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(call incs,$<) $(FUZZ_CFLAGS) -Wall -Wno-unused-function -c -o $@ $<
$(FUZZ_B)/gen/sass.lex.o: $(B)/frontend/sass.lex.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(call incs,$<) $(FUZZ_CFLAGS) -Wall -Wno-unused-function -Wno-sign-compare -c -o $@ $<
$(FUZZ_B)/gen/ptx.tab.o: $(B)/frontend/ptx.tab.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(call incs,$<) $(FUZZ_CFLAGS) -Wall -Wno-unused-function -c -o $@ $<
$(FUZZ_B)/gen/ptx.lex.o: $(B)/frontend/ptx.lex.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(call incs,$<) $(FUZZ_CFLAGS) -Wall -Wno-unused-function -Wno-sign-compare -c -o $@ $<
$(FUZZ_B)/fuzz_ptx: $(FUZZ_B)/fuzz/fuzz_ptx.o $(FUZZ_OBJS)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)
$(FUZZ_B)/gen/configs.o: $(CFG_GEN)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(call incs,$<) $(FUZZ_CFLAGS) $(WARN) -c -o $@ $<
$(FUZZ_B)/fuzz_sass.o: fuzz/fuzz_sass.c $(B)/frontend/sass.tab.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(call incs,$<) $(FUZZ_CFLAGS) $(WARN) -c -o $@ $<
$(FUZZ_B)/fuzz_sass.o: CPPFLAGS += -Idriver
$(FUZZ_BIN): $(FUZZ_B)/fuzz_sass.o $(FUZZ_B)/driver/passlist.o $(FUZZ_OBJS)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)
$(FUZZ_B)/fuzz_fsass: $(FUZZ_B)/fuzz/fuzz_fsass.o $(FUZZ_OBJS)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)
$(FUZZ_B)/fuzz_load $(FUZZ_B)/fuzz_args: $(FUZZ_B)/%: $(FUZZ_B)/fuzz/%.o $(FUZZ_OBJS) $(FUZZ_RT_OBJS)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(RT_LIBS) $(LDLIBS)

# seeds: the listings cut into pieces, and the IR text fiberc makes of the sm_80 ones; then the
# runtime's targets, FUZZ_SECONDS each (fuzz_load also launches every kernel that loads, on the
# timing driver), each writing its own built-in seeds (a small cubin and
# listing; command lines and configuration files) into FUZZ_SEED_DIR before it starts
fuzz-run: $(FUZZ_BIN) $(FUZZ_RT_BINS) $(FUZZ_B)/fuzz_fsass $(FUZZ_B)/fuzz_ptx $(FIBERC)
	rm -rf $(FUZZ_B)/seed $(FUZZ_B)/ir
	mkdir -p $(FUZZ_B)/seed $(FUZZ_B)/ir $(FUZZ_B)/corpus $(FUZZ_B)/artifacts
	@for f in $(filter %.sm_80.sass,$(FUZZ_SEEDS)); do \
	  $(FIBERC) $$f --emit=ir -o $(FUZZ_B)/ir/$$(basename $$f .sass).ir 2>/dev/null || true; done
	sh scripts/fuzz-seed.sh $(FUZZ_B)/seed $(FUZZ_SEEDS) $(FUZZ_B)/ir/*.ir
	@echo '== replaying fuzz/regress (inputs that once crashed)'
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  $(FUZZ_BIN) fuzz/regress/*
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  $(FUZZ_BIN) -max_len=65536 -max_total_time=$(FUZZ_SECONDS) -seed=$(FUZZ_SEED) -timeout=$(FUZZ_TIMEOUT) \
	  -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=$(FUZZ_B)/artifacts/ \
	  $(FUZZ_B)/corpus $(FUZZ_B)/seed
	@echo '== fuzz_ptx (seeds: the committed .ptx files, cut by scripts/fuzz-seed-ptx.sh)'
	rm -rf $(FUZZ_B)/seed-ptx
	mkdir -p $(FUZZ_B)/seed-ptx $(FUZZ_B)/corpus-ptx
	sh scripts/fuzz-seed-ptx.sh $(FUZZ_B)/seed-ptx $(PTX_FILES)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  $(FUZZ_B)/fuzz_ptx -max_len=65536 -max_total_time=$(FUZZ_SECONDS) -seed=$(FUZZ_SEED) \
	  -timeout=$(FUZZ_TIMEOUT) -rss_limit_mb=2048 -artifact_prefix=$(FUZZ_B)/artifacts/ptx- \
	  $(FUZZ_B)/corpus-ptx $(FUZZ_B)/seed-ptx
	@echo '== fuzz_fsass (seeds: tests/fsass)'
	mkdir -p $(FUZZ_B)/corpus-fsass
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  $(FUZZ_B)/fuzz_fsass -max_len=65536 -max_total_time=$(FUZZ_SECONDS) -seed=$(FUZZ_SEED) \
	  -timeout=$(FUZZ_TIMEOUT) -rss_limit_mb=2048 -artifact_prefix=$(FUZZ_B)/artifacts/fsass- \
	  $(FUZZ_B)/corpus-fsass tests/fsass tests/fsass/fail examples/fiber-native
	@for t in $(notdir $(FUZZ_RT_BINS)); do \
	  rm -rf $(FUZZ_B)/seed-$$t; mkdir -p $(FUZZ_B)/seed-$$t $(FUZZ_B)/corpus-$$t || exit 1; \
	  echo "== $$t"; \
	  FUZZ_SEED_DIR=$(FUZZ_B)/seed-$$t ASAN_OPTIONS=detect_leaks=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 FIBER_NVDISASM= FIBER_FUZZ_LAUNCH=1 \
	  $(FUZZ_B)/$$t -max_len=65536 -max_total_time=$(FUZZ_SECONDS) -seed=$(FUZZ_SEED) -timeout=$(FUZZ_TIMEOUT) \
	  -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=$(FUZZ_B)/artifacts/$$t- \
	  $(FUZZ_B)/corpus-$$t $(FUZZ_B)/seed-$$t $$([ $$t = fuzz_load ] && echo $(FUZZ_B)/seed) \
	  || exit 1; done

# --- bench: throughput and memory on a generated kernel (always -O2, never SAN) -----------------
#   make bench [BENCH_N=70000] [BENCH_REPS=7]
BENCH_N    ?= 70000
BENCH_REPS ?= 7
BENCH_B    := build/bench
ifeq ($(SAN),1)
bench:
	@$(MAKE) --no-print-directory SAN=0 bench
else
$(BENCH_B)/gen_large: $(B)/bench/gen_large.o
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
$(B)/bench/bench_fiberc.o: $(B)/frontend/sass.tab.h
$(BENCH_B)/bench_fiberc: $(B)/bench/bench_fiberc.o $(B)/bench/spawn.o $(LIBFIBER)
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
endif

# --- the PTX front end's benchmark (issue 11): make bench-ptx [BENCH_PTX_LINES=75000] ---------
#   the parser's throughput on a generated nvcc-style kernel (bench/gen_large_ptx.c), CPU time of
#   the fastest of BENCH_REPS runs (bench/bench_ptx.c); target 1,000,000 PTX instructions/s
PTX_FILES       = $(sort $(wildcard examples/*/*.ptx tests/corpus/*.ptx))
BENCH_PTX_LINES ?= 75000
.PHONY: bench-ptx
ifeq ($(SAN),1)
bench-ptx:
	@$(MAKE) --no-print-directory SAN=0 bench-ptx
else
$(BENCH_B)/gen_large_ptx: $(B)/bench/gen_large_ptx.o
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
$(BENCH_B)/bench_ptx: $(B)/bench/bench_ptx.o $(LIBFIBER)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
$(BENCH_B)/large-$(BENCH_PTX_LINES).ptx: $(BENCH_B)/gen_large_ptx
	$(BENCH_B)/gen_large_ptx -n $(BENCH_PTX_LINES) -o $@.tmp
	mv -f $@.tmp $@
$(BENCH_B)/bench_ptxc: $(B)/bench/bench_ptxc.o $(B)/bench/spawn.o $(LIBFIBER)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
# PTXAS: NVIDIA's, timed side by side when it is there (not on CI)
PTXAS ?= $(firstword $(wildcard /usr/local/cuda/bin/ptxas) $(shell command -v ptxas 2>/dev/null))
bench-ptx: $(BENCH_B)/bench_ptx $(BENCH_B)/bench_ptxc $(BENCH_B)/large-$(BENCH_PTX_LINES).ptx $(FIBERC)
	$(BENCH_B)/bench_ptx -r $(BENCH_REPS) $(BENCH_B)/large-$(BENCH_PTX_LINES).ptx
	$(BENCH_B)/bench_ptxc -r 5 --fiberc $(FIBERC) $(if $(PTXAS),--ptxas $(PTXAS)) \
	  $(BENCH_B)/large-$(BENCH_PTX_LINES).ptx
# make bench runs it too: the 200,000 PTX instructions/s target is a `make bench` figure
bench: bench-ptx
endif

# =================================================================================================
# Appended by the validation helper: the CPU references of tests/check_kernels.c (tests/ref/),
# and `make bench`'s functional-simulator benchmark (bench/simbench.c).
# =================================================================================================
REF_SRCS := $(wildcard tests/ref/*.c)
REF_OBJS := $(REF_SRCS:%.c=$(B)/%.o)
TEST_OBJS += $(REF_OBJS)
$(TEST_BIN): $(REF_OBJS)
# the kernel runs need the simulator; the references are tested without it
$(B)/tests/check_kernels.o: CPPFLAGS += $(if $(RT_SRCS),-DFIBER_HAVE_SIM)
$(B)/tests/check_fiber_kernels.o: CPPFLAGS += $(if $(RT_SRCS),-DFIBER_HAVE_SIM)
$(B)/tests/check_phases.o: CPPFLAGS += $(if $(RT_SRCS),-DFIBER_HAVE_SIM)
# simbench: functional-mode warp instructions per second (median of SIMBENCH_REPS launches, one
# thread) and peak RSS, on bench/alu_loop.cu (ALU), bench/stream.cu (memory), examples/silu_ffn
# and examples/gemm_tc scaled up; `make bench` runs it before the fiberc benchmark.
SIMBENCH_REPS ?= 5
.PHONY: simbench
ifeq ($(SAN),1)
simbench:
	@$(MAKE) --no-print-directory SAN=0 simbench
else ifneq ($(RT_SRCS),)
$(BENCH_B)/simbench: $(B)/bench/simbench.o $(B)/bench/benchutil.o $(LIBFIBERRT)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(RT_LIBS) $(LDLIBS)
simbench: $(BENCH_B)/simbench
	$(BENCH_B)/simbench -r $(SIMBENCH_REPS) --root $(CURDIR)
bench: simbench
else
simbench:
	@echo 'simbench: no runtime library yet (runtime/*.c)'
endif
# timebench: the timing simulator's speed (warp instructions and cycles per second, one thread
# and TIMEBENCH_THREADS threads, identical results checked) on a tensor-core GEMM, attention, a
# memory-bound and an elementwise kernel, and the error of the sampling extrapolations.
TIMEBENCH_REPS ?= 3
TIMEBENCH_THREADS ?= 2
.PHONY: timebench
ifeq ($(SAN),1)
timebench:
	@$(MAKE) --no-print-directory SAN=0 timebench
else
$(BENCH_B)/timebench: $(B)/bench/timebench.o $(B)/bench/benchutil.o $(LIBFIBERRT)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(RT_LIBS) $(LDLIBS) -lm
timebench: $(BENCH_B)/timebench
	$(BENCH_B)/timebench -r $(TIMEBENCH_REPS) -t $(TIMEBENCH_THREADS) --root $(CURDIR)
bench: timebench
endif

# =================================================================================================
# Appended by the runtime helper: the runtime library as a shared object, and installing the
# runtime (fibersim, libfiberrt.a and .so, fiber.h, fiber.pc, fibersim.1).
#   build/lib/libfiberrt.so   -> libfiberrt.so.0 -> libfiberrt.so.$(VERSION): objects built with
#                             -fPIC -fvisibility=hidden in $(B)/pic, so only fiber*() is exported
#   make install              also installs the runtime; `cc $(pkg-config --cflags --libs fiber)`
#                             then builds host programs (fiber.pc sets an rpath to $(LIBDIR))
# =================================================================================================
.PHONY: install-runtime uninstall-runtime
PIC_B         := $(B)/pic
PIC_OBJS      := $(addprefix $(PIC_B)/,$(RT_SRCS:.c=.o) $(SIM_SRCS:.c=.o) $(TIM_SRCS:.c=.o) $(IR_SRCS:.c=.o) \
                 $(FE_SRCS:.c=.o)) $(PIC_B)/gen/sass.tab.o $(PIC_B)/gen/sass.lex.o \
                 $(PIC_B)/gen/configs.o
PIC_FLAGS     := -fPIC -fvisibility=hidden
RT_SO_MAJOR   := $(firstword $(subst ., ,$(VERSION)))
RT_SONAME     := libfiberrt.so.$(RT_SO_MAJOR)
LIBFIBERRT_SO := $(B)/lib/libfiberrt.so
RT_SO_REAL    := $(B)/lib/libfiberrt.so.$(VERSION)
PKGCONFIGDIR  := $(LIBDIR)/pkgconfig

ifneq ($(RT_SRCS),)
all: $(LIBFIBERRT) $(LIBFIBERRT_SO) $(B)/lib/$(RT_SONAME)
install: install-runtime
uninstall: uninstall-runtime
endif

$(PIC_B)/%.o: %.c $(B)/frontend/sass.tab.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(call incs,$<) $(CFLAGS) $(PIC_FLAGS) $(WARN) -c -o $@ $<
$(PIC_B)/gen/sass.tab.o: $(B)/frontend/sass.tab.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(call incs,$<) $(CFLAGS) $(PIC_FLAGS) -Wall -Wno-unused-function -c -o $@ $<
$(PIC_B)/gen/sass.lex.o: $(B)/frontend/sass.lex.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(call incs,$<) $(CFLAGS) $(PIC_FLAGS) -Wall -Wno-unused-function -Wno-sign-compare -c -o $@ $<
$(PIC_B)/gen/configs.o: $(CFG_GEN)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(call incs,$<) $(CFLAGS) $(PIC_FLAGS) $(WARN) -c -o $@ $<
$(RT_SO_REAL): $(PIC_OBJS)
	@mkdir -p $(@D)
	$(CC) -shared $(LDFLAGS) -Wl,-soname,$(RT_SONAME) -Wl,--no-undefined -o $@ $^ $(RT_LIBS) \
	  $(LDLIBS) -lpthread
$(B)/lib/$(RT_SONAME) $(LIBFIBERRT_SO): $(RT_SO_REAL)
	ln -sf $(notdir $<) $@

install-runtime: $(FIBERSIM) $(LIBFIBERRT) $(RT_SO_REAL)
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR) \
	  $(DESTDIR)$(MAN1DIR) $(DESTDIR)$(PKGCONFIGDIR)
	$(INSTALL) -m 755 $(FIBERSIM) $(DESTDIR)$(BINDIR)/fibersim
	$(INSTALL) -m 644 $(LIBFIBERRT) $(DESTDIR)$(LIBDIR)/libfiberrt.a
	$(INSTALL) -m 755 $(RT_SO_REAL) $(DESTDIR)$(LIBDIR)/libfiberrt.so.$(VERSION)
	ln -sf libfiberrt.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(RT_SONAME)
	ln -sf libfiberrt.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libfiberrt.so
	$(INSTALL) -m 644 runtime/fiber.h $(DESTDIR)$(INCDIR)/fiber.h
	$(INSTALL) -m 644 man/fibersim.1 $(DESTDIR)$(MAN1DIR)/fibersim.1
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' -e 's|@INCDIR@|$(INCDIR)|g' \
	  -e 's|@VERSION@|$(VERSION)|g' mk/fiber.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/fiber.pc

uninstall-runtime:
	rm -f $(DESTDIR)$(BINDIR)/fibersim $(DESTDIR)$(LIBDIR)/libfiberrt.a \
	  $(DESTDIR)$(LIBDIR)/libfiberrt.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(RT_SONAME) \
	  $(DESTDIR)$(LIBDIR)/libfiberrt.so $(DESTDIR)$(INCDIR)/fiber.h \
	  $(DESTDIR)$(MAN1DIR)/fibersim.1 $(DESTDIR)$(PKGCONFIGDIR)/fiber.pc
	@rmdir $(DESTDIR)$(PKGCONFIGDIR) 2>/dev/null || true

# =================================================================================================
# Appended by the calibration helper: `make calibrate` runs the microbenchmarks of
# examples/microbench/ on the timing model of each configuration (a100, h100, b200) and prints
# them against the published values of examples/microbench/published.txt (docs/calibration.md).
#   make calibrate [CALIBRATE_ARGS='--config h100 --markdown']
# =================================================================================================
.PHONY: calibrate
CALIBRATE_ARGS ?=
ifneq ($(RT_SRCS),)
$(B)/bench/calibrate: $(B)/bench/calibrate.o $(LIBFIBERRT)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(RT_LIBS) $(LDLIBS) -lpthread
calibrate: $(B)/bench/calibrate
	$(B)/bench/calibrate --root $(CURDIR) $(CALIBRATE_ARGS)
endif

# `make hazards` runs every kernel of the hazard corpus (tests/corpus/latency/, the examples and
# the microbenchmarks) on the configuration of its architecture and prints hazards_by_opcode
# summed over them (bench/hazards.c; docs/calibration.md, "Latencies from nvcc's schedules").
#   make hazards [HAZARDS_ARGS='--set lat_fp64=8']
.PHONY: hazards
HAZARDS_ARGS ?=
HAZARD_FILES = $(sort $(wildcard tests/corpus/latency/*.sass tests/corpus/mma.*.sass \
                 tests/corpus/fp8.*.sass examples/*/*.sm_80.sass examples/*/*.sm_90.sass))
ifneq ($(RT_SRCS),)
$(B)/bench/hazards: $(B)/bench/hazards.o $(LIBFIBERRT)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(RT_LIBS) $(LDLIBS) -lpthread
hazards: $(B)/bench/hazards
	$(B)/bench/hazards $(HAZARDS_ARGS) $(HAZARD_FILES)
endif

# =================================================================================================
# Appended by the tests helper: `make docs` writes the generated parts of docs/ (the opcode table
# of docs/opcodes.md, from ir/ops.h and the nvcc listings that have their .cu beside them);
# tests/docs.sh fails when the committed file differs from what this writes.
# =================================================================================================
.PHONY: docs
DOC_LISTINGS = $(sort $(shell find examples bench tests -name '*.sass' 2>/dev/null))
$(B)/scripts/gen-opcodes: $(B)/scripts/gen-opcodes.o
	$(CC) $(LDFLAGS) -o $@ $^
docs: $(B)/scripts/gen-opcodes $(FIBERC)
	{ sed '/^<!-- generated by fiberc --list-isel/q' docs/ptx-isel.md; $(FIBERC) --list-isel; \
	  echo '<!-- end of the generated table -->'; } > docs/ptx-isel.md.tmp
	mv docs/ptx-isel.md.tmp docs/ptx-isel.md
	$(B)/scripts/gen-opcodes $(DOC_LISTINGS) < docs/opcodes.md > docs/opcodes.md.tmp
	mv docs/opcodes.md.tmp docs/opcodes.md
