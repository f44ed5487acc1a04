import Foundation
import ReelTestSupport
import Testing

/// `reel stats --svg FILE` through the binary: the chart is placed whole, and a failed
/// placement leaves no temporary file behind (ReelStore's StudyStatsChartFile).
@Suite
struct StatsChartFileTests {
    func stats(_ arguments: [String], home: TemporaryDirectory) throws -> Subprocess {
        try ReelBinary.run(["stats"] + arguments, environment: ["HOME": home.url.path, "XDG_DATA_HOME": home.path("data"),
                                                                "XDG_STATE_HOME": home.path("state"), "XDG_CACHE_HOME": home.path("cache")])
    }

    @Test("the chart replaces an old file whole; nothing else is left in the folder")
    func replaces() throws {
        let home = try TemporaryDirectory()
        defer { home.cleanup() }
        try "old".write(toFile: home.path("week.svg"), atomically: false, encoding: .utf8)
        let run = try stats(["--svg", home.path("week.svg")], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        let svg = try String(contentsOfFile: home.path("week.svg"), encoding: .utf8)
        #expect(svg.hasPrefix("<svg") || svg.hasPrefix("<?xml"), "\(svg.prefix(80))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.url.path).sorted() == ["week.svg"])
    }

    @Test("a path that is a folder: exit 1 with the reason in words, and no temporary file left")
    func failureCleansUp() throws {
        let home = try TemporaryDirectory()
        defer { home.cleanup() }
        try FileManager.default.createDirectory(atPath: home.path("chart.svg"), withIntermediateDirectories: false)
        let run = try stats(["--svg", home.path("chart.svg")], home: home)
        #expect(run.status == 1)
        #expect(run.stderr == "reel stats: cannot write the chart to \(home.path("chart.svg")): it is a folder, not a file\n", "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.url.path).sorted() == ["chart.svg"])
    }
}
