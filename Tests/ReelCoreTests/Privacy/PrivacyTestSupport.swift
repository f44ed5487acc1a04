import Testing
import ReelCore

/// Capture or video time in milliseconds.
func ms(_ value: Int64) -> MediaTime { MediaTime(value: value, timescale: 1000) }

/// A face detection at (x, y) of size w × h.
func face(_ x: Double, _ y: Double, _ w: Double, _ h: Double, score: Double = 1) -> Detection {
    Detection(kind: .face, box: NormalizedRect(x: x, y: y, width: w, height: h), score: score)
}

/// An upper-body detection at (x, y) of size w × h.
func body(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Detection {
    Detection(kind: .upperBody, box: NormalizedRect(x: x, y: y, width: w, height: h))
}

/// A rectangle.
func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> NormalizedRect {
    NormalizedRect(x: x, y: y, width: w, height: h)
}

/// Whether every edge of `a` is within `tolerance` of `b`'s.
func isClose(_ a: NormalizedRect, _ b: NormalizedRect, tolerance: Double = 1e-9) -> Bool {
    abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
        && abs(a.width - b.width) <= tolerance && abs(a.height - b.height) <= tolerance
}

/// Expects `actual` to equal `expected` within floating-point noise.
func expectClose(_ actual: NormalizedRect?, _ expected: NormalizedRect, tolerance: Double = 1e-9,
                 sourceLocation: SourceLocation = #_sourceLocation) {
    guard let actual else {
        Issue.record("no box, expected \(expected)", sourceLocation: sourceLocation)
        return
    }
    #expect(isClose(actual, expected, tolerance: tolerance), "\(actual) is not \(expected)", sourceLocation: sourceLocation)
}
