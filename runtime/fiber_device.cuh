/* fiber_device.cuh: FIBER intrinsics for CUDA C++ kernels compiled with `nvcc -ptx` and then
 * `fiberc k.ptx --mode=fiber-native` (docs/fiber-cuda.md). Each intrinsic is one inline-asm
 * statement of a FIBER PTX instruction that nvcc copies into the PTX unchanged and fiberc's PTX
 * front end reads (ptxas does not know them: a kernel that uses them runs only through fiberc).
 * Installed beside fiber.h by `make install`; `nvcc -I$(pkg-config --variable=includedir fiber)`.
 */
#ifndef FIBER_DEVICE_CUH
#define FIBER_DEVICE_CUH

#define FIBER_DEVICE_VERSION 1

/* ---- fiber count and identity ------------------------------------------------------------- */

/* SETFIBERNUM: the CTA's fiber count becomes COUNT (an SM-wide synchronisation: every weft must
 * arrive, converged, unguarded). New fibers start right after the call with zeroed windows;
 * fiberc reloads the kernel's parameters and CTA coordinates after it, anything else a fiber
 * needs it computes again from fiber_id(). A constant count is checked at compile time. */
template <unsigned COUNT>
__device__ __forceinline__ void
fiber_set_count()
{
	static_assert(COUNT >= 1 && COUNT <= 8192, "fiber count out of range 1..8192");
	asm volatile("setfibernum.u32 %0;" :: "n"(COUNT) : "memory");
}

/* the same with the window size of the new wefts (registers; fiberc's allocator sets the
 * window the code after the call needs, see docs/fiber-cuda.md) */
template <unsigned COUNT, unsigned NREG>
__device__ __forceinline__ void
fiber_set_count()
{
	static_assert(COUNT >= 1 && COUNT <= 8192, "fiber count out of range 1..8192");
	static_assert(NREG >= 1 && NREG <= 255, "window size out of range 1..255");
	asm volatile("setfibernum.u32 %0, %1;" :: "n"(COUNT), "n"(NREG) : "memory");
}

/* a count known only at run time (it must be the same in every weft) */
__device__ __forceinline__ void
fiber_set_count(unsigned count)
{
	asm volatile("setfibernum.u32 %0;" :: "r"(count) : "memory");
}

/* reserve weft contexts for up to N fibers (.maxfibers): needed before a fiber_set_count(count)
 * whose count may exceed the launch's threads (a constant count reserves itself) */
template <unsigned N>
__device__ __forceinline__ void
fiber_reserve()
{
	static_assert(N >= 1 && N <= 8192, "fiber count out of range 1..8192");
	asm volatile("maxfibers %0;" :: "n"(N));
}

/* SR_FIBERID: the fiber's linear index in the CTA */
__device__ __forceinline__ unsigned
fiber_id()
{
	unsigned r;
	asm volatile("mov.u32 %0, %%fiberid;" : "=r"(r) :: "memory");
	return r;
}

/* SR_FIBERNUM: the CTA's current fiber count */
__device__ __forceinline__ unsigned
fiber_count()
{
	unsigned r;
	asm volatile("mov.u32 %0, %%fibernum;" : "=r"(r) :: "memory");
	return r;
}

/* the fiber's weft (fibers 32w .. 32w+31) and its lane in it */
__device__ __forceinline__ unsigned fiber_weft() { return fiber_id() >> 5; }
__device__ __forceinline__ unsigned fiber_lane() { return fiber_id() & 31; }

/* ---- slots: window registers another weft reads ----------------------------------------------
 * Slot S (0..63) is one 32-bit register of every weft's window, the same one in each; a weft
 * writes its own slot, any weft reads weft W's slot (a remote read, V<base(W)+R>). The busy bits
 * of section 4 of docs/fiber-isa.md order the two. W must be a constant (the window of weft W
 * must be at a known place: the kernel owns its SM, and W < 4 when it changes its fiber count). */

template <int S>
__device__ __forceinline__ void
fiber_slot_store(unsigned v)
{
	static_assert(S >= 0 && S < 64, "slot out of range 0..63");
	asm volatile("stslot.b32 %0, %1;" :: "n"(S), "r"(v) : "memory");
}

template <int S, int W>
__device__ __forceinline__ unsigned
fiber_slot_load()
{
	static_assert(S >= 0 && S < 64, "slot out of range 0..63");
	static_assert(W >= 0 && W < 256, "weft out of range 0..255");
	unsigned r;
	asm volatile("ldslot.b32 %0, %1, %2;" : "=r"(r) : "n"(S), "n"(W) : "memory");
	return r;
}

/* wait until the own slot S is Empty / Full (DEPBAR.EMPTY/.FULL) */
template <int S>
__device__ __forceinline__ void
fiber_slot_wait_empty()
{
	asm volatile("waitslot.empty.b32 %0;" :: "n"(S) : "memory");
}

template <int S>
__device__ __forceinline__ void
fiber_slot_wait_full()
{
	asm volatile("waitslot.full.b32 %0;" :: "n"(S) : "memory");
}

/* the same on weft W's slot S */
template <int S, int W>
__device__ __forceinline__ void
fiber_slot_wait_empty()
{
	asm volatile("waitslot.empty.b32 %0, %1;" :: "n"(S), "n"(W) : "memory");
}

template <int S, int W>
__device__ __forceinline__ void
fiber_slot_wait_full()
{
	asm volatile("waitslot.full.b32 %0, %1;" :: "n"(S), "n"(W) : "memory");
}

/* SETBUSYBIT.EMPTY / .FULL on the own slot S, or on weft W's */
template <int S>
__device__ __forceinline__ void
fiber_slot_set_empty()
{
	asm volatile("setslot.empty.b32 %0;" :: "n"(S) : "memory");
}

template <int S>
__device__ __forceinline__ void
fiber_slot_set_full()
{
	asm volatile("setslot.full.b32 %0;" :: "n"(S) : "memory");
}

template <int S, int W>
__device__ __forceinline__ void
fiber_slot_set_empty()
{
	asm volatile("setslot.empty.b32 %0, %1;" :: "n"(S), "n"(W) : "memory");
}

/* handing a value to another weft, the paper's remote write done legally: the producer writes
 * its own slot once the consumer has released it (local write), the consumer reads the
 * producer's slot once it is Full (remote read) and releases it. Works in loops: each round
 * waits for the previous one's release. */
template <int S>
__device__ __forceinline__ void
fiber_send(unsigned v)
{
	fiber_slot_wait_empty<S>();
	fiber_slot_store<S>(v);
}

template <int S, int FROM>
__device__ __forceinline__ unsigned
fiber_recv()
{
	fiber_slot_wait_full<S, FROM>();
	unsigned v = fiber_slot_load<S, FROM>();
	fiber_slot_set_empty<S, FROM>();
	return v;
}

__device__ __forceinline__ unsigned fiber_f2u(float f) { return __float_as_uint(f); }
__device__ __forceinline__ float fiber_u2f(unsigned u) { return __uint_as_float(u); }

/* ---- pools: registers of the SM that belong to no weft ---------------------------------------
 * fiber_pool<ID, SIZE, SLICE> is pool ID (0..15) of SIZE registers at the top of slice SLICE.
 * declare() once, at the start of the kernel (a header directive: it emits no instruction).
 * The wefts of the pool's sub-partition (weft % 4 == SLICE) write it, every weft reads it. */
template <int ID, int SIZE, int SLICE = 0>
struct fiber_pool {
	static_assert(ID >= 0 && ID < 16, "pool number out of range 0..15");
	static_assert(SIZE >= 1 && SIZE <= 256, "pool size out of range 1..256");
	static_assert(SLICE >= 0 && SLICE < 4, "slice out of range 0..3");

	static __device__ __forceinline__ void
	declare()
	{
		asm volatile("declpool %0, %1, %2;" :: "n"(ID), "n"(SIZE), "n"(SLICE));
	}

	template <int OFF>
	static __device__ __forceinline__ unsigned
	load()
	{
		static_assert(OFF >= 0 && OFF < SIZE, "pool offset out of range");
		unsigned r;
		asm volatile("ldpool.b32 %0, %1, %2;" : "=r"(r) : "n"(ID), "n"(OFF) : "memory");
		return r;
	}

	template <int OFF>
	static __device__ __forceinline__ void
	store(unsigned v)
	{
		static_assert(OFF >= 0 && OFF < SIZE, "pool offset out of range");
		asm volatile("stpool.b32 %0, %1, %2;" :: "n"(ID), "n"(OFF), "r"(v) : "memory");
	}

	/* wait until registers OFF..OFF+N-1 are all Full / Empty; mark them */
	template <int OFF, int N = 1>
	static __device__ __forceinline__ void
	wait_full()
	{
		static_assert(OFF >= 0 && N >= 1 && OFF + N <= SIZE && N <= 32, "pool range");
		asm volatile("waitpool.full.b32 %0, %1, %2;" :: "n"(ID), "n"(OFF), "n"(N) : "memory");
	}

	template <int OFF, int N = 1>
	static __device__ __forceinline__ void
	wait_empty()
	{
		static_assert(OFF >= 0 && N >= 1 && OFF + N <= SIZE && N <= 32, "pool range");
		asm volatile("waitpool.empty.b32 %0, %1, %2;" :: "n"(ID), "n"(OFF), "n"(N) : "memory");
	}

	template <int OFF, int N = 1>
	static __device__ __forceinline__ void
	set_empty()
	{
		static_assert(OFF >= 0 && N >= 1 && OFF + N <= SIZE && N <= 32, "pool range");
		asm volatile("setpool.empty.b32 %0, %1, %2;" :: "n"(ID), "n"(OFF), "n"(N) : "memory");
	}

	template <int OFF, int N = 1>
	static __device__ __forceinline__ void
	set_full()
	{
		static_assert(OFF >= 0 && N >= 1 && OFF + N <= SIZE && N <= 32, "pool range");
		asm volatile("setpool.full.b32 %0, %1, %2;" :: "n"(ID), "n"(OFF), "n"(N) : "memory");
	}

	/* d = a * B + c, mma.m16n8k16.row.col f32 += f16 x f16, the B fragment (two registers,
	 * four halves per lane as mma.sync wants them) read straight from pool registers OFF and
	 * OFF+1: no weft holds a copy */
	template <int OFF>
	static __device__ __forceinline__ void
	mma_b(float d[4], const unsigned a[4], const float c[4])
	{
		static_assert(OFF >= 0 && OFF + 2 <= SIZE, "pool range");
		asm volatile("mmapool.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
		             "{%0, %1, %2, %3}, {%4, %5, %6, %7}, %8, %9, {%10, %11, %12, %13};"
		             : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
		             : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "n"(ID), "n"(OFF),
		               "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
	}
};

#endif /* FIBER_DEVICE_CUH */
