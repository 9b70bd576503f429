/* ptxsel_half.c: instruction selection of the half family (ptxsel.h, ptxlow.h). */
#include "ptxlow.h"

const SelRow ptxsel_half[] = {
	{ NULL, 0, NULL, NULL },
};
