import CVision
import Foundation
import ReelCore

/// Why a cinematic picture could not be rendered.
public enum BokehError: Swift.Error, CustomStringConvertible, Equatable {
    /// The picture, the layer map or the output does not fit.
    case invalidInput(String)
    /// OpenCV failed.
    case failed(String)

    public var description: String {
        switch self {
        case let .invalidInput(reason): "cinematic rendering: \(reason)"
        case let .failed(reason): "cinematic rendering failed: \(reason)"
        }
    }
}

/// The cinematic camera's renderer (C++ in CVision, `bokeh.cpp`): a picture blurred by the
/// depth of its ``LayerMap`` for a focal depth and an ``Aperture`` — the background without
/// the near subject in it (no halo), the subject by its own depth with its matte, through
/// Gaussian pyramids (a disc of the aperture's radius r as a Gaussian of sigma r / 2).
///
/// It keeps its buffers between pictures; one picture at a time (a lock holds the others).
public final class BokehRenderer: @unchecked Sendable {
    /// One writable plane of the output.
    public struct OutputPlane {
        /// The first byte of the first row.
        public var base: UnsafeMutableRawPointer
        /// Bytes from one row to the next.
        public var stride: Int

        /// A plane.
        public init(base: UnsafeMutableRawPointer, stride: Int) {
            self.base = base
            self.stride = stride
        }
    }

    private let handle: OpaquePointer
    private let lock = NSLock()

    /// A renderer.
    public init() throws(BokehError) {
        var opened: OpaquePointer?
        do {
            try cvisionCall { cvision_bokeh_open(&opened, $0, $1) }
        } catch {
            throw .failed("\(error)")
        }
        guard let opened else { throw .failed("no renderer") }
        handle = opened
    }

    deinit { cvision_bokeh_free(handle) }

    /// Renders `picture` (yuv420p or grey) into `output` (the same layout: three planes for
    /// yuv420p; they may be the picture's own) with the focus at `focus` dioptres.
    public func render(_ picture: DetectorPicture, layers: LayerMap, focus: Double, aperture: Aperture,
                       into output: [OutputPlane]) throws(BokehError) {
        guard picture.format == .yuv420p || picture.format == .gray8 else {
            throw .invalidInput("the renderer takes yuv420p or grey pictures, not \(picture.format)")
        }
        if let problem = picture.problem() { throw .invalidInput(problem) }
        guard output.count == picture.planes.count else {
            throw .invalidInput("the output has \(Counted.noun(output.count, "plane")), the picture \(picture.planes.count)")
        }
        guard focus.isFinite else { throw .invalidInput("the focal depth is not a number") }
        var blur = cvision_blur(focus: Float(focus), per_dioptre: Float(aperture.radiusPerDioptre(width: picture.width)),
                                max_radius: Float(Aperture.maxRadius(width: picture.width)),
                                dioptre_step: Float(LayerMap.dioptreStep))
        var planes: (UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?) = (nil, nil, nil)
        var strides: (Int, Int, Int) = (0, 0, 0)
        let bound = output.map { $0.base.assumingMemoryBound(to: UInt8.self) }
        planes = (bound[0], bound.count > 1 ? bound[1] : nil, bound.count > 2 ? bound[2] : nil)
        strides = (output[0].stride, output.count > 1 ? output[1].stride : 0, output.count > 2 ? output[2].stride : 0)
        lock.lock()
        defer { lock.unlock() }
        do {
            try cvisionCall { message, size in
                withCPicture(picture) { c in
                    layers.matte.withUnsafeBufferPointer { matte in
                        layers.depth.withUnsafeBufferPointer { depth in
                            var cLayers = cvision_layers(width: Int32(layers.width), height: Int32(layers.height),
                                                         matte: matte.baseAddress, depth: depth.baseAddress, background: layers.background)
                            return withUnsafePointer(to: &planes) { planePointer in
                                withUnsafePointer(to: &strides) { stridePointer in
                                    planePointer.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 3) { p in
                                        stridePointer.withMemoryRebound(to: Int.self, capacity: 3) { s in
                                            cvision_bokeh_render(handle, c, &cLayers, &blur, p, s, message, size)
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        } catch {
            switch error {
            case let .argument(message): throw .invalidInput(message)
            case let .notFound(message), let .invalidModel(message), let .internalFailure(message): throw .failed(message)
            }
        }
    }
}

extension PersonSegmenter {
    /// The person matte of `picture` at `width` × `height` (a ``LayerMap``'s size, even on both
    /// sides for yuv420p): the network at 256 × 256, enlarged and refined by the guided filter
    /// against the picture reduced to that size.
    public func matte(_ picture: DetectorPicture, width: Int, height: Int) throws(CutoutError) -> [UInt8] {
        if let problem = picture.problem() { throw .invalidInput(problem) }
        guard width > 0, height > 0 else { throw .invalidInput("matte size \(width)x\(height) is empty") }
        var values = [UInt8](repeating: 0, count: width * height)
        do {
            try withHandle { handle throws(CVisionFailure) in
                try cvisionCall { message, size in
                    withCPicture(picture) { c in
                        values.withUnsafeMutableBufferPointer {
                            cvision_segmenter_matte(handle, c, Int32(width), Int32(height), $0.baseAddress, message, size)
                        }
                    }
                }
            }
        } catch {
            throw CutoutError(error, model: modelPath)
        }
        return values
    }
}
