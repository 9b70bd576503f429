/* ptxsel_tensor.c: instruction selection of the tensor family (ptxsel.h, ptxlow.h). */
#include "ptxlow.h"

const SelRow ptxsel_tensor[] = {
	{ NULL, 0, NULL, NULL },
};
