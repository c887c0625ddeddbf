/* nvidia-smi -q excerpts: a few sections of one GPU block without the line that opens
   it, and the XML form (-q -x), which is recognized only to be named when refused. */
#ifndef LS_IMPORT_SMI_QUERY_EXCERPT_H
#define LS_IMPORT_SMI_QUERY_EXCERPT_H

/* 1 for indented "Key : value" lines under nvidia-smi -q section names or keys, with
   no "GPU 00000000:..." block line. */
int ls_smi_query_excerpt_detect(const char *text);

/* 1 for nvidia-smi -q -x output (or a piece of it). */
int ls_smi_query_is_xml(const char *text);

#endif
