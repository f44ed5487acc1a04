import Foundation

/// `reel stats --svg`: a bar chart of ``StudyStats`` as SVG text (written by hand, no library).
/// One bar per day (active minutes), the goal in force as a dark marker across the day's slot,
/// a minutes/hours axis, day labels, and a title with the range and the total. A white
/// background so it reads the same in light and dark viewers.
///
/// Bars are green when the day met its goal, orange when it had a goal it missed, blue when
/// it had none.
public struct StudyStatsChart: Sendable {
    /// The stats drawn.
    public var stats: StudyStats

    /// A chart of `stats`.
    public init(_ stats: StudyStats) {
        self.stats = stats
    }

    /// Colours (Tailwind-like, readable on white and for the common colour-vision deficiencies
    /// thanks to the goal marker and the legend text, not colour alone).
    static let met = "#16a34a", missed = "#f59e0b", noGoal = "#3b82f6", goal = "#111827", ink = "#1f2937", grid = "#e5e7eb"

    /// The SVG document.
    public func svg() -> String {
        let days = stats.days
        let slot: Double = days.count <= 7 ? 84 : 26
        let left = 70.0, right = 24.0, top = 78.0, bottom = 64.0, plotHeight = 260.0
        let plotWidth = slot * Double(days.count)
        let width = left + plotWidth + right, height = top + plotHeight + bottom
        let peak = max(days.map(\.activeMinutes).max() ?? 0, Double(days.compactMap(\.goalMinutes).max() ?? 0), 1)
        let step = StudyStatsChart.tickStep(peak)
        let axisMax = (peak / step).rounded(.up) * step
        func y(_ minutes: Double) -> Double { top + plotHeight - plotHeight * min(minutes, axisMax) / axisMax }

        var out: [String] = []
        out.append(##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(f(width))" height="\##(f(height))" viewBox="0 0 \##(f(width)) \##(f(height))" font-family="DejaVu Sans, Noto Sans, Helvetica, Arial, sans-serif">"##)
        out.append(##"<rect x="0" y="0" width="\##(f(width))" height="\##(f(height))" fill="#ffffff"/>"##)
        // Title and subtitle.
        let first = days.first?.date.description ?? "", last = days.last?.date.description ?? ""
        let range = stats.period == .week ? "Week \(first) – \(last)" : "\(StudyStatsChart.monthName(days.first?.date)) (\(first) – \(last))"
        out.append(text(left, 30, "Study time · \(range)", size: 18, weight: "bold"))
        var subtitle = "Total \(StudyStatsChart.duration(stats.totalMinutes))"
        if stats.daysWithGoal > 0 { subtitle += " · goal met on \(stats.daysMet) of \(stats.daysWithGoal) days" }
        if stats.streak > 0 { subtitle += " · streak \(Counted.noun(stats.streak, "day"))" }
        out.append(text(left, 52, subtitle, size: 13))
        // Grid and axis labels.
        var tick = 0.0
        while tick <= axisMax + 1e-9 {
            out.append(##"<line x1="\##(f(left))" y1="\##(f(y(tick)))" x2="\##(f(left + plotWidth))" y2="\##(f(y(tick)))" stroke="\##(tick == 0 ? StudyStatsChart.ink : StudyStatsChart.grid)" stroke-width="1"/>"##)
            out.append(text(left - 8, y(tick) + 4, StudyStatsChart.axisLabel(tick, step: step), size: 11, anchor: "end"))
            tick += step
        }
        // Bars, goal markers, value and day labels.
        for (index, day) in days.enumerated() {
            let x = left + slot * Double(index)
            let barWidth = slot * 0.62, barX = x + (slot - barWidth) / 2
            let colour = day.metGoal.map { $0 ? StudyStatsChart.met : StudyStatsChart.missed } ?? StudyStatsChart.noGoal
            if day.activeMinutes > 0 {
                let barTop = y(day.activeMinutes)
                out.append(##"<rect x="\##(f(barX))" y="\##(f(barTop))" width="\##(f(barWidth))" height="\##(f(max(1, top + plotHeight - barTop)))" rx="2" fill="\##(colour)"><title>\##(day.date): \##(StudyStatsChart.duration(day.activeMinutes))</title></rect>"##)
                if slot >= 60 { out.append(text(x + slot / 2, barTop - 6, StudyStatsChart.duration(day.activeMinutes), size: 11, anchor: "middle")) }
            }
            if let goal = day.goalMinutes {
                out.append(##"<line x1="\##(f(x + 3))" y1="\##(f(y(Double(goal))))" x2="\##(f(x + slot - 3))" y2="\##(f(y(Double(goal))))" stroke="\##(StudyStatsChart.goal)" stroke-width="2.5" stroke-dasharray="5 3"/>"##)
            }
            let weekend = day.date.isoWeekday >= 6
            if days.count <= 7 {
                out.append(text(x + slot / 2, top + plotHeight + 18, day.date.weekdayAbbreviation, size: 12, anchor: "middle", weight: "bold"))
                out.append(text(x + slot / 2, top + plotHeight + 34, String(day.date.description.dropFirst(5)), size: 11, anchor: "middle"))
            } else {
                out.append(text(x + slot / 2, top + plotHeight + 16, String(day.date.day), size: 10, anchor: "middle", colour: weekend ? "#9ca3af" : StudyStatsChart.ink))
            }
        }
        // Legend.
        let legendY = height - 14
        var lx = left
        for (colour, label) in [(StudyStatsChart.met, "goal met"), (StudyStatsChart.missed, "below goal"), (StudyStatsChart.noGoal, "no goal")] {
            out.append(##"<rect x="\##(f(lx))" y="\##(f(legendY - 10))" width="12" height="12" rx="2" fill="\##(colour)"/>"##)
            out.append(text(lx + 17, legendY, label, size: 11))
            lx += 100
        }
        out.append(##"<line x1="\##(f(lx))" y1="\##(f(legendY - 4))" x2="\##(f(lx + 22))" y2="\##(f(legendY - 4))" stroke="\##(StudyStatsChart.goal)" stroke-width="2.5" stroke-dasharray="5 3"/>"##)
        out.append(text(lx + 28, legendY, "daily goal", size: 11))
        out.append("</svg>")
        return out.joined(separator: "\n") + "\n"
    }

    /// "45 min", "1 h", "2 h 05".
    public static func duration(_ minutes: Double) -> String {
        // Cut down, never rounded up: a time shown as reaching a goal has reached it.
        let total = Int((max(0, minutes) + 1e-9).rounded(.down))
        if total < 60 { return "\(total) min" }
        let m = total % 60
        return "\(total / 60) h" + (m == 0 ? "" : " " + (m < 10 ? "0" : "") + String(m))
    }

    /// A tick step giving 3–8 lines: 5, 10, 15, 30 minutes, then 1, 2, 3, 4, 6 hours.
    static func tickStep(_ peak: Double) -> Double {
        for step in [5.0, 10, 15, 30, 60, 120, 180, 240, 360] where (peak / step).rounded(.up) <= 8 { return step }
        return 360
    }

    /// Minutes under an hour's step ("15 min"), hours from it ("1 h", "1.5 h").
    static func axisLabel(_ minutes: Double, step: Double) -> String {
        if minutes == 0 { return "0" }
        if step < 60 && minutes < 60 { return "\(Int(minutes)) min" }
        let hours = minutes / 60
        return (hours == hours.rounded() ? String(Int(hours)) : String(format: "%.1f", hours)) + " h"
    }

    static func monthName(_ day: CalendarDay?) -> String {
        guard let day else { return "" }
        let names = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
        return "\(names[day.month - 1]) \(day.year)"
    }

    private func text(_ x: Double, _ y: Double, _ content: String, size: Int, anchor: String = "start", weight: String = "normal",
                      colour: String = StudyStatsChart.ink) -> String {
        ##"<text x="\##(f(x))" y="\##(f(y))" font-size="\##(size)" text-anchor="\##(anchor)" font-weight="\##(weight)" fill="\##(colour)">\##(StudyStatsChart.escape(content))</text>"##
    }

    private func f(_ v: Double) -> String {
        v == v.rounded() ? String(Int(v)) : String(format: "%.1f", v)
    }

    /// XML text escaping.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }
}
