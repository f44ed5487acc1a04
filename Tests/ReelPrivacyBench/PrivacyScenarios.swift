import Foundation

extension PrivacyClips {
    /// Which clip. The first two (`single`, `twoFaces`) and the hard cases, each one thing a
    /// privacy export can get wrong, with the astronaut's head as the face:
    ///
    /// | scenario | frames | what happens |
    /// |---|---|---|
    /// | `edges` | 360 (12 s) | walks wholly out of the left, right, top and bottom edge (40 frames out, 10 away, 40 back, each) |
    /// | `roll` | 180 (6 s) | rolls to +45°, holds, to −45°, holds, back upright |
    /// | `profile` | 180 (6 s) | turns to 80° profile one way, holds, back, the other way (a cylinder warp of the photo) |
    /// | `small` | 120 (4 s) | two small faces, 20 and 30 px tall at 720p |
    /// | `fast` | 120 (4 s) | crosses the whole picture in 1 s, out to out, both ways, then comes in to the middle |
    /// | `dim` | 120 (4 s) | the picture at 50 %, 35 % and 25 % of its brightness above black |
    /// | `crossing` | 120 (4 s) | two faces crossing, one passing in front of the other |
    /// | `passing` | 120 (4 s) | a face passing in front of a still one in 2 s, hiding it wholly midway |
    /// | `passingTilted` | 120 (4 s) | the same, the passing face rolled to 30° and at half brightness while it passes |
    /// | `merging` | 120 (4 s) | two faces moving together until one hides most of the other, held 0.5 s, apart again |
    /// | `hidden` | 120 (4 s) | a face held 1 s beside a still one, hiding part of it |
    /// | `smallCrossing` | 120 (4 s) | a 35 px face crossing in front of a 150 px one |
    ///
    /// Heads are drawn in layer order, a later one in front: the truth says which heads hide
    /// each face (``TruthFace/hiddenBy``), so the meter looks only at what can be seen.
    public enum Scenario: String, Sendable, CaseIterable, Codable {
        /// One face through the phases listed at ``PrivacyClips`` (14 s).
        case single
        /// Two faces at once, one smaller (6 s).
        case twoFaces
        /// Out of each edge and back (12 s).
        case edges
        /// Rolled ±45° (6 s).
        case roll
        /// Turned to profile both ways (6 s).
        case profile
        /// Faces 20 and 30 px tall at 720p (4 s).
        case small
        /// Across the picture in 1 s (4 s).
        case fast
        /// Dimmed to a quarter (4 s).
        case dim
        /// Two faces crossing (4 s).
        case crossing
        /// A face passing in front of a still one (4 s).
        case passing
        /// The same, rolled and dimmed while it passes (4 s).
        case passingTilted
        /// Two faces merging and separating (4 s).
        case merging
        /// A face partly hidden behind another for a second (4 s).
        case hidden
        /// A small face crossing in front of a large one (4 s).
        case smallCrossing

        /// Frames in the clip.
        public var frameCount: Int {
            switch self {
            case .single: 420
            case .twoFaces, .roll, .profile: 180
            case .edges: 360
            case .small, .fast, .dim, .crossing, .passing, .passingTilted, .merging, .hidden, .smallCrossing: 120
            }
        }

        /// The named parts of the clip, as frame ranges (together: every frame).
        public var phases: [(name: String, frames: Range<Int>)] {
            switch self {
            case .single:
                [("moving", 0..<90), ("tilt", 90..<180), ("dimmed", 180..<240), ("partlyOut", 240..<300), ("absent", 300..<360), ("back", 360..<420)]
            case .twoFaces: [("twoFaces", 0..<180)]
            case .edges:
                ["left", "right", "top", "bottom"].enumerated().flatMap { (i: Int, edge: String) -> [(name: String, frames: Range<Int>)] in
                    let start = 90 * i
                    return [(name: edge + "Out", frames: start..<(start + 45)), (name: edge + "Back", frames: (start + 45)..<(start + 90))]
                }
            case .roll: [("rollRight", 0..<75), ("rollLeft", 75..<180)]
            case .profile: [("turnRight", 0..<90), ("turnLeft", 90..<180)]
            case .small: [("small", 0..<120)]
            case .fast: [("crossRight", 0..<45), ("crossLeft", 45..<90), ("enter", 90..<120)]
            case .dim: [("half", 0..<40), ("third", 40..<80), ("quarter", 80..<120)]
            case .crossing: [("apart", 0..<40), ("crossing", 40..<80), ("passed", 80..<120)]
            case .passing, .passingTilted: [("apart", 0..<35), ("passing", 35..<65), ("passed", 65..<120)]
            case .smallCrossing: [("apart", 0..<35), ("passing", 35..<85), ("passed", 85..<120)]
            case .merging: [("closing", 0..<40), ("merged", 40..<55), ("separating", 55..<120)]
            case .hidden: [("approach", 0..<45), ("hidden", 45..<75), ("leave", 75..<120)]
            }
        }

        /// The frames whose picture is darkened, and the share of brightness above black kept.
        public var dims: [(frames: Range<Int>, factor: Double)] {
            switch self {
            case .single: [(180..<240, 0.5)]
            case .dim: [(0..<40, 0.5), (40..<80, 0.35), (80..<120, 0.25)]
            default: []
            }
        }
    }

    /// The head's horizontal radius in the photo cut (the alpha ellipse's), which the profile
    /// turn treats as a cylinder.
    static let headRadius = 80.0

    /// One pasted head: its size and motion.
    public struct FaceLayer: Sendable {
        /// The side of the square photo cut once scaled (even).
        public var size: Int
        /// The head's centre, before the even rounding of the overlay position.
        public var centerX: MotionExpression
        /// The head's centre, before the even rounding of the overlay position.
        public var centerY: MotionExpression
        /// Clockwise rotation in radians (roll).
        public var angle: MotionExpression
        /// Frames in which the head is not pasted.
        public var absent: Range<Int>?
        /// Turn about the vertical axis in radians, positive to the picture's right (yaw): the
        /// photo is wrapped round a cylinder of ``PrivacyClips/headRadius`` and turned; 0: flat.
        public var yaw: MotionExpression = 0
        /// The frames in which this head alone is darker, and the share of its brightness kept.
        public var dims: [(frames: Range<Int>, factor: Double)] = []

        /// A head.
        public init(size: Int, centerX: MotionExpression, centerY: MotionExpression, angle: MotionExpression = 0,
                    absent: Range<Int>? = nil, yaw: MotionExpression = 0) {
            self.size = size; self.centerX = centerX; self.centerY = centerY; self.angle = angle; self.absent = absent; self.yaw = yaw
        }

        /// The side of the rotated layer (even, holds the square at any angle).
        public var rotatedSize: Int { Int((Double(size) * 2.0.squareRoot()).rounded(.up)) / 2 * 2 + 2 }
        /// The overlay's left edge.
        public var overlayX: MotionExpression { (centerX - .number(Double(rotatedSize / 2))).evenFloor }
        /// The overlay's top edge.
        public var overlayY: MotionExpression { (centerY - .number(Double(rotatedSize / 2))).evenFloor }
        /// The upright, unturned face's width in the frame.
        public var faceWidth: Double { PrivacyClips.photoFace.width * Double(size) / Double(PrivacyClips.cropSize) }
        /// The face's height in the frame.
        public var faceHeight: Double { PrivacyClips.photoFace.height * Double(size) / Double(PrivacyClips.cropSize) }
        /// Whether the layer turns (its photo goes through the cylinder warp).
        public var turns: Bool { yaw != 0 }

        /// The turned face's visible span across the head, in frame pixels from the head's
        /// centre along the face's own x axis: the face's edges (±half its width on the
        /// photo) wrapped round the cylinder, turned by `yaw`, cut at the head's silhouette.
        public func turnedSpan(yaw: Double) -> (left: Double, right: Double) {
            let r = PrivacyClips.headRadius, half = PrivacyClips.photoFace.width / 2
            let k = Double(size) / Double(PrivacyClips.cropSize)
            let limit = Double.pi / 2
            let a = min(limit, max(-limit, asin(-half / r) + yaw)), b = min(limit, max(-limit, asin(half / r) + yaw))
            return (r * sin(a) * k, r * sin(b) * k)
        }
    }

    /// The heads of `scenario` in a `width` × `height` clip.
    public static func layers(_ scenario: Scenario, width: Int, height: Int) -> [FaceLayer] {
        let w = Double(width), h = Double(height)
        // The face is 100 px of the photo's 512: 150 px tall at 720p, 200 px at 1080p.
        let size = even(Double(cropSize) * 1.5 * h / 720)
        let tau = 2 * Double.pi
        let wanderX: MotionExpression = .number(w / 2) + .number(0.25 * w) * .sine(.frame * .number(tau / 150))
        let wanderY: MotionExpression = .number(h / 2) + .number(0.1 * h) * .sine(.frame * .number(tau / 110))
        let slowX: MotionExpression = .number(w / 2) + .number(0.05 * w) * .sine(.frame * .number(tau / 120))
        let slowY: MotionExpression = .number(h / 2) + .number(0.04 * h) * .sine(.frame * .number(tau / 90))
        let degrees = Double.pi / 180
        switch scenario {
        case .single:
            var layer = FaceLayer(size: size, centerX: wanderX, centerY: wanderY, absent: 300..<360)
            // Glide right from 8 s until 40 % of the face is out (centre 0.1 face widths inside the edge).
            let out = wanderX.gliding(to: .number(w - 0.1 * layer.faceWidth), from: 240, over: 30)
            layer.centerX = .ifLess(.frame, 240, then: wanderX, else: .ifLess(.frame, 300, then: out, else: wanderX))
            // Tilt 3–6 s: one full sine period, +30° then -30°, 0 at both ends.
            let tilt: MotionExpression = .number(Double.pi / 6) * .sine((.frame - 90) * .number(tau / 90))
            layer.angle = .ifLess(.frame, 90, then: 0, else: .ifLess(.frame, 180, then: tilt, else: 0))
            return [layer]
        case .twoFaces:
            let a = FaceLayer(size: size,
                              centerX: .number(0.3 * w) + .number(0.1 * w) * .sine(.frame * .number(tau / 120)),
                              centerY: .number(0.5 * h) + .number(0.1 * h) * .sine(.frame * .number(tau / 90)))
            let b = FaceLayer(size: even(Double(size) * 0.6),
                              centerX: .number(0.72 * w) + .number(0.08 * w) * .sine(.frame * .number(tau / 100) + 1),
                              centerY: .number(0.45 * h) + .number(0.1 * h) * .sine(.frame * .number(tau / 140)))
            return [a, b]
        case .edges:
            return [edgesLayer(size: size, width: w, height: h)]
        case .roll:
            let angle = MotionExpression.keyframes([(0, 0), (30, 45), (60, 45), (105, -45), (135, -45), (165, 0), (180, 0)].map { ($0, $1 * degrees) })
            return [FaceLayer(size: size, centerX: slowX, centerY: slowY, angle: angle)]
        case .profile:
            let yaw = MotionExpression.keyframes([(0, 0), (30, 80), (60, 80), (90, 0), (120, -80), (150, -80), (180, 0)].map { ($0, $1 * degrees) })
            return [FaceLayer(size: size, centerX: slowX, centerY: slowY, yaw: yaw)]
        case .small:
            // Face heights 20 and 30 px at 720p (the face is 100 of the photo cut's 256 px).
            let a = FaceLayer(size: even(Double(cropSize) * 20 / 100 * h / 720),
                              centerX: .number(0.3 * w) + .number(0.03 * w) * .sine(.frame * .number(tau / 120)),
                              centerY: .number(0.4 * h) + .number(0.03 * h) * .sine(.frame * .number(tau / 80)))
            let b = FaceLayer(size: even(Double(cropSize) * 30 / 100 * h / 720),
                              centerX: .number(0.7 * w) + .number(0.03 * w) * .sine(.frame * .number(tau / 100)),
                              centerY: .number(0.6 * h) + .number(0.03 * h) * .sine(.frame * .number(tau / 70)))
            return [a, b]
        case .fast:
            let layer = FaceLayer(size: size, centerX: 0, centerY: .number(h / 2))
            let out = Double(layer.rotatedSize / 2 + 4)
            var moved = layer
            moved.centerX = .keyframes([(0, -out), (30, w + out), (45, w + out), (75, -out), (90, -out), (120, w / 2)])
            return [moved]
        case .dim:
            return [FaceLayer(size: size, centerX: wanderX, centerY: wanderY)]
        case .crossing:
            let a = FaceLayer(size: size, centerX: .keyframes([(0, 0.15 * w), (15, 0.15 * w), (105, 0.85 * w)]), centerY: .number(0.45 * h))
            let b = FaceLayer(size: even(Double(size) * 0.8), centerX: .keyframes([(0, 0.85 * w), (15, 0.85 * w), (105, 0.15 * w)]),
                              centerY: .number(0.55 * h))
            return [a, b]
        case .passing, .passingTilted, .merging, .hidden, .smallCrossing:
            return overlapLayers(scenario, size: size, width: w, height: h)
        }
    }

    /// The overlapping faces (the second head in front of the first), at 720p with a 150 px
    /// face: its head's opaque ellipse is 228 × 308 px, its centre 30 px above the face's.
    static func overlapLayers(_ scenario: Scenario, size: Int, width w: Double, height h: Double) -> [FaceLayer] {
        let degrees = Double.pi / 180
        let faceHeight = Double(size) * photoFace.height / Double(cropSize), faceWidth = Double(size) * photoFace.width / Double(cropSize)
        switch scenario {
        case .passing, .passingTilted:
            // Still; the other passes in front of it in 2 s (17 px a frame at 720p, a brisk
            // walk), its face a fifth of a face higher, its head hiding the still face wholly
            // in the middle of the way.
            let still = FaceLayer(size: size, centerX: .number(0.5 * w), centerY: .number(0.55 * h))
            var passing = FaceLayer(size: size, centerX: .keyframes([(0, 0.1 * w), (20, 0.1 * w), (80, 0.9 * w)]),
                                    centerY: .number(0.55 * h - 0.2 * faceHeight))
            if scenario == .passingTilted {
                passing.angle = .keyframes([(25, 0), (35, 30 * degrees), (65, 30 * degrees), (75, 0)])
                passing.dims = [(25..<35, 0.75), (35..<65, 0.5), (65..<75, 0.75)]
            }
            return [still, passing]
        case .merging:
            // Together until 0.6 face widths apart (the front head hides three quarters of the
            // other face), a little lower, held 0.5 s, apart again.
            let gap = 0.6 * faceWidth / 2
            let a = FaceLayer(size: size, centerX: .keyframes([(0, 0.3 * w), (40, 0.5 * w - gap), (55, 0.5 * w - gap), (95, 0.3 * w)]),
                              centerY: .number(0.5 * h))
            let b = FaceLayer(size: size, centerX: .keyframes([(0, 0.7 * w), (40, 0.5 * w + gap), (55, 0.5 * w + gap), (95, 0.7 * w)]),
                              centerY: .number(0.5 * h + 0.2 * faceHeight))
            return [a, b]
        case .hidden:
            // Comes from the right to 0.75 face widths beside the still face (hiding its right
            // side, about half of it), stays 1 s, goes back.
            let still = FaceLayer(size: size, centerX: .number(0.4 * w), centerY: .number(0.5 * h))
            let beside = 0.4 * w + 0.75 * faceWidth
            let visitor = FaceLayer(size: size, centerX: .keyframes([(0, 0.85 * w), (15, 0.85 * w), (45, beside), (75, beside), (105, 0.85 * w)]),
                                    centerY: .number(0.5 * h - 0.1 * faceHeight))
            return [still, visitor]
        default:
            // A 35 px face (at 720p) across the large one's face, 0.3 to 0.7 of the width in 4 s.
            let large = FaceLayer(size: size, centerX: .number(0.5 * w), centerY: .number(0.5 * h))
            let small = FaceLayer(size: even(Double(cropSize) * 35 / 100 * h / 720), centerX: .keyframes([(0, 0.3 * w), (120, 0.7 * w)]),
                                  centerY: .number(0.5 * h))
            return [large, small]
        }
    }

    /// `.edges`: from the middle wholly out of the left edge and back, then the right, the
    /// top and the bottom; 90 frames each (40 out, 10 away, 40 back, 0 held).
    static func edgesLayer(size: Int, width w: Double, height h: Double) -> FaceLayer {
        let probe = FaceLayer(size: size, centerX: 0, centerY: 0)
        let away = Double(probe.rotatedSize / 2 + 4)
        let (cx, cy) = (w / 2, h / 2)
        func trip(_ start: Int, _ middle: Double, _ outside: Double) -> [(Int, Double)] {
            [(start, middle), (start + 40, outside), (start + 50, outside), (start + 90, middle)]
        }
        let x = MotionExpression.keyframes(trip(0, cx, -away) + trip(90, cx, w + away).dropFirst() + [(360, cx)])
        let y = MotionExpression.keyframes([(0, cy)] + trip(180, cy, -away) + trip(270, cy, h + away).dropFirst())
        return FaceLayer(size: size, centerX: x, centerY: y)
    }
}

extension MotionExpression {
    /// Straight lines between (frame, value) points given in frame order; the first value
    /// before the first point, the last after the last.
    public static func keyframes(_ points: [(Int, Double)]) -> MotionExpression {
        precondition(!points.isEmpty, "keyframes need a point")
        var expression = MotionExpression.number(points[points.count - 1].1)
        for i in stride(from: points.count - 2, through: 0, by: -1) {
            let (f0, v0) = points[i], (f1, v1) = points[i + 1]
            precondition(f1 >= f0, "keyframes out of order")
            let line: MotionExpression = f1 == f0 ? .number(v1)
                : .number(v0) + .number(v1 - v0) * ((.frame - .number(Double(f0))) / .number(Double(f1 - f0)))
            expression = .ifLess(.frame, .number(Double(f1)), then: line, else: expression)
        }
        return .ifLess(.frame, .number(Double(points[0].0)), then: .number(points[0].1), else: expression)
    }
}
