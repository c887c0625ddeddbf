/* A framework's own log (TensorFlow and other glog-style C++ logs, vLLM) that no other
   reader takes: no CUDA error, NCCL, driver or nvidia-smi line in it. */
#ifndef LS_IMPORT_FRAMEWORK_LOG_H
#define LS_IMPORT_FRAMEWORK_LOG_H

#include <jansson.h>
#include <stddef.h>

/* 1 when at least three lines are in one framework's log-line form. */
int ls_framework_log_detect(const char *text);

/* 1 when a line is at an error level (E, F, ERROR, CRITICAL) or opens a Python traceback:
   what ls_import_framework_log counts and names as not judged. */
int ls_framework_log_has_errors(const char *text);
/* framework_logs[] {file, framework, lines, error_lines} and the GPUs TensorFlow names
   (index, name, bus id); the import is noted incomplete: nothing of it is judged beyond
   "no line another reader takes". 0. */
int ls_import_framework_log(json_t *doc, const char *text, const char *name, char *err,
                            size_t errlen);

#endif
