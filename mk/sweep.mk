# mk/sweep.mk: `make sweep-demo`: the six points of examples/sweep/demo.sweep (softmax on the
# A100, H100 and B200 models, instruction prefetch on and off) run locally by `fibersim sweep`
# into build/sweep-demo/: results.csv, results.json, report.html (docs/sweep.md); `make
# sweep-screenshot`: its picture, docs/sweep-report.png.
.PHONY: sweep-demo
sweep-demo: $(FIBERSIM)
	$(FIBERSIM) sweep examples/sweep/demo.sweep -o $(B)/sweep-demo
	@echo 'open $(B)/sweep-demo/report.html'

# docs/sweep-report.png: the demo's report in headless Chromium (as tests/report.sh opens it)
.PHONY: sweep-screenshot
sweep-screenshot: sweep-demo
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1000,1250 \
	  --screenshot=$(CURDIR)/docs/sweep-report.tmp.png file://$(CURDIR)/$(B)/sweep-demo/report.html
	mv docs/sweep-report.tmp.png docs/sweep-report.png

# any spec: `make sweep SPEC=FILE [SWEEP_OUT=DIR] [JOBS=N]` here, or with SLURM=1 submitted as a
# job array and waited for (SLURM_ARGS: --partition P --time T --account A --chunk N ...);
# $(call sweep_run,SPEC,DIR) is the same command for other makefiles (`make paper-table`)
SWEEP_OUT ?= $(B)/sweep
sweep_run = $(FIBERSIM) sweep $(1) -o $(2) $(if $(SLURM),--slurm --wait $(SLURM_ARGS),$(if $(JOBS),-j $(JOBS)))
.PHONY: sweep
sweep: $(FIBERSIM)
	@[ -n "$(SPEC)" ] || { echo 'make sweep SPEC=FILE [SWEEP_OUT=DIR] [JOBS=N] [SLURM=1 SLURM_ARGS=...]'; exit 2; }
	$(call sweep_run,$(SPEC),$(SWEEP_OUT))
