/* The order in which a pair family measures its pairs (measure.h): the run's rounds, or
   every pair alone. No CUDA here, so that the host tests walk it. */
#include "measure.h"

void ls_measure_each_round(json_t *doc, const ls_measure_opts_t *o, ls_round_fn round, void *ctx)
{
    if (o->nrounds > 0) { /* the run's rounds: the pairs of a round at once */
        for (int r = 0; r < o->nrounds; r++) {
            int first = o->round_start[r];
            round(doc, o, o->pair_a + first, o->pair_b + first, o->round_start[r + 1] - first,
                  r + 1, ctx);
        }
        return;
    }
    int index = 0; /* every pair alone, in order */
    for (int x = 0; x < o->ngpus; x++)
        for (int y = x + 1; y < o->ngpus; y++)
            round(doc, o, &x, &y, 1, ++index, ctx);
}
