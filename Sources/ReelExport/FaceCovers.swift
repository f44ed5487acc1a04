import Foundation
import ReelCompose
import ReelCore
import ReelMedia

/// Turns the regions a picture must cover (a face track's boxes after the review's edits)
/// into the compositor's covers, for the export and the vlog alike: a region is mosaicked,
/// or stamped with the image the review chose for its segment, or, with `--privacy
/// stamp:PNG`, every mosaic becomes that stamp. Each stamp image is read once.
final class FaceCovers {
    private let everyFace: String?
    private var stamps: [String: Stamp] = [:]

    /// Covers that stamp `everyFace` (read now) over every face not given another stamp;
    /// nil: the mosaic.
    init(everyFace: String? = nil) throws {
        self.everyFace = everyFace
        if let everyFace { _ = try stamp(everyFace) }
    }

    /// The covers for `regions`, in order.
    func covers(for regions: [PrivacyRegion]) throws -> [FaceCover] {
        try regions.map { region in
            switch (region.treatment, everyFace) {
            case (.stamp(let path), _), (.mosaic, .some(let path)): .stamp(region.box, try stamp(path))
            case (.mosaic, nil): .mosaic(region.box)
            }
        }
    }

    private func stamp(_ path: String) throws -> Stamp {
        if let stamp = stamps[path] { return stamp }
        do {
            let stamp = try Stamp(pngAt: path)
            stamps[path] = stamp
            return stamp
        } catch {
            throw PrivacyExporter.Error("the stamp image \(path) cannot be read: \(error)")
        }
    }
}

extension VideoFrame {
    /// The picture as ReelCompose draws on it (a picture only the caller holds; see
    /// ``VideoFrame/withWritablePlanes(_:)``).
    func withYUVPicture<R>(_ body: (YUVPicture) throws -> R) throws -> R {
        try withWritablePlanes { planes in
            try body(YUVPicture(width: width, height: height, y: planes[0].base, yStride: planes[0].stride,
                                u: planes[1].base, uStride: planes[1].stride, v: planes[2].base, vStride: planes[2].stride))
        }
    }
}
