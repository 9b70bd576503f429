# mk/sweep.mk: `make sweep-demo`: the six points of examples/sweep/demo.sweep (softmax on the
# A100, H100 and B200 models, instruction prefetch on and off) run locally by `fibersim sweep`
# into build/sweep-demo/: results.csv, results.json, report.html (docs/sweep.md).
.PHONY: sweep-demo
sweep-demo: $(FIBERSIM)
	$(FIBERSIM) sweep examples/sweep/demo.sweep -o $(B)/sweep-demo
	@echo 'open $(B)/sweep-demo/report.html'
