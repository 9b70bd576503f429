# fiber.mk: GNU make rules that take CUDA C through nvcc, nvdisasm and fiberc.
#
# Use it from your own Makefile after `make install PREFIX=...` of fiber:
#
#	FIBER_PREFIX ?= /usr/local
#	include $(FIBER_PREFIX)/share/fiber/fiber.mk
#	all: saxpy.fsass saxpy.ir
#
# Rules (each writes its output through a temporary file, so a failed step leaves nothing behind):
#	%.cubin: %.cu       $(NVCC) $(NVCCFLAGS) -cubin -arch=$(NVCC_ARCH)
#	%.ptx:   %.cu       $(NVCC) $(NVCCFLAGS) -ptx -arch=$(NVCC_ARCH)
#	%.sass:  %.cubin    $(NVDISASM) -hex          (-hex keeps the two encoding words of each
#	                                               instruction, which fiberc re-emits)
#	%.sass:  %.ptx      FIBER_BACKEND=fiberc: $(FIBERC) $(FIBERCFLAGS) --arch=$(NVCC_ARCH), fiber's
#	                    own code generator (docs/ptx-codegen.md); FIBER_BACKEND=nvdisasm (the
#	                    default): $(PTXAS) -arch=$(NVCC_ARCH) to a cubin, then $(NVDISASM) -hex.
#	                    From a .cu, FIBER_BACKEND=fiberc goes .cu -> .ptx -> .sass and nvdisasm
#	                    .cu -> .cubin -> .sass.
#	%.fsass: %.sass     $(FIBERC) $(FIBERCFLAGS) --mode=$(FIBERC_MODE)   FIBER-native SASS
#	                    (FIBERC_MODE: cuda-native, the default, runs the FIBER passes on nvcc's
#	                    SASS; none re-emits the SASS as it came in: --emit=sass)
#	%.fsass: %.vfsass   $(FIBERC) $(FIBERCFLAGS) --mode=fiber-native   a FIBER-native program with
#	                    virtual registers, allocated (docs/fiber-isa.md, "Virtual registers")
#	%.fsass: %.ptx      FIBERC_MODE=fiber-native only: FIBER-native CUDA (fiber_device.cuh,
#	                    docs/fiber-cuda.md) .cu -> .ptx -> .fsass: $(NVCC) -ptx
#	                    -arch=$(FIBER_PTX_ARCH) -I$(FIBER_INCDIR), then $(FIBERC) --mode=fiber-native
#	                    --arch=$(NVCC_ARCH) (nvcc 13 runs ptxas over sm_90 PTX, which refuses the
#	                    FIBER instructions: the PTX is sm_80's, fiberc compiles it for any target)
#	%.ir:    %.sass     $(FIBERC) $(FIBERCFLAGS) --emit=ir     fiber IR text (SSA)
# The .fsass and .ir rules also depend on the fiberc binary, so a new fiberc remakes them. The
# chain keeps its intermediates: `make saxpy.fsass` leaves saxpy.cubin and saxpy.sass in place.
#
# Variables (set them before the include or on the command line; all have ?= defaults):
#	FIBERC_MODE (cuda-native; or none)  FIBER_BACKEND (nvdisasm; or fiberc)  PTXAS (ptxas)
#	NVCC (nvcc)  NVCC_ARCH (sm_80)  NVCCFLAGS (-O3 -lineinfo)  NVDISASM (nvdisasm)
#	FIBER_PTX_ARCH (sm_80)  FIBER_INCDIR (where fiber_device.cuh is: runtime/ of a source tree,
#	include/fiber of a prefix)
#	FIBERC (the fiberc of the prefix this file was installed to; in a fiber source tree,
#	build/bin/fiberc of that tree)  FIBERCFLAGS (empty; e.g. --passes=... --stats)
# FIBER_PREFIX is worked out from where this file is: $(FIBER_PREFIX)/share/fiber/fiber.mk.
# The recipes are also available as canned sequences (fiber_cubin, fiber_ptx, fiber_disasm,
# fiber_ptx_sass, fiber_ptxas_sass, fiber_fsass, fiber_ir) for rules that write elsewhere, e.g. `out/%.fsass: src/%.sass $(FIBERC_DEP)`.

ifndef FIBER_MK_INCLUDED
FIBER_MK_INCLUDED := 1

# the directory of this file, as included (the last word of MAKEFILE_LIST while it is read)
FIBER_MKDIR := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))

# in a source tree (mk/fiber.mk next to ir/ir.h) fiberc is build/bin/fiberc of that tree;
# installed (share/fiber/fiber.mk) it is bin/fiberc of the prefix
ifneq ($(wildcard $(FIBER_MKDIR)/../ir/ir.h),)
FIBER_PREFIX ?= $(patsubst %/,%,$(dir $(FIBER_MKDIR)))
FIBERC       ?= $(FIBER_PREFIX)/build/bin/fiberc
FIBER_INCDIR ?= $(FIBER_PREFIX)/runtime
else
FIBER_PREFIX ?= $(patsubst %/,%,$(dir $(patsubst %/,%,$(dir $(FIBER_MKDIR)))))
FIBERC       ?= $(FIBER_PREFIX)/bin/fiberc
FIBER_INCDIR ?= $(FIBER_PREFIX)/include/fiber
endif

NVCC        ?= nvcc
NVCC_ARCH   ?= sm_80
NVCCFLAGS   ?= -O3 -lineinfo
NVDISASM    ?= nvdisasm
PTXAS       ?= ptxas
FIBER_BACKEND ?= nvdisasm
FIBERCFLAGS ?=
FIBERC_MODE ?= cuda-native
FIBER_PTX_ARCH ?= sm_80

# what the fiberc-made outputs depend on: the binary itself when FIBERC names a path, else the
# program found on PATH (nothing if there is none: the recipe then fails with a clear message)
FIBERC_DEP := $(if $(findstring /,$(FIBERC)),$(FIBERC),$(shell command -v $(FIBERC) 2>/dev/null))

# a CUDA tool that is missing: say where to get it instead of the shell's bare "not found"
FIBER_NVCC_HELP     := nvcc is in the CUDA toolkit (https://developer.nvidia.com/cuda-downloads; \
                       often /usr/local/cuda/bin): put it on PATH or set NVCC=/path/to/nvcc
FIBER_NVDISASM_HELP := nvdisasm is in the CUDA toolkit (often /usr/local/cuda/bin) and in the pip \
                       package nvidia-cuda-nvdisasm (pip install nvidia-cuda-nvdisasm): put it on \
                       PATH or set NVDISASM=/path/to/nvdisasm
fiber_need = @command -v $(firstword $(1)) > /dev/null 2>&1 || \
  { echo "fiber.mk: $(firstword $(1)): not found. $(2)" >&2; exit 127; }

# canned recipes: $< is the input, $@ the output; $@.tmp is renamed only after success
define fiber_cubin
@mkdir -p $(@D)
$(call fiber_need,$(NVCC),$(FIBER_NVCC_HELP))
$(NVCC) $(NVCCFLAGS) -cubin -arch=$(NVCC_ARCH) -o $@.tmp $< || { rm -f $@.tmp; exit 1; }
@mv -f $@.tmp $@
endef

define fiber_disasm
@mkdir -p $(@D)
$(call fiber_need,$(NVDISASM),$(FIBER_NVDISASM_HELP))
$(NVDISASM) -hex $< > $@.tmp || { rm -f $@.tmp; exit 1; }
@mv -f $@.tmp $@
endef

# (FIBERC_MODE=fiber-native: the PTX of FIBER_PTX_ARCH, with fiber_device.cuh on the path)
define fiber_ptx
@mkdir -p $(@D)
$(call fiber_need,$(NVCC),$(FIBER_NVCC_HELP))
$(NVCC) $(NVCCFLAGS) -ptx $(if $(filter fiber-native,$(FIBERC_MODE)),-arch=$(FIBER_PTX_ARCH) -I$(FIBER_INCDIR),-arch=$(NVCC_ARCH)) -o $@.tmp $< || { rm -f $@.tmp; exit 1; }
@mv -f $@.tmp $@
endef

# .ptx -> .fsass: FIBER-native CUDA
define fiber_ptx_fsass
@mkdir -p $(@D)
$(FIBERC) $(FIBERCFLAGS) --mode=fiber-native --arch=$(NVCC_ARCH) -o $@.tmp $< || { rm -f $@.tmp; exit 1; }
@mv -f $@.tmp $@
endef

# .ptx -> .sass with fiberc's code generator
define fiber_ptx_sass
@mkdir -p $(@D)
$(FIBERC) $(FIBERCFLAGS) --arch=$(NVCC_ARCH) -o $@.tmp $< || { rm -f $@.tmp; exit 1; }
@mv -f $@.tmp $@
endef

# .ptx -> .sass with NVIDIA's: ptxas, then nvdisasm
define fiber_ptxas_sass
@mkdir -p $(@D)
$(call fiber_need,$(PTXAS),$(FIBER_NVCC_HELP))
$(call fiber_need,$(NVDISASM),$(FIBER_NVDISASM_HELP))
$(PTXAS) -arch=$(NVCC_ARCH) -o $@.cubin.tmp $< || { rm -f $@.cubin.tmp; exit 1; }
$(NVDISASM) -hex $@.cubin.tmp > $@.tmp || { rm -f $@.tmp $@.cubin.tmp; exit 1; }
@rm -f $@.cubin.tmp
@mv -f $@.tmp $@
endef

define fiber_fsass
@mkdir -p $(@D)
$(FIBERC) $(FIBERCFLAGS) $(if $(filter none,$(FIBERC_MODE)),--emit=sass,--mode=$(FIBERC_MODE)) -o $@.tmp $< || { rm -f $@.tmp; exit 1; }
@mv -f $@.tmp $@
endef

define fiber_vfsass
@mkdir -p $(@D)
$(FIBERC) $(FIBERCFLAGS) --mode=fiber-native -o $@.tmp $< || { rm -f $@.tmp; exit 1; }
@mv -f $@.tmp $@
endef

define fiber_ir
@mkdir -p $(@D)
$(FIBERC) $(FIBERCFLAGS) --emit=ir -o $@.tmp $< || { rm -f $@.tmp; exit 1; }
@mv -f $@.tmp $@
endef

%.cubin: %.cu
	$(fiber_cubin)

%.ptx: %.cu
	$(fiber_ptx)

# the backend chosen first: make takes the first rule whose chain it can build
ifeq ($(FIBER_BACKEND),fiberc)
%.sass: %.ptx $(FIBERC_DEP)
	$(fiber_ptx_sass)

%.sass: %.cubin
	$(fiber_disasm)
else
%.sass: %.cubin
	$(fiber_disasm)

%.sass: %.ptx
	$(fiber_ptxas_sass)
endif

# FIBER-native CUDA first: a .cu with FIBER intrinsics never goes through ptxas
ifeq ($(FIBERC_MODE),fiber-native)
%.fsass: %.ptx $(FIBERC_DEP)
	$(fiber_ptx_fsass)
endif

%.fsass: %.sass $(FIBERC_DEP)
	$(fiber_fsass)

%.fsass: %.vfsass $(FIBERC_DEP)
	$(fiber_vfsass)

%.ir: %.sass $(FIBERC_DEP)
	$(fiber_ir)

# keep the intermediates of the chain .cu -> .cubin -> .sass
.PRECIOUS: %.cubin %.sass %.ptx

endif # FIBER_MK_INCLUDED
