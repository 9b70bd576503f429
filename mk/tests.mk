# mk/tests.mk: the test suite (included by the Makefile). `make check` installs what is missing,
# checks the layering and runs every Check suite and tests/*.sh (scripts/run-tests.sh), which end
# with one total line, `N passed, M failed, K skipped` (just before it, the count of the expected
# failures, `N expected failures`, and their XFAIL lines).
.PHONY: check run-tests
CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck)

# tests/check_*.c (one suite each), the runner tests/check.c, the shared kernel runners, and the
# CPU references of tests/ref/ that tests/check_kernels.c compares against
TEST_SRCS := $(wildcard tests/check_*.c)
TEST_OBJS := $(patsubst %.c,$(B)/%.o,$(TEST_SRCS) tests/check.c tests/fsrun.c tests/kernrun.c tests/ptxrun.c tests/xfail.c \
               $(wildcard tests/ref/*.c))
TEST_BIN  := $(B)/tests/check_all

# the runner calls every `Suite *NAME_suite(void)` defined in tests/check_*.c
$(B)/tests/suites.h: $(TEST_SRCS)
	@mkdir -p $(@D)
	sed -n 's/^\(Suite \*\)\{0,1\}\([a-z0-9_]*_suite\)(void)$$/SUITE(\2)/p' $(TEST_SRCS) > $@.tmp
	mv $@.tmp $@
$(B)/tests/check.o: $(B)/tests/suites.h
$(B)/tests/check.o: CPPFLAGS += -I$(B)/tests
$(B)/tests/check.o $(B)/tests/check_%.o: CPPFLAGS += $(CHECK_CFLAGS)
$(B)/tests/check_%.o: WARN += -Wno-missing-prototypes

$(TEST_BIN): $(TEST_OBJS) $(LIBFIBER) $(LIBFIBERRT)
	$(CC) $(LDFLAGS) -o $@ $(TEST_OBJS) $(LIBFIBER) $(LIBFIBERRT) $(CHECK_LIBS) $(RT_LIBS) $(LDLIBS)

check: deps
	@$(MAKE) --no-print-directory layers run-tests

# every suite and script runs, even after a failure; the last line is the total over all of them,
# `N passed, M failed, K skipped`, and the status is non-zero if anything failed (scripts/run-tests.sh)
run-tests: all $(TEST_BIN)
	@FIBER_ROOT=$(CURDIR) FIBERC=$(CURDIR)/$(FIBERC) FIBERSIM=$(CURDIR)/$(FIBERSIM) B=$(B) \
	  sh scripts/run-tests.sh $(TEST_BIN)
