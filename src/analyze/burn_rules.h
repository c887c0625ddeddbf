/* Findings of the sustained-load family (measure/burn.h; docs/acceptance.md). */
#ifndef LS_ANALYZE_BURN_RULES_H
#define LS_ANALYZE_BURN_RULES_H

#include <jansson.h>

#define LS_BURN_POWER_SHARE 0.75 /* DCGM targeted_power's target_power_min_ratio */
#define LS_BURN_SAG_RATIO 0.90   /* sustained below 90% of the first seconds */
#define LS_BURN_PEER_RATIO 0.90  /* sustained below 90% of the other GPUs' median */

/* Appends the burn findings (rules burn_fault, burn_thermal, burn_hw_slowdown,
   burn_power_cap, burn_power_low, burn_sag, burn_behind, burn_below_base) of every burn
   entry. */
void ls_rules_burn(const json_t *doc, json_t *out);

/* The SM clock GPU g held under sustained load: the lowest sm_mhz_sustained (median of
   the second half) of its burn entries; 0 when it has none. */
double ls_burn_sm_mhz_held(const json_t *doc, long long g);

#endif
