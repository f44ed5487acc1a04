import Foundation

/// A week's or month's figures as JSON, one shape for `reel stats --json` and Reel Studio's
/// `/api/stats`: the period, totals, streak and every day. Minutes are cut down to tenths (as
/// the text cuts to the minute): a value shown as reaching a goal has reached it. Absent
/// values are null; every key is always there.
public struct StudyStatsJSON: Encodable, Sendable {
    public let stats: StudyStats

    public init(_ stats: StudyStats) { self.stats = stats }

    /// The JSON text; `pretty` for a terminal, else one line.
    public static func text(_ stats: StudyStats, pretty: Bool) throws -> String {
        String(decoding: try StudySessionJSON.encoder(pretty: pretty).encode(StudyStatsJSON(stats)), as: UTF8.self)
    }

    /// `minutes` cut down to a tenth.
    public static func tenths(_ minutes: Double) -> Double { (minutes * 10 + 1e-9).rounded(.down) / 10 }

    enum Key: String, CodingKey { case period, from, to, totalMinutes, daysMet, daysWithGoal, streak, days }
    enum DayKey: String, CodingKey { case date, activeMinutes, goalMinutes, metGoal, verdict, sessions }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(stats.period.rawValue, forKey: .period)
        try c.encode(stats.days.first?.date.description, forKey: .from)
        try c.encode(stats.days.last?.date.description, forKey: .to)
        try c.encode(Self.tenths(stats.totalMinutes), forKey: .totalMinutes)
        try c.encode(stats.daysMet, forKey: .daysMet)
        try c.encode(stats.daysWithGoal, forKey: .daysWithGoal)
        try c.encode(stats.streak, forKey: .streak)
        var days = c.nestedUnkeyedContainer(forKey: .days)
        for day in stats.days {
            var d = days.nestedContainer(keyedBy: DayKey.self)
            try d.encode(day.date.description, forKey: .date)
            try d.encode(Self.tenths(day.activeMinutes), forKey: .activeMinutes)
            try d.encode(day.goalMinutes, forKey: .goalMinutes)
            try d.encode(day.metGoal, forKey: .metGoal)
            try d.encode(day.verdict?.rawValue, forKey: .verdict)
            try d.encode(day.sessionCount, forKey: .sessions)
        }
    }
}
