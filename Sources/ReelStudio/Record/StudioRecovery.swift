import Foundation
import ReelCore
import ReelRecord

/// The record view's unfinished recordings: the work folders a recorder left behind (killed,
/// crashed, power cut), listed, and finished on request by ReelRecord's ``RecordingRecovery``,
/// the code `reel recover` runs, into the library the studio serves.
struct StudioRecovery: Sendable {
    let stateFolder: String
    let libraryPath: String

    /// One unfinished recording: `GET /api/recordings/unfinished`.
    struct Unfinished: Encodable, Sendable {
        var folder: String
        @NullWhenNil var id: String? = nil
        @NullWhenNil var title: String? = nil
        @NullWhenNil var mode: String? = nil
        @NullWhenNil var startedAt: String? = nil
        @NullWhenNil var outputPath: String? = nil
        /// Why its checkpoint cannot be read (recovery names it and leaves it as it is).
        @NullWhenNil var problem: String? = nil
    }

    /// What a recovery did: `POST /api/recordings/recover`.
    struct Answer: Encodable, Sendable {
        /// One line per folder, as `reel recover` prints them.
        var lines: [String]
        /// The lines joined, for the page's message.
        var summary: String
        var recovered: Int
        var failed: Int
        var warned: Bool
        /// What is still unfinished afterwards (a folder that failed, one still being written).
        var unfinished: [Unfinished]
    }

    private var recovery: RecordingRecovery { RecordingRecovery(stateFolder: stateFolder, libraryPath: libraryPath) }

    /// The recordings no running recorder holds, oldest folder name first.
    func unfinished() -> [Unfinished] {
        recovery.unfinishedRecordings().map { folder, checkpoint in
            switch checkpoint {
            case .success(let checkpoint):
                Unfinished(folder: folder, id: checkpoint.id.uuidString.lowercased(), title: checkpoint.title,
                           mode: checkpoint.mode.rawValue, startedAt: ISO8601DateFormatter().string(from: checkpoint.startedAt), outputPath: checkpoint.outputPath)
            case .failure(let error):
                Unfinished(folder: folder, problem: "\(error)")
            }
        }
    }

    /// Finishes every unfinished recording, as `reel recover` does.
    func recover() throws(StudioRefusal) -> Answer {
        let outcomes: [RecordingRecovery.Outcome]
        do { outcomes = try recovery.run() } catch {
            throw StudioRefusal(status: 500, message: "the library cannot be opened: \(error); no recording was touched")
        }
        let lines = outcomes.isEmpty ? ["Nothing to recover."] : outcomes.map(Self.line)
        return Answer(lines: lines, summary: lines.joined(separator: " "),
                      recovered: outcomes.count { $0.kind == .recovered || $0.kind == .completed },
                      failed: outcomes.count { $0.kind == .failed }, warned: outcomes.contains { !$0.warnings.isEmpty },
                      unfinished: unfinished())
    }

    /// What happened to one folder, in the page's words.
    static func line(_ outcome: RecordingRecovery.Outcome) -> String {
        // The id's first 8 characters, as the library's lists show a session.
        let short = (outcome.id.map { $0.uuidString.lowercased() } ?? (outcome.folder as NSString).lastPathComponent).prefix(8)
        let output = outcome.outputPath ?? "?"
        var line = switch outcome.kind {
        case .recovered: "Recovered \(short) into \(output) (\(outcome.videoSeconds.formatted(.number.precision(.fractionLength(1)))) s of video)."
        case .completed: "Recovered \(short): \(output) was already finished."
        case .empty: "Removed \(short): \(outcome.message ?? "nothing was recorded")."
        // A recorder holds it: one run by the studio or by `reel record`.
        case .skipped: "Left \(short) alone: it is still being recorded."
        case .failed: "Could not recover \(short): \(outcome.message ?? "unknown error")."
        }
        if outcome.kind == .recovered || outcome.kind == .completed {
            line += outcome.addedToLibrary ? " Its session is in the library." : " Its session was in the library already."
            if let claimed = outcome.renamedFrom { line += " \(claimed) is another file, so it was finished under this name." }
        }
        for warning in outcome.warnings { line += " Warning: \(warning)." }
        return line
    }
}

extension StudioServer {
    /// The recordings a crash left in the studio's XDG state folder, recovered into its library.
    var recovery: StudioRecovery {
        StudioRecovery(stateFolder: RecordSettings.defaultStateFolder(settings.folders), libraryPath: settings.libraryPath)
    }
}
