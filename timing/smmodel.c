/* smmodel.c: the table of SM models (smmodel.h), one row per model, indexed by the configuration's
 * sm_model (SimTiming.sm_model, enum SmModelKind); a new model is a file like simt.c and a row
 * here, with its name in the configuration parser's choices for sm_model (config.c).
 */
#include "smmodel.h"

#include <string.h>

const SmModel *const sm_models[NSmModel] = {
	[SmModelSimt] = &sm_model_simt,
	[SmModelFiber] = &sm_model_fiber,
};

const SmModel *
sm_model_find(const char *name)
{
	for (unsigned k = 0; k < NSmModel; k++)
		if (sm_models[k] && strcmp(sm_models[k]->name, name) == 0)
			return sm_models[k];
	return NULL;
}

const SmModel *
sm_model_of(const SimConfig *c)
{
	return c->t.sm_model < NSmModel && sm_models[c->t.sm_model] ? sm_models[c->t.sm_model]
	                                                              : &sm_model_simt;
}

SimOccupancyFn
sim_model_occupancy(const SimConfig *c)
{
	return sm_model_of(c)->occupancy;
}
