/* Reads the output of cuda-samples' p2pBandwidthLatencyTest into `p2p`, `latency` and
   `hbm` entries, and busGrind's (the CUDA demo suite) into `p2p`, `hbm` and `host` ones
   (docs/import.md says which figure goes where). */
#ifndef LS_IMPORT_P2P_SAMPLE_H
#define LS_IMPORT_P2P_SAMPLE_H

#include <jansson.h>
#include <stddef.h>

/* 1 when text looks like p2pBandwidthLatencyTest output. */
int ls_p2p_sample_detect(const char *text);

/* 1 when text holds busGrind's own titles (its host/device or P2P matrix, its name). */
int ls_busgrind_detect(const char *text);

/* Adds the entries to doc; returns how many, or -1 with err = "NAME: problem". */
int ls_import_p2p_sample(json_t *doc, const char *text, const char *name, char *err, size_t errlen);

#endif
