/* linkscope fleet: the run documents of many nodes together (docs/fleet.md). */
#include "analyze/fleet.h"
#include "commands.h"
#include "options.h"
#include "model/doc.h"
#include "render/fleet_report.h"
#include "util/fileio.h"
#include "util/log.h"
#include "util/parse.h"

#include <dirent.h>
#include <getopt.h>
#include <glob.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char usage_fleet[] =
    "usage: linkscope fleet DOC|FOLDER|GLOB... [--json | --prom] [--html FILE]\n"
    "                       [--score Z] [--min-change PCT]\n"
    "\n"
    "Reads the run documents of many nodes (e.g. from `srun --ntasks-per-node=1\n"
    "linkscope run -o run-%N.json`), groups the nodes by hardware model and finds, per\n"
    "figure, the nodes whose value is worse than the model's median by a robust score\n"
    "(median absolute deviation) and a minimum change. Each outlier is named by node and\n"
    "subject (a GPU, a GPU pair, a network port). A FOLDER means its *.json files; a\n"
    "quoted GLOB is expanded here.\n"
    "\n"
    "Options:\n"
    "  --score Z          robust score beyond which a figure is an outlier (default 3.5)\n"
    "  --min-change PCT   and at least this much worse than the median, percent\n"
    "                     (default 10)\n"
    "  --json             the analysis as JSON on stdout\n"
    "  --prom             Prometheus text on stdout: outliers per node, median per figure\n"
    "  --html FILE        an HTML report, one row per node, outliers marked\n"
    "\n"
    "Exit codes: 0 no outlier; 1 at least one outlier (gate a node before a job);\n"
    "2 bad usage or a document that cannot be read (one line naming the file).\n"
    "Details: docs/fleet.md.\n";

typedef struct {
    ls_fleet_opts_t opts;
    int json, prom;
    const char *html;
} fleet_args_t;

static int parse_args(int argc, char **argv, fleet_args_t *a)
{
    static const struct option opts[] = {{"score", required_argument, 0, 's'},
                                         {"min-change", required_argument, 0, 'm'},
                                         {"json", no_argument, 0, 'j'},
                                         {"prom", no_argument, 0, 'p'},
                                         {"html", required_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    memset(a, 0, sizeof *a);
    ls_fleet_opts_default(&a->opts);
    int c;
    ls_opt_begin();
    while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        if (ls_opt_refused("fleet", c, argv))
            return LS_EXIT_USAGE;
        switch (c) {
        case 's':
            if (ls_parse_double(optarg, &a->opts.score) || a->opts.score <= 0)
                return ls_usage_error("fleet", "--score: expected a positive number, got '%s'", optarg);
            break;
        case 'm':
            if (ls_parse_double(optarg, &a->opts.min_change_pct) || a->opts.min_change_pct < 0 ||
                a->opts.min_change_pct > 1000)
                return ls_usage_error("fleet", "--min-change: expected a percentage 0-1000, got '%s'",
                                      optarg);
            break;
        case 'j': a->json = 1; break;
        case 'p': a->prom = 1; break;
        case 'h': a->html = optarg; break;
        }
    }
    if (a->json && a->prom)
        return ls_usage_error("fleet", "--json and --prom both write stdout: choose one");
    if (optind >= argc)
        return ls_usage_error("fleet", "needs run documents (files, a folder or a glob)");
    return ls_check_writable("fleet", "--html", a->html, 0);
}

typedef struct {
    char **items;
    size_t n, cap;
} paths_t;

static void paths_add(paths_t *p, const char *path)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? p->cap * 2 : 64;
        p->items = realloc(p->items, p->cap * sizeof *p->items);
        if (!p->items)
            abort(); /* out of memory: nothing sensible to report half-way */
    }
    p->items[p->n++] = strdup(path);
}

static void paths_free(paths_t *p)
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
static int add_folder(paths_t *p, const char *dir)
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
    qsort(p->items + first, p->n - first, sizeof *p->items, by_name);
    return 0;
}

/* Files, folders and globs into one list of documents; one line and -1 on a problem. */
static int collect(paths_t *p, int argc, char **argv)
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
    const paths_t *paths;
    json_t **docs;     /* parsed document per path, until added */
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
        pthread_mutex_lock(&l->lock);
        l->docs[i] = doc;
        l->done[i] = 1;
        pthread_cond_broadcast(&l->cond);
    }
    pthread_mutex_unlock(&l->lock);
    return NULL;
}

/* Adds the documents in order; stops at the first that cannot be read. */
static int add_in_order(ls_fleet_t *fleet, loader_t *l)
{
    for (size_t i = 0; i < l->paths->n; i++) {
        pthread_mutex_lock(&l->lock);
        while (!l->done[i])
            pthread_cond_wait(&l->cond, &l->lock);
        json_t *doc = l->docs[i];
        l->docs[i] = NULL;
        pthread_mutex_unlock(&l->lock);
        int rc = doc ? ls_fleet_add(fleet, doc, l->paths->items[i]) : -1;
        json_decref(doc);
        if (rc != 0) {
            if (doc)
                fprintf(stderr, "linkscope fleet: %s: out of memory\n", l->paths->items[i]);
            else
                fprintf(stderr, "linkscope fleet: %s\n", l->errs[i]);
            return -1;
        }
        pthread_mutex_lock(&l->lock);
        l->added = i + 1;
        pthread_cond_broadcast(&l->cond);
        pthread_mutex_unlock(&l->lock);
    }
    return 0;
}

static int load(ls_fleet_t *fleet, const paths_t *p)
{
    loader_t l = {p, calloc(p->n, sizeof(json_t *)), calloc(p->n, sizeof *l.errs),
                  calloc(p->n, sizeof(int)), 0, 0, 0, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER};
    if (!l.docs || !l.errs || !l.done) {
        fprintf(stderr, "linkscope fleet: out of memory for %zu documents\n", p->n);
        free(l.docs), free(l.errs), free(l.done);
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
        json_decref(l.docs[i]);
    free(l.docs), free(l.errs), free(l.done);
    return rc;
}

static int write_outputs(const json_t *result, const fleet_args_t *a)
{
    char *text;
    if (a->json)
        text = json_dumps(result, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
    else if (a->prom)
        text = ls_fleet_prom(result);
    else
        text = ls_fleet_term(result, a->opts.score, a->opts.min_change_pct);
    fputs(text, stdout);
    if (a->json)
        fputs("\n", stdout);
    free(text);
    if (!a->html)
        return 0;
    char err[512];
    text = ls_fleet_html(result, a->opts.score, a->opts.min_change_pct);
    int rc = ls_write_file_atomic(a->html, text, strlen(text), err, sizeof err);
    free(text);
    if (rc != 0)
        fprintf(stderr, "linkscope fleet: %s\n", err);
    return rc;
}

int cmd_fleet(int argc, char **argv)
{
    fleet_args_t a;
    int rc = parse_args(argc, argv, &a);
    if (rc != 0)
        return rc;
    paths_t paths = {0};
    ls_fleet_t *fleet = ls_fleet_new();
    json_t *result = NULL;
    rc = LS_EXIT_USAGE;
    if (fleet && collect(&paths, argc - optind, argv + optind) == 0 && load(fleet, &paths) == 0 &&
        (result = ls_fleet_analyze(fleet, &a.opts)) != NULL && write_outputs(result, &a) == 0)
        rc = ls_json_int(result, "outlier_nodes", 0) > 0 ? LS_EXIT_CHECK : LS_EXIT_OK;
    json_decref(result);
    ls_fleet_free(fleet);
    paths_free(&paths);
    return rc;
}
