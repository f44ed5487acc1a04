import CVision
import Foundation
import ReelCore

/// The C side's answer to one call, before a detector turns it into its own error.
enum CVisionFailure: Swift.Error {
    /// A file is missing or unreadable.
    case notFound(String)
    /// A file is not a usable model or cascade.
    case invalidModel(String)
    /// A bad argument (picture, size).
    case argument(String)
    /// OpenCV failed.
    case internalFailure(String)
}

/// Calls the C API with a message buffer and maps a failing status to a ``CVisionFailure``.
func cvisionCall(_ body: (UnsafeMutablePointer<CChar>, Int) -> cvision_status) throws(CVisionFailure) {
    var buffer = [CChar](repeating: 0, count: 1024)
    let status = buffer.withUnsafeMutableBufferPointer { body($0.baseAddress!, $0.count) }
    if status == CVISION_OK { return }
    let message = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    switch status {
    case CVISION_ERROR_NOT_FOUND: throw .notFound(message)
    case CVISION_ERROR_INVALID_MODEL: throw .invalidModel(message)
    case CVISION_ERROR_ARGUMENT: throw .argument(message)
    default: throw .internalFailure(message)
    }
}

/// Runs `body` with the C view of `picture` (its planes borrowed for the call).
func withCPicture<T>(_ picture: DetectorPicture, _ body: (UnsafePointer<cvision_picture>) throws -> T) rethrows -> T {
    var c = cvision_picture()
    switch picture.format {
    case .gray8: c.format = Int32(CVISION_FORMAT_GRAY8.rawValue)
    case .rgb24: c.format = Int32(CVISION_FORMAT_RGB24.rawValue)
    case .bgr24: c.format = Int32(CVISION_FORMAT_BGR24.rawValue)
    case .yuv420p: c.format = Int32(CVISION_FORMAT_YUV420P.rawValue)
    }
    c.width = Int32(clamping: picture.width)
    c.height = Int32(clamping: picture.height)
    let p = picture.planes
    c.planes = (p[0].base.assumingMemoryBound(to: UInt8.self),
                p.count > 1 ? p[1].base.assumingMemoryBound(to: UInt8.self) : nil,
                p.count > 2 ? p[2].base.assumingMemoryBound(to: UInt8.self) : nil)
    c.strides = (p[0].stride, p.count > 1 ? p[1].stride : 0, p.count > 2 ? p[2].stride : 0)
    return try withUnsafePointer(to: &c) { try body($0) }
}

/// The C detections as ``Detection``s normalized to a `width` × `height` picture. With
/// `landmarks` (CenterFace), each one's roll comes from its eyes (``roll(_:)``); otherwise
/// roll is 0.
func normalizedDetections(_ raw: ArraySlice<cvision_detection>, kind: Detection.Kind, width: Int, height: Int,
                          landmarks: Bool = false) -> [Detection] {
    let w = Double(width), h = Double(height)
    return raw.map { d in
        Detection(kind: kind,
                  box: NormalizedRect(x: Double(d.x) / w, y: Double(d.y) / h,
                                      width: Double(d.width) / w, height: Double(d.height) / h),
                  score: Double(d.score), roll: landmarks ? roll(d) : 0)
    }
}

/// A face's roll from CenterFace's landmarks, in picture pixels: the angle of the line from
/// the first eye (landmarks 0, 1: the one on the picture's left when the face is upright, the
/// person's right eye) to the second, atan2(Δy, Δx): clockwise positive with y down, 0 upright,
/// ±π for a face upside down. The formula and the landmark order are CenterFace's (checked
/// against ONNX Runtime on the astronaut photo: 0.6°, 31.6°, −22.6°, 44.8°, −31.8° for the photo
/// upright and turned 30°, −30°, 45°, −45° at input 1280; through OpenCV, unfused, at input 320:
/// 3.1°, 24.5°, −20.0°, 28.8°, −36.2°, CenterFaceRollTests): large rolls read short, the sign
/// is always right.
func roll(_ d: cvision_detection) -> Double {
    let l = d.landmarks
    return atan2(Double(l.3) - Double(l.1), Double(l.2) - Double(l.0))
}

/// The most detections one call returns (more faces than this in one picture are dropped,
/// lowest score or smallest first).
let detectionCapacity: Int32 = 64

/// One detection call, the part every detector shares: checks the picture, borrows its planes
/// and an output buffer for `call` under `lock` (one call at a time per C handle), and turns
/// the C answer into normalized detections of `kind`. A bad picture or argument becomes
/// `invalid(message)`, any other failure `failed(message)`, so each detector keeps its own
/// error type. `landmarks`: the C answer carries CenterFace's landmarks (roll is read from them).
func runDetection(_ picture: DetectorPicture, kind: Detection.Kind, landmarks: Bool = false, lock: NSLock,
                  invalid: (String) -> any Error, failed: (String) -> any Error,
                  _ call: (_ picture: UnsafePointer<cvision_picture>, _ out: UnsafeMutablePointer<cvision_detection>?,
                           _ capacity: Int32, _ count: UnsafeMutablePointer<Int32>,
                           _ message: UnsafeMutablePointer<CChar>, _ messageSize: Int) -> cvision_status) throws -> [Detection] {
    if let problem = picture.problem() { throw invalid(problem) }
    var raw = [cvision_detection](repeating: cvision_detection(), count: Int(detectionCapacity))
    var count: Int32 = 0
    do {
        try lock.withLock {
            try withCPicture(picture) { cPicture in
                try raw.withUnsafeMutableBufferPointer { out in
                    try cvisionCall { call(cPicture, out.baseAddress, detectionCapacity, &count, $0, $1) }
                }
            }
        }
    } catch let failure as CVisionFailure {
        switch failure {
        case let .argument(message): throw invalid(message)
        case let .notFound(message), let .invalidModel(message), let .internalFailure(message): throw failed(message)
        }
    }
    return normalizedDetections(raw.prefix(Int(count)), kind: kind, width: picture.width, height: picture.height, landmarks: landmarks)
}
