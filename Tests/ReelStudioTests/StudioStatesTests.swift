import Foundation
@testable import ReelStudio
import ReelTestSupport
import Testing

/// The job states the snapshots send and the page compares: one Swift enum each
/// (``StudioRecordingState``, ``StudioLiveState``, ``StudioJobState``), which the page reads from
/// the generated `/assets/states.js` instead of typing a state out.
@Suite("Studio job states")
struct StudioStatesTests {
    @Test("states.js is an ES module (node runs it) whose frozen lists map each state to itself")
    func scriptRuns() throws {
        let names = StudioStates.lists.map(\.name)
        let run = try Subprocess.run("node", ["--input-type=module"],
                                     input: String(decoding: StudioStates.script, as: UTF8.self)
                                         + "\nfor (const list of [\(names.joined(separator: ", "))]) console.log(Object.isFrozen(list), JSON.stringify(list));\n")
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == StudioStates.lists.count)
        for (line, list) in zip(lines, StudioStates.lists) {
            let parts = line.split(separator: " ", maxSplits: 1)
            #expect(parts.first == "true", "\(list.name) is frozen")
            let decoded = try JSONDecoder().decode([String: String].self, from: Data((parts.last ?? "").utf8))
            #expect(decoded == Dictionary(uniqueKeysWithValues: list.states.map { ($0, $0) }), "\(list.name)")
        }
    }

    @Test("a snapshot's state is its name in the JSON, as when it was a string")
    func json() {
        var recording = RecordingSnapshot()
        #expect(recording.json.contains("\"state\":\"idle\""))
        recording.state = StudioRecordingState(.finished)
        #expect(recording.json.contains("\"state\":\"finishing\"") && recording.isActive)
        #expect(StudioJSON.line(StudioExports.Snapshot(state: .stopped)).contains("\"state\":\"stopped\""))
        #expect(StudioJSON.line(StudioLive.Snapshot(state: .live)).contains("\"state\":\"live\""))
        #expect(StudioJSON.line(StudioBackup.Snapshot(state: .running)).contains("\"state\":\"running\""))
        #expect(StudioJSON.line(RefocusJobAnswer()).contains("\"state\":\"idle\""))
    }

    @Test("the page's scripts compare states only as RECORDING.x, LIVE.x, JOB.x, each x a state of that list")
    func scriptsUseTheStateLists() throws {
        let lists = Dictionary(uniqueKeysWithValues: StudioStates.lists.map { ($0.name, Set($0.states)) })
        let states = lists.values.reduce(into: Set<String>()) { $0.formUnion($1) }
        let used = /\b(RECORDING|LIVE|JOB)\.([A-Za-z_$][A-Za-z0-9_$]*)/
        // `state === "running"`, `"idle" !== job.state`, `{ state: "idle" }`, `["live", …].includes(state)`.
        let compared = /[sS]tate\s*[!=]==?\s*(["'`])([a-z]+)\1|(["'`])([a-z]+)\3\s*[!=]==?\s*[\w.]*[sS]tate\b|\bstate:\s*(["'`])([a-z]+)\5/
        let listed = /\[((?:\s*["'`][a-z]+["'`]\s*,?)+)\]\.includes\(/
        for (name, text) in try StudioPageTests.scripts() {
            for match in text.matches(of: used) {
                #expect(lists[String(match.output.1)]?.contains(String(match.output.2)) == true, "\(name): \(match.output.0) is no state")
            }
            for match in text.matches(of: compared) {
                let literal = match.output.2 ?? match.output.4 ?? match.output.6
                if let literal, states.contains(String(literal)) {
                    Issue.record("\(name): \(match.output.0) types a state; use RECORDING, LIVE or JOB from states.js")
                }
            }
            for match in text.matches(of: listed) where states.contains(where: { match.output.1.contains("\"\($0)\"") }) {
                Issue.record("\(name): \(match.output.0) types states; use RECORDING, LIVE or JOB from states.js")
            }
        }
    }
}
