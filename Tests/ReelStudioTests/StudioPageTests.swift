import Foundation
import ReelCore
@testable import ReelStudio
import ReelTestSupport
import Testing

/// The page's files as the studio serves them, and the event names the page listens for. The
/// files are read from the source tree (`Sources/ReelStudio/Page/Assets`); the studio has them
/// compiled in (SwiftPM's embedInCode), so the two must not drift apart.
@Suite("Studio page")
struct StudioPageTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/ReelStudio/Page/Assets")
    /// `/assets/` files the studio writes itself instead of embedding a file.
    static let generated: [String: [UInt8]] = ["events.js": StudioEvent.script, "states.js": StudioStates.script]

    static func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// Every script of the page: its name and text.
    static func scripts() throws -> [(name: String, text: String)] {
        try files().filter { $0.hasSuffix(".js") }.map { ($0, String(decoding: try bytes($0), as: UTF8.self)) }
    }

    @Test("every file of the page's folder is served byte for byte, at / or /assets/NAME, and nothing else is")
    func servedFilesAreTheFiles() async throws {
        let files = try Self.files()
        #expect(files.contains("index.html") && files.contains("app.js"), "\(Self.folder.path)")
        #expect(Set(StudioPage.assets.keys) == Set(files).subtracting(["index.html"]).union(Self.generated.keys))
        #expect(StudioRoute.assetNames == Set(StudioPage.assets.keys), "the route lets through exactly the page's files")
        try await withStudio { studio in
            let page = try curl(["-H", "Authorization: Bearer \(studio.token)", studio.base + "/"])
            let html = try Self.bytes("index.html")
            #expect(page.status == 200 && Array(page.body) == html, "index.html")
            for name in StudioRoute.assetNames.sorted() {
                let asset = try curl(["-H", "Authorization: Bearer \(studio.token)", studio.base + "/assets/" + name])
                let expected = try Self.generated[name] ?? Self.bytes(name)
                #expect(asset.status == 200 && Array(asset.body) == expected, "\(name): \(asset.body.count) bytes served, \(expected.count) expected")
                let type = name.hasSuffix(".js") ? "text/javascript" : name.hasSuffix(".css") ? "text/css" : "image/svg+xml"
                #expect(asset.headers["content-type"]?.hasPrefix(type) == true, "\(name): \(asset.headers["content-type"] ?? "no type")")
            }
        }
    }

    @Test("each event's key in EVENTS is its case's name, so EVENTS.overlayPhoto in the page is .overlayPhoto here")
    func keysAreCaseNames() {
        for event in StudioEvent.allCases {
            #expect(event.key == String(describing: event), "\(event.rawValue)")
        }
        #expect(Set(StudioEvent.allCases.map(\.rawValue)).count == StudioEvent.allCases.count)
    }

    @Test("events.js is an ES module (node parses and runs it) whose frozen EVENTS maps each key to its event's name")
    func eventsScriptRuns() throws {
        let run = try Subprocess.run("node", ["--input-type=module"],
                                     input: String(decoding: StudioEvent.script, as: UTF8.self)
                                         + "\nconsole.log(Object.isFrozen(EVENTS), JSON.stringify(EVENTS));\n")
        #expect(run.status == 0, "\(run.stderr)")
        let parts = run.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ", maxSplits: 1)
        #expect(parts.first == "true", "EVENTS is frozen")
        let decoded = try JSONDecoder().decode([String: String].self, from: Data((parts.last ?? "").utf8))
        #expect(decoded == Dictionary(uniqueKeysWithValues: StudioEvent.allCases.map { ($0.key, $0.rawValue) }))
    }

    @Test("the page's scripts name events only as EVENTS.x, each x a StudioEvent, and listen for every event")
    func scriptsUseTheEventList() throws {
        let keys = Set(StudioEvent.allCases.map(\.key))
        let names = Set(StudioEvent.allCases.map(\.rawValue))
        let used = /EVENTS\.([A-Za-z_$][A-Za-z0-9_$]*)/
        let literal = /addEventListener\(\s*(["'`])([^"'`]*)\1/
        var heard = Set<String>()
        for (name, text) in try Self.scripts() {
            for match in text.matches(of: used) {
                let key = String(match.output.1)
                #expect(keys.contains(key), "\(name): EVENTS.\(key) is no StudioEvent")
                heard.insert(key)
            }
            for match in text.matches(of: literal) where names.contains(String(match.output.2)) {
                Issue.record("\(name): addEventListener(\(match.output.1)\(match.output.2)\(match.output.1)…) types an event's name; use EVENTS")
            }
        }
        #expect(heard == keys, "events the studio sends that no script listens for: \(keys.subtracting(heard).sorted())")
    }
}
