/* ptxsel_float.c: instruction selection of the float family (ptxsel.h, ptxlow.h). */
#include "ptxlow.h"

const SelRow ptxsel_float[] = {
	{ NULL, 0, NULL, NULL },
};
