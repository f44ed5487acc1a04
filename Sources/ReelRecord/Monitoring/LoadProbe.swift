import Foundation
import ReelCore

/// Measures what ``LoadAdaptationPolicy`` decides on: the thermal zones Linux exposes under
/// `/sys/class/thermal` and the CPU time this process used since the last call.
///
/// The thermal folder is a setting (``RecordSettings/thermalFolder``) because containers and
/// virtual machines usually expose no zones at all; then the reading simply has no thermal
/// part and only the load counts.
/// A value: its last reading is kept for the next, inside the recorder's supervision state.
struct LoadProbe: Sendable {
    private let thermalFolder: String
    private var lastCPU: Double?
    private var lastTime: MediaTime?

    /// A probe reading zones under `thermalFolder`.
    init(thermalFolder: String) {
        self.thermalFolder = thermalFolder
    }

    /// The cores this process may run on (Foundation reads the affinity mask and cgroup quota).
    static var cores: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// User and system CPU seconds this process has used.
    static func processCPUSeconds() -> Double? {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return nil }
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1_000_000 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// Every readable zone (unreadable or implausible ones are left out).
    func thermalZones() -> [ThermalReading] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: thermalFolder) else { return [] }
        return names.filter { $0.hasPrefix("thermal_zone") }.sorted().compactMap { name in
            let zone = thermalFolder + "/" + name
            guard let temp = Self.integer(zone + "/temp") else { return nil }
            let type = Self.text(zone + "/type") ?? name
            var trips: [(type: String, millidegrees: Int)] = []
            for k in 0..<32 {
                guard let kind = Self.text(zone + "/trip_point_\(k)_type") else { break }
                if let t = Self.integer(zone + "/trip_point_\(k)_temp") { trips.append((kind, t)) }
            }
            return ThermalReading.zone(type, millidegrees: temp, trips: trips)
        }
    }

    /// A reading at `now`: the hottest zone and the CPU share since the previous reading (nil
    /// on the first).
    mutating func read(now: MediaTime, behind: Bool) -> LoadReading {
        let cpu = Self.processCPUSeconds()
        var share: Double?
        if let cpu, let lastCPU, let lastTime, now > lastTime {
            share = max(0, cpu - lastCPU) / (now - lastTime).seconds
        }
        lastCPU = cpu
        lastTime = now
        return LoadReading(time: now, thermal: ThermalReading.hottest(thermalZones()), cpuShare: share, cores: Self.cores, behind: behind)
    }

    private static func text(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    private static func integer(_ path: String) -> Int? { text(path).flatMap { Int($0) } }
}
