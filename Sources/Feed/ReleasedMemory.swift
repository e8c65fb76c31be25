import CLinux

/// Gives freed heap pages back to the kernel. glibc keeps what a dropped view freed in
/// its arenas (one per thread that allocated it) for reuse, so without this a daemon's
/// RSS stays at the high-water mark of the views it once held, long after they expired.
enum ReleasedMemory {
    /// `malloc_trim(0)`: every arena's free pages, not only the top of the main heap.
    /// It takes each arena's lock in turn: call it when views went, not on every build.
    static func returnToSystem() {
        _ = malloc_trim(0)
    }
}
