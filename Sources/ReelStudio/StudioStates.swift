import ReelCore

/// Where a recording is, as ``RecordingSnapshot`` sends it to the page.
public enum StudioRecordingState: String, Codable, Sendable, CaseIterable {
    /// None yet.
    case idle
    case starting
    case recording
    case paused
    /// The source stopped delivering; the recording waits for it.
    case interrupted
    /// Stopped; the file is being finished (until the recorder's final report).
    case finishing
    case finished
    case failed

    /// The recorder's state as the page is told it: finished only with the final report.
    init(_ state: RecordingStateMachine.State) {
        self = switch state {
        case .recording: .recording
        case .paused: .paused
        case .interrupted: .interrupted
        case .finished: .finishing
        }
    }

    /// Whether a recording is under way (not idle, finished or failed).
    public var isActive: Bool {
        switch self {
        case .starting, .recording, .paused, .interrupted, .finishing: true
        case .idle, .finished, .failed: false
        }
    }
}

/// Where the live stream is, as the live view's snapshot sends it.
enum StudioLiveState: String, Encodable, Sendable, CaseIterable {
    case idle
    case starting
    /// Its first segment is out.
    case live
    case stopping
    case finished
    case failed
}

/// Where a job of the studio's own thread is: the export or vlog, the backup, the refocus.
enum StudioJobState: String, Encodable, Sendable, CaseIterable {
    case idle
    case running
    case finished
    /// Stopped by the page or the studio; nothing is left of it.
    case stopped
    case failed
}

/// `/assets/states.js`: the states above as the page compares them. The page does not retype a
/// state: it imports `RECORDING`, `LIVE` and `JOB` from `/assets/states.js`, which the studio
/// writes from these enums (``script``), and compares `snapshot.state === JOB.running` and the
/// like; ReelStudioTests checks that every name the scripts use is a case here and that no
/// script compares a state with a literal.
enum StudioStates {
    /// Each list's name in the script, and its states.
    static let lists: [(name: String, states: [String])] = [
        ("RECORDING", StudioRecordingState.allCases.map(\.rawValue)),
        ("LIVE", StudioLiveState.allCases.map(\.rawValue)),
        ("JOB", StudioJobState.allCases.map(\.rawValue)),
    ]

    /// An ES module that exports each list, frozen, each state under its own name.
    static let script: [UInt8] = {
        var lines = ["// The states of the studio's jobs as their snapshots send them, written by the studio from",
                     "// StudioRecordingState, StudioLiveState and StudioJobState (Sources/ReelStudio/StudioStates.swift):",
                     "// compare a snapshot's state with these, never with a state typed out."]
        for list in lists {
            lines.append("export const \(list.name) = Object.freeze({")
            lines += list.states.map { "  \($0): \"\($0)\"," }
            lines.append("});")
        }
        return Array((lines + [""]).joined(separator: "\n").utf8)
    }()
}
