#ifndef CCRASHVFS_H
#define CCRASHVFS_H

/*
 * A SQLite VFS for power-cut tests ("crash"): it wraps the default unix VFS and keeps,
 * for each file under the tracked directory, what a power cut would leave of it: the
 * content as of its last fsync, and whether its name is in the directory durably (a
 * directory fsync since it was created or deleted). A cut turns every later write,
 * sync, truncate and delete of those files into an I/O error; `crashvfs_restore` then
 * puts each file back as the disk would have it. SQLite tests its own crash safety
 * this way (test_syncio.c, the crash tests).
 *
 * Only files opened through this VFS are tracked, plus those present when
 * `crashvfs_mark_durable` runs. Directory fsyncs are seen through the unix VFS's
 * `openDirectory` system call (it opens the directory right before fsyncing it, in
 * xSync for a new journal or WAL, and in xDelete with dirSync); a directory fsync made
 * outside SQLite is not seen.
 */

/// Registers the VFS as "crash" (not the default) and installs the openDirectory hook;
/// idempotent. Returns SQLITE_OK.
int crashvfs_register(void);

/// Starts a round: forgets every file, tracks the files under `directory` (a path
/// ending in "/"), not cut and not armed.
void crashvfs_track(const char *directory);

/// Takes every tracked file and every file now in the tracked directory as durable,
/// with its present content (as after a sync of everything).
void crashvfs_mark_durable(void);

/// Cuts the power at the `mutations`-th write, sync, truncate or delete of a tracked
/// file from now (that one fails too); 0 disarms.
void crashvfs_arm(long long mutations);

/// Cuts the power at the first mutation after the next delete of a tracked file whose
/// name ends in `suffix` (such as "-journal": right after a rollback journal's commit).
void crashvfs_arm_after_delete(const char *suffix);

/// Cuts the power now.
void crashvfs_cut(void);

/// Whether the power was cut.
int crashvfs_is_cut(void);

/// Writes, syncs, truncates and deletes of tracked files since `crashvfs_arm`.
long long crashvfs_mutations(void);

/// Puts every tracked file back as a power cut leaves it: its last synced content
/// where its name was durable, else removed. Call with no connection open on them.
/// Returns 0, or an errno value.
int crashvfs_restore(void);

#endif
