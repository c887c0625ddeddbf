/* linkscope fleet's inputs (fleet_load.h). */
#include "fleet_load.h"
#include "model/doc.h"
#include "util/sanitize.h"

#include <dirent.h>
#include <glob.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void paths_add(ls_paths_t *p, const char *path)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? p->cap * 2 : 64;
        p->items = realloc(p->items, p->cap * sizeof *p->items);
        if (!p->items)
            abort(); /* out of memory: nothing sensible to report half-way */
    }
    p->items[p->n++] = strdup(path);
}

void ls_paths_free(ls_paths_t *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->items[i]);
    free(p->items);
}

static int by_name(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

static int ends_json(const char *name)
{
    size_t n = strlen(name);
    return n > 5 && strcmp(name + n - 5, ".json") == 0;
}

/* A folder's *.json files, sorted by name. 0, or -1 when it cannot be read. */
static int add_folder(ls_paths_t *p, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    size_t first = p->n;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || !ends_json(e->d_name))
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        paths_add(p, path);
    }
    closedir(d);
    if (p->n > first) /* an empty folder: items may still be NULL */
        qsort(p->items + first, p->n - first, sizeof *p->items, by_name);
    return 0;
}

/* Files, folders and globs into one list of documents; one line and -1 on a problem. */
int ls_fleet_collect(ls_paths_t *p, int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            if (add_folder(p, argv[i]) != 0) {
                fprintf(stderr, "linkscope fleet: %s: cannot read the folder\n", argv[i]);
                return -1;
            }
        } else if (strpbrk(argv[i], "*?[") && stat(argv[i], &st) != 0) {
            glob_t g;
            if (glob(argv[i], 0, NULL, &g) != 0) {
                fprintf(stderr, "linkscope fleet: %s: no document matches\n", argv[i]);
                return -1;
            }
            for (size_t k = 0; k < g.gl_pathc; k++)
                paths_add(p, g.gl_pathv[k]);
            globfree(&g);
        } else {
            paths_add(p, argv[i]);
        }
    }
    if (p->n == 0) {
        fprintf(stderr, "linkscope fleet: no run documents in %s\n", argv[0]);
        return -1;
    }
    return 0;
}

/* Reading is the cost (JSON parsing: 1,000 documents of 220 KB are 9 s of one core), so
   worker threads parse the documents while this thread adds them to the fleet in their
   order; at most WINDOW documents wait parsed. */
#define WINDOW 64

typedef struct {
    const ls_paths_t *paths;
    json_t **docs;     /* parsed document per path, until added */
    json_t **found;    /* its findings at warning and error, made beside the parsing */
    char (*errs)[512]; /* or why it could not be read */
    int *done;
    size_t next, added; /* next path to parse; documents added so far */
    int stop;
    pthread_mutex_t lock;
    pthread_cond_t cond;
} loader_t;

static void *parse_worker(void *arg)
{
    loader_t *l = arg;
    pthread_mutex_lock(&l->lock);
    for (;;) {
        while (!l->stop && l->next < l->paths->n && l->next >= l->added + WINDOW)
            pthread_cond_wait(&l->cond, &l->lock);
        if (l->stop || l->next >= l->paths->n)
            break;
        size_t i = l->next++;
        pthread_mutex_unlock(&l->lock);
        json_t *doc = ls_doc_read(l->paths->items[i], l->errs[i], sizeof l->errs[i]);
        json_t *found = doc ? ls_fleet_node_findings(doc) : NULL;
        pthread_mutex_lock(&l->lock);
        l->docs[i] = doc;
        l->found[i] = found;
        l->done[i] = 1;
        pthread_cond_broadcast(&l->cond);
    }
    pthread_mutex_unlock(&l->lock);
    return NULL;
}

/* Adds the documents in order; one that cannot be read (or is forged) is named in one
   line and skipped. The number skipped, or -1 when out of memory. */
static int add_in_order(ls_fleet_t *fleet, loader_t *l)
{
    int skipped = 0;
    for (size_t i = 0; i < l->paths->n; i++) {
        pthread_mutex_lock(&l->lock);
        while (!l->done[i])
            pthread_cond_wait(&l->cond, &l->lock);
        json_t *doc = l->docs[i], *found = l->found[i];
        l->docs[i] = NULL;
        l->found[i] = NULL;
        pthread_mutex_unlock(&l->lock);
        if (!doc) {
            char shown[4 * sizeof l->errs[i]]; /* its text may quote the document */
            fprintf(stderr, "linkscope fleet: %s; skipped\n",
                    ls_term_escape(l->errs[i], shown, sizeof shown));
            skipped++;
        }
        int rc = doc ? ls_fleet_add_found(fleet, doc, l->paths->items[i], found) : 0;
        json_decref(doc);
        if (rc != 0) {
            fprintf(stderr, "linkscope fleet: %s: out of memory\n", l->paths->items[i]);
            return -1;
        }
        pthread_mutex_lock(&l->lock);
        l->added = i + 1;
        pthread_cond_broadcast(&l->cond);
        pthread_mutex_unlock(&l->lock);
    }
    return skipped;
}

int ls_fleet_load(ls_fleet_t *fleet, const ls_paths_t *p)
{
    loader_t l = {p,
                  calloc(p->n, sizeof(json_t *)),
                  calloc(p->n, sizeof(json_t *)),
                  calloc(p->n, sizeof *l.errs),
                  calloc(p->n, sizeof(int)),
                  0,
                  0,
                  0,
                  PTHREAD_MUTEX_INITIALIZER,
                  PTHREAD_COND_INITIALIZER};
    if (!l.docs || !l.found || !l.errs || !l.done) {
        fprintf(stderr, "linkscope fleet: out of memory for %zu documents\n", p->n);
        free(l.docs), free(l.found), free(l.errs), free(l.done);
        return -1;
    }
    json_object_seed(0); /* jansson: seed its hash before threads create objects */
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int nthreads = cpus < 1 ? 1 : cpus > 16 ? 16 : (int)cpus;
    pthread_t threads[16];
    int started = 0;
    while (started < nthreads && pthread_create(&threads[started], NULL, parse_worker, &l) == 0)
        started++;
    int rc = started ? add_in_order(fleet, &l) : -1;
    if (!started)
        fprintf(stderr, "linkscope fleet: cannot start a thread to read the documents\n");
    pthread_mutex_lock(&l.lock);
    l.stop = 1;
    pthread_cond_broadcast(&l.cond);
    pthread_mutex_unlock(&l.lock);
    for (int t = 0; t < started; t++)
        pthread_join(threads[t], NULL);
    for (size_t i = 0; i < p->n; i++)
        json_decref(l.docs[i]), json_decref(l.found[i]);
    free(l.docs), free(l.found), free(l.errs), free(l.done);
    return rc;
}
