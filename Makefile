# Makefile: the whole fiber build (non-recursive, out of tree in build/, automatic dependencies).
#
#   make            build build/bin/fiberc, build/bin/fibersim and the libraries
#   make check      install missing packages (Debian), build, run every test (mk/tests.mk)
#   make check SAN=1  the same with -fsanitize=address,undefined, in build/san
#   make demo       compile a bundled example kernel, show its IR, run it (mk/demo.mk)
#   make bench      fiberc's and the simulators' speed and memory (mk/bench.mk)
#   make fuzz       the libFuzzer targets (needs clang; mk/fuzz.mk)
#   make install PREFIX=/usr/local   (mk/install.mk)
#   make layers     check that each folder includes only the layers below it
#
# This file holds the layers and how they are built; mk/*.mk hold the rest, one topic each:
# tests.mk, demo.mk, bench.mk (bench, simbench, timebench, fiber-bench, ptx-bench, calibrate,
# hazards), fuzz.mk, install.mk (and the shared runtime library), docs.mk. mk/fiber.mk is not
# part of the build: it is the make rules fiber installs for its users.

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
# the generated parsers and scanners: fewer warnings (the generated code is not ours)
GEN_WARN := -Wall -Wno-unused-function -Wno-sign-compare
CPPFLAGS += -DFIBER_VERSION='"$(VERSION)"'
CFLAGS   ?= $(OPT)
CFLAGS   += -std=c11 -MMD -MP $(SANFLAGS)
LDFLAGS  += $(SANFLAGS)
LDLIBS   += -lm

# --- the layers ---------------------------------------------------------------------------------
# One folder a layer (docs/architecture.md). A file sees only its own folder and the layers it
# builds on, so the compiler refuses a forbidden include; `make layers` also refuses path includes
# ("../x.h"), which would get around this. The layer of a source is its folder ($(B)/ stripped for
# generated files); the programs, tests, benchmarks and fuzzers see every layer (INC_all).
LAYERS := ir frontend/sass frontend/ptx passes passes/fiber backend backend/isel sim timing runtime
INC_ir            := -Iir
INC_frontend/sass := -Iir -Ifrontend/sass -I$(B)/frontend/sass
INC_frontend/ptx  := -Iir -Ifrontend/ptx -I$(B)/frontend/ptx
INC_passes        := -Iir -Ipasses
INC_passes/fiber  := -Iir -Ipasses -Ipasses/fiber
INC_backend       := -Iir -Ipasses -Ipasses/fiber -Ibackend
INC_backend/isel  := -Iir -Ifrontend/ptx -I$(B)/frontend/ptx -Ibackend/isel
INC_sim           := -Iir -Isim
INC_timing        := -Iir -Isim -Itiming
INC_runtime       := -Iir -Ifrontend/sass -I$(B)/frontend/sass -Isim -Itiming -Iruntime
INC_all           := $(sort $(foreach l,$(LAYERS),$(INC_$(l)))) -Idriver
layer_of = $(patsubst %/,%,$(dir $(patsubst $(B)/%,%,$(1))))
incs = $(or $(INC_$(call layer_of,$(1))),$(INC_all))

# a layer's sources: its folder's .c files, the parser and scanner of each NAME.y (with NAME.l
# beside it), and what the build generates into it (GEN_layer)
GEN_ir        := $(B)/ir/latcfg.c
GEN_timing    := $(B)/timing/configs.c
parsers_of     = $(foreach y,$(wildcard $(1)/*.y),$(B)/$(y:.y=.tab.c) $(B)/$(y:.y=.lex.c))
gen_of         = $(call parsers_of,$(1)) $(GEN_$(1))
objs_of        = $(patsubst %.c,$(B)/%.o,$(wildcard $(1)/*.c)) $(patsubst %.c,%.o,$(call gen_of,$(1)))
PARSER_SRCS   := $(foreach l,$(LAYERS),$(call parsers_of,$(l)))
PARSER_HDRS   := $(filter %.tab.h,$(PARSER_SRCS:.c=.h))
PARSER_OBJS   := $(PARSER_SRCS:.c=.o)

# libfiber.a: what fiberc links (readers, IR, passes, code generator); libfiberrt: what fibersim
# and host programs link (simulator, timing, runtime, and the SASS reader to load modules with)
FIBERC_LAYERS := ir frontend/sass frontend/ptx passes passes/fiber backend backend/isel
RT_LAYERS     := runtime timing sim ir frontend/sass
LIB_OBJS      := $(foreach l,$(FIBERC_LAYERS),$(call objs_of,$(l)))
RT_LIB_OBJS   := $(foreach l,$(RT_LAYERS),$(call objs_of,$(l)))
LIBFIBER      := $(B)/lib/libfiber.a
LIBFIBERRT    := $(B)/lib/libfiberrt.a
RT_LIBS       := -lelf -pthread

FIBERC    := $(B)/bin/fiberc
FIBERSIM  := $(B)/bin/fibersim

.PHONY: all deps layers 80 clean
all: $(FIBERC) $(FIBERSIM) $(LIBFIBER) $(LIBFIBERRT)

# --- objects ------------------------------------------------------------------------------------
$(B)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(call incs,$<) $(CFLAGS) $(WARN) -c -o $@ $<
$(B)/%.o: $(B)/%.c
	$(CC) $(CPPFLAGS) $(call incs,$<) $(CFLAGS) $(WARN) -c -o $@ $<
$(PARSER_OBJS): WARN := $(GEN_WARN)
# the simulator's 32-lane loops: let GCC vectorise them even when its cost model hesitates
VECT_FLAG := $(shell $(CC) -fvect-cost-model=cheap -E -x c /dev/null >/dev/null 2>&1 && echo -fvect-cost-model=cheap)
$(B)/sim/%.o $(B)/timing/%.o: CFLAGS += $(VECT_FLAG)

# parsers and scanners: NAME.y and NAME.l of a layer become $(B)/LAYER/NAME.{tab,lex}.c
$(B)/%.tab.c $(B)/%.tab.h: %.y
	@mkdir -p $(@D)
	$(BISON) -Wall -Werror -o $(B)/$*.tab.c -H$(B)/$*.tab.h $<
$(B)/%.lex.c: %.l $(B)/%.tab.h
	@mkdir -p $(@D)
	$(FLEX) -o $@ $<
# -MMD finds generated headers only once they exist: every object may need them before that
$(foreach l,$(LAYERS),$(call objs_of,$(l))): | $(PARSER_HDRS)

# each configs/NAME.cfg becomes {"NAME", "line\n" "line\n" ...}; \ " and ? are escaped (no
# trigraphs); POSIX sed only, no xxd
CFG_FILES := $(sort $(wildcard configs/*.cfg))
$(GEN_timing): $(CFG_FILES) Makefile
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

# and each one's values of the latency keys of ir/latkeys.h, for the passes (ir/latency.h): the
# rows LK(Name, key) become a sed script that turns `key = value` into `[LkName] = value,`
LATKEY_ROW := ^LK(\([A-Za-z0-9]*\), *\(lat_[a-z0-9_]*\)).*
LATKEY_CMD := s|^\2[[:blank:]]*=[[:blank:]]*\\([0-9A-Fa-fx]*\\).*|[Lk\1] = \\1,|p
$(GEN_ir): $(CFG_FILES) ir/latkeys.h Makefile
	@mkdir -p $(@D)
	sed -n 's/$(LATKEY_ROW)/$(LATKEY_CMD)/p' ir/latkeys.h > $@.sed
	{ echo '/* generated by the Makefile from configs/NAME.cfg and ir/latkeys.h: the'; \
	  echo ' * latency keys of each built-in configuration */'; \
	  echo '#include "latency.h"'; \
	  echo 'const LatConfig lat_configs[] = {'; \
	  for f in $(CFG_FILES); do \
	    echo "{\"$$(basename $$f .cfg)\", {"; \
	    sed -n -f $@.sed $$f; \
	    echo '}},'; \
	  done; \
	  echo '{0, {0}},'; echo '};'; \
	  echo '/* the largest value of each key over them: what the passes plan with */'; \
	  echo 'const unsigned lat_planned_cycles[NLatKey] = {'; \
	  for f in $(CFG_FILES); do sed -n -f $@.sed $$f; done | tr -d ',' | \
	    awk '{ if (!($$1 in m) || $$3 + 0 > m[$$1]) m[$$1] = $$3 + 0; if (!($$1 in o)) o[$$1] = n++ } \
	      END { for (k in o) r[o[k]] = k; for (i = 0; i < n; i++) print r[i] " = " m[r[i]] "," }'; \
	  echo '};'; } > $@.tmp
	rm -f $@.sed
	mv $@.tmp $@

# --- libraries and programs ---------------------------------------------------------------------
$(LIBFIBER): $(LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(LIBFIBERRT): $(RT_LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

# fiberc writes its files as fibersim does: through runtime/outfile.c (libc only)
$(FIBERC): $(B)/driver/fiberc.o $(B)/driver/passlist.o $(B)/driver/fstats.o $(B)/runtime/outfile.o $(LIBFIBER)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# fibersim sweep (driver/sweep*.c, docs/sweep.md); make sweep-demo, make sweep: mk/sweep.mk
SWEEP_OBJS := $(patsubst %.c,$(B)/%.o,$(wildcard driver/sweep*.c))
$(FIBERSIM): $(B)/driver/fibersim.o $(SWEEP_OBJS) $(LIBFIBERRT)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(RT_LIBS) $(LDLIBS)
include mk/sweep.mk

# the programs, tests, benchmarks and fuzzers include headers of every layer
$(B)/driver/%.o $(B)/tests/%.o $(B)/bench/%.o: | $(PARSER_HDRS)

deps:
	@sh scripts/deps.sh

# --- the layering -------------------------------------------------------------------------------
# the include graph must follow the layering (docs/architecture.md): scripts/layers.sh refuses a
# path include ("../sim/sim.h", "sim/sim.h") anywhere in the layers or the programs, and an
# include of a header that is not in one of the folders the layer's INC_* line names (headers
# are checked too, which the compiler sees only through the .c files that include them)
layers:
	@sh scripts/layers.sh $(foreach l,$(LAYERS),$(l)=$(subst $() ,:,$(patsubst -I%,%,$(INC_$(l))))) \
	  driver=$(subst $() ,:,$(patsubst -I%,%,$(INC_all)))

80:
	@grep -nE '^.{101,}' $(foreach l,$(LAYERS) driver,$(wildcard $(l)/*.[chly])) || echo 'no line over 100 columns'

clean:
	rm -rf build

include mk/tests.mk mk/demo.mk mk/bench.mk mk/fuzz.mk mk/install.mk mk/docs.mk mk/paper.mk

-include $(shell find $(B) -name '*.d' 2>/dev/null)
