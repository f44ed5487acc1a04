import CVision
import Foundation
import ReelCore

/// A soft mask (0…255 per pixel, rows top to bottom) of the picture it was made for.
public struct SoftMask: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height` values: 0 outside, 255 inside, between on a soft edge.
    public var values: [UInt8]

    /// A mask of `values`.
    public init(width: Int, height: Int, values: [UInt8]) {
        precondition(values.count == width * height)
        self.width = width
        self.height = height
        self.values = values
    }

    /// The value at (`x`, `y`).
    public subscript(x: Int, y: Int) -> UInt8 { values[y * width + x] }

    /// Keeps only the part connected, at half strength or more, to (`x`, `y`) (with its soft
    /// edge); nil when the point itself is below half strength.
    public func keepingPart(at x: Int, _ y: Int) -> SoftMask? {
        guard x >= 0, y >= 0, x < width, y < height, self[x, y] >= 128 else { return nil }
        var copy = self
        do {
            try cvisionCall { message, size in
                copy.values.withUnsafeMutableBufferPointer {
                    cvision_mask_keep_connected($0.baseAddress, Int32(width), Int32(height), Int32(x), Int32(y), message, size)
                }
            }
        } catch {
            return nil
        }
        return copy
    }
}

/// Why a cut-out mask could not be made.
public enum CutoutError: Swift.Error, CustomStringConvertible, Equatable {
    /// The segmentation model is missing.
    case modelMissing(path: String, reason: String)
    /// The model file is not the network expected.
    case modelUnusable(path: String, reason: String)
    /// The picture or point is out of range.
    case invalidInput(String)
    /// OpenCV failed.
    case failed(String)

    public var description: String {
        switch self {
        case let .modelMissing(path, reason):
            "person-segmentation model missing: \(reason). Run `make setup` (scripts/fetch-segmentation-model.sh) or copy it to \(path)"
        case let .modelUnusable(path, reason):
            "person-segmentation model \(path) cannot be used: \(reason). Delete it and run scripts/fetch-segmentation-model.sh"
        case let .invalidInput(reason): "cut-out: \(reason)"
        case let .failed(reason): "cut-out failed: \(reason)"
        }
    }

    init(_ failure: CVisionFailure, model: String) {
        switch failure {
        case let .notFound(message): self = .modelMissing(path: model, reason: message)
        case let .invalidModel(message): self = .modelUnusable(path: model, reason: message)
        case let .argument(message): self = .invalidInput(message)
        case let .internalFailure(message): self = .failed(message)
        }
    }
}

/// People's masks: MediaPipe's selfie segmentation (ONNX, through OpenCV's DNN) at 256×256,
/// enlarged to the picture and refined by a guided filter against it.
public final class PersonSegmenter: @unchecked Sendable {
    /// The model file in use.
    public let modelPath: String
    private let handle: OpaquePointer
    private let lock = NSLock()

    /// Loads the network at `modelPath` and checks it with one run.
    public init(modelPath: String) throws(CutoutError) {
        self.modelPath = modelPath
        var opened: OpaquePointer?
        do {
            try cvisionCall { cvision_segmenter_open(modelPath, &opened, $0, $1) }
        } catch {
            throw CutoutError(error, model: modelPath)
        }
        guard let opened else { throw .modelUnusable(path: modelPath, reason: "the loader returned no network") }
        handle = opened
    }

    deinit { cvision_segmenter_free(handle) }

    /// Runs `body` with the network's handle, one caller at a time.
    func withHandle<T>(_ body: (OpaquePointer) throws(CVisionFailure) -> T) throws(CVisionFailure) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(handle)
    }

    /// The person mask of `picture`, at its size.
    public func mask(_ picture: DetectorPicture) throws(CutoutError) -> SoftMask {
        try masks(picture, probability: false).mask
    }

    /// The person mask of `picture` and the network's own probability (enlarged, not refined),
    /// both at its size: what ``PersonCutout`` refines.
    public func maskAndProbability(_ picture: DetectorPicture) throws(CutoutError) -> (mask: SoftMask, probability: SoftMask) {
        let both = try masks(picture, probability: true)
        return (both.mask, both.probability ?? both.mask)
    }

    private func masks(_ picture: DetectorPicture, probability wanted: Bool) throws(CutoutError) -> (mask: SoftMask, probability: SoftMask?) {
        var values = [UInt8](repeating: 0, count: picture.width * picture.height)
        var probability = [UInt8](repeating: 0, count: wanted ? values.count : 0)
        lock.lock()
        defer { lock.unlock() }
        do {
            try cvisionCall { message, size in
                withCPicture(picture) { c in
                    values.withUnsafeMutableBufferPointer { mask in
                        probability.withUnsafeMutableBufferPointer {
                            cvision_segmenter_mask(handle, c, mask.baseAddress, wanted ? $0.baseAddress : nil, message, size)
                        }
                    }
                }
            }
        } catch {
            throw CutoutError(error, model: modelPath)
        }
        let made = { (values: [UInt8]) in SoftMask(width: picture.width, height: picture.height, values: values) }
        return (made(values), wanted ? made(probability) : nil)
    }
}

/// A person's cut-out mask: the segmentation network's probability refined by GrabCut on the
/// picture's colours (the network's 256×256 edge is off by a few per cent around hair, collars
/// and busy backgrounds; GrabCut decides in that band), and — given the person's face — a
/// person the network is unsure of, seeded from the face and the shape of a body under it.
public enum PersonCutout {
    /// The long side GrabCut works at (at 320 the refinement loses more edge than it gains).
    public static let defaultWorkSide = 512

    /// The mask of the person at (`x`, `y`) (pixels of `picture`), from `probability`
    /// (``PersonSegmenter/maskAndProbability(_:)``'s, for this picture) and, when the network
    /// may be unsure, `face` (a box in normalized coordinates of the picture).
    public static func mask(_ picture: DetectorPicture, probability: SoftMask, x: Double, y: Double, face: NormalizedRect? = nil,
                            workSide: Int = defaultWorkSide) throws(CutoutError) -> SoftMask {
        guard probability.width == picture.width, probability.height == picture.height else {
            throw .invalidInput("the probability is \(probability.width)x\(probability.height), the picture \(picture.width)x\(picture.height)")
        }
        var values = [UInt8](repeating: 0, count: picture.width * picture.height)
        var box = cvision_detection()
        if let face {
            box.x = Float(face.x * Double(picture.width))
            box.y = Float(face.y * Double(picture.height))
            box.width = Float(face.width * Double(picture.width))
            box.height = Float(face.height * Double(picture.height))
        }
        do {
            try cvisionCall { message, size in
                withCPicture(picture) { c in
                    probability.values.withUnsafeBufferPointer { given in
                        values.withUnsafeMutableBufferPointer { out in
                            withUnsafePointer(to: &box) { faceBox in
                                cvision_person_refine(c, given.baseAddress, Float(x), Float(y), face == nil ? nil : faceBox,
                                                      Int32(workSide), out.baseAddress, message, size)
                            }
                        }
                    }
                }
            }
        } catch {
            throw CutoutError(error, model: "")
        }
        return SoftMask(width: picture.width, height: picture.height, values: values)
    }
}

/// Any object's mask: GrabCut seeded at a point, at most `workSide` pixels on the long side,
/// the part holding the point kept, the edge softened by a guided filter.
public enum ObjectCutout {
    /// The radius of the sure-foreground disk at the point, as a share of the short side (as
    /// the C side draws it).
    public static let seedRadius = 0.02

    /// Whether `mask` holds more than the seed GrabCut was forced to keep: at least three times
    /// the seed disk's area at half strength or more. Less means nothing stood out there.
    public static func foundMore(than mask: SoftMask) -> Bool {
        let radius = seedRadius * Double(min(mask.width, mask.height))
        return Double(mask.values.lazy.filter { $0 >= 128 }.count) >= 3 * Double.pi * radius * radius
    }

    /// The long side GrabCut works at unless told otherwise (speed: GrabCut's cost grows with
    /// the pixels; the guided filter restores the edge at the picture's size).
    public static let defaultWorkSide = 320

    /// The mask of the object at (`x`, `y`) (pixels of `picture`).
    public static func mask(_ picture: DetectorPicture, x: Double, y: Double, workSide: Int = defaultWorkSide) throws(CutoutError) -> SoftMask {
        var values = [UInt8](repeating: 0, count: picture.width * picture.height)
        do {
            try cvisionCall { message, size in
                withCPicture(picture) { c in
                    values.withUnsafeMutableBufferPointer {
                        cvision_grabcut_mask(c, Float(x), Float(y), Int32(workSide), $0.baseAddress, message, size)
                    }
                }
            }
        } catch {
            throw CutoutError(error, model: "")
        }
        return SoftMask(width: picture.width, height: picture.height, values: values)
    }
}
