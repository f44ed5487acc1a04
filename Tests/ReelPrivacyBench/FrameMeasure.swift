import Foundation

/// The per-frame arithmetic of `LeakMeter`: fine detail (the picture minus its box blur) of
/// source and export, their correlation inside each face, and the area the export changed.
public struct FrameMeasure: Sendable {
    /// The meter's knobs (the defaults are the calibrated ones; see `LeakMeter`).
    public struct Settings: Codable, Sendable, Equatable {
        /// Fine detail = pixel − mean of the (2r+1)² box around it.
        public var detailRadius: Int = 2
        /// A face leaks when the correlation of fine detail exceeds this.
        public var leakThreshold: Double = 0.35
        /// The face region correlated: the ellipse inscribed in the rotated face rectangle, scaled.
        public var faceEllipseScale: Double = 1.0
        /// Changed-area statistics are means over a (2r+1)² box.
        public var changeRadius: Int = 3
        /// A pixel is changed when the local mean |source − export| exceeds this (gray levels)…
        public var differenceThreshold: Double = 12
        /// …or when the export kept less than this share of the source's local detail energy…
        public var collapseRatio: Double = 0.2
        /// …where the source had at least this much (mean squared fine detail, gray levels²).
        public var minimumDetailEnergy: Double = 25
        /// Change is counted in a window around each face, this many times the face box per side
        /// (so coverage above windowFactor² cannot be seen; a caption elsewhere is not counted).
        public var windowFactor: Double = 4
        /// Change against the head is counted in a window this many times the head box per side.
        public var headWindowFactor: Double = 3
        /// A face partly hidden behind another head is measured only where it can be seen, and
        /// only when at least this share of its ellipse can be: less (an ear, a cheek's edge)
        /// shows nobody, and no detector can find it.
        public var minimumVisibleShare: Double = 0.2

        /// The calibrated defaults.
        public init() {}
    }

    /// One face in one frame.
    public struct Face: Codable, Sendable, Equatable {
        /// The truth's layer.
        public var layer: Int
        /// The known box (clipped).
        public var box: PixelBox
        /// Pearson correlation of source and export fine detail in the face ellipse (0 when
        /// the export has no detail there at all).
        public var correlation: Double
        /// RMS fine detail of the export over that of the source in the face ellipse.
        public var detailRetained: Double
        /// Pixels correlated.
        public var pixels: Int
        /// Whether `correlation` exceeds the threshold.
        public var leaked: Bool
        /// The share of the face ellipse not hidden by a head in front (1: nothing in front).
        public var visibleShare: Double = 1
        /// Whether the face was measured (false: too little of it can be seen, never a leak).
        public var measured: Bool = true
    }

    /// One frame's result.
    public struct Result: Codable, Sendable, Equatable {
        /// The faces measured.
        public var faces: [Face]
        /// Changed pixels counted in the windows around the faces.
        public var changedPixels: Int
        /// The sum of the faces' known box areas.
        public var faceArea: Double
        /// changedPixels / faceArea (0 without a face).
        public var coverage: Double
        /// Changed pixels counted in the windows around the heads.
        public var headChangedPixels: Int = 0
        /// The area of the union of the faces' head boxes (the face boxes' where a truth has no heads).
        public var headArea: Double = 0
        /// headChangedPixels / headArea (0 without a face).
        public var headCoverage: Double = 0
    }

    /// The settings used.
    public var settings: Settings

    /// A measure with `settings`.
    public init(settings: Settings = Settings()) { self.settings = settings }

    /// Measures one frame pair (`width × height` gray bytes each) against the known faces.
    public func measure(source: [UInt8], export: [UInt8], width: Int, height: Int, faces: [TruthFace]) -> Result {
        guard !faces.isEmpty else { return Result(faces: [], changedPixels: 0, faceArea: 0, coverage: 0) }
        // The windows: every face's box widened windowFactor times, their bounding rectangle;
        // every head box widened headWindowFactor times, theirs.
        let (x0, y0, x1, y1) = Self.window(faces.map { $0.box.scaled(by: settings.windowFactor) }, width: width, height: height)
        let heads = faces.map { $0.head ?? $0.box }
        let (hx0, hy0, hx1, hy1) = Self.window(heads.map { $0.scaled(by: settings.headWindowFactor) }, width: width, height: height)
        let margin = settings.detailRadius + settings.changeRadius
        let ex0 = max(0, min(x0, hx0) - margin), ey0 = max(0, min(y0, hy0) - margin)
        let ex1 = min(width, max(x1, hx1) + margin), ey1 = min(height, max(y1, hy1) + margin)
        let ew = ex1 - ex0, eh = ey1 - ey0
        // Fine detail of both pictures over the extended window (its box means clipped to it).
        let extended = Window(x0: ex0, y0: ey0, width: ew, height: eh)
        let hs = extended.highPass(source, stride: width, radius: settings.detailRadius)
        let he = extended.highPass(export, stride: width, radius: settings.detailRadius)
        let measured = faces.map { correlate($0, hs, he, extended, width: width, height: height) }

        // Changed area: local mean |s − e| above the noise, or local detail energy collapsed.
        let (md, mes, mee) = extended.changeTables(source, export, hs, he, stride: width)
        let r = settings.changeRadius
        var changed = 0, headChanged = 0, headArea = 0
        let (lx0, lx1) = (min(x0, hx0), max(x1, hx1))
        var headColumns: [Range<Int>] = []
        for y in min(y0, hy0)..<max(y1, hy1) {
            Self.columns(of: heads, row: y, into: &headColumns)
            let wy = y - ey0
            for x in lx0..<lx1 {
                if headColumns.contains(where: { $0.contains(x) }) { headArea += 1 }
                let wx = x - ex0
                if md.mean(wx, wy, radius: r) <= settings.differenceThreshold {
                    let sourceEnergy = mes.mean(wx, wy, radius: r)
                    guard sourceEnergy >= settings.minimumDetailEnergy,
                          mee.mean(wx, wy, radius: r) < settings.collapseRatio * sourceEnergy else { continue }
                }
                if x >= x0, x < x1, y >= y0, y < y1 { changed += 1 }
                if x >= hx0, x < hx1, y >= hy0, y < hy1 { headChanged += 1 }
            }
        }
        let area = faces.reduce(0) { $0 + $1.box.area }
        return Result(faces: measured, changedPixels: changed, faceArea: area, coverage: area > 0 ? Double(changed) / area : 0,
                      headChangedPixels: headChanged, headArea: Double(headArea),
                      headCoverage: headArea > 0 ? Double(headChanged) / Double(headArea) : 0)
    }

    /// The correlation of fine detail inside `face`'s ellipse, where it can be seen.
    private func correlate(_ face: TruthFace, _ hs: [Double], _ he: [Double], _ window: Window, width: Int, height: Int) -> Face {
        let b = face.box
        var n = 0, sa = 0.0, sb = 0.0, saa = 0.0, sbb = 0.0, sab = 0.0
        for py in Int(b.y.rounded(.down))..<min(height, Int((b.y + b.height).rounded(.up))) {
            for px in Int(b.x.rounded(.down))..<min(width, Int((b.x + b.width).rounded(.up)))
            where face.visiblyContains(Double(px) + 0.5, Double(py) + 0.5, scale: settings.faceEllipseScale) {
                let i = (py - window.y0) * window.width + (px - window.x0)
                let a = hs[i], c = he[i]
                n += 1; sa += a; sb += c; saa += a * a; sbb += c * c; sab += a * c
            }
        }
        var correlation = 0.0, retained = 0.0
        if n > 1 {
            let count = Double(n)
            let va = saa / count - (sa / count) * (sa / count), vb = sbb / count - (sb / count) * (sb / count)
            let cov = sab / count - (sa / count) * (sb / count)
            if va > 1e-9, vb > 1e-9 { correlation = cov / (va * vb).squareRoot() }
            if va > 1e-9 { retained = (max(0, vb) / va).squareRoot() }
        }
        let share = face.visibleShare ?? 1, seen = share >= settings.minimumVisibleShare
        return Face(layer: face.layer, box: b, correlation: correlation, detailRetained: retained, pixels: n,
                    leaked: seen && correlation > settings.leakThreshold, visibleShare: share, measured: seen)
    }

    /// The columns of row `y` whose pixel centres lie in one of `boxes` (as `PixelBox`
    /// containment: left and top edges in, right and bottom out), one range per box it crosses.
    static func columns(of boxes: [PixelBox], row y: Int, into ranges: inout [Range<Int>]) {
        ranges.removeAll(keepingCapacity: true)
        let py = Double(y) + 0.5
        for b in boxes where py >= b.y && py < b.y + b.height {
            // The first column whose centre is at or right of the left edge, and the first one
            // at or right of the right edge: estimated, then settled with the exact test.
            var lo = Int((b.x - 0.5).rounded(.up)), hi = Int((b.x + b.width - 0.5).rounded(.up))
            while Double(lo) + 0.5 < b.x { lo += 1 }
            while Double(lo - 1) + 0.5 >= b.x { lo -= 1 }
            while Double(hi) + 0.5 < b.x + b.width { hi += 1 }
            while Double(hi - 1) + 0.5 >= b.x + b.width { hi -= 1 }
            if lo < hi { ranges.append(lo..<hi) }
        }
    }

    /// The part of the picture a frame is measured over; box means are clipped to it.
    struct Window {
        let x0: Int, y0: Int, width: Int, height: Int

        /// A picture's bytes in the window minus their (2r+1)² box mean.
        func highPass(_ picture: [UInt8], stride: Int, radius: Int) -> [Double] {
            let table = SummedArea(width: width, height: height) { x, y in Double(picture[(y + y0) * stride + x + x0]) }
            return [Double](unsafeUninitializedCapacity: width * height) { out, count in
                picture.withUnsafeBufferPointer { p in
                    for y in 0..<height {
                        let row = (y + y0) * stride + x0
                        for x in 0..<width { out[y * width + x] = Double(p[row + x]) - table.mean(x, y, radius: radius) }
                    }
                }
                count = width * height
            }
        }

        /// The summed areas of |source − export| and of the two pictures' squared fine detail.
        func changeTables(_ source: [UInt8], _ export: [UInt8], _ hs: [Double], _ he: [Double],
                          stride: Int) -> (SummedArea, SummedArea, SummedArea) {
            let difference = SummedArea(width: width, height: height) { x, y in
                let i = (y + y0) * stride + x + x0
                return abs(Double(source[i]) - Double(export[i]))
            }
            let sourceEnergy = SummedArea(width: width, height: height) { x, y in hs[y * width + x] * hs[y * width + x] }
            let exportEnergy = SummedArea(width: width, height: height) { x, y in he[y * width + x] * he[y * width + x] }
            return (difference, sourceEnergy, exportEnergy)
        }
    }

    /// A summed-area table, for the mean over the (2r+1)² box around a sample; at the edges
    /// only the samples inside count.
    struct SummedArea {
        let width: Int, height: Int
        private let table: [Double]

        init(width: Int, height: Int, value: (Int, Int) -> Double) {
            self.width = width
            self.height = height
            let sw = width + 1
            table = [Double](unsafeUninitializedCapacity: sw * (height + 1)) { t, count in
                for x in 0..<sw { t[x] = 0 }
                for y in 0..<height {
                    var row = 0.0
                    t[(y + 1) * sw] = 0
                    for x in 0..<width {
                        row += value(x, y)
                        t[(y + 1) * sw + x + 1] = t[y * sw + x + 1] + row
                    }
                }
                count = sw * (height + 1)
            }
        }

        @inline(__always)
        func mean(_ x: Int, _ y: Int, radius: Int) -> Double {
            let sw = width + 1
            let ya = max(0, y - radius), yb = min(height, y + radius + 1)
            let xa = max(0, x - radius), xb = min(width, x + radius + 1)
            return table.withUnsafeBufferPointer { t in
                (t[yb * sw + xb] - t[ya * sw + xb] - t[yb * sw + xa] + t[ya * sw + xa]) / Double((yb - ya) * (xb - xa))
            }
        }
    }

    /// The bounding rectangle of `boxes` clipped to the picture, in whole pixels.
    static func window(_ boxes: [PixelBox], width: Int, height: Int) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
        var x0 = width, y0 = height, x1 = 0, y1 = 0
        for box in boxes {
            let w = box.clipped(toWidth: width, height: height)
            x0 = min(x0, Int(w.x.rounded(.down))); y0 = min(y0, Int(w.y.rounded(.down)))
            x1 = max(x1, Int((w.x + w.width).rounded(.up))); y1 = max(y1, Int((w.y + w.height).rounded(.up)))
        }
        return (x0, y0, max(x0, x1), max(y0, y1))
    }
}
