/* Helpers shared by the importers of other tools' output: line splitting, number
   tokens, GPU inventory merged by index, unique entry ids. */
#ifndef LS_IMPORT_UTIL_H
#define LS_IMPORT_UTIL_H

#include <jansson.h>
#include <stddef.h>

#define LS_IMPORT_MAX_TOKENS 64

/* A writable copy of one line of text, and its tokens (split on blanks). */
typedef struct {
    char buf[1024];
    char *tok[LS_IMPORT_MAX_TOKENS];
    int ntok;
} ls_line_t;

/* Copies the line starting at *pos into line (without the newline, ANSI escapes
   removed), advances *pos past it. Returns 0 at the end of text. */
int ls_next_line(const char **pos, ls_line_t *line);

/* Removes what a launcher puts before each output line: Open MPI's --tag-output
   "[1,0]<stdout>:" and Slurm's srun -l "3: ". Returns the start of the tool's text. */
char *ls_strip_launcher_prefix(char *text);

/* A copy of text (malloc'd) without the tag Ray, SkyPilot or vLLM put before each line a
   remote process printed ("(pid=N) ", "(head, rank=0, pid=N) ", "(RayWorker pid=N,
   ip=A) "), every line that has one losing it; NULL when no line has one (or out of
   memory). Import strips it before any reader looks, so every format is read through
   it (docs/import.md). */
char *ls_strip_worker_prefixes(const char *text);

/* Splits line->buf into blank-separated tokens (in place). */
void ls_tokenize(ls_line_t *line);

/* A token wrapped in markdown emphasis as a post renders it ("**5544.28**", "__7__"):
   the wrapper removed in place, the token returned; any other token as it is. */
char *ls_tok_unemphasize(char *tok);

/* Whole-token number parsing: 0 and *out, or -1. */
int ls_tok_double(const char *tok, double *out);
int ls_tok_long(const char *tok, long long *out);

/* The GPU object with this index in doc's "gpus" (created, kept sorted by index). */
json_t *ls_import_gpu(json_t *doc, int index);
/* Sets key to a string value unless the object already has it. */
void ls_set_if_absent(json_t *obj, const char *key, const char *value);

/* Appends an imported entry: sets "source", adds "imported" to flags and makes "id"
   (base) unique in the document with a -2, -3, ... suffix. Steals entry. */
void ls_import_add(json_t *doc, json_t *entry, const char *source, const char *base_id);

/* Entry with a single reported figure (no samples: the tool printed one number). */
json_t *ls_import_entry(const char *family, const char *metric, const char *unit, double value);

/* Where a tool's JSON output starts in a paste: the text's first non-blank character when
   it is '{', else the '{' opening one of its first LS_JSON_PREAMBLE_LINES lines (a shell
   prompt and the tool's own message before it: "$ dcgmi health -c -j"); NULL when
   neither. What follows the JSON value (another prompt) is left to the parser's
   JSON_DISABLE_EOF_CHECK. */
#define LS_JSON_PREAMBLE_LINES 8
const char *ls_json_start(const char *text);

/* A JSON paste refused, one wording for every JSON importer: top (what json_loads gave,
   NULL when text was not JSON) freed, err "NAME: WHAT JSON: " then the parser's message,
   or missing when it parsed but lacks what the importer reads. Returns -1. */
int ls_import_json_refused(json_t *top, const json_error_t *jerr, const char *name,
                           const char *what, const char *missing, char *err, size_t errlen);

/* topo -m's "NUMA Affinity" column, where it names one node ("3"; not "0-1" or "N/A"),
   as gpus[].numa_node when the document has none: the NUMA rules, the plan and the
   pictures then use it as they use a live run's node. */
void ls_import_topo_numa(json_t *doc);

/* When text names the PCIe-only matrix (`nvidia-smi topo -mp`, `--matrix_pci`): marks
   doc's links "pci_only" (their words are PCIe paths; NVLink is not shown). */
void ls_import_topo_pci_view(const char *text, json_t *doc);

#endif
