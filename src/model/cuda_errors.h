/* The catalog of CUDA errors (data/cuda-errors.tsv, built into the binary; its header
   says the columns): what each code, enum name and string means, its class, severity and
   node action. import/cuda_error.c finds errors in pasted text with it,
   analyze/rules_cuda_errors.c explains them. */
#ifndef LS_MODEL_CUDA_ERRORS_H
#define LS_MODEL_CUDA_ERRORS_H

#include <stddef.h>

typedef struct {
    int code;
    char runtime[48];        /* cudaErrorX */
    char driver[56];         /* CUDA_ERROR_X, "" where the driver API has none */
    char string[128];        /* cudaGetErrorString's text */
    char driver_string[128]; /* cuGetErrorString's where it differs, else "" */
    char also[160];          /* other texts tools print for it, '|' between, or "" */
    char cls[16];            /* application, hardware, fabric, driver, busy, mps, unknown */
    int severity;            /* 2 error, 1 warning, 0 info (enum ls_severity's values) */
    int action;              /* enum ls_action, or -1: the text cannot tell whose fault */
    char meaning[160];
    char cause[320];
    char next[360];
} ls_cuda_error_t;

/* The catalog's rows (its order), or NULL past the last. */
const ls_cuda_error_t *ls_cuda_error_at(size_t i);

/* The row of a code, or NULL. */
const ls_cuda_error_t *ls_cuda_error_by_code(int code);

/* The row whose runtime (cudaErrorX) or driver (CUDA_ERROR_X) name is name[0..len), or
   NULL. */
const ls_cuda_error_t *ls_cuda_error_by_name(const char *name, size_t len);

/* Which texts ls_cuda_error_in_text matches. */
enum { LS_CE_STRINGS = 1, LS_CE_ALSO = 2 };

/* The row whose text occurs in text, ignoring case: the longest match wins ("unspecified
   launch failure" over "launch failure"). kinds: LS_CE_STRINGS the strings
   cudaGetErrorString and cuGetErrorString print (those of min_len characters or more),
   LS_CE_ALSO the other texts of the "also" column. *at gets the match's offset, *len its
   length. NULL when none occurs. */
const ls_cuda_error_t *ls_cuda_error_in_text(const char *text, int kinds, size_t min_len,
                                             size_t *at, size_t *len);

#endif
