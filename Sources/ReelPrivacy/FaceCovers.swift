import Foundation
import ReelCompose
import ReelCore
import ReelMedia

/// Turns the regions a picture must cover (a face track's boxes after the review's edits)
/// into the compositor's covers, for the export, the vlog and the live stream alike: a
/// region is mosaicked (or, with `--privacy mask`, filled), or stamped with the image the
/// review chose for its segment, or, with `--privacy stamp:PNG`, every mosaic becomes that
/// stamp. Each stamp image is read once.
public final class FaceCovers {
    private let everyFace: String?
    private let masks: Bool
    private var stamps: [String: Stamp] = [:]

    /// Covers that stamp `everyFace` (read now) over every face not given another stamp;
    /// nil: the mosaic, or with `masks` the solid mask.
    public init(everyFace: String? = nil, masks: Bool = false) throws {
        self.everyFace = everyFace
        self.masks = masks
        if let everyFace { _ = try stamp(everyFace) }
    }

    /// The covers for `regions`, in order.
    public func covers(for regions: [PrivacyRegion]) throws -> [FaceCover] {
        try regions.map { region in
            switch (region.treatment, everyFace) {
            case (.stamp(let path), _), (.mosaic, .some(let path)): .stamp(region.box, try stamp(path))
            case (.mosaic, nil): masks ? .mask(region.box) : .mosaic(region.box)
            }
        }
    }

    /// A cover that cannot be made (an unreadable stamp image).
    public struct Error: Swift.Error, CustomStringConvertible {
        /// What happened.
        public var description: String
    }

    private func stamp(_ path: String) throws -> Stamp {
        if let stamp = stamps[path] { return stamp }
        do {
            let stamp = try Stamp(pngAt: path)
            stamps[path] = stamp
            return stamp
        } catch {
            throw Error(description: "the stamp image \(path) cannot be read: \(error)")
        }
    }
}

extension VideoFrame {
    /// The picture as ReelCompose draws on it (a picture only the caller holds; see
    /// ``VideoFrame/withWritablePlanes(_:)``).
    public func withYUVPicture<R>(_ body: (YUVPicture) throws -> R) throws -> R {
        try withWritablePlanes { planes in
            try body(YUVPicture(width: width, height: height, y: planes[0].base, yStride: planes[0].stride,
                                u: planes[1].base, uStride: planes[1].stride, v: planes[2].base, vStride: planes[2].stride))
        }
    }
}
