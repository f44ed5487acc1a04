import Foundation
import ReelCore
import ReelExport
import ReelStore

/// `reel review`: the segments of a session's face track, and edits to them before export.
enum ReviewCommand {
    static let session = Positional("SESSION", help: "The session: its id or the first characters of it, or 'last'.")
    static let segment = Option.value("segment", short: "n", as: Int.self, help: "The segment to edit (see the listing).")
    static let offset = Option.value("offset", placeholder: "DX,DY", help: "Move the segment's boxes by DX,DY (fractions of the picture, e.g. 0.02,-0.05).")
    static let scale = Option.value("scale", as: Double.self, help: "Scale the segment's boxes about their centres (0.1 to 10).")
    static let disable = Option.flag("disable", help: "No mosaic for the segment (its pictures are exported as recorded).")
    static let enable = Option.flag("enable", help: "The mosaic again for a disabled segment.")
    static let stamp = Option.value("stamp", placeholder: "IMAGE.png", help: "An image over the face instead of the mosaic, for this segment.")
    static let noStamp = Option.flag("no-stamp", help: "The mosaic instead of the segment's stamp.")
    static let reset = Option.flag("reset", help: "Forget every edit of the segment.")
    static let frames = Option.value("frames", placeholder: "DIR",
                                     help: "Where the segment pictures go (default: reel/review/ID in the XDG cache folder, ~/.cache).")
    static let json = Option.flag("json", help: "The segments as a JSON array, for scripts.")

    static let spec = CommandSpec(
        name: "review",
        summary: "Review a session's face segments and edit them before export.",
        discussion: """
            A segment is a stretch of the recording where the face was found the same way \
            (detected, or estimated from an upper body, or a wider box around the last face, or \
            the default top region). The listing gives each segment's time range, kind, mean box \
            and a picture (PNG) with the box drawn. Edits go to NAME.privacy.json beside the \
            video; the recorded positions themselves never change, so 'reel review --segment N \
            --reset' always gets back to them. 'reel export' applies the edits.
            """,
        options: [segment, offset, scale, disable, enable, stamp, noStamp, reset, frames, json, LibraryOption.option],
        positionals: [session],
        examples: [
            "reel review last",
            "reel review last --segment 3 --disable",
            "reel review 4c1f --segment 2 --offset 0,-0.04 --scale 1.2",
            "reel review 4c1f --segment 5 --stamp ~/smiley.png",
        ])

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        do {
            let (changes, chosen) = try requestedChanges(arguments)
            let (media, track, stored) = try reviewed(arguments)
            var edits = stored
            let summaries = SegmentSummary.list(for: track)
            if let number = chosen, !changes.isEmpty {
                try edit(segment: number, with: changes, summaries: summaries, track: track, media: media, edits: &edits,
                         quiet: arguments.flag(json))
            }
            let folder = arguments.string(frames).map(ExportCommand.absolute)
                ?? UserFolders.current.cache + "/reel/review/" + media.session.id.uuidString.lowercased()
            let pictures: [FaceSegmentID: String]
            do {
                pictures = try SegmentFrames.write(video: media.session.filePath, summaries: summaries, track: track, edits: edits, into: folder)
            } catch {
                throw Refusal("the segment pictures could not be made: \(error)")
            }
            if arguments.flag(json) {
                try printJSON(track, edits: edits, pictures: pictures)
            } else {
                printTable(summaries, edits: edits, pictures: pictures)
            }
            return 0
        } catch let refusal as Refusal {
            ErrorPrinter.failure("reel review", refusal.message)
            return refusal.status
        }
    }

    /// Why the review did nothing: the message after "reel review: " and the exit status.
    private struct Refusal: Error {
        var message: String
        var status: Int32
        init(_ message: String, status: Int32 = 1) {
            self.message = message
            self.status = status
        }
    }

    /// The edits the options ask for, and the segment they go to (needed when any is asked).
    private static func requestedChanges(_ arguments: ParsedArguments) throws -> ([PrivacyEdits.Change], Int?) {
        var changes: [PrivacyEdits.Change] = []
        if let text = arguments.string(offset) {
            let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2, let dx = parts[0], let dy = parts[1] else { throw arguments.invalid(offset, expected: "two numbers DX,DY such as 0.02,-0.05") }
            changes.append(.offset(dx: dx, dy: dy))
        }
        if let value = try arguments.double(scale) { changes.append(.scale(value)) }
        if arguments.flag(disable) { changes.append(.disable) }
        if arguments.flag(enable) { changes.append(.enable) }
        if let image = arguments.string(stamp) {
            let path = ExportCommand.absolute(image)
            guard FileManager.default.isReadableFile(atPath: path) else { throw Refusal("the stamp image \(path) cannot be read") }
            changes.append(.stamp(path))
        }
        if arguments.flag(noStamp) { changes.append(.removeStamp) }
        if arguments.flag(reset) { changes.append(.reset) }
        let chosen = try arguments.int(segment)
        if !changes.isEmpty && chosen == nil {
            throw Refusal("an edit needs --segment N (the listing shows the numbers)\nRun 'reel review --help' for usage.",
                          status: ReelCommandLine.usageExitCode)
        }
        if arguments.flag(disable) && arguments.flag(enable) {
            throw Refusal("--disable and --enable contradict each other", status: ReelCommandLine.usageExitCode)
        }
        return (changes, chosen)
    }

    /// The session's media, its face track (refused without face positions) and its edits.
    private static func reviewed(_ arguments: ParsedArguments) throws -> (SessionMedia, FaceTrack, PrivacyEdits) {
        do {
            let found = try StudySession.find(try LibraryOption.sessionReference(arguments, session), in: try LibraryOption.openExisting(arguments).sessions())
            let media = SessionMedia(found)
            let stored = try media.faceTrack()
            guard let stored, !stored.samples.isEmpty else {
                throw Refusal("session \(found.id.uuidString.lowercased().prefix(8)) has no face positions to review: \(media.missingFacesReason(stored)); "
                              + "'reel export --all-faces' finds faces in its video instead")
            }
            return (media, stored, try media.edits())
        } catch let refusal as Refusal {
            throw refusal
        } catch {
            throw Refusal("\(error)")
        }
    }

    /// Applies `changes` to segment `number` and stores the edits; says so unless `quiet`.
    private static func edit(segment number: Int, with changes: [PrivacyEdits.Change], summaries: [SegmentSummary], track: FaceTrack,
                             media: SessionMedia, edits: inout PrivacyEdits, quiet: Bool) throws {
        guard let target = summaries.first(where: { $0.id.segment == number }) else {
            throw Refusal("no segment \(number); the segments are \(summaries.map { String($0.id.segment) }.joined(separator: ", "))")
        }
        do {
            for change in changes { try edits.apply(change, to: target.id, in: track) }
            try media.save(edits)
        } catch {
            throw Refusal("\(error)")
        }
        if !quiet { print("segment \(number): \(describe(edits.edit(for: target.id))) (saved in \(media.editsPath))") }
    }

    /// The segments as a JSON array (the studio's review answers the same rows).
    private static func printJSON(_ track: FaceTrack, edits: PrivacyEdits, pictures: [FaceSegmentID: String]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(ReviewSegmentJSON.rows(track, edits: edits, pictures: pictures)), as: UTF8.self))
    }

    /// The segments as a table.
    private static func printTable(_ summaries: [SegmentSummary], edits: PrivacyEdits, pictures: [FaceSegmentID: String]) {
        var rows = [["SEG", "FACE", "FROM", "TO", "KIND", "MEAN BOX x,y w×h %", "EDIT", "PICTURE"]]
        for s in summaries {
            let b = s.meanBox
            func pct(_ v: Double) -> String { String(Int((v * 100).rounded())) }
            rows.append([String(s.id.segment), String(s.id.subject), minutes(s.start.seconds), minutes(s.end.seconds), s.kind.reviewName,
                         "\(pct(b.x)),\(pct(b.y)) \(pct(b.width))×\(pct(b.height))", describe(edits.edit(for: s.id)), pictures[s.id] ?? "-"])
        }
        print(LibraryCommandText.table(rows), terminator: "")
    }

    static func describe(_ edit: PrivacyEdits.SegmentEdit) -> String {
        guard !edit.isEmpty else { return "-" }
        var parts: [String] = []
        if edit.disabled { parts.append("no mosaic") }
        if edit.dx != 0 || edit.dy != 0 { parts.append("moved \(edit.dx),\(edit.dy)") }
        if edit.scale != 1 { parts.append("scaled \(edit.scale)") }
        if let stamp = edit.stamp { parts.append("stamp \((stamp as NSString).lastPathComponent)") }
        return parts.joined(separator: ", ")
    }

    static func minutes(_ seconds: Double) -> String {
        let tenths = Int((seconds * 10).rounded())
        return "\(tenths / 600):" + String(format: "%02d.%d", tenths / 10 % 60, tenths % 10)
    }
}
