/* nccl-tests' check of an entry's rows (table.h); the tables themselves are render's
   (render/nccl_tables.c), as nccl may not call render. */
#include "table.h"
#include "model/doc.h"

int ls_nccl_rows_verified(const json_t *rows)
{
    int checked = 0;
    size_t i;
    const json_t *row;
    json_array_foreach(rows, i, row) {
        const char *modes[] = {"oop", "ip"};
        for (int m = 0; m < 2; m++) {
            const json_t *w = json_object_get(json_object_get(row, modes[m]), "wrong");
            if (!json_is_integer(w))
                continue;
            if (json_integer_value(w) != 0)
                return 0;
            checked++;
        }
    }
    return checked > 0;
}
