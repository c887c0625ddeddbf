/* The run document (schema linkscope.run/1): a jansson tree, written and read
   losslessly, validated on read. docs/schema.md describes every field. */
#ifndef LS_MODEL_DOC_H
#define LS_MODEL_DOC_H

#include <jansson.h>
#include <stddef.h>

#define LS_SCHEMA "linkscope.run/1"
#define LS_SCHEMA_NAME "linkscope.run"
#define LS_SCHEMA_VERSION 1

/* A new document: schema, created (UTC, ISO 8601), empty host, software, gpus, links,
   nics, gpu_nic_links, env, measurements. */
json_t *ls_doc_new(void);

/* Canonical serialization: two-space indent, keys in insertion order, reals with
   17 significant digits, trailing newline. Caller frees. */
char *ls_doc_dumps(const json_t *doc);

/* Atomic write ("-" = stdout) through ls_write_file_atomic. A document the reader
   would reject (ls_doc_validate, the input size limit) is not written. 0, or -1 with
   err naming the file. */
int ls_doc_write(const json_t *doc, const char *path, char *err, size_t errlen);

/* A one-shot command's document at the command's end (plan, report): left to the
   process's exit, which returns its memory at once, instead of freed node by node
   (freeing the millions of small JSON nodes of a 40,000-entry document, and glibc
   consolidating them, took a quarter of plan's CPU time: docs/safety.md "Cost"). It
   stays reachable (a static pointer) until then. A sanitizer build (LS_SANITIZED) frees
   it here, so LeakSanitizer still checks that everything else is freed and a release
   too many still fails. Only where the process exits right after. */
void ls_doc_release_at_exit(json_t *doc);

/* Reads and validates. NULL with err = "FILE: FIELD: what is wrong" on failure. */
json_t *ls_doc_read(const char *path, char *err, size_t errlen);
json_t *ls_doc_parse(const char *text, const char *name, char *err, size_t errlen);

/* The one --into path of every writing command (src/model/doc_into.c).
   ls_doc_into_open reads the document an --into option names, after taking an exclusive
   flock on it that is held until ls_doc_into_write, ls_doc_unlock_into or the process
   exits, and lets it be written back (an input is otherwise never overwritten). NULL
   with err on failure (the lock released). ls_doc_into_write writes doc to path (as
   ls_doc_write; for the --into document even when it was read again as an input since)
   and then releases the lock. */
json_t *ls_doc_into_open(const char *path, char *err, size_t errlen);
int ls_doc_into_write(const json_t *doc, const char *path, char *err, size_t errlen);
void ls_doc_unlock_into(void);

/* Any JSON file or text checked by check (0, or -1 with why): the parsed tree, or NULL
   with err = "NAME: not a valid JSON document (line N: ...)" or "NAME: WHY". */
typedef int (*ls_json_check_fn)(const json_t *doc, char *why, size_t whylen);
json_t *ls_json_parse_checked(const char *text, const char *name, ls_json_check_fn check, char *err,
                              size_t errlen);
json_t *ls_json_read_checked(const char *path, ls_json_check_fn check, char *err, size_t errlen);

/* Checks the structure: schema name and version, required sections and their types,
   each measurement's common fields. 0, or -1 with err = "FIELD: problem". */
int ls_doc_validate(const json_t *doc, char *err, size_t errlen);
/* Every GPU index an entry names (src, dst, gpu, gpus[]), gpus[].index and links' a, b
   inside the machine view (LS_MAX_GPUS); part of ls_doc_validate (doc_indices.c). */
int ls_doc_check_indices(const json_t *doc, char *err, size_t errlen);

/* Every string value and key of the tree made harmless (ls_sanitize_text: no terminal
   escape, control character or invalid UTF-8). Applied by ls_doc_parse and import. */
void ls_doc_sanitize(json_t *doc);

/* Appends a measurement entry (reference stolen). Sets "id" to FAMILY-N if absent. */
void ls_doc_add_measurement(json_t *doc, json_t *entry);

/* Appends entry (reference stolen) with an id unique within the document: its "id", or
   "ID-2", "ID-3" ... when the document already holds it (a second run --into the same
   file, concatenated logs). The one place ids are made unique; a hash set keeps it
   linear in the entries added. */
void ls_doc_add_unique(json_t *doc, json_t *entry);

/* Convenience getters that tolerate missing keys. */
const char *ls_json_str(const json_t *obj, const char *key, const char *fallback);
/* Appends s to an array of strings unless it holds it already. */
void ls_json_add_string_once(json_t *strings, const char *s);

/* holder[index_key][list]: the object a reader keeps a list's keys in while it fills
   the list (key -> position), made on first use; the reader deletes holder[index_key]
   when it is done. */
json_t *ls_json_list_index(json_t *holder, const char *index_key, const char *list);
/* Appends value (stolen) to list unless list holds one equal to it (json_equal: freed
   then). 1 appended, 0 not. */
int ls_json_append_once(json_t *list, json_t *value);
double ls_json_num(const json_t *obj, const char *key, double fallback);
long long ls_json_int(const json_t *obj, const char *key, long long fallback);

/* obj's member key where it is an array, else a new empty array put there (replacing
   whatever was); the reference is obj's, NULL when obj is not an object. The one way
   a list of the document is made on first use. */
json_t *ls_json_array_at(json_t *obj, const char *key);
/* The same for an object member. */
json_t *ls_json_object_at(json_t *obj, const char *key);
/* Appends integer v to array list unless list holds it already; 1 when appended. */
int ls_json_add_int_once(json_t *list, long long v);
/* The first object of array whose integer key1 is v1 and, unless key2 is NULL, whose
   key2 is v2 (an absent key reads -1); NULL when none. The result is array's, mutable
   where the caller's array is (strchr's way). */
json_t *ls_json_find_int(const json_t *array, const char *key1, long long v1, const char *key2,
                         long long v2);
/* The object of array whose key1 (and key2, unless NULL) are fresh's, as ls_json_find_int
   finds it; fresh itself appended when there is none. fresh is stolen: kept or freed. */
json_t *ls_json_find_or_add(json_t *array, json_t *fresh, const char *key1, const char *key2);

/* Iterates measurements of one family (LS_FAMILY_P2P, ...); family NULL matches all.
   Returns the next index >= start whose entry matches, or -1. New code walks the
   entries with LS_DOC_FOREACH over a family descriptor (model/view.h) instead. */
long ls_doc_next_measurement(const json_t *doc, const char *family, long start);

/* How many of a GPU object's nvlinks[] are active. */
int ls_gpu_nvlinks_active(const json_t *gpu);

/* The object of doc's gpus[] whose index is index, or NULL. */
const json_t *ls_doc_gpu(const json_t *doc, long long index);

#endif
