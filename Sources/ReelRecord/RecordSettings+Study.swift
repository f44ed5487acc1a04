import Foundation
import ReelCore

extension RecordSettings {
    /// A study recording as `reel record` and Reel Studio both start one: the output in
    /// `reel/recordings` of the XDG data folder unless `output` names one (the default name
    /// numbered when taken, a chosen one refused), the work folder in the XDG state folder,
    /// the thermal zones from `REEL_THERMAL_FOLDER` when set, title and tags trimmed to the
    /// library's rules. Not validated yet: call ``validate()``.
    public static func study(source: SourceSpec, mode: RecordingMode, interval: MediaTime, canvas: RecordingCanvas, portrait: Bool,
                             title: String?, tags: [String], output: String?, folders: XDGDirectories, libraryPath: String?,
                             environment: [String: String] = ProcessInfo.processInfo.environment) -> RecordSettings {
        let trimmedTitle = title.map { (try? LibraryName.validate($0, as: .title)) ?? $0 }
        var names: [String] = []
        for text in tags {
            let name = (try? Tag(text).name) ?? text
            if !names.contains(name) { names.append(name) }
        }
        var settings = RecordSettings(source: source, mode: mode, interval: interval, canvas: canvas, portrait: portrait,
                                      title: trimmedTitle, tags: names,
                                      outputPath: output ?? defaultOutputPath(folders, mode: mode),
                                      stateFolder: defaultStateFolder(folders), libraryPath: libraryPath)
        settings.numbersOutputWhenTaken = output == nil
        if let folder = environment["REEL_THERMAL_FOLDER"], !folder.isEmpty { settings.thermalFolder = folder }
        return settings
    }
}

extension RecordingRecovery {
    /// What other recordings running now mean for `settings`: one from the same camera is a
    /// refusal (one camera cannot feed two recordings); any other is a warning, since the time
    /// both record counts once in the stats.
    public func conflicts(with settings: RecordSettings) -> (refusal: String?, warnings: [String]) {
        let running = runningRecordings()
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm"
        func label(_ other: RecordingCheckpoint) -> String {
            "session \(other.id.uuidString.lowercased().prefix(8)), since \(formatter.string(from: other.startedAt)), into \(other.outputPath)"
        }
        if let device = settings.source.exclusiveDevice, let same = running.first(where: { $0.device == device }) {
            return ("another reel record is recording from \(device) (\(label(same))); one camera cannot feed two recordings — stop that one first", [])
        }
        return (nil, running.map { "another reel record is running (\(label($0))); time recorded by both at once counts once in reel stats" })
    }
}

extension VisionFaceTracker {
    /// The tracker a recording uses: the installed one when `requested`, else none. When the
    /// models are missing, none and a warning saying what that means.
    public static func forRecording(requested: Bool) -> (make: @Sendable () -> any FaceTracker, warning: String?) {
        guard requested else { return ({ NoFaceTracker() }, nil) }
        do {
            let installed = try installed()
            let tracker = installed.tracker
            return ({ tracker }, installed.warning.map { String($0.trimmingPrefix("warning: ")) })
        } catch {
            return ({ NoFaceTracker() }, "face tracking is unavailable (\(error)); recording without face positions, so export with --all-faces")
        }
    }
}
