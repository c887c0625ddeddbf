#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int ls_parse_size(const char *text, uint64_t *bytes)
{
    if (!text || !*text || *text == '-' || isspace((unsigned char)*text))
        return -1;
    errno = 0;
    char *end;
    double value = strtod(text, &end);
    if (end == text || errno || !isfinite(value) || value < 0)
        return -1;
    double mult = 1;
    if (*end) {
        switch (toupper((unsigned char)*end)) {
        case 'B': mult = 1; break;
        case 'K': mult = 1024.0; break;
        case 'M': mult = 1024.0 * 1024; break;
        case 'G': mult = 1024.0 * 1024 * 1024; break;
        case 'T': mult = 1024.0 * 1024 * 1024 * 1024; break;
        default: return -1;
        }
        if (toupper((unsigned char)*end) != 'B') {
            end++;
            if (strcasecmp(end, "iB") == 0 || strcasecmp(end, "B") == 0)
                end += strlen(end);
        } else {
            end++;
        }
        if (*end)
            return -1;
    }
    double total = value * mult;
    if (total >= 18446744073709551616.0 || total != floor(total))
        return -1;
    *bytes = (uint64_t)total;
    return 0;
}

int ls_parse_long(const char *text, long min, long max, long *value)
{
    if (!text || !*text || isspace((unsigned char)*text))
        return -1;
    errno = 0;
    char *end;
    long v = strtol(text, &end, 10);
    if (*end || errno || v < min || v > max)
        return -1;
    *value = v;
    return 0;
}

int ls_parse_double(const char *text, double *value)
{
    if (!text || !*text || isspace((unsigned char)*text))
        return -1;
    errno = 0;
    char *end;
    double v = strtod(text, &end);
    if (*end || errno || !isfinite(v))
        return -1;
    *value = v;
    return 0;
}

static int add_index(int *out, int count, int max, long v)
{
    for (int i = 0; i < count; i++)
        if (out[i] == v)
            return count; /* duplicates are ignored */
    if (count >= max)
        return -1;
    out[count] = (int)v;
    return count + 1;
}

int ls_parse_index_list(const char *text, int *out, int max)
{
    if (!text || !*text)
        return -1;
    int count = 0;
    const char *p = text;
    while (*p) {
        if (!isdigit((unsigned char)*p))
            return -1;
        char *end;
        long lo = strtol(p, &end, 10), hi = lo;
        if (*end == '-') {
            p = end + 1;
            if (!isdigit((unsigned char)*p))
                return -1;
            hi = strtol(p, &end, 10);
        }
        if (hi < lo || hi > 4096)
            return -1;
        for (long v = lo; v <= hi; v++) {
            count = add_index(out, count, max, v);
            if (count < 0)
                return -1;
        }
        if (*end == ',') {
            end++;
            if (!*end)
                return -1;
        } else if (*end) {
            return -1;
        }
        p = end;
    }
    return count;
}

void ls_format_size(uint64_t bytes, char *buf, size_t buflen)
{
    static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        u++;
    }
    /* 1048575 B is 1023.999 KiB: one decimal would print "1024.0 KiB"; say "1.0 MiB". */
    if (u < 4 && v != floor(v) && round(v * 10) >= 1024 * 10) {
        v /= 1024;
        u++;
    }
    if (v == floor(v))
        snprintf(buf, buflen, "%.0f %s", v, units[u]);
    else
        snprintf(buf, buflen, "%.1f %s", v, units[u]);
}
