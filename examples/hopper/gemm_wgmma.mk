# examples/hopper/gemm_wgmma.mk: `make hopper-demo`'s GEMM entry (mk/demo.mk includes every
# examples/hopper/*.mk): bench/hopper.c runs the TMA + wgmma GEMM (gemm_tma_wgmma), the
# cp.async wgmma GEMM (gemm_wgmma) and the mma.sync GEMM (gemm_tc) on the same inputs against a
# CPU reference on h100, then their CPI stacks side by side (docs/hopper-examples.md).
#   make hopper-demo [HOPPER_ARGS='--size 1024']
HOPPER_ARGS ?=
HOPPER_DEMOS += hopper-demo-gemm
.PHONY: hopper-demo-gemm
$(B)/bench/hopper: $(B)/bench/hopper.o $(LIBFIBERRT)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(RT_LIBS) $(LDLIBS) -lpthread
hopper-demo-gemm: $(B)/bench/hopper $(FIBERSIM)
	@$(B)/bench/hopper --root $(CURDIR) --out $(B) $(HOPPER_ARGS)
	@echo '== fibersim compare: wgmma (A) against mma.sync (B), timing, h100'
	@$(FIBERSIM) compare --any-kernel $(B)/hopper-wgmma.json $(B)/hopper-mmasync.json
	@echo '== fibersim compare: TMA + wgmma (A) against cp.async wgmma (B), timing, h100'
	@$(FIBERSIM) compare --any-kernel $(B)/hopper-tma-wgmma.json $(B)/hopper-wgmma.json
