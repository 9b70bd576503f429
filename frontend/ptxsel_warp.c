/* ptxsel_warp.c: instruction selection of the warp family (ptxsel.h, ptxlow.h). */
#include "ptxlow.h"

const SelRow ptxsel_warp[] = {
	{ NULL, 0, NULL, NULL },
};
