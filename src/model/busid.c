#include "busid.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int hex_field(const char **p, int max_digits, unsigned *out)
{
    int n = 0;
    unsigned v = 0;
    while (isxdigit((unsigned char)**p) && n < max_digits) {
        char c = (char)tolower((unsigned char)**p);
        v = v * 16 + (unsigned)(isdigit((unsigned char)c) ? c - '0' : c - 'a' + 10);
        (*p)++;
        n++;
    }
    if (n == 0 || isxdigit((unsigned char)**p))
        return -1;
    *out = v;
    return n;
}

int ls_busid_parse(const char *text, ls_busid_t *id)
{
    const char *p = text;
    while (isspace((unsigned char)*p))
        p++;
    unsigned a, b, dev, fn;
    int na = hex_field(&p, 8, &a);
    if (na < 0 || *p++ != ':')
        return -1;
    if (hex_field(&p, 2, &b) < 0)
        return -1;
    if (*p == ':') { /* domain:bus:dev.fn */
        p++;
        if (hex_field(&p, 2, &dev) < 0)
            return -1;
        id->domain = a;
        id->bus = b;
    } else { /* bus:dev.fn */
        if (na > 2)
            return -1;
        id->domain = 0;
        id->bus = a;
        dev = b;
    }
    if (*p == '.') {
        p++;
        if (hex_field(&p, 1, &fn) < 0)
            return -1;
    } else if (na > 2 && (*p == '\0' || isspace((unsigned char)*p))) {
        fn = 0; /* "0000:07:00": nccl-tests and nvbandwidth leave the function out */
    } else {
        return -1;
    }
    while (isspace((unsigned char)*p))
        p++;
    if (*p || dev > 31 || fn > 7 || id->bus > 255)
        return -1;
    id->device = dev;
    id->function = fn;
    return 0;
}

void ls_busid_format(const ls_busid_t *id, char *buf, size_t buflen)
{
    snprintf(buf, buflen, "%08x:%02x:%02x.%x", id->domain, id->bus, id->device, id->function);
}

void ls_busid_format_sysfs(const ls_busid_t *id, char *buf, size_t buflen)
{
    snprintf(buf, buflen, "%04x:%02x:%02x.%x", id->domain, id->bus, id->device, id->function);
}

int ls_busid_normalize(const char *text, char *buf, size_t buflen)
{
    ls_busid_t id;
    if (ls_busid_parse(text, &id) != 0)
        return -1;
    ls_busid_format(&id, buf, buflen);
    return 0;
}

int ls_busid_equal(const char *a, const char *b)
{
    ls_busid_t x, y;
    if (ls_busid_parse(a, &x) != 0 || ls_busid_parse(b, &y) != 0)
        return 0;
    return x.domain == y.domain && x.bus == y.bus && x.device == y.device &&
           x.function == y.function;
}
