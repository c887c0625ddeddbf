#include "gpuset.h"

#include <stdio.h>

uint64_t ls_gpu_mask_of(const json_t *gpus)
{
    uint64_t mask = 0;
    size_t i;
    const json_t *v;
    json_array_foreach(gpus, i, v) {
        if (json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) < 64)
            mask |= 1ULL << json_integer_value(v);
    }
    return mask;
}

void ls_format_gpu_mask(uint64_t mask, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int g = 0; g < 64 && used < len; g++) {
        if (!(mask >> g & 1))
            continue;
        int end = g;
        while (end + 1 < 64 && (mask >> (end + 1) & 1))
            end++;
        int w;
        if (end >= g + 2)
            w = snprintf(buf + used, len - used, "%s%d-%d", used ? "," : "", g, end);
        else if (end == g + 1)
            w = snprintf(buf + used, len - used, "%s%d,%d", used ? "," : "", g, end);
        else
            w = snprintf(buf + used, len - used, "%s%d", used ? "," : "", g);
        used += w > 0 ? (size_t)w : 0;
        g = end;
    }
}
