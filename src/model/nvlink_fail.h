/* The NVIDIA driver's NVLink bring-up failure lines that carry no Xid: link discovery
   (receiver detect), ALI link training and the link state updates of the driver's load,
   read by import (import/kernel_log.c: failures[] of kind "nvlink_train_failed"), its plan
   rule nvlink_discovery_failed (analyze/rules_kernel.c) and linkscope health's rule of the
   same name (the live or recorded kernel log, health/rules.c): one matcher, one decision.
   A training failure the driver reports as Xid 136 ("NVLink: Link training failed for
   link N") is an Xid and stays the xid rule's. */
#ifndef LS_MODEL_NVLINK_FAIL_H
#define LS_MODEL_NVLINK_FAIL_H

#include "xid.h"

#include <jansson.h>
#include <stddef.h>

/* What the NVRM message body says failed ("NVLink discovery: ..."), or NULL when it is
   not one of the driver's NVLink bring-up failure messages. */
const char *ls_nvlink_fail_says(const char *body);

/* The peer a discovery line names ("Getting peer1's postRxDetLinkMask failed!": 1), or
   -1. */
int ls_nvlink_fail_peer(const char *body);

/* The first bus id the body names ("GPU 0000:3b:00.0: ...", "link 0000:18:00.0:link5"), in
   the run document's form, into out; 0, or -1 when it names none. */
int ls_nvlink_fail_bus(const char *body, char *out, size_t len);

/* The node action of NVLink bring-up failures: reboot. Links that failed to come up at
   driver load stay down until every GPU of the NVLink domain is reset together (on an
   NVSwitch system with Fabric Manager restarted) or the node reboots. */
enum ls_action ls_nvlink_fail_action(void);

/* One record {text, what, peer?, bus_id?} per failure line of a kernel log text, the
   text after "NVRM: ". */
void ls_nvlink_fail_scan(const char *log, json_t *events);

#endif
