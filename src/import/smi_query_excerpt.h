/* nvidia-smi -q excerpts: a few sections of a GPU block, with or without the line that
   opens it, and the XML form (-q -x), which is recognized only to be named when refused. */
#ifndef LS_IMPORT_SMI_QUERY_EXCERPT_H
#define LS_IMPORT_SMI_QUERY_EXCERPT_H

#include <stddef.h>

/* 1 for indented "Key : value" lines under nvidia-smi -q section names or keys, with
   or without the "GPU 00000000:..." line that opens their block. */
int ls_smi_query_excerpt_detect(const char *text);

/* The indent of the paste's margin: the common indent of its lines when the banner, a
   head key or a "GPU 0000..." line stands there (a paste indented as a whole, as a
   Markdown code block is), else 0 (an excerpt of a block's own sections). */
size_t ls_smi_query_margin(const char *text);

/* 1 when s (a line's text, trailing blanks allowed) is the name of a section of -q's GPU
   block ("Fabric", "ECC Errors", "Clocks Event Reasons", ...). */
int ls_smi_query_section_name(const char *s);

/* 1 for nvidia-smi -q -x output (or a piece of it). */
int ls_smi_query_is_xml(const char *text);

#endif
