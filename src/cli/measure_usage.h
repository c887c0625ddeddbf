/* The parts of a measuring command's usage that come from its family's descriptor
   (measure_usage.c); static texts, NULL or "" for a name that is no family. */
#ifndef LS_CLI_MEASURE_USAGE_H
#define LS_CLI_MEASURE_USAGE_H

/* The measuring commands the command table holds (main.c), at most. */
#define LS_MEASURE_MAX_FAMILIES 16

const char *ls_measure_head(const char *family);
const char *ls_measure_tail(const char *family);
/* The --size line's help; NULL where --size does not apply. */
const char *ls_measure_size_help(const char *family);

#endif
