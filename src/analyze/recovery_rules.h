/* recovery_action (analyze/rules_recovery.c): the driver's GPU recovery action of an
   imported nvidia-smi -q. */
#ifndef LS_ANALYZE_RECOVERY_RULES_H
#define LS_ANALYZE_RECOVERY_RULES_H

#include <jansson.h>

void ls_rules_recovery(const json_t *doc, json_t *out);

#endif
