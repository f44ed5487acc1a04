import Testing
import ReelCore

@Suite("Disk budget")
struct DiskBudgetTests {
    let GiB: Int64 = 1 << 30, MiB: Int64 = 1 << 20
    let budget = DiskBudget.standard

    func perHour(_ mode: RecordingMode, interval: Double = 5) -> Int64 {
        DiskBudget.videoBytesPerHour(mode: mode, fullBitRate: 5_000_000, timelapsePeakBitRate: 8_000_000,
                                     outputFramesPerSecond: 10, intervalSeconds: interval)
    }

    @Test("estimate: full 5 Mbps is 2.25 GB an hour; timelapse ≤ 100 kB a frame, one frame per interval of study")
    func estimate() {
        #expect(perHour(.full) == 2_250_000_000)
        #expect(perHour(.timelapse, interval: 5) == 72_000_000)
        #expect(perHour(.timelapse, interval: 1) == 360_000_000)
        #expect(perHour(.timelapse, interval: 60) == 6_000_000)
    }

    @Test("hours that fit: twice the recording where work and output share a disk, once elsewhere, keeping the floor")
    func hoursThatFit() {
        let hour = perHour(.full)
        // One disk, 10 GiB free: the recording r may grow while 10 GiB − r ≥ r + 256 MiB → r ≤ (10 GiB − 256 MiB) / 2.
        let shared = budget.fit(.init(free: 10 * GiB, holdsWork: true, holdsOutput: true), videoBytesPerHour: hour)
        #expect(shared.neededPerHour == 4_500_000_000)
        #expect(abs(shared.hours - Double(10 * GiB - 256 * MiB) / 2 / Double(hour)) < 1e-9)
        // A disk with little free space: the 1 GiB minimum binds (r ≤ free − 1 GiB).
        let small = budget.fit(.init(free: GiB + 100 * MiB, holdsWork: true, holdsOutput: true), videoBytesPerHour: hour)
        #expect(abs(small.hours - Double(100 * MiB) / Double(hour)) < 1e-9)
        // Work folder alone: r ≤ free − 1 GiB; output alone: r ≤ free − 256 MiB (it only takes the copy).
        let work = budget.fit(.init(free: 5 * GiB, holdsWork: true, holdsOutput: false), videoBytesPerHour: hour)
        #expect(work.neededPerHour == hour)
        #expect(abs(work.hours - Double(4 * GiB) / Double(hour)) < 1e-9)
        let output = budget.fit(.init(free: 5 * GiB, holdsWork: false, holdsOutput: true), videoBytesPerHour: hour)
        #expect(abs(output.hours - Double(5 * GiB - 256 * MiB) / Double(hour)) < 1e-9)
        // Under the floor already: nothing fits (never negative).
        #expect(budget.fit(.init(free: 10 * MiB, holdsWork: true, holdsOutput: true), videoBytesPerHour: hour).hours == 0)
    }

    @Test("refuse when a disk would run out within min-hours; min-hours 0 never refuses")
    func refusal() {
        let hour = perHour(.full)
        let enough = DiskBudget.Volume(free: 20 * GiB, holdsWork: true, holdsOutput: true)   // ≈ 4.7 h
        let tight = DiskBudget.Volume(free: 4 * GiB, holdsWork: true, holdsOutput: true)     // ≈ 0.9 h
        #expect(budget.shortfalls([enough], videoBytesPerHour: hour, minHours: 1).isEmpty)
        #expect(budget.shortfalls([enough], videoBytesPerHour: hour, minHours: 5).map(\.volume) == [enough])
        #expect(budget.shortfalls([tight], videoBytesPerHour: hour, minHours: 1).map(\.volume) == [tight])
        #expect(budget.shortfalls([tight], videoBytesPerHour: hour, minHours: 0).isEmpty)
        #expect(budget.shortfalls([DiskBudget.Volume(free: 0, holdsWork: true, holdsOutput: true)], videoBytesPerHour: hour, minHours: 0).isEmpty)
        // A timelapse needs little: 4 GiB is many hours of it.
        #expect(budget.shortfalls([tight], videoBytesPerHour: perHour(.timelapse), minHours: 1).isEmpty)
        // Separate disks: each is judged by what it holds.
        let outputDisk = DiskBudget.Volume(free: 2 * GiB, holdsWork: false, holdsOutput: true)  // copy: ≈ 0.83 h
        let workDisk = DiskBudget.Volume(free: 100 * GiB, holdsWork: true, holdsOutput: false)
        #expect(budget.shortfalls([outputDisk, workDisk], videoBytesPerHour: hour, minHours: 1).map(\.volume) == [outputDisk])
    }

    @Test("floor while recording: the larger of 1 GiB and room for the finishing copy plus 256 MiB, where the output goes")
    func floor() {
        let shared = DiskBudget.Volume(free: 3 * GiB, holdsWork: true, holdsOutput: true)
        #expect(budget.floor(for: shared, recordingBytes: 0) == GiB)
        #expect(budget.floor(for: shared, recordingBytes: 500 * MiB) == GiB)
        #expect(budget.floor(for: shared, recordingBytes: 2 * GiB) == 2 * GiB + 256 * MiB)
        #expect(budget.shouldStop(volumes: [shared], recordingBytes: GiB) == nil)
        #expect(budget.shouldStop(volumes: [shared], recordingBytes: 3 * GiB) == shared, "3 GiB free cannot take a 3 GiB copy")
        let low = DiskBudget.Volume(free: GiB - 1, holdsWork: true, holdsOutput: true)
        #expect(budget.shouldStop(volumes: [low], recordingBytes: 0) == low)
        // The work folder's disk never takes the copy: only the minimum applies there.
        let work = DiskBudget.Volume(free: 2 * GiB, holdsWork: true, holdsOutput: false)
        let output = DiskBudget.Volume(free: 2 * GiB, holdsWork: false, holdsOutput: true)
        #expect(budget.floor(for: work, recordingBytes: 5 * GiB) == GiB)
        #expect(budget.shouldStop(volumes: [work, output], recordingBytes: 1700 * MiB) == nil)
        #expect(budget.shouldStop(volumes: [work, output], recordingBytes: 1900 * MiB) == output)
        // A small custom budget (tests, small disks).
        let tiny = DiskBudget(minimumFree: 10 * MiB, margin: MiB)
        #expect(tiny.shouldStop(volumes: [.init(free: 30 * MiB, holdsWork: true, holdsOutput: true)], recordingBytes: 20 * MiB) == nil)
        #expect(tiny.shouldStop(volumes: [.init(free: 20 * MiB, holdsWork: true, holdsOutput: true)], recordingBytes: 20 * MiB) != nil)
    }

    @Test("the estimate and the floor agree: a recording the estimate says fits is not stopped by the floor before then")
    func consistent() {
        let hour = perHour(.full)
        for free in [2 * GiB, 5 * GiB, 50 * GiB] {
            for (work, output) in [(true, true), (true, false), (false, true)] {
                let start = DiskBudget.Volume(free: free, holdsWork: work, holdsOutput: output)
                let hours = budget.fit(start, videoBytesPerHour: hour).hours
                let recorded = Int64(hours * Double(hour) * 0.999)
                let now = DiskBudget.Volume(free: free - (work ? recorded : 0), holdsWork: work, holdsOutput: output)
                #expect(budget.shouldStop(volumes: [now], recordingBytes: recorded) == nil, "\(start) at \(hours) h")
                let over = Int64(hours * Double(hour) * 1.001) + 1
                let after = DiskBudget.Volume(free: free - (work ? over : 0), holdsWork: work, holdsOutput: output)
                #expect(budget.shouldStop(volumes: [after], recordingBytes: over) != nil, "\(start) past \(hours) h")
            }
        }
    }
}
