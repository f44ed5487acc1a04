import Foundation
import ReelCore

/// Maps capture times (monotonic clock) to wall-clock dates, for PROGRAM-DATE-TIME.
public struct CaptureClockMap: Sendable {
    /// A capture time and the wall-clock date it corresponds to.
    public let capture: MediaTime, date: Date

    /// Pairs "now" on both clocks.
    public init(capture: MediaTime, date: Date) {
        self.capture = capture
        self.date = date
    }

    /// The wall-clock date of a capture time.
    public func date(of captureTime: MediaTime) -> Date {
        date.addingTimeInterval((captureTime - capture).seconds)
    }
}
