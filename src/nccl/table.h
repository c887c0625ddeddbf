/* The results check of an `nccl` entry's rows. Host-only. nccl-tests' tables are
   render's (render/nccl_tables.h). */
#ifndef LS_NCCL_TABLE_H
#define LS_NCCL_TABLE_H

#include <jansson.h>

/* 1 when the rows hold at least one checked result (`wrong` a number) and every checked
   result has wrong 0; 0 when any is wrong or none was checked (-c 0, or only in-place
   alltoall/sendrecv, which NCCL leaves undefined). */
int ls_nccl_rows_verified(const json_t *rows);

#endif
