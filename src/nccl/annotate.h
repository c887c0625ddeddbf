/* What a collective entry gains from the run document it joins: a unique id, the
   link type beside each transport, transport findings and the theoretical peak. */
#ifndef LS_NCCL_ANNOTATE_H
#define LS_NCCL_ANNOTATE_H

#include <jansson.h>

/* Annotates transports with doc's links, adds transport_findings and theoretical. */
void ls_nccl_annotate_entry(json_t *doc, json_t *entry);

/* Gives the entry an id not yet in doc and appends it (reference stolen). */
void ls_nccl_add_entry(json_t *doc, json_t *entry);

#endif
