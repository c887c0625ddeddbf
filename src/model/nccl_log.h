/* The vocabulary of NCCL's INFO log shared by the parts that read it (nccl/ for its own
   runs, import/ for nccl-tests logs): the channel connection line and the verdict on the
   transport it names. */
#ifndef LS_MODEL_NCCL_LOG_H
#define LS_MODEL_NCCL_LOG_H

typedef struct {
    int ring;          /* "Ring 00 : ..." (NCCL 2.4-2.6) rather than "Channel" */
    int channel, conn; /* "Channel 00/1": conn 1; "Channel 00" (old NCCL): conn 0 */
    int has_conn;      /* the "/N" was there */
    int brackets;      /* "0[0] -> 1[1]"; 0 for "15 -> 0" (NET lines of some versions) */
    int from_rank, to_rank;
    char from[32], to[32]; /* inside the brackets: GPU number, or bus id in old NCCL */
    const char *side;      /* "both", "send" or "receive" ("[send] via ...") */
    char via[256];         /* after "via ", line end left out: "P2P/CUMEM/read" */
} ls_nccl_channel_t;

/* Parses the message after "NCCL INFO " of a connection line, in every shape NCCL 2.4 to
   2.28 prints: "Channel 00/0 : 0[0] -> 1[1] via P2P/direct pointer",
   "Channel 00/1 : 0[0] -> 1[1] [send] via NET/IB/0/GDRDMA", "Channel 00 : 0[60] -> 1[70]
   via P2P/IPC", "Ring 00 : 3[3] -> 2[2] via P2P/IPC", "Channel 00 : 7 -> 8 [receive] via
   NET/IB/0", "Channel 00/0 : 15 -> 0 [send] via NET/Socket/0". 0, or -1 when msg is not
   one. */
int ls_nccl_channel_parse(const char *msg, ls_nccl_channel_t *c);

/* The verdict "P2P is OK but NCCL went around it": 1 when transport (a class "SHM" or a
   full via "SHM/direct/direct", "NET/IB/0") is SHM or NET, the transports NCCL picks when
   it does not use P2P between two GPUs. */
int ls_nccl_transport_skips_p2p(const char *transport);

#endif
