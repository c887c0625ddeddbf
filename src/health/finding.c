/* One health finding (health.h: ls_health_add). */
#include "health.h"

#include <stdarg.h>
#include <stdio.h>

void ls_health_add(json_t *out, const char *rule, int gpu, enum ls_action a, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    json_t *f = json_pack("{s:s, s:s, s:s}", "rule", rule, "message", msg, "action",
                          ls_action_name(a));
    if (gpu >= 0)
        json_object_set_new(f, "gpu", json_integer(gpu));
    json_array_append_new(out, f);
}
