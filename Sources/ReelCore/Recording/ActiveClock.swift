/// The study timer: how much capture time has been spent *recording*, never the wall clock.
///
/// docs/behaviour.md §1, Active time: for every frame captured while recording,
/// `active += max(0, pts - lastPTS)`, then `lastPTS = pts`. Pause and resume set
/// `lastPTS = nil`, so paused time never counts and the first frame after a resume adds
/// nothing, however long the pause was.
///
/// A timestamp that goes backwards adds nothing and becomes the new reference (as after a
/// capture clock reset, e.g. a device that was reopened): later frames count from it.
public struct ActiveClock: Sendable, Equatable {
    /// Capture time counted so far.
    public private(set) var active: MediaTime
    /// The capture time of the last frame counted; nil at the start and after a pause or resume.
    public private(set) var lastPTS: MediaTime?

    /// A clock at `active` (zero for a new recording) with no reference frame yet.
    public init(active: MediaTime = .zero) {
        self.active = active
    }

    /// Counts a frame captured at `pts`; returns the time it added (zero for the first frame
    /// after a start, pause or resume, and for a timestamp that went backwards).
    @discardableResult
    public mutating func advance(to pts: MediaTime) -> MediaTime {
        defer { lastPTS = pts }
        guard let lastPTS, pts > lastPTS else { return .zero }
        let added = pts - lastPTS
        active += added
        return added
    }

    /// Forgets the reference frame (pause, resume, an interruption): the next frame adds nothing.
    public mutating func resetReference() {
        lastPTS = nil
    }

    /// Moves the clock forward to `time` (full mode's strictly-increasing rule sets the active
    /// time to the timestamp it had to use). Never moves it back.
    public mutating func moveForward(to time: MediaTime) {
        if time > active { active = time }
    }
}
