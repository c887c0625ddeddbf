/* nvidia-smi -q: power, clock-event reasons, ECC, temperature, clocks and the PCI device
   id of a GPU block (smi_query_health.c). */
#ifndef LS_IMPORT_SMI_QUERY_HEALTH_H
#define LS_IMPORT_SMI_QUERY_HEALTH_H

#include <jansson.h>

/* One "Key : value" line of a GPU block, under the sections section[0..depth-1]. */
void ls_smi_query_health(json_t *gpu, const char (*section)[48], int depth, const char *key,
                         const char *value);

#endif
