# examples/hopper/fa3.mk: `make hopper-demo`'s attention entry (mk/demo.mk includes every
# examples/hopper/*.mk): fa3_demo.c runs fa3_fwd.cu (FlashAttention-3-style: TMA producer
# warpgroup, wgmma consumer warpgroups, setmaxnreg; nvcc 13 sm_90a) and examples/paper's
# mma.sync attn_fwd on the same inputs on h100 in both modes against a double-precision CPU
# reference, then fa3_fwd on the b200 configuration (docs/hopper-examples.md).
#   make hopper-demo [FA3_ARGS='--heads 4 --kv-heads 1 --seq 1024']
FA3_ARGS ?=
HOPPER_DEMOS += hopper-demo-fa3
.PHONY: hopper-demo-fa3
$(B)/examples/hopper/fa3_demo: examples/hopper/fa3_demo.c $(LIBFIBERRT)
	@mkdir -p $(@D)
	$(CC) -O2 -std=c11 -Iruntime -o $@ examples/hopper/fa3_demo.c $(LIBFIBERRT) $(RT_LIBS) -lm
hopper-demo-fa3: $(B)/examples/hopper/fa3_demo $(FIBERSIM)
	@$(B)/examples/hopper/fa3_demo --root $(CURDIR) --stats $(B) $(FA3_ARGS)
	@echo '== fibersim compare: fa3_fwd (A) against attn_fwd, mma.sync (B), timing, h100'
	@$(FIBERSIM) compare --any-kernel $(B)/hopper-fa3.json $(B)/hopper-attn-mmasync.json
