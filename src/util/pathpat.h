/* Output names per node: "run-%N.json" -> "run-node17.json" (Slurm's %N: the short host
   name), so that `srun --ntasks-per-node=1 linkscope run -o run-%N.json` gives one file
   per node (srun expands %N only in its own --output, not in the program's arguments). */
#ifndef LS_UTIL_PATHPAT_H
#define LS_UTIL_PATHPAT_H

#include <stddef.h>

/* Copies pattern into out with every "%N" replaced by host up to its first dot and "%%"
   by "%"; other text as is. host NULL: this machine's name. 0, or -1 when out is too
   small. */
int ls_expand_node(const char *pattern, const char *host, char *out, size_t outlen);

#endif
