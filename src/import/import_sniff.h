/* What a text that no reader recognizes looks like: the near misses of the formats
   linkscope reads (a topo -m matrix without its header, nvidia-smi nvlink lines without
   their GPU line, -q -x XML) and a log it does not read (DCGM's host engine log), so that the
   one-line refusal says what it is and what is missing (issue 22). */
#ifndef LS_IMPORT_SNIFF_H
#define LS_IMPORT_SNIFF_H

#include <stddef.h>

/* The sentence for a near miss ("nvidia-smi topo -m rows without their header row ...")
   in buf, or 0 when the text is none of them. */
int ls_import_sniff(const char *text, char *buf, size_t len);

#endif
