/// Scene monitoring (docs/behaviour.md §3: warn "not enough light" while it applies, clear it
/// when it no longer does), from what each picture measures — its mean luma, a noise estimate
/// (the standard deviation of Immerkær's Laplacian, in 8-bit levels) — and, when the camera
/// reports them, its gain as a share of the gain's range.
///
/// - **Dark** (a picture that counts towards the warning): mean luma below ``darkLuma``; or
///   below ``dimLuma`` and noisy (≥ ``noisy``) or with the gain at ``highGain`` or more (the
///   camera is already straining).
/// - **Bright** (counts towards clearing it): mean luma at least ``brightLuma``, noise below
///   ``quiet``, gain (if known) below ``highGain``.
/// - The warning is raised after ``raiseAfter`` of dark pictures without a break, and cleared
///   after ``clearAfter`` of bright ones. Pictures between the two keep it as it is, so a scene
///   at the edge never makes it blink.
public struct LightMonitor: Sendable, Equatable {
    /// What one picture measured.
    public struct Reading: Sendable, Hashable {
        public var meanLuma: Double
        public var noise: Double
        public var gain: Double?

        public init(meanLuma: Double, noise: Double, gain: Double? = nil) {
            self.meanLuma = meanLuma
            self.noise = noise
            self.gain = gain
        }
    }

    public static let darkLuma = 40.0, dimLuma = 70.0, brightLuma = 60.0
    public static let noisy = 3.0, quiet = 2.0, highGain = 0.9
    public static let raiseAfter = MediaTime(value: 1, timescale: 1)
    public static let clearAfter = MediaTime(value: 2, timescale: 1)

    /// Whether "not enough light" is shown.
    public private(set) var warning = false
    private var since: MediaTime?

    public init() {}

    /// Whether the reading counts as dark.
    public static func isDark(_ r: Reading) -> Bool {
        r.meanLuma < darkLuma || (r.meanLuma < dimLuma && (r.noise >= noisy || (r.gain ?? 0) >= highGain))
    }

    /// Whether the reading counts as bright.
    public static func isBright(_ r: Reading) -> Bool {
        r.meanLuma >= brightLuma && r.noise < quiet && (r.gain ?? 0) < highGain
    }

    /// The warning after the picture at `time` measured `reading`.
    public mutating func update(_ reading: Reading, at time: MediaTime) -> Bool {
        let towardsChange = warning ? Self.isBright(reading) && !Self.isDark(reading) : Self.isDark(reading)
        guard towardsChange else {
            since = nil
            return warning
        }
        let start = since ?? time
        since = start
        if time - start >= (warning ? Self.clearAfter : Self.raiseAfter) {
            warning.toggle()
            since = nil
        }
        return warning
    }
}
