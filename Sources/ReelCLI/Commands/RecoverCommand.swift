import Foundation
import ReelCore
import ReelMedia
import ReelRecord
import ReelStore

/// `reel recover`: finishes recordings a crash left unfinished.
enum RecoverCommand {
    static let spec = CommandSpec(
        name: "recover",
        summary: "Finish recordings a crash left unfinished: a playable MP4 where it was going, the session in the library.",
        discussion: """
            Looks in reel/recordings of the XDG state folder (~/.local/state) for recordings in \
            progress whose recorder is gone (killed, crashed, power cut). Each becomes the normal \
            MP4 it was going to be (moov first; at most its last 2 s are lost), with its thumbnail \
            and face track beside it, and its session in the library; then its work folder is \
            removed. The video replaces only the recording's own placeholder: when another file \
            holds its --output, that file is left alone and the recording is finished under the \
            next free name (NAME-2.mp4 …). Face positions come from the face log (at most 2 s \
            lost); where they end early (a recording made with an older Reel), they are found \
            again in the video with CenterFace. Running it again changes nothing. A recording still being made is left alone; \
            a folder whose checkpoint is damaged is named and left as it is. Exit status 1 when a \
            folder could not be recovered.
            """,
        options: [LibraryOption.option, VerboseOption.option],
        examples: ["reel recover", "reel recover --library ~/study/library.sqlite"])

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        VerboseOption.apply(arguments, command: "reel recover")
        let recovery = RecordingRecovery(stateFolder: RecordSettings.defaultStateFolder(UserFolders.current),
                                         libraryPath: LibraryOption.path(arguments))
        let outcomes: [RecordingRecovery.Outcome]
        do {
            outcomes = try recovery.run()
        } catch {
            ErrorPrinter.failure(arguments.commandPath, ErrorSentence.describe(error) + "; no recording was touched")
            return 1
        }
        guard !outcomes.isEmpty else {
            print("nothing to recover (no unfinished recording in \(recovery.stateFolder))")
            return 0
        }
        var failed = 0
        for o in outcomes {
            let id = o.id.map { $0.uuidString.lowercased() } ?? (o.folder as NSString).lastPathComponent
            let registered = o.addedToLibrary ? "session added to the library" : "session was already in the library"
            switch o.kind {
            case .recovered:
                var line = "recovered \(id): \(o.outputPath ?? "?") (video \(o.videoSeconds.formatted3) s, active \(StatusLinePrinter.clock(o.activeSeconds))); \(registered)"
                if o.tornBytes > 0 { line += "; cut off a torn last fragment (\(o.tornBytes) bytes)" }
                print(line)
            case .completed:
                print("completed \(id): \(o.outputPath ?? "?") was already finished (video \(o.videoSeconds.formatted3) s); \(registered); work folder removed")
            case .empty:
                print("removed \(id): \(o.message ?? "nothing recorded")")
            case .skipped:
                print("skipped \(o.folder): \(o.message ?? "in use")")
            case .failed:
                failed += 1
                ErrorPrinter.failure(arguments.commandPath, "FAILED \(o.folder): \(o.message ?? "unknown error")")
            }
            if let claimed = o.renamedFrom, o.kind == .recovered || o.kind == .completed {
                print("  \(claimed) is another file (not this recording's), so it was left alone and this recording was finished as \(o.outputPath ?? "?")")
            }
            for note in o.notes { print("  \(note)") }
            for warning in o.warnings { ErrorPrinter.warning(arguments.commandPath, "(\(id)) \(warning)") }
        }
        return failed == 0 ? 0 : 1
    }
}
