import Foundation

/// Where a recording's finished MP4 goes, and how the recorder and `reel recover` prove that a
/// file there is theirs (a recording must never take another's file).
///
/// At start the recorder *claims* the output: it creates it exclusively (`O_CREAT|O_EXCL`) as a
/// small placeholder whose text names the session (``placeholderText(id:)``). The finished
/// MP4 carries the session id in its `description` tag (``videoStamp(id:)``), and it replaces
/// only the recording's own placeholder. So whatever is found at a path later is one of
/// ``Occupant``, told apart by content (the session id in the checkpoint is the work folder's
/// record of what it wrote), and ``placement(for:occupant:)`` decides where the video goes.
public enum RecordingOutput {
    /// What a path where the video may go holds.
    public enum Occupant: Sendable, Equatable {
        /// No file (and no thumbnail or face track of that name).
        case nothing
        /// This recording's placeholder: claimed, the video not placed yet.
        case ownPlaceholder
        /// This recording's finished MP4 (its stamp names this session).
        case ownVideo
        /// Anything else: another recording, another program's file, a name whose thumbnail
        /// or face track exists. Never replaced, never taken.
        case other
    }

    /// Where the video goes.
    public enum Placement: Sendable, Equatable {
        /// The path already holds this recording's video: nothing to place.
        case alreadyPlaced(String)
        /// Place the video at the path: over this recording's own placeholder, or (``claimFirst``)
        /// after claiming the free name.
        case place(String, claimFirst: Bool)
        /// Every candidate name is taken.
        case noFreeName
    }

    /// How many numbered names are tried after the requested one (`-2` … `-1000`).
    public static let candidateLimit = 1000

    /// The requested path, then `NAME-2.mp4`, `NAME-3.mp4` … (the number goes before the
    /// extension; a name without one gets `-2` at the end).
    public static func candidate(_ path: String, number: Int) -> String {
        guard number >= 2 else { return path }
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        if let dot = path[slash...].lastIndex(of: "."), dot > slash {
            return String(path[..<dot]) + "-\(number)" + String(path[dot...])
        }
        return path + "-\(number)"
    }

    /// The placeholder's text: says what it is (a user who opens it learns why it is there)
    /// and names the session, which is what makes it this recording's.
    public static func placeholderText(id: UUID) -> String {
        "Reel: a study recording in progress will be placed here (session \(id.uuidString.lowercased())); run 'reel recover' if Reel is not running.\n"
    }

    /// The finished MP4's `description` tag: names the session.
    public static func videoStamp(id: UUID) -> String {
        "Reel study session \(id.uuidString.lowercased())"
    }

    /// The MP4 tag ``videoStamp(id:)`` is stored in.
    public static let stampTag = "description"

    /// Whether `bytes` (a file's first bytes) are this session's placeholder.
    public static func isPlaceholder(_ bytes: Data, of id: UUID) -> Bool {
        bytes == Data(placeholderText(id: id).utf8)
    }

    /// Whether `bytes` look like any Reel placeholder (another session's, when not ours).
    public static func looksLikePlaceholder(_ bytes: Data) -> Bool {
        bytes.starts(with: Data("Reel: a study recording in progress".utf8))
    }

    /// Where the video goes, given the requested path and what each candidate holds
    /// (`occupant` is asked in order, only as far as needed).
    ///
    /// The requested path is used when it is free, this recording's placeholder, or already
    /// its video; when another file is there, the first numbered name that is this recording's
    /// (a previous recovery placed or claimed it there) or free (with no thumbnail or face
    /// track of that name either) is used.
    public static func placement(for path: String, occupant: (String) -> Occupant) -> Placement {
        for number in 1...candidateLimit {
            let candidate = candidate(path, number: number)
            switch occupant(candidate) {
            case .ownVideo: return .alreadyPlaced(candidate)
            case .ownPlaceholder: return .place(candidate, claimFirst: false)
            case .nothing: return .place(candidate, claimFirst: true)
            case .other: continue
            }
        }
        return .noFreeName
    }
}
