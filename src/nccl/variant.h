/* Settings variants: the same sweep once per NCCL setting, each in its own child
   process (NCCL reads its environment once per process): fork, set the variable,
   exec /proc/self/exe with a private output file, read the child's document. */
#ifndef LS_NCCL_VARIANT_H
#define LS_NCCL_VARIANT_H

#include <jansson.h>
#include <stddef.h>

/* "NCCL_P2P_LEVEL=PHB" -> key "NCCL_P2P_LEVEL", *value "PHB". -1 when there is no '='
   or the name is not an environment variable name ([A-Za-z_][A-Za-z0-9_]*). */
int ls_variant_parse(const char *text, char *key, size_t keylen, const char **value);

/* argv for a child: exe, then args[0..nargs), then "--child-out", out_path, NULL.
   The array is malloc'd (free it); its strings are borrowed. */
char **ls_variant_argv(const char *exe, char *const *args, int nargs, const char *out_path);

/* Runs argv[0] with argv in a child whose environment is ours plus `setting` ("K=V",
   or NULL/"default" for none), waits up to limit_s seconds (then kills it), and reads
   the document the child wrote to out_path. Returns the document, or NULL with err
   (the child's exit status, or the missing file). *exit_code gets the child's status. */
json_t *ls_variant_run(char *const *argv, const char *setting, const char *out_path, double limit_s,
                       int *exit_code, char *err, size_t errlen);

#endif
