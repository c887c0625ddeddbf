/* Placeholder until the topo text parser lands. */
#include "topo_text.h"
#include "util/log.h"

int ls_topo_parse_text(const char *text, ls_topo_t *topo, char *err, size_t errlen)
{
    (void)text;
    (void)topo;
    return ls_seterr(err, errlen, "topo text parser not built yet");
}

int ls_topo_parse_p2p_text(const char *text, int write, ls_topo_t *topo, char *err, size_t errlen)
{
    (void)text;
    (void)write;
    (void)topo;
    return ls_seterr(err, errlen, "topo text parser not built yet");
}

int ls_topo_text_detect(const char *text) { (void)text; return 0; }
