/* linkscope nccl: NCCL collectives swept nccl-tests' way, with validation, the
   transports NCCL used, settings variants and MPI. docs/nccl.md. */
#include "commands.h"
#include "nccl_nodes.h"
#include "nccl_ports.h"
#include "nccl_args.h"
#include "options.h"
#include "measure/gpu.h"
#include "model/doc.h"
#include "model/nic_view.h"
#include "nccl/mpirt.h"
#include "nccl/sweep.h"
#include "nccl/annotate.h"
#include "nccl/variants.h"
#include "render/nccl_tables.h"
#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* nccl-tests' tables on stdout (render's), unless stdout carries the document instead
   (--json, -o -, or a child). */
static const ls_nccl_show_t *tables(const opts_t *o)
{
    static ls_nccl_show_t show = {.table = ls_nccl_print_table, .variants = ls_nccl_print_variants};
    show.out = stdout;
    int off = o->json || o->child_out || (o->output && strcmp(o->output, "-") == 0) ||
              (o->into && strcmp(o->into, "-") == 0);
    return off ? NULL : &show;
}

static int bad(const char *fmt, const char *a, const char *b)
{
    char line[512];
    snprintf(line, sizeof line, fmt, a, b);
    return ls_usage_error("nccl", "%s", line);
}

/* Discovery's warnings stay in software.warnings: the one line about NCCL itself, if
   any, is what the user needs here. */
static json_t *discovered_quietly(void)
{
    ls_log_quiet(1);
    json_t *doc = ls_doc_new_discovered();
    ls_log_quiet(0);
    return doc;
}

/* --into's document, or a new one (discovered, but in a variant's child). */
static json_t *open_document(const opts_t *o, json_t *env, int discover)
{
    json_t *doc = ls_doc_target_open("nccl", o->into, discover ? discovered_quietly : NULL);
    if (doc)
        json_object_update_missing(json_object_get(doc, "env"), env);
    return doc;
}

/* A child's document to its file; -o, or back to --into; --json alone: stdout. */
static int write_outputs(const opts_t *o, json_t *doc)
{
    return ls_doc_target_write(doc, o->child_out ? o->child_out : o->output, o->into,
                               o->json ? "-" : NULL);
}

static int run_variants(const opts_t *o, json_t *doc)
{
    ls_nccl_variants_t v = {o->colls,     o->ncolls,         o->raw, o->nraw, o->variants,
                            o->nvariants, o->sweep.timeout_s};
    int rc = ls_nccl_run_variants(&v, doc, tables(o));
    if (o->hca_plan && tables(o))
        ls_each_hca_print(stdout, doc);
    return rc;
}

int cmd_nccl(int argc, char **argv)
{
    opts_t o;
    memset(&o, 0, sizeof o);
    int rc = ls_nccl_parse_args(argc, argv, &o);
    if (rc)
        return rc;
    if (o.selftest)
        return ls_nccl_mpi_selftest();
    /* the outputs before any work, a sweep lasts minutes: -o by the dispatcher (and -o
       with --into refused there), --into here, at every rank (rank 0 alone opens it) */
    if (ls_check_writable("nccl", "--into", o.into, 0) ||
        ls_check_writable("nccl", "--child-out", o.child_out, 0))
        return LS_EXIT_USAGE;
    json_t *env = ls_nccl_env_snapshot();
    json_t *nodes = NULL;
    int mpi = ls_mpi_launched() && !o.child_out;
    char err[600];
    if (mpi) {
        if (o.nvariants) {
            json_decref(env);
            return bad("--variant cannot run under MPI (each setting needs its own mpirun)%s%s", "",
                       "");
        }
        if (o.ngpus_flag > 1) { /* parse_args has turned -g into a GPU list by now */
            json_decref(env);
            return bad("under MPI each rank drives one GPU: -g must be 1%s%s", "", "");
        }
        if (ls_mpi_init(err, sizeof err) != 0) {
            json_decref(env);
            ls_error("%s", err);
            return LS_EXIT_NOGPU;
        }
        o.sweep.mpi = 1;
        nodes = ls_nodes_gather(); /* every node's inventory, to rank 0 */
    }
    int writer = ls_nccl_is_writer();
    json_t *doc = writer ? open_document(&o, env, !o.child_out) : json_object();
    json_decref(env);
    if (!doc)
        return LS_EXIT_USAGE;
    char version[32] = "";
    if (!o.nvariants && ls_nccl_probe(version, sizeof version, err, sizeof err) != 0) {
        ls_error("nccl: %s", err); /* the one line: what is missing and how to install it */
        for (int c = 0; c < o.ncolls; c++)
            ls_nccl_add_entry(doc, ls_nccl_skipped_entry(o.colls[c], NULL, err));
        rc = LS_EXIT_NOGPU;
    } else if (!o.nvariants && ls_gpu_count(err, sizeof err) <= 0) {
        ls_error("nccl: %s", err);
        for (int c = 0; c < o.ncolls; c++)
            ls_nccl_add_entry(doc, ls_nccl_skipped_entry(o.colls[c], NULL, err));
        rc = LS_EXIT_NOGPU;
    } else {
        if (version[0])
            json_object_set_new(json_object_get(doc, "software"), "nccl", json_string(version));
        rc = o.nvariants
                 ? run_variants(&o, doc)
                 : ls_nccl_run_collectives(&o.sweep, o.colls, o.ncolls, doc, writer, tables(&o));
    }
    if (writer) {
        ls_nodes_annotate(doc, nodes);
        ls_nics_from_nccl(doc); /* what NCCL said of each NIC it used */
    }
    json_decref(nodes);
    if (writer && (o.output || o.into || o.json || o.child_out)) {
        int wrc = write_outputs(&o, doc);
        if (wrc)
            rc = wrc;
    }
    json_decref(doc);
    if (mpi)
        ls_mpi_finalize();
    return rc;
}
