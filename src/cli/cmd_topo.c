/* linkscope topo: the link type between every pair of GPUs and NICs, as nvidia-smi
   topo -m, from this machine (discovery) or from saved nvidia-smi text (--from). */
#include "commands.h"
#include "options.h"
#include "discover/discover.h"
#include "import/topo_text.h"
#include "model/doc.h"
#include "model/topo.h"
#include "render/topo_render.h"
#include "util/fileio.h"
#include "util/log.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
    const char *from, *p2p_read, *p2p_write, *output, *sysfs_root, *color;
    int json, csv;
} topo_opts_t;

static const char *const *color_words(void)
{
    static const char *const words[] = {"auto", "always", "never", NULL};
    return words;
}

static int check_options(const topo_opts_t *o)
{
    if (o->json && o->csv)
        return ls_usage_error("topo", "--json and --csv exclude each other");
    if ((o->p2p_read || o->p2p_write) && !o->from)
        return ls_usage_error("topo", "--p2p-read and --p2p-write need --from");
    if (o->sysfs_root && o->from)
        return ls_usage_error("topo", "--sysfs-root is for discovery, not with --from");
    struct stat st;
    if (o->sysfs_root && (stat(o->sysfs_root, &st) != 0 || !S_ISDIR(st.st_mode)))
        return ls_usage_error("topo", "--sysfs-root %s: not a directory", o->sysfs_root);
    if (o->color && strcmp(o->color, "auto") && strcmp(o->color, "always") &&
        strcmp(o->color, "never"))
        return ls_usage_error("topo", "--color takes auto, always or never, not '%s'", o->color);
    return 0;
}

#define STRING(n, field, a, text)                                                                  \
    {                                                                                              \
        .name = n, .kind = LS_OPT_STRING, .arg = a, .off = offsetof(topo_opts_t, field),           \
        .help = text                                                                               \
    }

static const ls_opt_t options[] = {
    STRING("from", from, "FILE",
           "read saved `nvidia-smi topo -m` output (tabs or spaces, ANSI\n"
           "escapes, NIC rows) or a linkscope run document, instead of\n"
           "this machine; '-' reads stdin"),
    STRING("p2p-read", p2p_read, "FILE", "with --from: saved `nvidia-smi topo -p2p r` output"),
    STRING("p2p-write", p2p_write, "FILE", "with --from: saved `nvidia-smi topo -p2p w` output"),
    {.name = "json",
     .kind = LS_OPT_FLAG,
     .off = offsetof(topo_opts_t, json),
     .help = "write the run document (schema linkscope.run/1)"},
    {.name = "csv",
     .kind = LS_OPT_FLAG,
     .off = offsetof(topo_opts_t, csv),
     .help = "write the link matrix as CSV"},
    {.short_name = 'o',
     .kind = LS_OPT_STRING,
     .arg = "FILE",
     .off = offsetof(topo_opts_t, output),
     .flags = LS_OPT_OUTPUT,
     .help = "write to FILE (atomically) instead of stdout"},
    {.name = "color",
     .kind = LS_OPT_STRING,
     .arg = "WHEN",
     .off = offsetof(topo_opts_t, color),
     .words = color_words,
     .help = "auto (on a terminal unless NO_COLOR is set), always or never"},
    STRING("sysfs-root", sysfs_root, "DIR",
           "discover from a copy of /sys and /proc under DIR, without\n"
           "NVML and CUDA (testing on a saved or fake tree; no GPU\n"
           "needed)"),
    {.kind = LS_OPT_END},
};

const ls_cmd_opts_t opts_topo = {
    .head = "usage: linkscope topo [--from FILE] [--p2p-read FILE] [--p2p-write FILE]\n"
            "                      [--json | --csv] [-o FILE] [--color WHEN]\n"
            "                      [--sysfs-root DIR]\n"
            "\n"
            "The link type between every pair of GPUs and NICs in the words of nvidia-smi\n"
            "topo -m (X, NV#, PIX, PXB, PHB, NODE, SYS) with CPU and NUMA affinity, then the\n"
            "P2P read and write status matrices (OK, CNS, GNS, TNS, NS, U). GPUs are numbered\n"
            "in PCI bus order.\n"
            "\n",
    .opts = options,
    .tail = "\n"
            "Exit codes: 0 ok, 2 usage error or unreadable or malformed input, 3 no GPU or\n"
            "driver. See docs/topology.md.\n",
    .column = 20,
    .args_size = sizeof(topo_opts_t),
};

static int parse_args(int argc, char **argv, topo_opts_t *o)
{
    memset(o, 0, sizeof *o);
    if (ls_opt_parse("topo", &opts_topo, argc, argv, o, NULL, NULL))
        return LS_EXIT_USAGE;
    int rc = check_options(o);
    return rc;
}

/* ---- input ------------------------------------------------------------------------ */

static int load_from_files(const topo_opts_t *o, ls_topo_t *topo, json_t **doc)
{
    char err[700];
    *doc = ls_topo_load_files(o->from, o->p2p_read, o->p2p_write, topo, err, sizeof err);
    if (!*doc) {
        ls_error("%s", err);
        return LS_EXIT_USAGE;
    }
    return 0;
}

/* Discovery runs quietly; its warnings are in software.warnings and are shown after,
   so that "no GPU" stays one line. */
static int discover_topo(const topo_opts_t *o, ls_topo_t *topo, json_t **doc)
{
    /* A copied or fake tree describes another machine: this one's NVML and CUDA GPUs
       would not match it (inventory --sysfs-root does the same). */
    int live = o->sysfs_root == NULL;
    ls_discover_opts_t dopts = {o->sysfs_root, live, live};
    *doc = ls_doc_new();
    ls_log_quiet(1);
    int ngpus = ls_discover(*doc, &dopts);
    ls_log_quiet(0);
    json_t *warnings = json_object_get(json_object_get(*doc, "software"), "warnings");
    if (ngpus <= 0 || ls_topo_from_doc(*doc, topo) != 0) {
        const char *why = json_string_value(json_array_get(warnings, 0));
        ls_error("topo: no NVIDIA GPU or driver found%s%s%s; use --from FILE to read saved "
                 "nvidia-smi topo -m output",
                 why ? " (" : "", why ? why : "", why ? ")" : "");
        return LS_EXIT_NOGPU;
    }
    size_t i;
    json_t *w;
    json_array_foreach(warnings, i, w)
        ls_warn("%s", json_string_value(w));
    return 0;
}

/* ---- output ----------------------------------------------------------------------- */

static int use_color(const topo_opts_t *o)
{
    if (o->color && strcmp(o->color, "auto") != 0)
        return strcmp(o->color, "always") == 0;
    const char *term = getenv("TERM");
    int to_stdout = !o->output || strcmp(o->output, "-") == 0;
    return to_stdout && isatty(STDOUT_FILENO) && !getenv("NO_COLOR") &&
           !(term && strcmp(term, "dumb") == 0);
}

static int emit_text(const topo_opts_t *o, const ls_topo_t *topo, const char *path)
{
    char *buf = NULL, err[512];
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem) {
        ls_error("out of memory");
        return LS_EXIT_USAGE;
    }
    if (o->csv)
        ls_topo_render_csv(mem, topo);
    else
        ls_topo_render_text(mem, topo, use_color(o));
    fclose(mem);
    int rc = ls_write_file_atomic(path, buf, len, err, sizeof err);
    free(buf);
    if (rc != 0)
        ls_error("%s", err);
    return rc != 0 ? LS_EXIT_USAGE : 0;
}

static int emit(const topo_opts_t *o, const ls_topo_t *topo, const json_t *doc)
{
    const char *path = o->output ? o->output : "-";
    if (!o->json)
        return emit_text(o, topo, path);
    char err[512];
    if (ls_doc_write(doc, path, err, sizeof err) != 0) {
        ls_error("%s", err);
        return LS_EXIT_USAGE;
    }
    return 0;
}

int cmd_topo(int argc, char **argv)
{
    topo_opts_t o;
    int rc = parse_args(argc, argv, &o);
    if (rc != 0)
        return rc;
    ls_topo_t *topo = calloc(1, sizeof *topo);
    json_t *doc = NULL;
    if (!topo) {
        ls_error("out of memory");
        return LS_EXIT_USAGE;
    }
    rc = o.from ? load_from_files(&o, topo, &doc) : discover_topo(&o, topo, &doc);
    if (rc == 0)
        rc = emit(&o, topo, doc);
    json_decref(doc);
    free(topo);
    return rc;
}
