/* The driver's NVLink bring-up failure lines (nvlink_fail.h). The messages, as the
   open-gpu-kernel-modules source prints them (NV_PRINTF at LEVEL_ERROR: "NVRM: function:
   text"; the NVLink core library's NVLINK_PRINT at its error level: "nvidia-nvlink:
   function: text", kernel-open/nvidia/nvlink_linux.c):
     knvlinkDiscoverPostRxDetLinks_GH100/_GB100: "Getting peer%d's postRxDetLinkMask
       failed!"              (arch/hopper/kernel_nvlink_gh100.c: a peer's links past
                              receiver detect could not be read; discovery stops)
     knvlinkUpdatePostRxDetectLinkMask_IMPL: "Failed to update Rx Detect Link mask!"
     "Failed to execute Pre Link Training ALI steps!"   (kernel_nvlink.c)
     "Failed to change ALI Links to active!"            (kernel_nvlink.c)
     "Failed to update Link connection status!"         (kernel_nvlink.c)
     "%s: Unable to set link state to ACTIVE for link %s:%s"   (core/nvlink_training.c)
     "%s: Unable to set sublink state to HIGH SPEED for link %s:%s"
     "%s: Connection did not transition to INIT."
   Lines about NVLink disabled by configuration ("Input mask contains a GPU on which
   NVLink is disabled.", "NVLink MINION is not supported on this platform, disabling.",
   "MIG NVLink P2P is not supported.") are not failures and match nothing here. */
#include "nvlink_fail.h"
#include "busid.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *says, *what;
} messages[] = {
    {.says = "postRxDetLinkMask failed",
     .what = "NVLink discovery: a peer's link mask past receiver detect could not be read"},
    {.says = "Failed to update Rx Detect Link mask",
     .what = "NVLink discovery: the receiver detect link mask could not be updated"},
    {.says = "Failed to execute Pre Link Training ALI steps",
     .what = "NVLink training: the steps before link training failed"},
    {.says = "Failed to change ALI Links to active",
     .what = "NVLink training: links could not be trained to active"},
    {.says = "Failed to update Link connection status",
     .what = "NVLink discovery: the links' connection status could not be read"},
    {.says = "Unable to set link state to ACTIVE for link",
     .what = "NVLink training: a link could not be set active"},
    {.says = "Unable to set sublink state to HIGH SPEED for link",
     .what = "NVLink training: a sublink could not be trained to high speed"},
    {.says = "Connection did not transition to INIT",
     .what = "NVLink training: a connection did not come up to INIT"},
};

const char *ls_nvlink_fail_says(const char *body)
{
    for (size_t i = 0; i < sizeof messages / sizeof *messages; i++)
        if (strstr(body, messages[i].says))
            return messages[i].what;
    return NULL;
}

int ls_nvlink_fail_peer(const char *body)
{
    const char *p = strstr(body, "Getting peer");
    if (!p || !isdigit((unsigned char)p[12]))
        return -1;
    return (int)strtol(p + 12, NULL, 10);
}

enum ls_action ls_nvlink_fail_action(void)
{
    return LS_ACT_REBOOT;
}

/* The text after the line's "NVRM: " or "nvidia-nvlink: ", or NULL. */
static const char *body_of(const char *line)
{
    static const char *const tags[] = {"NVRM: ", "nvidia-nvlink: "};
    for (size_t i = 0; i < sizeof tags / sizeof *tags; i++) {
        const char *p = strstr(line, tags[i]);
        if (p)
            return p + strlen(tags[i]);
    }
    return NULL;
}

int ls_nvlink_fail_bus(const char *body, char *out, size_t len)
{
    for (const char *p = body; *p; p++) {
        if (!isxdigit((unsigned char)*p) || (p > body && isxdigit((unsigned char)p[-1])))
            continue;
        char tok[32];
        size_t n = strspn(p, "0123456789abcdefABCDEF:.");
        snprintf(tok, sizeof tok, "%.*s", (int)(n < 31 ? n : 31), p);
        size_t tl = strlen(tok);
        while (tl && strchr(":.", tok[tl - 1]))
            tok[--tl] = '\0';
        if (strchr(tok, ':') && ls_busid_normalize(tok, out, len) == 0)
            return 0;
    }
    return -1;
}

void ls_nvlink_fail_scan(const char *log, json_t *events)
{
    for (const char *p = log; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)(len < 1023 ? len : 1023), p);
        const char *body = body_of(line), *what = body ? ls_nvlink_fail_says(body) : NULL;
        if (what) {
            json_t *r = json_pack("{s:s, s:s}", "what", what, "text", body);
            char bus[32];
            if (r && ls_nvlink_fail_bus(body, bus, sizeof bus) == 0)
                json_object_set_new(r, "bus_id", json_string(bus));
            if (r && ls_nvlink_fail_peer(body) >= 0)
                json_object_set_new(r, "peer", json_integer(ls_nvlink_fail_peer(body)));
            if (r)
                json_array_append_new(events, r);
        }
        p = nl ? nl + 1 : NULL;
    }
}
