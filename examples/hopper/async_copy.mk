# examples/hopper/async_copy.mk: `make hopper-demo`'s asynchronous-copy entry (mk/demo.mk includes
# every examples/hopper/*.mk; each adds its target to HOPPER_DEMOS): async_demo.c runs the
# mbarrier, bulk-copy and TMA kernels of async_copy.cu and tma_copy.cu on h100 in both modes
# against CPU references.
HOPPER_DEMOS += hopper-demo-async
.PHONY: hopper-demo-async
hopper-demo-async: $(LIBFIBERRT)
	@mkdir -p $(B)/examples/hopper
	$(CC) -O2 -std=c11 -Iruntime -o $(B)/examples/hopper/async_demo examples/hopper/async_demo.c \
	  $(LIBFIBERRT) $(RT_LIBS) -lm
	@$(B)/examples/hopper/async_demo $(CURDIR)
