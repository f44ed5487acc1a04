import Foundation
import Testing
import ReelCore

/// The heat-and-load rules, with scripted readings every 2 s and an injected clock.
@Suite("Load adaptation")
struct LoadAdaptationTests {
    typealias Policy = LoadAdaptationPolicy
    private func t(_ seconds: Double) -> MediaTime { MediaTime(seconds: seconds) }
    private func zone(_ celsius: Double, limit: Double = 90) -> ThermalReading {
        ThermalReading(zone: "x86_pkg_temp", celsius: celsius, limitCelsius: limit)
    }

    /// Feeds readings every 2 s from `from` to `to` (inclusive) and returns the changes.
    @discardableResult
    private func feed(_ policy: inout Policy, from: Double, to: Double, celsius: Double? = nil, share: Double? = 0.2,
                      cores: Int = 2, behind: Bool = false) -> [Policy.Change] {
        var changes: [Policy.Change] = []
        var time = from
        while time <= to + 1e-9 {
            let reading = LoadReading(time: t(time), thermal: celsius.map { zone($0) }, cpuShare: share, cores: cores, behind: behind)
            if let change = policy.observe(reading) { changes.append(change) }
            time += 2
        }
        return changes
    }

    @Test("the levers of each level: face analysis 1×, 2×, 5× less often; full mode keeps every 2nd frame only when reduced")
    func levers() {
        #expect(LoadLevel.allCases.map(\.faceCadenceFactor) == [1, 2, 5])
        #expect(LoadLevel.allCases.map(\.fullModeFrameStep) == [1, 1, 2])
        #expect(LoadLevel.normal < .eased && LoadLevel.eased < .reduced)
    }

    @Test("cool and idle: stays normal and reports nothing")
    func calm() {
        var policy = Policy()
        #expect(feed(&policy, from: 0, to: 120, celsius: 55).isEmpty)
        #expect(policy.level == .normal && policy.reasons.isEmpty && !policy.summary.wasAdapted)
    }

    @Test("heat: within 10 °C of the limit eases, at the limit reduces at once; the reason names the zone and degrees")
    func heat() throws {
        var policy = Policy()
        #expect(feed(&policy, from: 0, to: 10, celsius: 79.9).isEmpty, "10.1 °C under the limit is not warm")
        let warm = feed(&policy, from: 12, to: 12, celsius: 80)
        #expect(warm.map(\.to) == [.eased])
        #expect("\(try #require(warm.first).reason)" == "warm: x86_pkg_temp at 80 °C, limit 90 °C")
        let hot = feed(&policy, from: 14, to: 14, celsius: 90)
        #expect(hot.map(\.to) == [.reduced])
        #expect(hot.first?.reason == .hot(zone(90)))
        // Straight from normal to reduced when it is already at the limit.
        var cold = Policy()
        #expect(feed(&cold, from: 0, to: 0, celsius: 95).map(\.to) == [.reduced])
    }

    @Test("cooling down: one level at a time, each after 30 s of calm, heat counting as calm 3 °C under its threshold")
    func coolingHysteresis() {
        var policy = Policy()
        feed(&policy, from: 0, to: 0, celsius: 92)
        #expect(policy.level == .reduced)
        // 88 °C is under the limit but within the 3 °C hysteresis: still reduced, however long.
        #expect(feed(&policy, from: 2, to: 100, celsius: 88).isEmpty)
        // 86.9 °C: calm for `reduced`, but warm: after 30 s, down to eased, and it stays there.
        let first = feed(&policy, from: 102, to: 200, celsius: 86.9)
        #expect(first.map(\.to) == [.eased])
        #expect(first.first?.time == t(132), "30 s after the first calm reading at 102 s")
        // Under 77 °C (limit − 10 − 3) it is calm for eased too: normal after another 30 s.
        let second = feed(&policy, from: 202, to: 300, celsius: 76.9)
        #expect(second.map(\.to) == [.normal])
        #expect(second.first?.time == t(232))
        #expect(second.first?.reason == .calm)
    }

    @Test("a busy machine (≥ 90 % of every core) eases; a process using one of two cores fully does not")
    func busy() {
        var policy = Policy()
        #expect(feed(&policy, from: 0, to: 20, share: 1.0, cores: 2).isEmpty)
        let changes = feed(&policy, from: 22, to: 22, share: 1.8, cores: 2)
        #expect(changes.map(\.to) == [.eased])
        #expect(changes.first?.reason == .busy(share: 1.8, cores: 2))
        #expect(feed(&policy, from: 24, to: 60, share: 1.9, cores: 2).isEmpty, "busy never asks for more than eased")
    }

    @Test("behind real time: one level up per reading, at most one step every 5 s, never past reduced")
    func behind() {
        var policy = Policy()
        let changes = feed(&policy, from: 0, to: 30, behind: true)
        #expect(changes.map(\.to) == [.eased, .reduced])
        #expect(changes.map(\.time) == [t(0), t(6)], "the second step waits 5 s (the next reading after 5 s is at 6 s)")
        #expect(changes.allSatisfy { $0.reason == .behind })
    }

    @Test("a level raised again within a cool-down of being lowered doubles the cool-down, up to 5 min")
    func flapping() {
        var policy = Policy()
        feed(&policy, from: 0, to: 0, behind: true)  // eased at 0
        feed(&policy, from: 2, to: 40)               // calm from 2 s: normal at 32 s
        #expect(policy.level == .normal && policy.cooldown == Policy.initialCooldown)
        feed(&policy, from: 42, to: 42, behind: true) // 10 s later: behind again
        #expect(policy.level == .eased && policy.cooldown == t(60))
        let down = feed(&policy, from: 44, to: 200)
        #expect(down.first?.time == t(104), "60 s of calm now")
        // Behind again 2 s after every lowering: 120, 240, then capped at 300 s.
        var now = 106.0
        var cooldowns: [Double] = []
        for _ in 0..<4 {
            feed(&policy, from: now, to: now, behind: true)
            cooldowns.append(policy.cooldown.seconds)
            let lowered = feed(&policy, from: now + 2, to: now + 2 + policy.cooldown.seconds)
            #expect(lowered.map(\.to) == [.normal])
            now = (lowered.first?.time.seconds ?? now) + 2
        }
        #expect(cooldowns == [120, 240, 300, 300])
    }

    @Test("the summary: seconds at each level, mean CPU share over time, the hottest reading, reasons in order of first use")
    func summary() {
        var policy = Policy()
        feed(&policy, from: 0, to: 10, celsius: 60, share: 0.1)          // normal 0…12
        feed(&policy, from: 12, to: 20, celsius: 85, share: 0.3)         // eased at 12 (warm) … 22
        feed(&policy, from: 22, to: 30, celsius: 93, share: 0.3)         // reduced at 22 (hot) … until calm
        feed(&policy, from: 32, to: 40, celsius: 93, share: 0.3, behind: true)
        let s = policy.summary
        #expect(s.easedSeconds == 10)
        #expect(s.reducedSeconds == 18)
        #expect(s.peakCelsius == 93)
        #expect(s.reasons == ["warm", "hot"], "behind at reduced changes nothing")
        #expect(abs(s.cpuShare! - (0.1 * 10 + 0.3 * 30) / 40) < 1e-9, "each reading's share covers the 2 s before it")
        #expect(s.wasAdapted)
    }

    @Test("thermal zones: the limit is the lowest passive trip, else hot, else critical − 15 °C, else 85 °C; implausible readings are ignored")
    func zones() {
        let trips: [(type: String, millidegrees: Int)] = [("critical", 105_000), ("passive", 95_000), ("passive", 90_000), ("hot", 100_000)]
        #expect(ThermalReading.zone("cpu", millidegrees: 71_500, trips: trips) == ThermalReading(zone: "cpu", celsius: 71.5, limitCelsius: 90))
        #expect(ThermalReading.zone("cpu", millidegrees: 50_000, trips: [("hot", 100_000), ("critical", 105_000)])?.limitCelsius == 100)
        #expect(ThermalReading.zone("cpu", millidegrees: 50_000, trips: [("critical", 105_000)])?.limitCelsius == 90)
        #expect(ThermalReading.zone("acpitz", millidegrees: 27_800, trips: [])?.limitCelsius == ThermalReading.defaultLimitCelsius)
        #expect(ThermalReading.zone("off", millidegrees: 0, trips: []) == nil)
        #expect(ThermalReading.zone("broken", millidegrees: -273_000, trips: []) == nil)
        #expect(ThermalReading.zone("broken", millidegrees: 250_000, trips: []) == nil)
        let cool = ThermalReading(zone: "a", celsius: 80, limitCelsius: 100), close = ThermalReading(zone: "b", celsius: 70, limitCelsius: 75)
        #expect(ThermalReading.hottest([cool, close]) == close, "closest to its own limit, not the highest number")
        #expect(ThermalReading.hottest([]) == nil)
    }

    @Test("reduced in full mode: every 2nd frame written, stamped with active time; the clock still counts every frame")
    func fullModeShedding() throws {
        var machine = try RecordingStateMachine(mode: .full)
        let base = MediaTime.nanoseconds(5_000_000_000_000)
        func frame(_ n: Int) -> MediaTime { base + MediaTime(value: Int64(n), timescale: 30) }
        var written: [(Int, RecordingStateMachine.OutputFrame)] = []
        var shed = 0
        for n in 0..<90 {
            if n == 30 { machine.adapt(to: .reduced) }
            if n == 60 { machine.adapt(to: .normal) }
            let step = machine.frame(at: frame(n))
            if let out = step.output { written.append((n, out)) } else if step.decision == .skip(.shed) { shed += 1 }
        }
        #expect(written.count == 30 + 15 + 30)
        #expect(shed == 15 && machine.framesShed == 15)
        #expect(written.filter { (30..<60).contains($0.0) }.allSatisfy { $0.0 % 2 == 1 }, "after frame 30 (written), one in two")
        for (n, out) in written { #expect(out.pts == MediaTime(value: Int64(n) * 20, timescale: 600), "pts = active time") }
        #expect(abs((machine.active - MediaTime(value: 89, timescale: 30)).seconds) < 0.000_001, "every frame counted, shed ones too")
    }

    @Test("face cadence widened: timelapse samples every 5th written frame when reduced; full mode every 1 s")
    func faceCadence() throws {
        var timelapse = try RecordingStateMachine(mode: .timelapse, interval: MediaTime(value: 1, timescale: 1))
        timelapse.adapt(to: .reduced)
        var sampled: [Int] = []
        for n in 0..<20 {
            let step = timelapse.frame(at: MediaTime(value: Int64(n), timescale: 1))
            if let out = step.output, out.samplesFace { sampled.append(out.index) }
        }
        #expect(sampled == [0, 5, 10, 15])
        var full = try RecordingStateMachine(mode: .full)
        full.adapt(to: .eased)
        var times: [MediaTime] = []
        for n in 0..<60 {
            let step = full.frame(at: MediaTime(value: Int64(n), timescale: 30))
            if let out = step.output, out.samplesFace { times.append(out.pts) }
        }
        #expect(times.map(\.seconds) == [0, 0.4, 0.8, 1.2, 1.6])
    }
}
