/* libFuzzer targets for every parser (docs/safety.md, "Fuzzing"). Each target file
   defines LLVMFuzzerTestOneInput; built with clang -fsanitize=fuzzer by
   scripts/fuzz.sh, and with driver.c (any compiler) to replay the seed corpus in ctest. */
#ifndef LS_FUZZ_H
#define LS_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a NUL-terminated string (the parsers read text); NULL past 1 MiB, so a
   run is spent on shapes, not sizes. The caller frees. */
static inline char *ls_fuzz_text(const uint8_t *data, size_t size)
{
    if (size > (1u << 20))
        return NULL;
    char *text = malloc(size + 1);
    if (!text)
        return NULL;
    memcpy(text, data, size);
    text[size] = '\0';
    return text;
}

#endif
