#include "pathpat.h"

#include <string.h>
#include <unistd.h>

int ls_expand_node(const char *pattern, const char *host, char *out, size_t outlen)
{
    char name[256] = "";
    if (!host) {
        if (gethostname(name, sizeof name - 1) != 0)
            strcpy(name, "unknown-host");
        host = name;
    }
    size_t hostlen = strcspn(host, "."), n = 0;
    for (const char *p = pattern; *p; p++) {
        const char *add = p;
        size_t len = 1;
        if (p[0] == '%' && p[1] == 'N')
            add = host, len = hostlen, p++;
        else if (p[0] == '%' && p[1] == '%')
            p++;
        if (n + len >= outlen)
            return -1;
        memcpy(out + n, add, len);
        n += len;
    }
    if (n >= outlen)
        return -1;
    out[n] = '\0';
    return 0;
}
