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
        // Fine detail of both pictures over the extended window.
        var s = [Double](repeating: 0, count: ew * eh), e = s
        for y in 0..<eh {
            let row = (y + ey0) * width + ex0
            for x in 0..<ew { s[y * ew + x] = Double(source[row + x]); e[y * ew + x] = Double(export[row + x]) }
        }
        let hs = Self.highPass(s, width: ew, height: eh, radius: settings.detailRadius)
        let he = Self.highPass(e, width: ew, height: eh, radius: settings.detailRadius)

        var measured: [Face] = []
        for face in faces {
            let b = face.box
            var n = 0, sa = 0.0, sb = 0.0, saa = 0.0, sbb = 0.0, sab = 0.0
            for py in Int(b.y.rounded(.down))..<min(height, Int((b.y + b.height).rounded(.up))) {
                for px in Int(b.x.rounded(.down))..<min(width, Int((b.x + b.width).rounded(.up)))
                where face.visiblyContains(Double(px) + 0.5, Double(py) + 0.5, scale: settings.faceEllipseScale) {
                    let i = (py - ey0) * ew + (px - ex0)
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
            measured.append(Face(layer: face.layer, box: b, correlation: correlation, detailRetained: retained, pixels: n,
                                 leaked: seen && correlation > settings.leakThreshold, visibleShare: share, measured: seen))
        }

        // Changed area: local mean |s − e| above the noise, or local detail energy collapsed.
        var diff = [Double](repeating: 0, count: ew * eh), es = diff, ee = diff
        for i in 0..<(ew * eh) { diff[i] = abs(s[i] - e[i]); es[i] = hs[i] * hs[i]; ee[i] = he[i] * he[i] }
        let r = settings.changeRadius
        let md = Self.boxMean(diff, width: ew, height: eh, radius: r)
        let mes = Self.boxMean(es, width: ew, height: eh, radius: r)
        let mee = Self.boxMean(ee, width: ew, height: eh, radius: r)
        var changed = 0, headChanged = 0, headArea = 0
        for y in min(y0, hy0)..<max(y1, hy1) {
            for x in min(x0, hx0)..<max(x1, hx1) {
                let i = (y - ey0) * ew + (x - ex0)
                let (px, py) = (Double(x) + 0.5, Double(y) + 0.5)
                if heads.contains(where: { px >= $0.x && px < $0.x + $0.width && py >= $0.y && py < $0.y + $0.height }) { headArea += 1 }
                guard md[i] > settings.differenceThreshold
                    || (mes[i] >= settings.minimumDetailEnergy && mee[i] < settings.collapseRatio * mes[i]) else { continue }
                if x >= x0, x < x1, y >= y0, y < y1 { changed += 1 }
                if x >= hx0, x < hx1, y >= hy0, y < hy1 { headChanged += 1 }
            }
        }
        let area = faces.reduce(0) { $0 + $1.box.area }
        return Result(faces: measured, changedPixels: changed, faceArea: area, coverage: area > 0 ? Double(changed) / area : 0,
                      headChangedPixels: headChanged, headArea: Double(headArea),
                      headCoverage: headArea > 0 ? Double(headChanged) / Double(headArea) : 0)
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

    /// `values` minus their (2r+1)² box mean (the box shrinks at the edges).
    static func highPass(_ values: [Double], width: Int, height: Int, radius: Int) -> [Double] {
        let mean = boxMean(values, width: width, height: height, radius: radius)
        var out = values
        for i in out.indices { out[i] -= mean[i] }
        return out
    }

    /// The mean over the (2r+1)² box around each sample, through a summed-area table; at the
    /// edges only the samples inside count.
    static func boxMean(_ values: [Double], width: Int, height: Int, radius: Int) -> [Double] {
        let sw = width + 1
        var table = [Double](repeating: 0, count: sw * (height + 1))
        values.withUnsafeBufferPointer { v in
            table.withUnsafeMutableBufferPointer { t in
                for y in 0..<height {
                    var row = 0.0
                    for x in 0..<width {
                        row += v[y * width + x]
                        t[(y + 1) * sw + x + 1] = t[y * sw + x + 1] + row
                    }
                }
            }
        }
        var out = [Double](repeating: 0, count: width * height)
        table.withUnsafeBufferPointer { t in
            out.withUnsafeMutableBufferPointer { o in
                for y in 0..<height {
                    let ya = max(0, y - radius), yb = min(height, y + radius + 1)
                    for x in 0..<width {
                        let xa = max(0, x - radius), xb = min(width, x + radius + 1)
                        let sum = t[yb * sw + xb] - t[ya * sw + xb] - t[yb * sw + xa] + t[ya * sw + xa]
                        o[y * width + x] = sum / Double((yb - ya) * (xb - xa))
                    }
                }
            }
        }
        return out
    }
}
