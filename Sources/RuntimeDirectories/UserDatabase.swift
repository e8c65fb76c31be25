#if canImport(Glibc)
import Glibc
#endif

/// Lookups in the system's user database (`getpwnam_r`/`getpwuid_r`: reentrant, so
/// safe from any thread).
public enum UserDatabase {
    /// The uid of the user called `name`, or nil when there is none.
    public static func uid(of name: String) -> UInt32? {
        withEntry({ getpwnam_r(name, &$0, $1, $2, &$3) }) { $0.pw_uid }
    }

    /// The name of the user with `uid`, or nil when there is none.
    public static func name(of uid: UInt32) -> String? {
        withEntry({ getpwuid_r(uid, &$0, $1, $2, &$3) }) { String(cString: $0.pw_name) }
    }

    /// The gid of the group called `name`, or nil when there is none.
    public static func gid(ofGroup name: String) -> UInt32? {
        var entry = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 64 << 10)
        return buffer.withUnsafeMutableBufferPointer { bytes -> UInt32? in
            guard getgrnam_r(name, &entry, bytes.baseAddress!, bytes.count, &result) == 0, result != nil else { return nil }
            return entry.gr_gid
        }
    }

    /// The groups of the user with `uid` (primary and supplementary); empty when there is
    /// no such user.
    public static func groups(ofUID uid: UInt32) -> [UInt32] {
        guard let (name, primary) = withEntry({ getpwuid_r(uid, &$0, $1, $2, &$3) }, { (String(cString: $0.pw_name), $0.pw_gid) }) else {
            return []
        }
        var count: Int32 = 64
        while true {
            var groups = [gid_t](repeating: 0, count: Int(count))
            let wanted = count
            if getgrouplist(name, primary, &groups, &count) >= 0 { return Array(groups.prefix(Int(count))) }
            // Too small: `count` now says how many there are.
            guard count > wanted, count <= 65_536 else { return [primary] }
        }
    }

    private static func withEntry<T>(
        _ lookup: (inout passwd, UnsafeMutablePointer<CChar>, Int, inout UnsafeMutablePointer<passwd>?) -> Int32,
        _ read: (passwd) -> T
    ) -> T? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        // Entries are short; 16 KiB holds any sane one (the lookup fails with ERANGE otherwise).
        var buffer = [CChar](repeating: 0, count: 16 << 10)
        // The entry's strings point into `buffer`: read them while it is pinned.
        return buffer.withUnsafeMutableBufferPointer { bytes -> T? in
            guard lookup(&entry, bytes.baseAddress!, bytes.count, &result) == 0, result != nil else { return nil }
            return read(entry)
        }
    }
}
