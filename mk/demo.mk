# mk/demo.mk: `make demo` (the README's first command: a bundled kernel lifted to SSA IR and back,
# run on the simulator, compiled for the FIBER SM and from PTX) and `make fiber-demo` (the
# FIBER-native kernels of examples/fiber-native against their SIMT examples, and each ablation)
# and `make fiber-sensitivity` (their cycles over the FIBER SM's assumed keys), `make
# fiber-cuda-demo` (the FIBER-native CUDA examples against nvcc's SIMT versions) and `make
# hopper-demo` (the sm_90a examples of examples/hopper against their references on h100, each
# entry in its own examples/hopper/*.mk).
.PHONY: demo fiber-demo fiber-sensitivity fiber-cuda-demo hopper-demo
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

fiber-demo: deps
	@$(MAKE) --no-print-directory $(FIBERSIM)
	@FIBERSIM=$(FIBERSIM) sh scripts/fiber-demo.sh

# the FIBER-native CUDA examples (examples/fiber-cuda, from their committed PTX) against their
# references on a100-fiber and h100-fiber, their cycles beside the SIMT versions, and the GEMM's
# CPI stacks (scripts/fiber-cuda-demo.sh, docs/fiber-cuda.md)
fiber-cuda-demo: deps
	@$(MAKE) --no-print-directory $(FIBERC) $(FIBERSIM) $(B)/tests/check_all
	@FIBERSIM=$(FIBERSIM) FIBERC=$(FIBERC) CHECK=$(B)/tests/check_all sh scripts/fiber-cuda-demo.sh

# the FIBER-native kernels' cycles over the FIBER SM's assumed keys, one at a time: the band
# (scripts/fiber-sensitivity.sh, docs/fiber-sm.md)
fiber-sensitivity: deps
	@$(MAKE) --no-print-directory $(FIBERSIM)
	@FIBERSIM=$(FIBERSIM) sh scripts/fiber-sensitivity.sh

# the Hopper examples: every examples/hopper/*.mk adds its target to HOPPER_DEMOS
HOPPER_DEMOS :=
include $(wildcard examples/hopper/*.mk)
hopper-demo: deps $(HOPPER_DEMOS)
