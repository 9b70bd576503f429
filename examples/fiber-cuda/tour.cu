// tour.cu: the worked example of docs/fiber-cuda.md, every FIBER intrinsic of fiber_device.cuh
// once: a launch of 64 fibers (two wefts); weft 0 hands a value to weft 1 through a slot (the
// remote write done legally) and fills a pool register; SETFIBERNUM grows the CTA to 256
// fibers, which all read the pool; SETFIBERNUM shrinks it back and weft 0 releases the pool.
#include "fiber_device.cuh"

// x: n floats (n a multiple of 32, n >= 64); y: 32 floats; z: n floats
//   y[l] = 2 x[l] + x[32 + l]             (weft 0 -> weft 1 through slot 0)
//   z[i] = x[i] * x[32 + i % 32]          (every fiber of 256, the factor from pool 0)
extern "C" __global__ void __launch_bounds__(64)
tour(const float *x, float *y, float *z, int n)
{
	typedef fiber_pool<0, 1, 0> scale;      // one register at the top of slice 0
	scale::declare();
	unsigned lane = fiber_lane();
	if (fiber_weft() == 0) {
		fiber_send<0>(fiber_f2u(2.0f * x[lane]));        // to weft 1: local write, Full
		scale::store<0>(fiber_f2u(x[32 + lane]));        // weft 0 is on slice 0: a local write
	} else {
		float s = fiber_u2f(fiber_recv<0, 0>());          // wait Full, remote read, release
		y[lane] = s + x[32 + lane];
	}
	fiber_set_count<256>();                             // 64 -> 256 fibers
	scale::wait_full<0>();
	float k = fiber_u2f(scale::load<0>());              // lane l's factor, read by every weft
	for (int i = fiber_id(); i < n; i += fiber_count())
		z[i] = x[i] * k;
	fiber_set_count<64>();                              // every read of the pool is done
	if (fiber_weft() == 0)
		scale::set_empty<0>();                          // release it for the next CTA
}
