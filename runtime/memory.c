/* memory.c: device memory: allocation, copies and memset, on top of the simulator's global
 * memory (gpu_malloc, gpu_read, gpu_write). Copies must stay inside one live allocation.
 */
#include "rt.h"

#include <stdlib.h>
#include <string.h>

enum { Chunk = 1 << 20 };      /* bytes per step of DtoD copies and memset */

/* a live device whose configuration is fixed (an auto device becomes an a100 here) */
static fiberStatus
ready(fiberDevice d, const char *fn)
{
	if (!rt_live(d, RtDevice))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "%s: not a live device", fn);
	return rt_choose(d, 80);
}

static fiberStatus
bad_range(fiberDevice d, const char *fn, fiberDevicePtr p, size_t n)
{
	return rt_err(d, FIBER_ERROR_INVALID_ADDRESS,
	              "%s: device range [0x%llx, 0x%llx) is not inside one allocation", fn,
	              (unsigned long long)p, (unsigned long long)(p + n));
}

fiberStatus
fiberMalloc(fiberDevice d, fiberDevicePtr *ptr, size_t size)
{
	fiberStatus s;
	uint64_t a;

	if ((s = ready(d, "fiberMalloc")) != FIBER_SUCCESS)
		return s;
	if (!ptr)
		return rt_err(d, FIBER_ERROR_INVALID_VALUE, "fiberMalloc: ptr is NULL");
	*ptr = 0;
	if (size == 0)
		return rt_err(d, FIBER_ERROR_INVALID_VALUE, "fiberMalloc: size is 0");
	if (gpu_malloc(d->gpu, size, &a) < 0)
		return rt_err(d, FIBER_ERROR_OUT_OF_MEMORY, "fiberMalloc: cannot allocate %zu bytes", size);
	*ptr = a;
	return FIBER_SUCCESS;
}

fiberStatus
fiberFree(fiberDevice d, fiberDevicePtr ptr)
{
	if (!rt_live(d, RtDevice))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "fiberFree: not a live device");
	if (ptr == 0)
		return FIBER_SUCCESS;
	if (!d->gpu || gpu_free_mem(d->gpu, ptr) < 0)
		return rt_err(d, FIBER_ERROR_INVALID_ADDRESS,
		              "fiberFree: 0x%llx is not the start of a live allocation", (unsigned long long)ptr);
	return FIBER_SUCCESS;
}

fiberStatus
fiberMemcpyHtoD(fiberDevice d, fiberDevicePtr dst, const void *src, size_t size)
{
	fiberStatus s;

	if ((s = ready(d, "fiberMemcpyHtoD")) != FIBER_SUCCESS)
		return s;
	if (size == 0)
		return FIBER_SUCCESS;
	if (!src)
		return rt_err(d, FIBER_ERROR_INVALID_VALUE, "fiberMemcpyHtoD: src is NULL");
	if (gpu_write(d->gpu, dst, src, size) < 0)
		return bad_range(d, "fiberMemcpyHtoD", dst, size);
	return FIBER_SUCCESS;
}

fiberStatus
fiberMemcpyDtoH(fiberDevice d, void *dst, fiberDevicePtr src, size_t size)
{
	fiberStatus s;

	if ((s = ready(d, "fiberMemcpyDtoH")) != FIBER_SUCCESS)
		return s;
	if (size == 0)
		return FIBER_SUCCESS;
	if (!dst)
		return rt_err(d, FIBER_ERROR_INVALID_VALUE, "fiberMemcpyDtoH: dst is NULL");
	if (gpu_read(d->gpu, src, dst, size) < 0)
		return bad_range(d, "fiberMemcpyDtoH", src, size);
	return FIBER_SUCCESS;
}

fiberStatus
fiberMemcpyDtoD(fiberDevice d, fiberDevicePtr dst, fiberDevicePtr src, size_t size)
{
	fiberStatus s;
	uint8_t *buf, one[1];

	if ((s = ready(d, "fiberMemcpyDtoD")) != FIBER_SUCCESS)
		return s;
	if (size == 0)
		return FIBER_SUCCESS;
	/* check the ends of both ranges before changing anything */
	if (gpu_read(d->gpu, src + size - 1, one, 1) < 0 || gpu_read(d->gpu, src, one, 1) < 0)
		return bad_range(d, "fiberMemcpyDtoD", src, size);
	if (gpu_read(d->gpu, dst + size - 1, one, 1) < 0 || gpu_read(d->gpu, dst, one, 1) < 0)
		return bad_range(d, "fiberMemcpyDtoD", dst, size);
	buf = xmalloc(size < Chunk ? size : Chunk);
	/* overlapping ranges copy like memmove */
	for (size_t done = 0; done < size;) {
		size_t n = size - done < Chunk ? size - done : Chunk;
		size_t at = dst > src ? size - done - n : done;
		if (gpu_read(d->gpu, src + at, buf, n) < 0 || gpu_write(d->gpu, dst + at, buf, n) < 0) {
			free(buf);
			return bad_range(d, "fiberMemcpyDtoD", dst, size);
		}
		done += n;
	}
	free(buf);
	return FIBER_SUCCESS;
}

fiberStatus
fiberMemset(fiberDevice d, fiberDevicePtr dst, unsigned char value, size_t size)
{
	fiberStatus s;
	uint8_t *buf;

	if ((s = ready(d, "fiberMemset")) != FIBER_SUCCESS)
		return s;
	if (size == 0)
		return FIBER_SUCCESS;
	buf = xmalloc(size < Chunk ? size : Chunk);
	if (gpu_read(d->gpu, dst, buf, 1) < 0 || gpu_read(d->gpu, dst + size - 1, buf, 1) < 0) {
		free(buf);
		return bad_range(d, "fiberMemset", dst, size);
	}
	memset(buf, value, size < Chunk ? size : Chunk);
	for (size_t done = 0; done < size;) {
		size_t n = size - done < Chunk ? size - done : Chunk;
		if (gpu_write(d->gpu, dst + done, buf, n) < 0) {
			free(buf);
			return bad_range(d, "fiberMemset", dst, size);
		}
		done += n;
	}
	free(buf);
	return FIBER_SUCCESS;
}
