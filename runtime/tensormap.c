/* tensormap.c: fiberTensorMapEncodeTiled, cuTensorMapEncodeTiled's counterpart: the parameters
 * checked by cuTensorMapEncodeTiled's rules and laid out as the simulator reads them (sim/tmap.c,
 * docs/sim.md "Tensor maps").
 */
#include "rt.h"
#include "tmap.h"

_Static_assert(sizeof(fiberTensorMap) == TmapBytes, "a tensor map is 128 bytes");

fiberStatus
fiberTensorMapEncodeTiled(fiberTensorMap *map, int data_type, unsigned rank,
                          fiberDevicePtr global_address, const uint64_t *global_dim,
                          const uint64_t *global_strides, const uint32_t *box_dim,
                          const uint32_t *element_strides, int interleave, int swizzle,
                          int l2_promotion, int oob_fill)
{
	char why[200];

	if (!map)
		return rt_err(NULL, FIBER_ERROR_INVALID_VALUE, "fiberTensorMapEncodeTiled: map is NULL");
	if (data_type < 0 || interleave < 0 || swizzle < 0 || l2_promotion < 0 || oob_fill < 0)
		return rt_err(NULL, FIBER_ERROR_INVALID_VALUE, "fiberTensorMapEncodeTiled: a negative "
		              "enumeration value");
	if (tmap_encode((uint8_t *)map->opaque, (unsigned)data_type, rank, global_address, global_dim,
	                global_strides, box_dim, element_strides, (unsigned)interleave,
	                (unsigned)swizzle, (unsigned)l2_promotion, (unsigned)oob_fill, why,
	                sizeof why) < 0)
		return rt_err(NULL, FIBER_ERROR_INVALID_VALUE, "fiberTensorMapEncodeTiled: %s", why);
	return FIBER_SUCCESS;
}
