/* The node action of NVLink error counters (model/nvlink_errors.h). */
#include "nvlink_errors.h"

enum ls_action ls_nvlink_errors_action(double replay, double recovery)
{
    return replay > 0 || recovery > 0 ? LS_ACT_ISOLATE : LS_ACT_NONE;
}

enum ls_action ls_nvlink_count_action(long long replay, long long recovery)
{
    return replay > 0 || recovery > 0 ? LS_ACT_WATCH : LS_ACT_NONE;
}

int ls_nvlink_counter_saturated(long long count)
{
    return count == 0xffffLL || count == 0xffffffffLL; /* a 16- or 32-bit counter's ceiling */
}
