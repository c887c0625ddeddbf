/* linkscope nccl: NCCL collectives swept nccl-tests' way, with validation, the
   transports NCCL used, settings variants and MPI. docs/nccl.md. */
#include "commands.h"
#include "nccl_nodes.h"
#include "nccl_ports.h"
#include "nccl_args.h"
#include "options.h"
#include "discover/discover.h"
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

const char usage_nccl[] =
    "usage: linkscope nccl COLLECTIVE|all [nccl-tests flags] [--gpus 0,1]\n"
    "                      [--variant K=V]...\n"
    "                      [-o FILE] [--into FILE] [--timeout S] [--json]\n"
    "\n"
    "Sweeps an NCCL collective over sizes, nccl-tests' way, checks every result on\n"
    "the GPU, and records the transport NCCL used on each ring edge (from its own\n"
    "debug log, captured privately).\n"
    "\n"
    "COLLECTIVE: all_reduce, all_gather, reduce_scatter, alltoall, broadcast, reduce,\n"
    "            sendrecv; all = the first four.\n"
    "\n"
    "nccl-tests flags (same meaning and defaults):\n"
    "  -b, --minbytes SIZE     smallest size (default 32M; K, M, G = 1024 multiples)\n"
    "  -e, --maxbytes SIZE     largest size (default 32M)\n"
    "  -f, --stepfactor F      multiply the size by F (default 1 = use -i)\n"
    "  -i, --stepbytes SIZE    add SIZE when -f is 1 (default 1M)\n"
    "  -n, --iters N           timed iterations per size (default 20)\n"
    "  -w, --warmup_iters N    warmup iterations per size (default 1)\n"
    "  -c, --check 0|1         check results on the device (#wrong; default 1)\n"
    "  -d, --datatype TYPE     int8 uint8 int32 uint32 int64 uint64 half float double\n"
    "                          bfloat16 (default float)\n"
    "  -o, --op OP             sum prod max min avg (default sum); -o with any other\n"
    "                          word is the output file (see below)\n"
    "  -r, --root N            root rank of broadcast and reduce (default 0)\n"
    "  -z, --blocking 0|1      wait for each collective inside the timed loop\n"
    "                          (default 0)\n"
    "  -G, --cudagraph N       capture the iterations in a CUDA graph, launch it N\n"
    "                          times\n"
    "  -g, --ngpus N           use GPUs 0..N-1 (default: every visible GPU)\n"
    "  -t, --nthreads 1        one thread drives all GPUs with group calls (only 1)\n"
    "\n"
    "linkscope options:\n"
    "  --gpus LIST             GPUs to use, e.g. 0,1,4 (PCI bus order, as nvidia-smi)\n"
    "  --in-place 0|1|2        0 out-of-place only, 1 in-place only, 2 both (default)\n"
    "  --launch group|threads  group: one thread launches for every GPU in group\n"
    "                          calls (nccl-tests' -t 1, default); threads: one thread\n"
    "                          per GPU\n"
    "  --variant K=V           also run with the environment variable K=V, each\n"
    "                          setting in its own process; shown beside the default\n"
    "                          with ratios\n"
    "  --each-hca              a variant per active RDMA port (NCCL_IB_HCA==mlx5_N:P)\n"
    "                          and one with all of them; busbw per port beside the\n"
    "                          port's line rate, with findings (docs/nccl.md)\n"
    "  -o, --output FILE       write a new run document (- = stdout)\n"
    "  --into FILE             add the entries to an existing run document\n"
    "  --timeout S             watchdog: abort a collective not done in S s (default\n"
    "                          60)\n"
    "  --json                  print the run document on stdout instead of the tables\n"
    "  --mpi-selftest          under mpirun: check MPI broadcast and gather, no GPU\n"
    "\n"
    "Under MPI (mpirun -np N linkscope nccl ...): one rank per GPU, the node-local\n"
    "rank picks the GPU (--gpus maps local ranks to GPUs), rank 0 prints and writes.\n"
    "Exit: 0 ok; 1 a result was wrong or a collective timed out or failed; 2 usage;\n"
    "3 no NCCL or no GPU (the document, when asked for, is still written and valid).\n";

/* nccl-tests' tables on stdout (render's), unless stdout carries the document instead
   (--json, -o -, or a child). */
static const ls_nccl_show_t *tables(const opts_t *o)
{
    static ls_nccl_show_t show = {NULL, ls_nccl_print_table, ls_nccl_print_variants};
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

static json_t *open_document(const opts_t *o, json_t *env, int discover)
{
    char err[512];
    json_t *doc;
    if (o->into) {
        doc = ls_doc_into_open(o->into, err, sizeof err);
        if (!doc) {
            ls_error("%s", err);
            return NULL;
        }
    } else {
        doc = ls_doc_new();
        if (discover) {
            /* Discovery's warnings stay in software.warnings: the one line about
               NCCL itself, if any, is what the user needs here. */
            ls_discover_opts_t d = {NULL, 1, 1};
            ls_log_quiet(1);
            ls_discover(doc, &d);
            ls_log_quiet(0);
        }
    }
    json_t *denv = json_object_get(doc, "env");
    json_object_update_missing(denv, env);
    return doc;
}


static int write_outputs(const opts_t *o, json_t *doc)
{
    char err[512];
    const char *path = o->child_out ? o->child_out : o->into ? o->into : o->output;
    if (o->json && !path)
        path = "-";
    if (path && ls_doc_into_write(doc, path, err, sizeof err) != 0) {
        ls_error("%s", err);
        return LS_EXIT_USAGE;
    }
    return 0;
}

static int run_variants(const opts_t *o, json_t *doc)
{
    ls_nccl_variants_t v = {o->colls, o->ncolls, o->raw, o->nraw, o->variants, o->nvariants,
                            o->sweep.timeout_s};
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
    /* the outputs before any work: a sweep lasts minutes */
    if (ls_check_writable("nccl", "-o", o.output, 0) || ls_check_writable("nccl", "--into", o.into, 0) ||
        ls_check_writable("nccl", "--child-out", o.child_out, 0))
        return LS_EXIT_USAGE;
    json_t *env = ls_nccl_env_snapshot();
    json_t *nodes = NULL;
    int mpi = ls_mpi_launched() && !o.child_out;
    char err[600];
    if (mpi) {
        if (o.nvariants) {
            json_decref(env);
            return bad("--variant cannot run under MPI (each setting needs its own mpirun)%s%s", "", "");
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
        rc = o.nvariants ? run_variants(&o, doc)
                         : ls_nccl_run_collectives(&o.sweep, o.colls, o.ncolls, doc, writer,
                                                   tables(&o));
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
