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

    /// Fixes glibc's mmap threshold at 4 MiB, so that every larger block (a fetched
    /// body, up to 64 MiB) is its own mapping, unmapped when freed. glibc otherwise
    /// raises the threshold to the size of each mapped block freed (up to 32 MiB), and
    /// the next such block then comes from a thread's arena, where, freed, it joins the
    /// arena's top, which `malloc_trim` does not give back for arenas other than the
    /// main one: three aborted 64 MiB downloads kept about 100 MB (issue 52).
    static func mapLargeBlocksAlways() {
        _ = mallopt(M_MMAP_THRESHOLD, 4 << 20)
    }
}
