/* softmax_host.c: a host program for the fiber runtime library. It loads the bundled softmax
 * kernel (examples/softmax, `softmax_rows(const float *x, float *y, int rows, int cols)`, one warp
 * per row), runs it on 8 rows of 256 floats, and checks the result against a CPU softmax.
 *
 *   softmax_host [FILE.sass [CONFIG]]     CONFIG: a100, h100 or a file (default: from FILE)
 *
 * Exit status 0 when every element is within 1e-5 (relative) of the reference.
 */
#include <fiber.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { Rows = 8, Cols = 256 };

/* report a failed call and leave */
static void
check(fiberStatus s, fiberDevice dev, const char *what)
{
	if (s == FIBER_SUCCESS)
		return;
	fprintf(stderr, "softmax_host: %s: %s: %s\n", what, fiberGetErrorString(s),
	        fiberGetLastErrorMessage(dev));
	if (dev && *fiberGetLastErrorLog(dev))
		fputs(fiberGetLastErrorLog(dev), stderr);
	exit(1);
}

int
main(int argc, char **argv)
{
	const char *file = argc > 1 ? argv[1] : "examples/softmax/softmax.sm_80.sass";
	const char *config = argc > 2 ? argv[2] : NULL;
	static float x[Rows * Cols], y[Rows * Cols];
	int rows = Rows, cols = Cols, bad = 0;
	unsigned grid[3] = {Rows / 4, 1, 1}, block[3] = {128, 1, 1}, nparam;
	fiberDevice dev;
	fiberModule mod;
	fiberFunction fn;
	fiberDevicePtr dx, dy;
	fiberDeviceProps props;
	fiberStats st;
	double worst = 0;

	check(fiberDeviceCreate(&dev, config), NULL, "creating the device");
	check(fiberModuleLoadFile(&mod, dev, file), dev, file);
	check(fiberModuleGetFunction(&fn, mod, "softmax_rows"), dev, "softmax_rows");
	check(fiberFuncGetParamCount(fn, &nparam), dev, "parameters");
	fiberDeviceGetProperties(dev, &props);
	printf("device %s (sm_%d), kernel softmax_rows with %u parameters:", props.name, props.arch,
	       nparam);
	for (unsigned k = 0; k < nparam; k++) {
		size_t off, size;
		check(fiberFuncGetParamInfo(fn, k, &off, &size), dev, "parameter info");
		printf(" %zu@0x%zx", size, off);
	}
	printf("\n");

	for (int k = 0; k < Rows * Cols; k++)
		x[k] = 4.0f * sinf(0.37f * (float)k);
	check(fiberMalloc(dev, &dx, sizeof x), dev, "fiberMalloc");
	check(fiberMalloc(dev, &dy, sizeof y), dev, "fiberMalloc");
	check(fiberMemcpyHtoD(dev, dx, x, sizeof x), dev, "fiberMemcpyHtoD");
	check(fiberMemset(dev, dy, 0, sizeof y), dev, "fiberMemset");

	/* cuLaunchKernel style: one pointer per parameter, placed at its .nv.info offset */
	void *params[] = {&dx, &dy, &rows, &cols};
	check(fiberLaunchKernel(fn, grid, block, 0, params), dev, "launch");
	check(fiberMemcpyDtoH(dev, y, dy, sizeof y), dev, "fiberMemcpyDtoH");

	/* the CPU reference, in double: y = exp(x - max) / sum exp(x - max) per row */
	for (int r = 0; r < Rows; r++) {
		double mx = -INFINITY, sum = 0;
		for (int c = 0; c < Cols; c++)
			mx = fmax(mx, x[r * Cols + c]);
		for (int c = 0; c < Cols; c++)
			sum += exp(x[r * Cols + c] - mx);
		for (int c = 0; c < Cols; c++) {
			double want = exp(x[r * Cols + c] - mx) / sum;
			double err = fabs(y[r * Cols + c] - want) / want;
			if (err > worst)
				worst = err;
			bad += err > 1e-5;
		}
	}
	check(fiberGetStats(dev, &st), dev, "fiberGetStats");
	printf("%llu warp instructions, %llu thread instructions; largest relative error %.3g: %s\n",
	       (unsigned long long)st.warp_instructions, (unsigned long long)st.thread_instructions,
	       worst, bad ? "FAIL" : "ok");
	fiberFree(dev, dx);
	fiberFree(dev, dy);
	fiberModuleUnload(mod);
	fiberDeviceDestroy(dev);
	return bad ? 1 : 0;
}
