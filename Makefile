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
CPPFLAGS += -Iir -Ifrontend -Ipasses -Ibackend -Isim -Iruntime -I$(B)/frontend -DFIBER_VERSION='"$(VERSION)"'
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
RT_SRCS   := $(wildcard runtime/*.c)
FE_GEN    := $(B)/frontend/sass.tab.c $(B)/frontend/sass.lex.c

IR_OBJS   := $(IR_SRCS:%.c=$(B)/%.o)
FE_OBJS   := $(FE_SRCS:%.c=$(B)/%.o) $(FE_GEN:.c=.o)
PASS_OBJS := $(PASS_SRCS:%.c=$(B)/%.o)
BE_OBJS   := $(BE_SRCS:%.c=$(B)/%.o)
SIM_OBJS  := $(SIM_SRCS:%.c=$(B)/%.o)
RT_OBJS   := $(RT_SRCS:%.c=$(B)/%.o)
LIB_OBJS  := $(IR_OBJS) $(FE_OBJS) $(PASS_OBJS) $(BE_OBJS)
LIBFIBER  := $(B)/lib/libfiber.a
# the runtime library: simulator + runtime + what it loads modules with (front end, IR)
LIBFIBERRT := $(B)/lib/libfiberrt.a
RT_LIBS   := -lelf

FIBERC    := $(B)/bin/fiberc
FIBERSIM  := $(B)/bin/fibersim
TEST_SRCS := $(wildcard tests/check_*.c)
TEST_OBJS := $(TEST_SRCS:%.c=$(B)/%.o) $(B)/tests/check.o
TEST_BIN  := $(B)/tests/check_all

.PHONY: all deps check run-tests demo bench fuzz install uninstall clean layers 80
all: $(FIBERC) $(if $(wildcard driver/fibersim.c),$(FIBERSIM))

# --- objects ------------------------------------------------------------------------------------
$(B)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -c -o $@ $<

# generated parser and scanner: fewer warnings (the generated code is not ours)
$(B)/frontend/sass.tab.c $(B)/frontend/sass.tab.h &: frontend/sass.y
	@mkdir -p $(@D)
	$(BISON) -Wall -Werror -o $(B)/frontend/sass.tab.c -H$(B)/frontend/sass.tab.h $<
$(B)/frontend/sass.lex.c: frontend/sass.l $(B)/frontend/sass.tab.h
	@mkdir -p $(@D)
	$(FLEX) -o $@ $<
$(B)/frontend/sass.tab.o: $(B)/frontend/sass.tab.c
	$(CC) $(CPPFLAGS) $(CFLAGS) -Wall -Wno-unused-function -c -o $@ $<
$(B)/frontend/sass.lex.o: $(B)/frontend/sass.lex.c
	$(CC) $(CPPFLAGS) $(CFLAGS) -Wall -Wno-unused-function -Wno-sign-compare -c -o $@ $<
# every front-end object may include the generated header
$(FE_SRCS:%.c=$(B)/%.o): $(B)/frontend/sass.tab.h

$(LIBFIBER): $(LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(FIBERC): $(B)/driver/fiberc.o $(B)/driver/passlist.o $(LIBFIBER)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(LIBFIBERRT): $(RT_OBJS) $(SIM_OBJS) $(IR_OBJS) $(FE_OBJS)
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
	$(CC) $(CPPFLAGS) -I$(B)/tests $(CHECK_CFLAGS) $(CFLAGS) $(WARN) -c -o $@ $<
$(B)/tests/check_%.o: tests/check_%.c $(B)/frontend/sass.tab.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CHECK_CFLAGS) $(CFLAGS) $(WARN) -Wno-missing-prototypes -c -o $@ $<
$(TEST_BIN): $(TEST_OBJS) $(LIBFIBER) $(if $(SIM_SRCS),$(LIBFIBERRT))
	$(CC) $(LDFLAGS) -o $@ $(TEST_OBJS) $(LIBFIBER) $(if $(SIM_SRCS),$(RT_OBJS) $(SIM_OBJS)) $(CHECK_LIBS) $(if $(SIM_SRCS),$(RT_LIBS)) $(LDLIBS)

deps:
	@sh scripts/deps.sh

check: deps
	@$(MAKE) --no-print-directory run-tests

run-tests: all $(TEST_BIN)
	FIBER_ROOT=$(CURDIR) FIBERC=$(CURDIR)/$(FIBERC) FIBERSIM=$(CURDIR)/$(FIBERSIM) $(TEST_BIN)
	@for t in tests/*.sh; do [ -f "$$t" ] || continue; \
	  echo "== $$t"; FIBERC=$(CURDIR)/$(FIBERC) B=$(B) sh "$$t" || exit 1; done

demo: deps
	@$(MAKE) --no-print-directory $(FIBERC)
	@echo '== fiberc examples/softmax/softmax.sm_80.sass --emit=ir (first kernel, head)'
	@$(FIBERC) examples/softmax/softmax.sm_80.sass --emit=ir --stats | sed -n '/\.text\./,$$p' | head -80
	@echo '== fiberc --emit=sass: re-emitted listing equals the input (modulo whitespace)?'
	@$(FIBERC) examples/softmax/softmax.sm_80.sass --emit=sass -o $(B)/demo.sass
	@sh scripts/sass-normalize.sh examples/softmax/softmax.sm_80.sass > $(B)/demo.in.norm
	@sh scripts/sass-normalize.sh $(B)/demo.sass > $(B)/demo.out.norm
	@cmp -s $(B)/demo.in.norm $(B)/demo.out.norm && echo 'yes: identical' || { echo 'NO: differs'; exit 1; }

# the include graph must follow the layering: ir <- frontend, passes, backend <- driver
layers:
	@! grep -nE '#include "(frontend|passes|backend)' ir/*.[ch] || { echo 'ir/ must include nothing of ours'; exit 1; }
	@! grep -nE '#include "(passes|backend|sim|runtime|fiber)' frontend/*.[chly] 2>/dev/null || { echo 'frontend/ must build on ir/ only'; exit 1; }
	@! grep -nE '#include "(frontend|passes|backend|runtime|fiber)' sim/*.[ch] 2>/dev/null || { echo 'sim/ must build on ir/ only'; exit 1; }
	@! grep -nE '#include "(frontend|backend|sim|runtime|fiber)' passes/*.[ch] backend/*.[ch] 2>/dev/null || { echo 'passes/ and backend/ must build on ir/ only'; exit 1; }
	@echo 'layers: ok'

80:
	@grep -nE '^.{101,}' ir/*.[ch] frontend/*.[chly] passes/*.[ch] backend/*.[ch] driver/*.c || echo 'no line over 100 columns'

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
PUBLIC_HDRS := ir/ir.h ir/ops.h frontend/frontend.h

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
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS  := -std=c11 -g -O1 -MMD -MP $(FUZZ_SAN) -fsanitize=fuzzer-no-link
FUZZ_SRCS    := $(IR_SRCS) $(FE_SRCS) $(PASS_SRCS) $(BE_SRCS)
FUZZ_OBJS    := $(FUZZ_SRCS:%.c=$(FUZZ_B)/%.o) $(FUZZ_B)/gen/sass.tab.o $(FUZZ_B)/gen/sass.lex.o
FUZZ_BIN     := $(FUZZ_B)/fuzz_sass
FUZZ_SEEDS    = $(shell find examples -name '*.sass' 2>/dev/null | sort) \
               $(wildcard tests/golden/*.sass)

fuzz: $(FUZZ_BIN)

$(FUZZ_B)/%.o: %.c $(B)/frontend/sass.tab.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) $(WARN) -c -o $@ $<
$(FUZZ_B)/gen/sass.tab.o: $(B)/frontend/sass.tab.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -Wall -Wno-unused-function -c -o $@ $<
$(FUZZ_B)/gen/sass.lex.o: $(B)/frontend/sass.lex.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -Wall -Wno-unused-function -Wno-sign-compare -c -o $@ $<
$(FUZZ_B)/fuzz_sass.o: fuzz/fuzz_sass.c $(B)/frontend/sass.tab.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) $(WARN) -c -o $@ $<
$(FUZZ_BIN): $(FUZZ_B)/fuzz_sass.o $(FUZZ_OBJS)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

# seeds: the listings cut into pieces, and the IR text fiberc makes of the sm_80 ones
fuzz-run: $(FUZZ_BIN) $(FIBERC)
	rm -rf $(FUZZ_B)/seed $(FUZZ_B)/ir
	mkdir -p $(FUZZ_B)/seed $(FUZZ_B)/ir $(FUZZ_B)/corpus $(FUZZ_B)/artifacts
	@for f in $(filter %.sm_80.sass,$(FUZZ_SEEDS)); do \
	  $(FIBERC) $$f --emit=ir -o $(FUZZ_B)/ir/$$(basename $$f .sass).ir 2>/dev/null || true; done
	sh scripts/fuzz-seed.sh $(FUZZ_B)/seed $(FUZZ_SEEDS) $(FUZZ_B)/ir/*.ir
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  $(FUZZ_BIN) -max_len=65536 -max_total_time=$(FUZZ_SECONDS) -timeout=$(FUZZ_TIMEOUT) \
	  -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=$(FUZZ_B)/artifacts/ \
	  $(FUZZ_B)/corpus $(FUZZ_B)/seed

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
$(BENCH_B)/bench_fiberc: $(B)/bench/bench_fiberc.o $(LIBFIBER)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
$(BENCH_B)/large-$(BENCH_N).sass: $(BENCH_B)/gen_large
	$(BENCH_B)/gen_large -n $(BENCH_N) -o $@.tmp
	mv -f $@.tmp $@
bench: $(BENCH_B)/bench_fiberc $(BENCH_B)/large-$(BENCH_N).sass $(FIBERC)
	$(BENCH_B)/bench_fiberc -r $(BENCH_REPS) -R 5 --fiberc $(FIBERC) $(BENCH_B)/large-$(BENCH_N).sass
	@$(FIBERC) $(BENCH_B)/large-$(BENCH_N).sass --emit=sass -o $(BENCH_B)/large.out.sass
	@sh scripts/sass-normalize.sh $(BENCH_B)/large-$(BENCH_N).sass > $(BENCH_B)/large.in.norm
	@sh scripts/sass-normalize.sh $(BENCH_B)/large.out.sass > $(BENCH_B)/large.out.norm
	@cmp -s $(BENCH_B)/large.in.norm $(BENCH_B)/large.out.norm && \
	  echo 'bench: fiberc re-emits the generated listing identically (normalised)' || \
	  { echo 'bench: the re-emitted listing DIFFERS from the generated one'; exit 1; }
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
