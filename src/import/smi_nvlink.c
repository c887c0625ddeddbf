/* nvidia-smi nvlink -s / -e:

     GPU 0: NVIDIA H200 (UUID: GPU-...)
         Link 0: 26.562 GB/s            (-s: the link's speed, one direction)
         Link 3: <inactive>
         Link 0: Replay Errors: 0       (-e: counters since the driver loaded)
         Link 0: Recovery Errors: 0
         Link 0: CRC Errors: 0

   A GPU whose links NVML cannot read prints, under its GPU line, "NVML: Unable to
   retrieve NVLink information as all links are inActive" (the capitals vary between
   drivers). A pasted excerpt may elide GPUs or links with "..." lines: the GPUs shown
   are kept and the elision is noted. Link lines pasted without their GPU line (a
   `-i N` query cut to its links) are read as one GPU, the -i N when the command is in
   the paste, else GPU0, and the missing line is noted. Other "Link N, ..." lines
   (nvlink -c capabilities) are skipped. Azure's health checks' message quoting nvlink -s
   of one GPU ("GPU 0 has nvlinks inactive: Link 4: Inactive ...", nhc_line) is read too:
   that GPU's inactive links, its name and its active links unknown. */
#include "smi_text.h"
#include "import_note.h"
#include "import_util.h"
#include "model/doc.h"
#include "util/log.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *skip_blanks(const char *t)
{
    while (*t == ' ' || *t == '\t')
        t++;
    return t;
}

/* 1 when the number after word (past sscanf's blanks and a sign) has at most 5 digits, so
   a %d reads it whole: sscanf's overflow is undefined ("GPU 4294967297" read as GPU 1 on
   glibc), and no GPU index or link number has more. */
static int fits(const char *s, const char *word)
{
    s += strlen(word);
    s += strspn(s, " \t");
    s += strspn(s, "+-");
    return strspn(s, "0123456789") <= 5;
}

/* "GPU 0: NVIDIA H200 (UUID: GPU-...)": index, name, uuid. */
static int gpu_line(const char *t, int *index, char *name, size_t namelen, char *uuid,
                    size_t uuidlen)
{
    int used = 0;
    if (!fits(t, "GPU") || sscanf(t, "GPU %d:%n", index, &used) != 1 || used == 0 || *index < 0)
        return 0;
    const char *rest = skip_blanks(t + used);
    const char *paren = strstr(rest, " (UUID:");
    size_t n = paren ? (size_t)(paren - rest) : strlen(rest);
    while (n && rest[n - 1] == ' ')
        n--;
    snprintf(name, namelen, "%.*s", (int)n, rest);
    uuid[0] = '\0';
    if (paren)
        sscanf(paren, " (UUID: %63[^) ]", uuid);
    (void)uuidlen;
    return 1;
}

/* NVML's "... as all links are inActive" (any capitals). */
static int all_inactive_line(const char *t)
{
    static const char needle[] = "all links are inactive";
    for (; *t; t++) {
        size_t i = 0;
        while (needle[i] && tolower((unsigned char)t[i]) == needle[i])
            i++;
        if (!needle[i])
            return 1;
    }
    return 0;
}

/* nvlink -s's own "Link 3: 26.562 GB/s" or "Link 3: <inactive>" (not another tool's
   rewording of it). */
static int status_line(const char *t)
{
    int link, used = 0;
    if (!fits(t, "Link") || sscanf(t, "Link %d:%n", &link, &used) != 1 || used == 0)
        return 0;
    const char *rest = skip_blanks(t + used);
    double gbps;
    return strncmp(rest, "<inactive>", 10) == 0 ||
           (sscanf(rest, "%lf GB/s", &gbps) == 1 && strstr(rest, "GB/s"));
}

static json_t *nvlink_of(json_t *gpu, int link);

/* Azure's node health checks (azurehpc-health-checks, check_nvlink_status) quote nvlink -s
   of one GPU (nvidia-smi nvlink -s -i N) as "GPU N has nvlinks inactive: Link 4: Inactive"
   (every "<inactive>" line of the GPU rewritten, the next ones on lines of their own, then
   ". FaultCode: NHC2016" in some versions) or "GPU N has all nvlinks inactive" (NVML's all
   inactive line). The GPU's index, 1 when the line is one; *all for the second form. Only
   the inactive links are in it: its active links and its name are not. */
static int nhc_line(const char *t, int *index, int *all)
{
    for (const char *g = strstr(t, "GPU "); g; g = strstr(g + 4, "GPU ")) {
        int used = 0;
        if (!fits(g, "GPU") || sscanf(g, "GPU %d has %n", index, &used) != 1 || used == 0 ||
            *index < 0)
            continue;
        *all = !strncmp(g + used, "all nvlinks inactive", 20);
        if (*all || !strncmp(g + used, "nvlinks inactive:", 17))
            return 1;
    }
    return 0;
}

/* The "Link N: Inactive" of an NHC message's line on gpu: how many. */
static int nhc_links(json_t *gpu, const char *t)
{
    int n = 0, link, used;
    for (const char *l = strstr(t, "Link "); l; l = strstr(l + 5, "Link ")) {
        used = 0;
        if (fits(l, "Link") && sscanf(l, "Link %d: Inactive%n", &link, &used) == 1 && used > 0 &&
            link >= 0) {
            json_object_set_new(nvlink_of(gpu, link), "active", json_false());
            n++;
        }
    }
    return n;
}

int ls_smi_nvlink_detect(const char *text)
{
    const char *p = text;
    ls_line_t line;
    int gpu = 0, status = 0;
    while (ls_next_line(&p, &line)) {
        const char *t = skip_blanks(line.buf);
        int index;
        char name[128], uuid[64];
        int all;
        if (nhc_line(t, &index, &all))
            return 1;
        if (gpu_line(t, &index, name, sizeof name, uuid, sizeof uuid))
            gpu = 1;
        else if (gpu && ((strncmp(t, "Link ", 5) == 0 && strchr(t, ':')) || all_inactive_line(t)))
            return 1;
        else
            status += status_line(t);
    }
    return status >= 2; /* links of a GPU whose line is not in the paste */
}

/* The link object of gpu (created in order of link number). */
static json_t *nvlink_of(json_t *gpu, int link)
{
    return ls_json_find_or_add(ls_json_array_at(gpu, "nvlinks"), json_pack("{s:i}", "link", link),
                               "link", NULL);
}

static void error_counter(json_t *l, const char *what, long long count)
{
    static const char *const names[][2] = {{"Replay Errors", "replay"},
                                           {"Recovery Errors", "recovery"},
                                           {"CRC Errors", "crc"},
                                           {"CRC Data Errors", "crc_data"},
                                           {"CRC Flit Errors", "crc_flit"}};
    json_t *errors = ls_json_object_at(l, "errors");
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (strcmp(what, names[k][0]) == 0)
            json_object_set_new(errors, names[k][1], json_integer(count));
}

/* "Link 3: 26.562 GB/s", "Link 3: <inactive>", "Link 0: Replay Errors: 0". */
static void link_line(json_t *gpu, const char *t)
{
    int link, used = 0;
    if (!gpu || !fits(t, "Link") || sscanf(t, "Link %d:%n", &link, &used) != 1 || used == 0)
        return;
    const char *rest = skip_blanks(t + used);
    double gbps;
    char what[48];
    long long count;
    if (strncmp(rest, "<inactive>", 10) == 0) {
        json_object_set_new(nvlink_of(gpu, link), "active", json_false());
    } else if (sscanf(rest, "%lf GB/s", &gbps) == 1 && strstr(rest, "GB/s")) {
        json_t *l = nvlink_of(gpu, link);
        json_object_set_new(l, "active", json_true());
        json_object_set_new(l, "gbps", json_real(gbps));
    } else if (sscanf(rest, "%47[^:]: %lld", what, &count) == 2) {
        error_counter(nvlink_of(gpu, link), what, count);
    }
}

/* Active links x their speed, one direction (docs/schema.md), where every link of the
   GPU was shown with a speed. */
static void theoretical(json_t *gpu)
{
    double sum = 0;
    int speeds = 0;
    size_t i;
    json_t *l;
    json_array_foreach(json_object_get(gpu, "nvlinks"), i, l) {
        if (json_is_true(json_object_get(l, "active")))
            sum += ls_json_num(l, "gbps", 0);
        speeds += json_object_get(l, "active") != NULL;
    }
    if (speeds > 0 && sum > 0)
        json_object_set_new(gpu, "nvlink_theoretical_gbps", json_real(round(sum * 1000) / 1000));
}

/* Status lines with no GPU line above them: one GPU, the N of a pasted "-i N" or GPU0,
   its name unknown (noted). 0, or -1 when there are none. */
static int read_orphan_links(json_t *doc, const char *text)
{
    const char *i = strstr(text, " -i ");
    int index = i && atoi(i + 4) >= 0 ? atoi(i + 4) : 0;
    json_t *gpu = NULL;
    const char *p = text;
    ls_line_t line;
    while (ls_next_line(&p, &line)) {
        const char *t = skip_blanks(line.buf);
        if (!status_line(t))
            continue;
        if (!gpu)
            gpu = ls_import_gpu(doc, index);
        link_line(gpu, t);
    }
    if (!gpu)
        return -1;
    ls_import_note_missing("nvidia-smi nvlink 'Link N:' lines without their 'GPU N: NAME' line: "
                           "read as one "
                           "GPU (GPU%d), its name not in the paste",
                           index);
    return 0;
}

int ls_import_smi_nvlink(json_t *doc, const char *text, const char *name, char *err, size_t errlen)
{
    const char *p = text;
    ls_line_t line;
    json_t *gpu = NULL;
    int gpus = 0, elided = 0, elided_gpu = 0;
    json_t *nhc = NULL; /* the GPU of an NHC message whose links go on */
    while (ls_next_line(&p, &line)) {
        const char *t = skip_blanks(line.buf);
        int index, all;
        char gname[128], uuid[64];
        int quoted = nhc_line(t, &index, &all);
        if (!quoted && nhc && nhc_links(nhc, t))
            continue; /* the message's next "Link N: Inactive" lines */
        nhc = NULL;
        if (quoted) {
            nhc = ls_import_gpu(doc, index);
            gpus++;
            if (all) {
                json_object_set_new(nhc, "nvlinks", json_array());
                json_object_set_new(nhc, "nvlinks_all_inactive", json_true());
                nhc = NULL;
            } else
                nhc_links(nhc, t);
        } else if (gpu_line(t, &index, gname, sizeof gname, uuid, sizeof uuid)) {
            if (gpu && elided_gpu)
                json_object_set_new(gpu, "nvlinks_elided", json_true());
            gpu = ls_import_gpu(doc, index);
            ls_set_if_absent(gpu, "name", gname);
            if (strncmp(uuid, "GPU-", 4) == 0)
                ls_set_if_absent(gpu, "uuid", uuid);
            elided_gpu = 0;
            gpus++;
        } else if (gpu && all_inactive_line(t)) {
            /* "NVML: Unable to retrieve NVLink information as all links are inactive" */
            json_object_set_new(gpu, "nvlinks", json_array());
            json_object_set_new(gpu, "nvlinks_all_inactive", json_true());
        } else if (strncmp(t, "...", 3) == 0) {
            elided++;
            elided_gpu = gpu != NULL;
        } else {
            link_line(gpu, t);
        }
    }
    if (gpu && elided_gpu)
        json_object_set_new(gpu, "nvlinks_elided", json_true());
    if (gpus == 0 && read_orphan_links(doc, text) != 0)
        return ls_seterr(err, errlen, "%s: no 'GPU N: NAME' line with 'Link N:' lines under it",
                         name);
    json_t *g;
    size_t i;
    json_array_foreach(json_object_get(doc, "gpus"), i, g) {
        if (json_object_get(g, "nvlinks") && !json_object_get(g, "nvlinks_elided"))
            theoretical(g);
        json_object_del(g, "nvlinks_elided");
    }
    if (elided)
        ls_import_note_missing("%d part%s elided with '...'", elided, elided == 1 ? "" : "s");
    return 0; /* no measurement: the GPUs' links */
}
