import Testing
@testable import ReelCore

/// The recorder's supervision rules on made-up times: each tick is "now" and what the recorder
/// read; nothing waits, so a loaded machine cannot change an answer.
@Suite("Recording supervisor")
struct RecordingSupervisorTests {
    let settings = RecordingSupervisor.Settings(stallLimit: MediaTime(seconds: 0.4), checkpointPeriod: MediaTime(seconds: 30),
                                                diskCheckPeriod: MediaTime(seconds: 2), loadCheckPeriod: MediaTime(seconds: 2),
                                                duration: nil)

    /// Ticks every 100 ms from `from` to `to` (seconds after the start), returning each tick's
    /// time and actions that were not empty.
    func run(_ supervisor: inout RecordingSupervisor, from: Int, to: Int,
             readings: (Double) -> RecordingSupervisor.Readings) -> [(Double, [RecordingSupervisor.Action])] {
        var out: [(Double, [RecordingSupervisor.Action])] = []
        for tenth in from...to {
            let t = Double(tenth) / 10
            let actions = supervisor.tick(now: MediaTime(seconds: t), readings: readings(t))
            if !actions.isEmpty { out.append((t, actions)) }
        }
        return out
    }

    func recording(lastFrame: Double?) -> RecordingSupervisor.Readings {
        .init(state: .recording, lastFrameArrival: lastFrame.map { MediaTime(seconds: $0) })
    }

    @Test("a source quiet for longer than the stall limit is stalled once per quiet stretch, at the first tick past the limit")
    func stall() {
        var supervisor = RecordingSupervisor(settings: settings, startedAt: .zero)
        // Frames every tick until 1.0 s, then nothing; the state machine goes interrupted on the
        // first stall (as the recorder would apply it).
        var state = RecordingStateMachine.State.recording
        var stalls: [Double] = []
        for tenth in 1...30 {
            let t = Double(tenth) / 10
            let readings = RecordingSupervisor.Readings(state: state, lastFrameArrival: MediaTime(seconds: min(t, 1.0)))
            for action in supervisor.tick(now: MediaTime(seconds: t), readings: readings) {
                if case .sourceStalled(let detail) = action {
                    stalls.append(t)
                    #expect(detail == "no frames for 0.4 s")
                    state = .interrupted
                }
            }
        }
        #expect(stalls == [1.5], "1.0 s + 0.4 s is not yet over the limit; 1.5 s is")
    }

    @Test("a capture waiting for the writer is never the source's fault: the watch restarts")
    func captureWaiting() {
        var supervisor = RecordingSupervisor(settings: settings, startedAt: .zero)
        let ticks = run(&supervisor, from: 1, to: 20) { t in
            .init(state: .recording, lastFrameArrival: .zero, captureWaiting: t <= 1.5)
        }
        let stalls = ticks.filter { $0.1.contains { if case .sourceStalled = $0 { true } else { false } } }.map(\.0)
        #expect(stalls == [2.0], "waiting until 1.5 s, then 0.5 s without a frame: \(stalls)")
    }

    @Test("paused or interrupted recordings are not watched")
    func notRecording() {
        var supervisor = RecordingSupervisor(settings: settings, startedAt: .zero)
        for state in [RecordingStateMachine.State.paused, .interrupted] {
            let actions = supervisor.tick(now: MediaTime(seconds: 5), readings: .init(state: state, lastFrameArrival: nil))
            #expect(!actions.contains { if case .sourceStalled = $0 { true } else { false } })
        }
    }

    @Test("schedules: a checkpoint every period, disk and load every 2 s, status every second, the keep-awake check once after 1 s")
    func schedules() {
        var s = settings
        s.checkpointPeriod = MediaTime(seconds: 0.5)
        var supervisor = RecordingSupervisor(settings: s, startedAt: MediaTime(seconds: 100))
        var seen: [String: [Double]] = [:]
        for tenth in 1...40 {
            let t = Double(tenth) / 10
            let readings = RecordingSupervisor.Readings(state: .recording, lastFrameArrival: MediaTime(seconds: 100 + t))
            for action in supervisor.tick(now: MediaTime(seconds: 100 + t), readings: readings) {
                let key: String
                switch action {
                case .writeCheckpoint: key = "checkpoint"
                case .checkDisk: key = "disk"
                case .readLoad: key = "load"
                case .checkKeepAwake: key = "awake"
                case .reportStatus(let wall):
                    key = "status"
                    #expect(abs(wall - t) < 1e-9)
                default: key = "\(action)"
                }
                seen[key, default: []].append(t)
            }
        }
        #expect(seen["checkpoint"] == [0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0])
        #expect(seen["disk"] == [2.0, 4.0])
        #expect(seen["load"] == [2.0, 4.0])
        #expect(seen["status"] == [1.0, 2.0, 3.0, 4.0])
        #expect(seen["awake"] == [1.0])
        #expect(seen.keys.sorted() == ["awake", "checkpoint", "disk", "load", "status"])
    }

    @Test("once the disk floor stopped the recording, the disk is not checked again")
    func diskOnce() {
        var supervisor = RecordingSupervisor(settings: settings, startedAt: .zero)
        let first = supervisor.tick(now: MediaTime(seconds: 2), readings: recording(lastFrame: 2))
        #expect(first.contains(.checkDisk))
        supervisor.diskFloorReached()
        let later = run(&supervisor, from: 21, to: 80) { self.recording(lastFrame: $0) }
        #expect(!later.contains { $0.1.contains(.checkDisk) })
    }

    @Test("a writer that ended stops the recording once; a duration is a backstop after the stall limit and a second")
    func stops() {
        var supervisor = RecordingSupervisor(settings: settings, startedAt: .zero)
        let readings = RecordingSupervisor.Readings(state: .recording, lastFrameArrival: MediaTime(seconds: 0.1), writerEnded: true)
        #expect(supervisor.tick(now: MediaTime(seconds: 0.1), readings: readings).first == .stop(.writerFailed))
        #expect(!supervisor.tick(now: MediaTime(seconds: 0.2), readings: readings).contains(.stop(.writerFailed)))

        var s = settings
        s.duration = 3
        var timed = RecordingSupervisor(settings: s, startedAt: .zero)
        let ticks = run(&timed, from: 1, to: 60) { .init(state: .paused, lastFrameArrival: MediaTime(seconds: $0)) }
        let stops = ticks.filter { $0.1.contains(.stop(.durationReached)) }.map(\.0)
        #expect(stops == [4.5], "3 s + 0.4 s + 1 s is passed at the first tick after 4.4 s: \(stops)")
    }
}
