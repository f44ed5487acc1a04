import Foundation

/// Which sessions `reel sessions` lists: with a tag, and started from one local day
/// to another, both days included. An empty filter lets every session through.
public struct StudySessionFilter: Sendable, Equatable {
    /// A tag the session must carry (exact spelling).
    public var tag: String?
    /// The first day (inclusive) the session may have started on, in ``timeZone``.
    public var since: CalendarDay?
    /// The last day (inclusive).
    public var until: CalendarDay?
    /// The zone the days are in.
    public var timeZone: TimeZone

    /// A filter.
    public init(tag: String? = nil, since: CalendarDay? = nil, until: CalendarDay? = nil, timeZone: TimeZone) {
        self.tag = tag
        self.since = since
        self.until = until
        self.timeZone = timeZone
    }

    /// A range whose end is before its start matches nothing: say so instead of listing nothing.
    public var isEmptyRange: Bool {
        if let since, let until { return until < since }
        return false
    }

    /// Whether `session` passes.
    public func matches(_ session: StudySession) -> Bool {
        if let tag, !session.tags.contains(tag) { return false }
        let day = CalendarDay(containing: session.startedAt, in: timeZone)
        if let since, day < since { return false }
        if let until, day > until { return false }
        return true
    }
}
