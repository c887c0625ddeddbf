/* PCI bus ids in the forms the sources write them: NVML "00000000:3B:00.0" (8-digit
   domain, upper case), CUDA and sysfs "0000:3b:00.0". linkscope stores the NVML form in
   lower case (docs/schema.md). */
#ifndef LS_MODEL_BUSID_H
#define LS_MODEL_BUSID_H

#include <stddef.h>

typedef struct {
    unsigned domain, bus, device, function;
} ls_busid_t;

/* "DDDD:BB:DD.F" or "DDDDDDDD:BB:DD.F" or "BB:DD.F" (domain 0), any case, optional
   surrounding blanks; "DDDD:BB:DD" (nccl-tests, nvbandwidth) is function 0. 0, or -1 if
   malformed. */
int ls_busid_parse(const char *text, ls_busid_t *id);
/* "00000000:3b:00.0" */
void ls_busid_format(const ls_busid_t *id, char *buf, size_t buflen);
/* "0000:3b:00.0" (sysfs) */
void ls_busid_format_sysfs(const ls_busid_t *id, char *buf, size_t buflen);
/* Normalizes any accepted form into the stored form; 0 or -1. */
int ls_busid_normalize(const char *text, char *buf, size_t buflen);
/* 1 when both texts name the same function. */
int ls_busid_equal(const char *a, const char *b);

#endif
