import Foundation
import ReelCore
@testable import ReelStudio
import Testing

/// The snapshots and answers that say "none" with `null` (``NullWhenNil``): every key is
/// written, a nil one as `null`, a set one as its value.
@Suite("Studio JSON nulls")
struct StudioJSONNullTests {
    /// The JSON object `value` is written as, its keys and which of them are null.
    func keys(_ value: some Encodable) throws -> (all: Set<String>, null: Set<String>) {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(StudioJSON.line(value).utf8)) as? [String: Any])
        return (Set(object.keys), Set(object.filter { $0.value is NSNull }.keys))
    }

    @Test("a fresh backup snapshot is written whole, its nils as null, byte for byte as before")
    func backup() {
        #expect(StudioJSON.line(StudioBackup.Snapshot()) == #"{"bytesDone":0,"bytesTotal":0,"filesDone":0,"filesTotal":0,"folder":null,"#
            + #""lastBackupAt":null,"message":null,"missing":[],"sessionsInBackup":null,"state":"idle"}"#)
        #expect(StudioJSON.line(StudioBackup.Snapshot(folder: "/b", sessionsInBackup: 3)).contains(#""folder":"/b","#))
    }

    @Test("the live and export snapshots keep every key: nil as null, a value as itself")
    func snapshots() throws {
        let live = try keys(StudioLive.Snapshot())
        #expect(live.all == ["state", "streamID", "source", "origin", "output", "quality", "landscape", "playlistURL", "viewerURL", "archivePath",
                             "elapsed", "segmentsPublished", "segmentsProduced", "backlog", "droppedFrames", "bitRate", "failedAttempts",
                             "archiveFrames", "archiveSkippedFrames", "privacy", "privacyArchive", "privacyLatePictures", "privacyWholePictures",
                             "privacyFailed", "lines", "warnings", "message"])
        #expect(live.null == ["streamID", "source", "origin", "output", "quality", "playlistURL", "viewerURL", "archivePath", "archiveFrames", "archiveSkippedFrames",
                              "privacy", "message"])
        let exports = try keys(StudioExports.Snapshot())
        #expect(exports.all == ["state", "kind", "session", "label", "fraction", "frames", "secondsLeft", "output", "fileName", "bytes", "message", "warnings"])
        #expect(exports.null == ["kind", "session", "label", "fraction", "secondsLeft", "output", "fileName", "bytes", "message"])
        let running = try keys(StudioExports.Snapshot(state: .running, kind: "export", fraction: 0.5, bytes: 12))
        #expect(running.all == exports.all && running.null == ["session", "label", "secondsLeft", "output", "fileName", "message"])
        #expect(StudioJSON.line(StudioExports.Snapshot(fraction: 0.5)).contains(#""fraction":0.5,"#))
    }

    @Test("a material typed in by hand says its source is null, not missing")
    func materialAnswer() throws {
        let material = try StudyMaterial(isbn: nil, title: "Linear Algebra", author: nil, publisher: nil, coverPath: nil,
                                         addedAt: Date(timeIntervalSince1970: 0))
        let typed = try keys(MaterialAnswer(material: StudyMaterialJSON(material), source: nil, warnings: []))
        #expect(typed.all == ["material", "source", "warnings"] && typed.null == ["source"])
        #expect(StudioJSON.line(MaterialAnswer(material: StudyMaterialJSON(material), source: "openBD", warnings: [])).contains(#""source":"openBD""#))
    }
}
