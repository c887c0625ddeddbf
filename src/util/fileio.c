#include "fileio.h"
#include "log.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Inputs read by this process (device and inode), so that an output that is one of
   them is refused instead of overwritten (report RUN.json -o RUN.json). As many as were
   read (a fleet of thousands of documents), under a lock: fleet's reader threads add
   to it at once. Out of memory, an input is not remembered and the write that would
   replace it is refused instead (inputs_lost). */
typedef struct {
    dev_t dev;
    ino_t ino;
} input_id_t;
static input_id_t *inputs;
static size_t ninputs, capinputs;
static int inputs_lost;
static pthread_mutex_t inputs_lock = PTHREAD_MUTEX_INITIALIZER;

/* A failed write to stdout was already reported in one line. */
static int stdout_reported;

static void remember_input(int fd)
{
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return;
    pthread_mutex_lock(&inputs_lock);
    if (ninputs == capinputs) {
        size_t cap = capinputs ? 2 * capinputs : 64;
        input_id_t *grown = realloc(inputs, cap * sizeof *grown);
        if (grown)
            inputs = grown, capinputs = cap;
    }
    if (ninputs < capinputs)
        inputs[ninputs++] = (input_id_t){st.st_dev, st.st_ino};
    else
        inputs_lost = 1;
    pthread_mutex_unlock(&inputs_lock);
}

void ls_inputs_forget(const char *path)
{
    struct stat st;
    if (!path || stat(path, &st) != 0)
        return;
    pthread_mutex_lock(&inputs_lock);
    for (size_t i = 0; i < ninputs; i++)
        if (inputs[i].dev == st.st_dev && inputs[i].ino == st.st_ino)
            inputs[i] = inputs[--ninputs], i--;
    pthread_mutex_unlock(&inputs_lock);
}

/* 1 when st is an input (or, after an input could not be remembered, might be one). */
static int is_input(const struct stat *st)
{
    int found = 0;
    pthread_mutex_lock(&inputs_lock);
    for (size_t i = 0; i < ninputs && !found; i++)
        found = inputs[i].dev == st->st_dev && inputs[i].ino == st->st_ino;
    found |= inputs_lost;
    pthread_mutex_unlock(&inputs_lock);
    return found;
}

size_t ls_max_input_bytes(void)
{
    static int warned;
    const char *env = getenv("LINKSCOPE_MAX_INPUT_MB");
    char *end = NULL;
    errno = 0;
    long long mb = env && *env ? strtoll(env, &end, 10) : 0;
    if (mb > 0 && end && !*end && !errno && mb <= (long long)(SIZE_MAX >> 21))
        return (size_t)mb << 20;
    if (env && *env && !warned) { /* said once, never ignored in silence */
        warned = 1;
        ls_warn("LINKSCOPE_MAX_INPUT_MB=%.32s is not a whole number of MiB above 0; the %d MiB "
                "default is used",
                env, LS_MAX_INPUT_MB);
    }
    return (size_t)LS_MAX_INPUT_MB << 20;
}

/* Reads f to its end into a NUL-terminated buffer, at most limit bytes; *too_big is set
   past the limit. NULL on a read error or out of memory. */
static char *slurp(FILE *f, size_t limit, size_t *len, int *too_big)
{
    size_t cap = 65536, used = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + used, 1, cap - used - 1, f);
        used += got;
        if (used + 1 < cap)
            break;
        if (used > limit) {
            *too_big = 1;
            break;
        }
        cap *= 2;
        char *bigger = realloc(buf, cap);
        if (!bigger)
            free(buf);
        buf = bigger;
    }
    if (buf && used > limit)
        *too_big = 1;
    if (buf)
        buf[used] = '\0';
    *len = used;
    return buf;
}

char *ls_read_file(const char *path, size_t *len, char *err, size_t errlen)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        ls_seterr(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    if (f != stdin)
        remember_input(fileno(f));
    size_t used = 0, limit = ls_max_input_bytes();
    int too_big = 0;
    char *buf = slurp(f, limit, &used, &too_big);
    int failed = !buf || ferror(f);
    int read_errno = errno; /* EISDIR for a directory */
    if (f != stdin)
        fclose(f);
    if (failed || too_big) {
        if (too_big)
            ls_seterr(err, errlen,
                      "%s: larger than the %zu MiB input limit (set "
                      "LINKSCOPE_MAX_INPUT_MB to raise it)",
                      path, limit >> 20);
        else
            ls_seterr(err, errlen, "%s: cannot read: %s", path,
                      buf ? strerror(read_errno) : "out of memory");
        free(buf);
        return NULL;
    }
    if (len)
        *len = used;
    return buf;
}

/* Writes all of data to fd, through short writes and interruptions. */
static int write_all(int fd, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = EIO;
            return -1;
        }
        data += n, len -= (size_t)n;
    }
    return 0;
}

/* The temporary files being written (one, or a set's), removed by the signal handler if
   the process is interrupted (SIGINT, SIGTERM, SIGHUP) before their rename. A slot is in
   use while its flag is set. unlink is async-signal-safe. */
static char pending_tmp[LS_OUTPUTS_MAX][PATH_MAX + 64];
static volatile sig_atomic_t pending_active[LS_OUTPUTS_MAX];

static void on_signal(int sig)
{
    for (int i = 0; i < LS_OUTPUTS_MAX; i++)
        if (pending_active[i])
            unlink(pending_tmp[i]);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_cleanup(void)
{
    static int installed;
    if (installed)
        return;
    installed = 1;
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old, sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        /* A handler someone else installed (or an ignored signal) is left alone. */
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
            sigaction(sigs[i], &sa, NULL);
    }
}

/* Holds back (block 1) or lets through (block 0) the signals the handler catches. */
static void hold_signals(int block, sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT), sigaddset(&set, SIGTERM), sigaddset(&set, SIGHUP);
    sigprocmask(block ? SIG_BLOCK : SIG_SETMASK, block ? &set : old, block ? old : NULL);
}

/* A slot no temporary file uses, or -1. */
static int free_slot(void)
{
    for (int i = 0; i < LS_OUTPUTS_MAX; i++)
        if (!pending_active[i])
            return i;
    return -1;
}

/* Creates dir/.base.XXXXXX exclusively (never through a planted symlink) with mode 0600
   in slot's name. Returns the descriptor or -1. */
static int create_temp(const char *target, int slot)
{
    char dirbuf[PATH_MAX], basebuf[PATH_MAX], *tmp = pending_tmp[slot];
    snprintf(dirbuf, sizeof dirbuf, "%s", target);
    snprintf(basebuf, sizeof basebuf, "%s", target);
    const char *dir = dirname(dirbuf), *base = basename(basebuf);
    unsigned seed = (unsigned)getpid() ^ (unsigned)time(NULL) ^ (unsigned)(size_t)&seed;
    for (int attempt = 0; attempt < 100; attempt++) {
        seed = seed * 1103515245u + 12345u;
        if (snprintf(tmp, sizeof pending_tmp[slot], "%s/.%s.tmp.%ld.%06x", dir, base,
                     (long)getpid(), (seed >> 8) & 0xffffffu) >= (int)sizeof pending_tmp[slot]) {
            errno = ENAMETOOLONG;
            return -1;
        }
        sigset_t old;
        hold_signals(1, &old); /* created and registered as one step */
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        pending_active[slot] = fd >= 0;
        int saved = errno;
        hold_signals(0, &old);
        errno = saved;
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}

static void drop_temp(int slot)
{
    if (pending_active[slot])
        unlink(pending_tmp[slot]);
    pending_active[slot] = 0;
}

/* The mode a new file gets: 0666 less the umask, as fopen would give. */
static mode_t new_file_mode(void)
{
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

/* Writes the temporary file that will replace the regular file (or create the file)
   target: in its folder, the same mode and, where allowed, owner as the old file, data on
   disk. Returns its slot, or -1 with err filled and nothing left behind. */
static int stage_regular(const char *target, const struct stat *old, const char *data, size_t len,
                         char *err, size_t errlen)
{
    install_cleanup();
    int slot = free_slot();
    if (slot < 0)
        return ls_seterr(err, errlen, "%s: cannot write: more than %d files in one set", target,
                         LS_OUTPUTS_MAX);
    int fd = create_temp(target, slot);
    if (fd < 0)
        return ls_seterr(err, errlen, "%s: cannot write: no temporary file beside it: %s", target,
                         strerror(errno));
    int bad = fchmod(fd, old ? (old->st_mode & 07777) : new_file_mode()) != 0;
    if (old && !bad && (old->st_uid != geteuid() || old->st_gid != getegid()))
        (void)!fchown(fd, old->st_uid, old->st_gid); /* only root may; best effort */
    bad = bad || write_all(fd, data, len) != 0 || fsync(fd) != 0;
    int saved = errno;
    bad |= close(fd) != 0;
    if (bad) {
        drop_temp(slot);
        return ls_seterr(err, errlen, "%s: cannot write: %s", target,
                         strerror(saved ? saved : errno));
    }
    return slot;
}

/* Syncs the folder of target: a rename into it on disk (some file systems refuse:
   harmless). */
static void sync_folder(const char *target)
{
    char dirbuf[PATH_MAX];
    snprintf(dirbuf, sizeof dirbuf, "%s", target);
    int dfd = open(dirname(dirbuf), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
}

/* Renames slot's temporary file onto target. 0, or -1 with err (the temporary file
   removed). */
static int commit_regular(int slot, const char *target, char *err, size_t errlen)
{
    if (rename(pending_tmp[slot], target) != 0) {
        int saved = errno;
        drop_temp(slot);
        return ls_seterr(err, errlen, "%s: cannot write: %s", target, strerror(saved));
    }
    pending_active[slot] = 0;
    return 0;
}

/* Replaces the regular file (or creates the file) target through a temporary file. */
static int replace_regular(const char *target, const struct stat *old, const char *data, size_t len,
                           char *err, size_t errlen)
{
    int slot = stage_regular(target, old, data, len, err, errlen);
    if (slot < 0 || commit_regular(slot, target, err, errlen) != 0)
        return -1;
    sync_folder(target);
    return 0;
}

/* A device, FIFO or other special file is written through, never replaced. */
static int write_through(const char *path, const char *data, size_t len, char *err, size_t errlen)
{
    int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return ls_seterr(err, errlen, "%s: cannot write: %s", path, strerror(errno));
    int bad = write_all(fd, data, len) != 0;
    int saved = errno;
    bad |= close(fd) != 0;
    if (bad)
        return ls_seterr(err, errlen, "%s: cannot write: %s", path,
                         strerror(saved ? saved : errno));
    return 0;
}

/* 1 when the kernel's protected_symlinks rule (fs.protected_symlinks = 1) refuses to
   follow link lst in folder dir: a sticky, world-writable folder (/tmp) and a link owned
   by neither the follower nor the folder's owner. Applied whatever the sysctl says:
   realpath() and a rename onto the target would otherwise bypass it. */
static int link_refused(const struct stat *lst, const char *dir)
{
    struct stat dst;
    if (stat(*dir ? dir : "/", &dst) != 0)
        return 0;
    return (dst.st_mode & S_ISVTX) && (dst.st_mode & S_IWOTH) && lst->st_uid != geteuid() &&
           lst->st_uid != dst.st_uid;
}

/* Appends component c (length n) to the absolute path res. */
static int push_component(char *res, size_t len, const char *c, size_t n)
{
    size_t used = strlen(res);
    if (used + 1 + n >= len)
        return -1;
    res[used] = '/';
    memcpy(res + used + 1, c, n);
    res[used + 1 + n] = '\0';
    return 0;
}

/* Walks path component by component as the kernel does, following each symbolic link
   (in a folder of the path or at its end) and checking it with link_refused: 0, or -1
   with err naming the link. A part that does not exist ends the walk (nothing to follow). */
static int check_links(const char *path, char *err, size_t errlen)
{
    char res[PATH_MAX] = "", rest[2 * PATH_MAX], next[2 * PATH_MAX], to[PATH_MAX];
    if (path[0] != '/' && !getcwd(res, sizeof res))
        return 0;
    if (!strcmp(res, "/"))
        res[0] = '\0';
    snprintf(rest, sizeof rest, "%s", path);
    for (int hops = 0; hops < 40;) {
        char *c = rest;
        while (*c == '/')
            c++;
        if (!*c)
            return 0;
        size_t n = strcspn(c, "/");
        const char *after = c + n;
        size_t keep = strlen(res);
        if (n == 1 && c[0] == '.') {
            memmove(rest, after, strlen(after) + 1);
            continue;
        }
        if (n == 2 && c[0] == '.' && c[1] == '.') {
            char *slash = strrchr(res, '/');
            if (slash)
                *slash = '\0';
            memmove(rest, after, strlen(after) + 1);
            continue;
        }
        if (push_component(res, sizeof res, c, n))
            return 0;
        struct stat lst;
        if (lstat(res, &lst) != 0)
            return 0;
        if (!S_ISLNK(lst.st_mode)) {
            memmove(rest, after, strlen(after) + 1);
            continue;
        }
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "%.*s", (int)keep, res);
        if (link_refused(&lst, dir))
            return ls_seterr(err, errlen,
                             "%s: %s is a symbolic link owned by another user (uid %ld) in a "
                             "sticky, "
                             "world-writable folder; not followed, as the kernel's "
                             "protected_symlinks rule would not "
                             "(give another output path)",
                             path, res, (long)lst.st_uid);
        ssize_t got = readlink(res, to, sizeof to - 1);
        if (got < 0)
            return 0;
        to[got] = '\0';
        snprintf(next, sizeof next, "%s%s", to, after);
        memcpy(rest, next, sizeof rest);
        res[to[0] == '/' ? 0 : keep] = '\0';
        hops++;
    }
    return 0;
}

int ls_resolve_output(const char *path, char *target, size_t targetlen, char *err, size_t errlen)
{
    struct stat lst;
    if (check_links(path, err, errlen) != 0)
        return -1;
    if (lstat(path, &lst) != 0 || !S_ISLNK(lst.st_mode)) {
        if (snprintf(target, targetlen, "%s", path) >= (int)targetlen)
            return ls_seterr(err, errlen, "%s: the path is too long", path);
        return 0;
    }
    char real[PATH_MAX];
    if (!realpath(path, real))
        return ls_seterr(err, errlen,
                         "%s: a symbolic link to nothing that exists (%s); "
                         "not written",
                         path, strerror(errno));
    if (snprintf(target, targetlen, "%s", real) >= (int)targetlen)
        return ls_seterr(err, errlen, "%s: the path is too long", path);
    return 0;
}

/* Where an output to path goes, once checked: the path to replace (the link's target,
   or path), whether it exists (st then holds it), or a special file written through. */
typedef struct {
    char target[PATH_MAX];
    struct stat st;
    int exists, through;
} out_plan_t;

/* Checks an output path (not "-") as every branch of the writer does. 0, or -1 with err. */
static int plan_output(const char *path, out_plan_t *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    /* Every branch below follows links only where the kernel's rule would */
    if (check_links(path, err, errlen) != 0)
        return -1;
    /* A device, FIFO or socket, also through a link (/dev/stdout -> /proc/self/fd/1 ->
       pipe:[N], which names no path), is written through. */
    if (stat(path, &p->st) == 0 && !S_ISREG(p->st.st_mode) && !S_ISDIR(p->st.st_mode)) {
        snprintf(p->target, sizeof p->target, "%s", path);
        p->exists = p->through = 1;
        return 0;
    }
    if (ls_resolve_output(path, p->target, sizeof p->target, err, errlen) != 0)
        return -1;
    if (stat(p->target, &p->st) != 0) {
        if (errno != ENOENT)
            return ls_seterr(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        return 0;
    }
    p->exists = 1;
    if (is_input(&p->st))
        return ls_seterr(err, errlen,
                         "%s: is one of the inputs; refusing to overwrite it "
                         "(give another output path)",
                         path);
    if (S_ISDIR(p->st.st_mode))
        return ls_seterr(err, errlen, "%s: is a folder; expected a file", path);
    p->through = !S_ISREG(p->st.st_mode);
    return 0;
}

int ls_write_file_atomic(const char *path, const char *data, size_t len, char *err, size_t errlen)
{
    if (strcmp(path, "-") == 0) {
        if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0) {
            stdout_reported = 1;
            return ls_seterr(err, errlen, "stdout: write failed: %s", strerror(errno));
        }
        return 0;
    }
    out_plan_t p;
    if (plan_output(path, &p, err, errlen) != 0)
        return -1;
    if (p.through)
        return write_through(p.target, data, len, err, errlen);
    return replace_regular(p.target, p.exists ? &p.st : NULL, data, len, err, errlen);
}

/* A set of outputs (ls_outputs_new): each member's target and either its temporary
   file's slot or, for a special file written through, a copy of its bytes. */
struct ls_outputs {
    int n;
    struct {
        char target[PATH_MAX];
        int slot;
        char *through;
        size_t len;
    } item[LS_OUTPUTS_MAX];
};

ls_outputs_t *ls_outputs_new(void)
{
    return calloc(1, sizeof(ls_outputs_t));
}

/* 1 when target is already a member of set. */
static int in_set(const ls_outputs_t *set, const char *target)
{
    for (int i = 0; i < set->n; i++)
        if (!strcmp(set->item[i].target, target))
            return 1;
    return 0;
}

int ls_outputs_add(ls_outputs_t *set, const char *path, const char *data, size_t len, char *err,
                   size_t errlen)
{
    out_plan_t p;
    if (!strcmp(path, "-"))
        return ls_seterr(err, errlen, "a set of files cannot go to stdout");
    if (set->n == LS_OUTPUTS_MAX)
        return ls_seterr(err, errlen, "%s: cannot write: more than %d files in one set", path,
                         LS_OUTPUTS_MAX);
    if (plan_output(path, &p, err, errlen) != 0)
        return -1;
    if (in_set(set, p.target))
        return ls_seterr(err, errlen, "%s: named twice in one set of outputs", path);
    int slot = -1;
    char *copy = NULL;
    if (p.through && !(copy = malloc(len ? len : 1)))
        return ls_seterr(err, errlen, "%s: cannot write: out of memory", path);
    if (p.through)
        memcpy(copy, data, len);
    else if ((slot = stage_regular(p.target, p.exists ? &p.st : NULL, data, len, err, errlen)) < 0)
        return -1;
    snprintf(set->item[set->n].target, PATH_MAX, "%s", p.target);
    set->item[set->n].slot = slot;
    set->item[set->n].through = copy;
    set->item[set->n].len = len;
    set->n++;
    return 0;
}

int ls_outputs_commit(ls_outputs_t *set, char *err, size_t errlen)
{
    sigset_t old;
    int rc = 0, renamed = 0;
    hold_signals(1, &old); /* every file renamed, or (interrupted before) none */
    for (int i = 0; i < set->n && !rc; i++)
        if (set->item[i].slot >= 0) {
            rc = commit_regular(set->item[i].slot, set->item[i].target, err, errlen);
            set->item[i].slot = rc ? set->item[i].slot : -2; /* -2: renamed */
            renamed += !rc;
        }
    hold_signals(0, &old);
    if (rc && renamed && err) /* a folder changed under us: say what the set holds now */
        ls_seterr(err + strlen(err), errlen - strlen(err),
                  " (%d file%s before it in the set replaced)", renamed, renamed == 1 ? "" : "s");
    for (int i = 0; i < set->n && !rc; i++)
        if (set->item[i].through)
            rc = write_through(set->item[i].target, set->item[i].through, set->item[i].len, err,
                               errlen);
    for (int i = 0; i < set->n; i++)
        if (set->item[i].slot == -2)
            sync_folder(set->item[i].target);
    ls_outputs_free(set);
    return rc ? -1 : 0;
}

void ls_outputs_free(ls_outputs_t *set)
{
    if (!set)
        return;
    for (int i = 0; i < set->n; i++) {
        if (set->item[i].slot >= 0)
            drop_temp(set->item[i].slot);
        free(set->item[i].through);
    }
    free(set);
}

int ls_stdout_close(void)
{
    errno = 0;
    int bad = fflush(stdout) != 0;
    int saved = errno;
    bad |= ferror(stdout) != 0;
    /* a closed stdout (>&-) that nothing was written to is no failure: closing it gives
       EBADF after every byte went where -o said */
    if (fclose(stdout) != 0 && !bad && errno != EBADF)
        bad = 1, saved = errno;
    if (bad && !stdout_reported)
        ls_error("stdout: write failed: %s", saved ? strerror(saved) : "output error");
    stdout_reported = 1;
    return bad ? -1 : 0;
}

int ls_lock_file(const char *path, char *err, size_t errlen)
{
    char target[PATH_MAX];
    if (ls_resolve_output(path, target, sizeof target, err, errlen) != 0)
        return -1;
    for (;;) {
        int fd = open(target, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            return ls_seterr(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        int rc;
        while ((rc = flock(fd, LOCK_EX)) != 0 && errno == EINTR)
            ;
        if (rc != 0) {
            int saved = errno;
            close(fd);
            return ls_seterr(err, errlen, "%s: cannot lock: %s", path, strerror(saved));
        }
        /* The holder before us replaced the file (rename): lock the new one instead, or
           two writers would each hold a lock on a different inode. */
        struct stat held, now;
        if (fstat(fd, &held) == 0 && stat(target, &now) == 0 && held.st_dev == now.st_dev &&
            held.st_ino == now.st_ino)
            return fd;
        close(fd);
    }
}

void ls_unlock_file(int fd)
{
    if (fd >= 0)
        close(fd); /* closing the descriptor releases the flock */
}

int ls_read_text(const char *root, const char *path, char *buf, size_t buflen)
{
    char full[4096];
    snprintf(full, sizeof full, "%s%s", root ? root : "", path);
    FILE *f = fopen(full, "r");
    if (!f)
        return -1;
    size_t got = fread(buf, 1, buflen - 1, f);
    fclose(f);
    buf[got] = '\0';
    while (got > 0 && (buf[got - 1] == '\n' || buf[got - 1] == ' '))
        buf[--got] = '\0';
    return 0;
}

int ls_make_dir(const char *dir)
{
    return mkdir(dir, 0777) == 0 || errno == EEXIST ? 0 : -1;
}
