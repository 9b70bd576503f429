/* ptxsel_int.c: instruction selection of the int family (ptxsel.h, ptxlow.h). */
#include "ptxlow.h"

const SelRow ptxsel_int[] = {
	{ NULL, 0, NULL, NULL },
};
