/* Lines that carry NCCL's words without its "host:pid:tid [dev] NCCL INFO|WARN" prefix:
   a network transport's message pasted alone (NCCL's net transports start their messages
   with "NET/<name>", net_ib.cc "NET/IB : Got completion from peer ...") and the last WARN
   text a framework prints from ncclGetLastError() after "Last error:" (PyTorch's
   ProcessGroupNCCL: "NCCL error in: FILE:LINE, <reason>, NCCL version X\nLast error:\n
   <text>"). docs/import.md, "NCCL INFO log". */
#ifndef LS_IMPORT_NCCL_LOG_BARE_H
#define LS_IMPORT_NCCL_LOG_BARE_H

/* 1 when line (leading blanks and backticks skipped) starts with "NET/" and a transport
   name followed by a blank or ':' ("NET/IB : ...", "NET/IBP:...", "NET/OFI ..."). */
int ls_nccl_bare_net_message(const char *line);

/* The text after "Last error:" on line, past blanks and a launcher's rank prefix ("10: "):
   "" when the line ends there (the text is on the next line); NULL when line has no
   "Last error:". */
const char *ls_nccl_last_error(const char *line);

/* The next line after a "Last error:" that ended its line, or after PyTorch's
   interpretation line: its text past blanks and a launcher's rank prefix, or NULL when it
   is blank or Python's or PyTorch's own continuation ("Exception raised from ...",
   "Traceback", "During handling of the above exception", "File \"..."): an empty last
   error then. */
const char *ls_nccl_last_error_next(const char *line);

/* 1 when line (past blanks and a launcher's rank prefix) is PyTorch's interpretation of an
   ncclResult_t alone ("ncclUnhandledCudaError: Call to CUDA function failed."): the last
   error's text, when PyTorch printed one, follows on the next lines, after "Last error:"
   or, where a paste left that word out, directly (NVIDIA/nccl#2077). */
int ls_nccl_interpretation_line(const char *line);

/* 1 when text holds PyTorch's NCCL error line ("NCCL error in: FILE:LINE, REASON",
   ProcessGroupNCCL's C10D_NCCL_CHECK). */
int ls_nccl_torch_error_text(const char *text);

/* 1 when line, in a text with PyTorch's NCCL error line, may be NCCL's message pasted
   without its "host:pid:tid [dev] FILE:LINE NCCL WARN" prefix (a blog's or a log
   collector's copy: "ncclSocketInit: connecting to address with family 0 is neither
   AF_INET(2) nor AF_INET6(10)"): a line with text at its start (not a traceback's
   indented source line) that is neither Python's nor PyTorch's own (an exception's
   "XError: ", "Traceback", "File \"...", the error line itself). Kept in bare_messages:
   the WARN catalog judges it, a text it does not know stays quiet. */
int ls_nccl_beside_torch_line(const char *line);

/* 1 when text holds a framework's NCCL error with its "Last error:" line or its
   interpretation line (PyTorch's "NCCL error" with either), or PyTorch's NCCL error line
   with a line beside it that may be NCCL's message (ls_nccl_beside_torch_line). */
int ls_nccl_bare_detect(const char *text);

#endif
