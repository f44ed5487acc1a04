import Foundation

/// A per-frame expression in the frame number `n`, written once and used twice: rendered into
/// an ffmpeg filter expression (overlay x/y, rotate angle) and evaluated here for the truth.
///
/// Both sides compute in `Double` with the C library's `sin` and `floor`, and constants are
/// rendered in Swift's shortest round-trip form, so ffmpeg's value and ours are the same number.
public indirect enum MotionExpression: Sendable, Equatable {
    /// A constant.
    case number(Double)
    /// The frame number (ffmpeg's `n`, 0 for the first frame).
    case frame
    /// `a + b`.
    case add(MotionExpression, MotionExpression)
    /// `a - b`.
    case subtract(MotionExpression, MotionExpression)
    /// `a * b`.
    case multiply(MotionExpression, MotionExpression)
    /// `a / b`.
    case divide(MotionExpression, MotionExpression)
    /// `sin(a)` (radians).
    case sine(MotionExpression)
    /// `floor(a)`.
    case floor(MotionExpression)
    /// `min(a, b)`.
    case minimum(MotionExpression, MotionExpression)
    /// `max(a, b)`.
    case maximum(MotionExpression, MotionExpression)
    /// `if(lt(a, b), then, else)`.
    case ifLess(MotionExpression, MotionExpression, then: MotionExpression, else: MotionExpression)

    /// The value at frame `n`.
    public func value(atFrame n: Int) -> Double {
        switch self {
        case .number(let v): return v
        case .frame: return Double(n)
        case .add(let a, let b): return a.value(atFrame: n) + b.value(atFrame: n)
        case .subtract(let a, let b): return a.value(atFrame: n) - b.value(atFrame: n)
        case .multiply(let a, let b): return a.value(atFrame: n) * b.value(atFrame: n)
        case .divide(let a, let b): return a.value(atFrame: n) / b.value(atFrame: n)
        case .sine(let a): return Foundation.sin(a.value(atFrame: n))
        case .floor(let a): return Foundation.floor(a.value(atFrame: n))
        case .minimum(let a, let b): return Swift.min(a.value(atFrame: n), b.value(atFrame: n))
        case .maximum(let a, let b): return Swift.max(a.value(atFrame: n), b.value(atFrame: n))
        case .ifLess(let a, let b, let then, let otherwise):
            return a.value(atFrame: n) < b.value(atFrame: n) ? then.value(atFrame: n) : otherwise.value(atFrame: n)
        }
    }

    /// The expression in ffmpeg's syntax (libavutil/eval), fully parenthesized, for filters
    /// whose `n` is the 0-based frame index (rotate, crop, timeline `enable`).
    public var ffmpeg: String { ffmpeg(frameVariable: "n") }

    /// The expression for `overlay`'s x and y: there `n` counts from 1 (ffmpeg 5.1 reads the
    /// link's output count after the frame was taken), so the frame index is `n-1`.
    public var ffmpegOverlay: String { ffmpeg(frameVariable: "(n-1)") }

    /// The expression with `frameVariable` standing for the frame index.
    public func ffmpeg(frameVariable: String) -> String {
        switch self {
        case .number(let v):
            precondition(v.isFinite && (v == 0 || abs(v) >= 1e-4), "constant \(v) would render in exponent form")
            return v < 0 ? "(\(v))" : "\(v)"
        case .frame: return frameVariable
        case .add(let a, let b): return "(\(a.ffmpeg(frameVariable: frameVariable))+\(b.ffmpeg(frameVariable: frameVariable)))"
        case .subtract(let a, let b): return "(\(a.ffmpeg(frameVariable: frameVariable))-\(b.ffmpeg(frameVariable: frameVariable)))"
        case .multiply(let a, let b): return "(\(a.ffmpeg(frameVariable: frameVariable))*\(b.ffmpeg(frameVariable: frameVariable)))"
        case .divide(let a, let b): return "(\(a.ffmpeg(frameVariable: frameVariable))/\(b.ffmpeg(frameVariable: frameVariable)))"
        case .sine(let a): return "sin(\(a.ffmpeg(frameVariable: frameVariable)))"
        case .floor(let a): return "floor(\(a.ffmpeg(frameVariable: frameVariable)))"
        case .minimum(let a, let b): return "min(\(a.ffmpeg(frameVariable: frameVariable)),\(b.ffmpeg(frameVariable: frameVariable)))"
        case .maximum(let a, let b): return "max(\(a.ffmpeg(frameVariable: frameVariable)),\(b.ffmpeg(frameVariable: frameVariable)))"
        case .ifLess(let a, let b, let then, let otherwise):
            return "if(lt(\(a.ffmpeg(frameVariable: frameVariable)),\(b.ffmpeg(frameVariable: frameVariable))),\(then.ffmpeg(frameVariable: frameVariable)),\(otherwise.ffmpeg(frameVariable: frameVariable)))"
        }
    }

    /// `2·floor(self / 2)`: the even integer at or below the value (overlay positions on 4:2:0
    /// pictures are even, and ffmpeg would otherwise truncate them its own way).
    public var evenFloor: MotionExpression { .multiply(.number(2), .floor(.divide(self, .number(2)))) }

    /// The value kept within `low...high`.
    public func clamped(_ low: Double, _ high: Double) -> MotionExpression { .minimum(.number(high), .maximum(.number(low), self)) }

    /// `self + (target - self) · min(1, (n - start) / frames)` from frame `start` on; `self` before.
    public func gliding(to target: MotionExpression, from start: Int, over frames: Int) -> MotionExpression {
        let progress = MotionExpression.minimum(.number(1), .divide(.subtract(.frame, .number(Double(start))), .number(Double(frames))))
        return .ifLess(.frame, .number(Double(start)), then: self,
                       else: .add(self, .multiply(.subtract(target, self), progress)))
    }
}

extension MotionExpression: ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    /// A constant.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A constant.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
}

/// Arithmetic that builds expressions.
public func + (a: MotionExpression, b: MotionExpression) -> MotionExpression { .add(a, b) }
/// Arithmetic that builds expressions.
public func - (a: MotionExpression, b: MotionExpression) -> MotionExpression { .subtract(a, b) }
/// Arithmetic that builds expressions.
public func * (a: MotionExpression, b: MotionExpression) -> MotionExpression { .multiply(a, b) }
/// Arithmetic that builds expressions.
public func / (a: MotionExpression, b: MotionExpression) -> MotionExpression { .divide(a, b) }
