/* The "crash" VFS: see include/CCrashVFS.h. */
#include "CCrashVFS.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>

#define MAX_FILES 32

/* What the disk holds of one path. `durableName`: the directory durably has the name,
 * for an inode whose last synced content is `durable`. `current`: the last synced
 * content of the inode the name has now; `sameInode`: that is the durable one. */
typedef struct Blob { unsigned char *bytes; sqlite3_int64 size; } Blob;
typedef struct Entry {
    char *path;
    int durableName;
    Blob durable;
    Blob current;
    int sameInode;
} Entry;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static Entry entries[MAX_FILES];
static int entryCount;
static char *trackedDirectory;
static int isCut;
static long long mutations, cutAt;
static char *cutAfterDeleteOf;

static sqlite3_vfs *unixVFS;
static sqlite3_syscall_ptr originalOpenDirectory;

static void blobFree(Blob *b) { free(b->bytes); b->bytes = NULL; b->size = 0; }

static void blobCopy(Blob *to, const Blob *from) {
    blobFree(to);
    if (from->size > 0) {
        to->bytes = malloc((size_t)from->size);
        memcpy(to->bytes, from->bytes, (size_t)from->size);
    }
    to->size = from->size;
}

static int isTracked(const char *path) {
    return path && trackedDirectory && strncmp(path, trackedDirectory, strlen(trackedDirectory)) == 0
        && strchr(path + strlen(trackedDirectory), '/') == NULL;
}

/* The entry of `path` (made when missing); NULL when untracked or full. Lock held. */
static Entry *entryFor(const char *path) {
    if (!isTracked(path)) return NULL;
    for (int i = 0; i < entryCount; i++) if (strcmp(entries[i].path, path) == 0) return &entries[i];
    if (entryCount == MAX_FILES) return NULL;
    Entry *e = &entries[entryCount++];
    memset(e, 0, sizeof *e);
    e->path = strdup(path);
    return e;
}

/* Reads a whole file through its real handle into `out`. */
static int readAll(sqlite3_file *real, Blob *out) {
    sqlite3_int64 size = 0;
    int rc = real->pMethods->xFileSize(real, &size);
    if (rc != SQLITE_OK) return rc;
    blobFree(out);
    if (size > 0) {
        out->bytes = malloc((size_t)size);
        rc = real->pMethods->xRead(real, out->bytes, (int)size, 0);
        if (rc != SQLITE_OK && rc != SQLITE_IOERR_SHORT_READ) { blobFree(out); return rc; }
    }
    out->size = size;
    return SQLITE_OK;
}

/* Counts a mutation of a tracked file; false when the power is (now) cut. Lock held. */
static int mayMutate(void) {
    if (isCut) return 0;
    mutations++;
    if (cutAt > 0 && mutations >= cutAt) { isCut = 1; return 0; }
    return 1;
}

/* A directory was fsynced: the names in it are durable as they are now. */
static void directorySynced(const char *directory) {
    size_t n = strlen(directory);
    for (int i = 0; i < entryCount; i++) {
        Entry *e = &entries[i];
        if (strncmp(e->path, directory, n) != 0 || strchr(e->path + n, '/') != NULL) continue;
        if (access(e->path, F_OK) == 0) {
            e->durableName = 1;
            blobCopy(&e->durable, &e->current);
            e->sameInode = 1;
        } else {
            e->durableName = 0;
            blobFree(&e->durable);
        }
    }
}

/* The unix VFS opens a directory only to fsync it (unixSync's DIRSYNC, unixDelete's
 * dirSync). Called for the file whose directory it is: `path` is that file. */
static int hookedOpenDirectory(const char *path, int *fd) {
    int rc = ((int (*)(const char *, int *))originalOpenDirectory)(path, fd);
    if (rc == SQLITE_OK) {
        pthread_mutex_lock(&lock);
        if (isTracked(path) && !isCut) directorySynced(trackedDirectory);
        pthread_mutex_unlock(&lock);
    }
    return rc;
}

/* MARK: - Files */

typedef struct CrashFile {
    sqlite3_file base;
    sqlite3_file *real;
    char *path; /* NULL: not tracked */
} CrashFile;

#define REAL(f) (((CrashFile *)(f))->real)
#define PATH(f) (((CrashFile *)(f))->path)

static int crashClose(sqlite3_file *f) {
    int rc = REAL(f)->pMethods ? REAL(f)->pMethods->xClose(REAL(f)) : SQLITE_OK;
    free(PATH(f));
    return rc;
}
static int crashRead(sqlite3_file *f, void *b, int n, sqlite3_int64 o) { return REAL(f)->pMethods->xRead(REAL(f), b, n, o); }

static int crashWrite(sqlite3_file *f, const void *b, int n, sqlite3_int64 o) {
    if (PATH(f)) {
        pthread_mutex_lock(&lock);
        int ok = mayMutate();
        pthread_mutex_unlock(&lock);
        if (!ok) return SQLITE_IOERR_WRITE;
    }
    return REAL(f)->pMethods->xWrite(REAL(f), b, n, o);
}

static int crashTruncate(sqlite3_file *f, sqlite3_int64 size) {
    if (PATH(f)) {
        pthread_mutex_lock(&lock);
        int ok = mayMutate();
        pthread_mutex_unlock(&lock);
        if (!ok) return SQLITE_IOERR_TRUNCATE;
    }
    return REAL(f)->pMethods->xTruncate(REAL(f), size);
}

static int crashSync(sqlite3_file *f, int flags) {
    if (!PATH(f)) return REAL(f)->pMethods->xSync(REAL(f), flags);
    pthread_mutex_lock(&lock);
    int ok = mayMutate();
    pthread_mutex_unlock(&lock);
    if (!ok) return SQLITE_IOERR_FSYNC;
    /* The real sync first: it may fsync the directory (the hook), after the data. */
    Blob synced = {0};
    int rc = readAll(REAL(f), &synced);
    if (rc == SQLITE_OK) rc = REAL(f)->pMethods->xSync(REAL(f), flags);
    pthread_mutex_lock(&lock);
    Entry *e = rc == SQLITE_OK ? entryFor(PATH(f)) : NULL;
    if (e) {
        blobCopy(&e->current, &synced);
        /* The inode the durable name has (also when the real sync just fsynced the
         * directory of a new file: the hook ran): its content is what the name keeps. */
        if (e->sameInode) blobCopy(&e->durable, &synced);
    }
    pthread_mutex_unlock(&lock);
    blobFree(&synced);
    return rc;
}

static int crashFileSize(sqlite3_file *f, sqlite3_int64 *s) { return REAL(f)->pMethods->xFileSize(REAL(f), s); }
static int crashLock(sqlite3_file *f, int l) { return REAL(f)->pMethods->xLock(REAL(f), l); }
static int crashUnlock(sqlite3_file *f, int l) { return REAL(f)->pMethods->xUnlock(REAL(f), l); }
static int crashCheckReservedLock(sqlite3_file *f, int *r) { return REAL(f)->pMethods->xCheckReservedLock(REAL(f), r); }
static int crashFileControl(sqlite3_file *f, int op, void *a) { return REAL(f)->pMethods->xFileControl(REAL(f), op, a); }
static int crashSectorSize(sqlite3_file *f) { return REAL(f)->pMethods->xSectorSize(REAL(f)); }
static int crashDeviceCharacteristics(sqlite3_file *f) { return REAL(f)->pMethods->xDeviceCharacteristics(REAL(f)); }
static int crashShmMap(sqlite3_file *f, int i, int sz, int w, void volatile **p) { return REAL(f)->pMethods->xShmMap(REAL(f), i, sz, w, p); }
static int crashShmLock(sqlite3_file *f, int o, int n, int fl) { return REAL(f)->pMethods->xShmLock(REAL(f), o, n, fl); }
static void crashShmBarrier(sqlite3_file *f) { REAL(f)->pMethods->xShmBarrier(REAL(f)); }
static int crashShmUnmap(sqlite3_file *f, int d) { return REAL(f)->pMethods->xShmUnmap(REAL(f), d); }
static int crashFetch(sqlite3_file *f, sqlite3_int64 o, int n, void **p) { return REAL(f)->pMethods->xFetch(REAL(f), o, n, p); }
static int crashUnfetch(sqlite3_file *f, sqlite3_int64 o, void *p) { return REAL(f)->pMethods->xUnfetch(REAL(f), o, p); }

static const sqlite3_io_methods crashMethods = {
    3, crashClose, crashRead, crashWrite, crashTruncate, crashSync, crashFileSize, crashLock, crashUnlock,
    crashCheckReservedLock, crashFileControl, crashSectorSize, crashDeviceCharacteristics,
    crashShmMap, crashShmLock, crashShmBarrier, crashShmUnmap, crashFetch, crashUnfetch,
};

/* MARK: - The VFS */

static int crashOpen(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *f, int flags, int *outFlags) {
    (void)vfs;
    CrashFile *file = (CrashFile *)f;
    file->real = (sqlite3_file *)&file[1];
    file->path = NULL;
    pthread_mutex_lock(&lock);
    int tracked = isTracked(name);
    pthread_mutex_unlock(&lock);
    int existed = name && access(name, F_OK) == 0;
    int rc = unixVFS->xOpen(unixVFS, name, file->real, flags, outFlags);
    if (rc != SQLITE_OK) { file->base.pMethods = NULL; return rc; }
    file->base.pMethods = &crashMethods;
    if (tracked) {
        file->path = strdup(name);
        pthread_mutex_lock(&lock);
        Entry *e = entryFor(name);
        if (e && !existed) {
            /* A new inode: nothing of it is synced, and the durable name (if any) is
             * another one's until the directory is synced. */
            blobFree(&e->current);
            e->sameInode = 0;
        }
        pthread_mutex_unlock(&lock);
    }
    return SQLITE_OK;
}

static int crashDelete(sqlite3_vfs *vfs, const char *name, int dirSync) {
    (void)vfs;
    pthread_mutex_lock(&lock);
    int tracked = isTracked(name), ok = !tracked || mayMutate();
    if (tracked && ok) {
        Entry *e = entryFor(name);
        if (e) { blobFree(&e->current); e->sameInode = 0; }
    }
    pthread_mutex_unlock(&lock);
    if (!ok) return SQLITE_IOERR_DELETE;
    /* With dirSync the real delete fsyncs the directory: the hook sees it. */
    int rc = unixVFS->xDelete(unixVFS, name, dirSync);
    pthread_mutex_lock(&lock);
    size_t n = strlen(name), m = cutAfterDeleteOf ? strlen(cutAfterDeleteOf) : 0;
    if (rc == SQLITE_OK && tracked && cutAfterDeleteOf && n >= m && strcmp(name + n - m, cutAfterDeleteOf) == 0) {
        cutAt = mutations + 1;
        free(cutAfterDeleteOf);
        cutAfterDeleteOf = NULL;
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

static int crashAccess(sqlite3_vfs *v, const char *n, int f, int *r) { (void)v; return unixVFS->xAccess(unixVFS, n, f, r); }
static int crashFullPathname(sqlite3_vfs *v, const char *n, int s, char *o) { (void)v; return unixVFS->xFullPathname(unixVFS, n, s, o); }
static void *crashDlOpen(sqlite3_vfs *v, const char *n) { (void)v; return unixVFS->xDlOpen(unixVFS, n); }
static void crashDlError(sqlite3_vfs *v, int n, char *m) { (void)v; unixVFS->xDlError(unixVFS, n, m); }
static void (*crashDlSym(sqlite3_vfs *v, void *h, const char *s))(void) { (void)v; return unixVFS->xDlSym(unixVFS, h, s); }
static void crashDlClose(sqlite3_vfs *v, void *h) { (void)v; unixVFS->xDlClose(unixVFS, h); }
static int crashRandomness(sqlite3_vfs *v, int n, char *o) { (void)v; return unixVFS->xRandomness(unixVFS, n, o); }
static int crashSleep(sqlite3_vfs *v, int us) { (void)v; return unixVFS->xSleep(unixVFS, us); }
static int crashCurrentTime(sqlite3_vfs *v, double *t) { (void)v; return unixVFS->xCurrentTime(unixVFS, t); }
static int crashGetLastError(sqlite3_vfs *v, int n, char *m) { (void)v; return unixVFS->xGetLastError(unixVFS, n, m); }
static int crashCurrentTimeInt64(sqlite3_vfs *v, sqlite3_int64 *t) { (void)v; return unixVFS->xCurrentTimeInt64(unixVFS, t); }

static sqlite3_vfs crashVFS;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void registerOnce(void) {
    unixVFS = sqlite3_vfs_find("unix");
    crashVFS = (sqlite3_vfs){
        2, (int)(sizeof(CrashFile) + (size_t)unixVFS->szOsFile), unixVFS->mxPathname, NULL, "crash", NULL,
        crashOpen, crashDelete, crashAccess, crashFullPathname, crashDlOpen, crashDlError, crashDlSym, crashDlClose,
        crashRandomness, crashSleep, crashCurrentTime, crashGetLastError, crashCurrentTimeInt64,
        NULL, NULL, NULL,
    };
    /* The hook only observes: it calls the original and notes tracked directories. */
    originalOpenDirectory = unixVFS->xGetSystemCall(unixVFS, "openDirectory");
    unixVFS->xSetSystemCall(unixVFS, "openDirectory", (sqlite3_syscall_ptr)hookedOpenDirectory);
    sqlite3_vfs_register(&crashVFS, 0);
}

int crashvfs_register(void) {
    pthread_once(&once, registerOnce);
    return SQLITE_OK;
}

/* MARK: - Rounds */

void crashvfs_track(const char *directory) {
    pthread_mutex_lock(&lock);
    for (int i = 0; i < entryCount; i++) {
        free(entries[i].path);
        blobFree(&entries[i].durable);
        blobFree(&entries[i].current);
    }
    entryCount = 0;
    free(trackedDirectory);
    trackedDirectory = strdup(directory);
    isCut = 0;
    mutations = 0;
    cutAt = 0;
    free(cutAfterDeleteOf);
    cutAfterDeleteOf = NULL;
    pthread_mutex_unlock(&lock);
}

void crashvfs_mark_durable(void) {
    pthread_mutex_lock(&lock);
    DIR *dir = trackedDirectory ? opendir(trackedDirectory) : NULL;
    for (struct dirent *d; dir && (d = readdir(dir)) != NULL;) {
        size_t n = strlen(d->d_name);
        if (d->d_name[0] == '.' || (n > 4 && strcmp(d->d_name + n - 4, "-shm") == 0)) continue;
        char *path = malloc(strlen(trackedDirectory) + n + 1);
        strcpy(path, trackedDirectory);
        strcat(path, d->d_name);
        (void)entryFor(path);
        free(path);
    }
    if (dir) closedir(dir);
    for (int i = 0; i < entryCount; i++) {
        Entry *e = &entries[i];
        blobFree(&e->current);
        int fd = open(e->path, O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            off_t size = lseek(fd, 0, SEEK_END);
            e->current.bytes = size > 0 ? malloc((size_t)size) : NULL;
            e->current.size = size > 0 && pread(fd, e->current.bytes, (size_t)size, 0) == size ? size : 0;
            close(fd);
        }
        e->durableName = fd >= 0;
        e->sameInode = fd >= 0;
        blobCopy(&e->durable, &e->current);
    }
    pthread_mutex_unlock(&lock);
}

void crashvfs_arm(long long count) {
    pthread_mutex_lock(&lock);
    mutations = 0;
    cutAt = count;
    pthread_mutex_unlock(&lock);
}

void crashvfs_arm_after_delete(const char *suffix) {
    pthread_mutex_lock(&lock);
    free(cutAfterDeleteOf);
    cutAfterDeleteOf = strdup(suffix);
    pthread_mutex_unlock(&lock);
}

void crashvfs_cut(void) {
    pthread_mutex_lock(&lock);
    isCut = 1;
    pthread_mutex_unlock(&lock);
}

int crashvfs_is_cut(void) {
    pthread_mutex_lock(&lock);
    int cut = isCut;
    pthread_mutex_unlock(&lock);
    return cut;
}

long long crashvfs_mutations(void) {
    pthread_mutex_lock(&lock);
    long long n = mutations;
    pthread_mutex_unlock(&lock);
    return n;
}

int crashvfs_restore(void) {
    int failure = 0;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < entryCount; i++) {
        Entry *e = &entries[i];
        if (!e->durableName) {
            if (unlink(e->path) != 0 && errno != ENOENT) failure = errno;
            continue;
        }
        int fd = open(e->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (fd < 0) { failure = errno; continue; }
        if (e->durable.size > 0 && write(fd, e->durable.bytes, (size_t)e->durable.size) != e->durable.size) failure = errno ? errno : EIO;
        close(fd);
    }
    pthread_mutex_unlock(&lock);
    return failure;
}
