import Foundation
import ReelCore
import ReelRecord

/// The body of `POST /api/recording/start`: what `reel record`'s options say, as JSON.
///
/// ```json
/// {"source": "test", "mode": "timelapse", "interval": 5, "title": "Chemistry", "tags": ["exam"]}
/// ```
struct RecordRequest: Decodable, Sendable {
    /// The source (nil: the one chosen with `POST /api/source`).
    var source: String?
    /// `timelapse` or `full`.
    var mode: String
    /// Timelapse: seconds of study between frames (default 5).
    var interval: Double?
    var title: String?
    var tags: [String]?
    /// `1920x1080` (default) or `1280x720`, and portrait.
    var canvas: String?
    var portrait: Bool?
    /// Track faces (default true).
    var faces: Bool?
    /// The output folder (an absolute path): the recording goes there under the name `reel
    /// record` gives it, numbered when taken (default: reel/recordings of the XDG data folder).
    var folder: String?
    /// The disk floor: hours of recording the disks must hold for the recording to start
    /// (`reel record --min-hours`, default 1; 0 starts anyway).
    var minHours: Double?

    /// The recorder's settings, built and checked as `reel record` builds and checks its
    /// options (``RecordSettings/study(source:mode:interval:canvas:portrait:title:tags:output:folders:libraryPath:environment:)``).
    func settings(source: SourceSpec, folders: XDGDirectories, libraryPath: String) throws(StudioRefusal) -> RecordSettings {
        guard let mode = RecordingMode(rawValue: mode) else {
            throw .init(status: 400, message: "mode: '\(self.mode)' is not a mode; use timelapse or full")
        }
        if mode == .full, interval != nil { throw .init(status: 400, message: "interval: applies to timelapse only") }
        let intervalSeconds = interval ?? 5
        guard intervalSeconds.isFinite, intervalSeconds > 0 else { throw .init(status: 400, message: "interval: must be a positive number of seconds") }
        let canvasText = canvas ?? RecordingCanvas.hd1080.rawValue
        guard let canvas = RecordingCanvas(rawValue: canvasText) else {
            throw .init(status: 400, message: "canvas: '\(canvasText)' is not offered; use " + RecordingCanvas.allCases.map(\.rawValue).joined(separator: " or "))
        }
        var settings = RecordSettings.study(source: source, mode: mode, interval: MediaTime(seconds: intervalSeconds), canvas: canvas,
                                            portrait: portrait ?? false, title: title.flatMap { $0.isEmpty ? nil : $0 },
                                            tags: tags ?? [], output: nil, folders: folders, libraryPath: libraryPath)
        settings.facesRequested = faces ?? true
        if let folder, !folder.isEmpty {
            guard folder.hasPrefix("/") else { throw .init(status: 400, message: "folder: the output folder must be an absolute path (/…)") }
            let name = (settings.outputPath as NSString).lastPathComponent
            settings.outputPath = (folder as NSString).appendingPathComponent(name)
        }
        if let minHours { settings.minHours = minHours }
        do {
            try settings.validate()
        } catch {
            // The checks speak of the command line's options ("--title: …"); the API's fields
            // have the same names.
            let message = String(error.description.trimmingPrefix("--"))
            let field = message.hasPrefix("tag:") ? "tags:" + message.dropFirst("tag:".count) : message
            throw .init(status: 400, message: field.hasPrefix("min-hours") ? "minHours" + field.dropFirst("min-hours".count) : field)
        }
        return settings
    }
}
