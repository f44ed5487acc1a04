import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import ReelCore
import Testing

@Suite("Stats chart (SVG)")
struct StudyStatsChartTests {
    func stats(_ period: StudyStats.Period, goals: [DailyGoal]) -> StudyStats {
        let sessions = [StudyStatsTests.session("2026-11-30 09:00", active: 95), StudyStatsTests.session("2026-12-02 20:00", active: 30),
                        StudyStatsTests.session("2026-12-04 10:00", active: 150)]
        return StudyStats(period: period, containing: StudyStatsTests.day("2026-12-02"), today: StudyStatsTests.day("2026-12-04"),
                          sessions: sessions, goals: goals, timeZone: StudyStatsTests.tokyo)
    }

    @Test("a week: white background, one bar per studied day, a goal marker per day, day labels, title with range and total")
    func week() throws {
        let svg = StudyStatsChart(stats(.week, goals: [try DailyGoal(date: StudyStatsTests.day("2026-11-01"), minutes: 90)])).svg()
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.hasSuffix("</svg>\n"))
        #expect(svg.contains(##"fill="#ffffff""##))
        #expect(svg.contains("Week 2026-11-30 – 2026-12-06") && svg.contains("Total 4 h 35"))
        #expect(svg.contains("goal met on 2 of 5 days"), "the 5th and 6th are still to come")
        let bars = svg.components(separatedBy: "<title>").count - 1
        #expect(bars == 3)
        #expect(svg.components(separatedBy: "stroke-dasharray").count - 1 == 7 + 1, "a marker per day and one in the legend")
        for label in ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun", "12-06", "1 h 35", "2 h 30", "30 min"] { #expect(svg.contains(">\(label)<")) }
        #expect(svg.contains(##"fill="#16a34a""##) && svg.contains(##"fill="#f59e0b""##), "met and missed days in their colours")
        // The document is well-formed XML.
        _ = try XMLDocument(data: Data(svg.utf8))
    }

    @Test("a month without goals: 30 day numbers, no markers but the legend's, blue bars")
    func month() throws {
        let svg = StudyStatsChart(stats(.month, goals: [])).svg()
        #expect(svg.contains("December 2026 (2026-12-01 – 2026-12-31)"))
        #expect(svg.contains(">31<") && svg.contains(">1<"))
        #expect(svg.components(separatedBy: "stroke-dasharray").count - 1 == 1)
        #expect(!svg.contains(##"fill="#16a34a" "##) && svg.contains(##"fill="#3b82f6"><title>"##))
        _ = try XMLDocument(data: Data(svg.utf8))
    }

    @Test("durations and axis steps read as a person would say them")
    func labels() {
        #expect(StudyStatsChart.duration(0) == "0 min" && StudyStatsChart.duration(59.6) == "59 min" && StudyStatsChart.duration(60) == "1 h" && StudyStatsChart.duration(125) == "2 h 05")
        #expect(StudyStatsChart.tickStep(40) == 5 && StudyStatsChart.tickStep(100) == 15 && StudyStatsChart.tickStep(300) == 60)
        #expect(StudyStatsChart.axisLabel(30, step: 15) == "30 min" && StudyStatsChart.axisLabel(90, step: 30) == "1.5 h")
        #expect(StudyStatsChart.escape("a<b & \"c\"") == "a&lt;b &amp; &quot;c&quot;")
    }
}
