/// Finding a session the way a user names it on the command line (`reel export`, `reel
/// review`, `reel tag`): `last`, or the start of its id.
extension StudySession {
    /// Why a reference names no single session.
    public enum LookupError: Swift.Error, CustomStringConvertible, Equatable {
        /// `last` in an empty library.
        case noSessions
        /// Fewer than 4 characters of an id.
        case tooShort(String)
        /// Has characters no id has (ids are hexadecimal digits and hyphens).
        case notAnID(String)
        /// No id starts with it.
        case noMatch(String)
        /// Several ids start with it.
        case ambiguous(String, count: Int)

        public var description: String {
            switch self {
            case .noSessions: "the library has no sessions yet (reel record adds them)"
            case .tooShort(let r): "'\(r)': give at least 4 characters of a session id (see reel sessions --json), or 'last'"
            case .notAnID(let r): "'\(r)' is not a session id: ids are hexadecimal digits (see reel sessions --json), or use 'last'"
            case .noMatch(let r): "no session id starts with '\(r)' (reel sessions --json lists the ids)"
            case .ambiguous(let r, let count): "'\(r)' matches \(count) sessions; give more of the id"
            }
        }
    }

    /// Checks the form of `reference` without a library: `last`, or at least 4 characters of
    /// an id (hexadecimal digits and hyphens). A malformed one is the user's typing mistake
    /// (``LookupError/tooShort(_:)``, ``LookupError/notAnID(_:)``), not a missing session.
    public static func checkReference(_ reference: String) throws(LookupError) {
        guard reference != "last" else { return }
        guard reference.count >= 4 else { throw .tooShort(reference) }
        guard reference.allSatisfy({ $0 == "-" || $0.isHexDigit }) else { throw .notAnID(reference) }
    }

    /// The session `reference` names among `sessions`: `last` (the newest by start), or its id
    /// or the start of it (at least 4 characters, any case, unique).
    public static func find(_ reference: String, in sessions: [StudySession]) throws(LookupError) -> StudySession {
        try checkReference(reference)
        if reference == "last" {
            guard let newest = sessions.max(by: { $0.startedAt < $1.startedAt }) else { throw .noSessions }
            return newest
        }
        let key = reference.lowercased()
        let matches = sessions.filter { $0.id.uuidString.lowercased().hasPrefix(key) }
        switch matches.count {
        case 1: return matches[0]
        case 0: throw .noMatch(reference)
        default: throw .ambiguous(reference, count: matches.count)
        }
    }
}
