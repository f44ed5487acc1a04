import Dispatch
import Foundation
import ReelBooks
import ReelCore
import ReelMedia

/// Wires decoded pictures (ReelMedia) into the EAN-13 reader (ReelBooks) for
/// `reel materials scan`: a picture file, or a capture source's frames until a book's code shows.
public enum BarcodeScan {
    /// What was read: the first book ISBN, and the EAN-13 codes seen that are not books.
    public struct Found: Sendable {
        /// The first valid book ISBN (978/979) seen, if any.
        public var isbn: String?
        /// The EAN-13 codes seen that are not books (a grocery code), for the error that says so.
        public var otherCodes: [String] = []

        mutating func take(_ codes: [String]) {
            for code in codes {
                if isbn == nil, let valid = try? ISBN.validate(code) { isbn = valid }
                else if (try? ISBN.validate(code)) == nil, !otherCodes.contains(code) { otherCodes.append(code) }
            }
        }
    }

    /// A picture file with no picture in it.
    public struct Failure: Error, CustomStringConvertible {
        /// `PATH: no picture could be decoded from it`.
        public var description: String
    }

    /// The EAN-13 codes in `frame`'s luma plane (the frame converted to yuv420p at an even size).
    static func codes(in frame: VideoFrame, reader: EAN13Reader) throws -> [String] {
        let width = max(2, frame.width - frame.width % 2), height = max(2, frame.height - frame.height % 2)
        let picture = try PictureConverter(width: width, height: height).convert(frame)
        return try picture.withWritablePlanes { planes in
            try reader.read(BarcodePicture(base: planes[0].base, width: width, height: height, stride: planes[0].stride))
        }
    }

    /// The codes in the picture file at `path` (PNG, JPEG, PGM, … anything FFmpeg decodes; a
    /// video's first picture).
    public static func scan(imagePath path: String) throws -> Found {
        let reader = try EAN13Reader()
        var found = Found()
        var frames = 0
        try VideoFileReader(path: path).forEachFrame { frame in
            frames += 1
            found.take(try codes(in: frame, reader: reader))
            return false
        }
        guard frames > 0 else { throw Failure(description: "\(path): no picture could be decoded from it") }
        return found
    }

    /// Reads `spec`'s frames (about 5 a second are scanned) until a book's code shows, the
    /// source ends, or `timeout` seconds pass.
    public static func scan(source spec: SourceSpec, timeout: Double) throws -> Found {
        let source = try CaptureSources.open(spec, realTime: true)
        let watcher = try BarcodeWatcher()
        let timer = DispatchWorkItem { source.stop() }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: timer)
        defer { timer.cancel() }
        try source.run { sample in
            guard case .video(let frame) = sample else { return }
            if try watcher.look(at: frame).isbn != nil { source.stop() }
        }
        return watcher.found
    }
}

/// A book's barcode looked for in frames as they come, about 5 a second (a frame under 0.2 s
/// after the last one looked at is passed over), until one is found: `reel materials scan
/// --source`, and Reel Studio's scan, which watches its preview's capture.
public final class BarcodeWatcher: @unchecked Sendable {
    // One lock around the reader and what was found: frames may come from any thread.
    private let lock = NSLock()
    private let reader: EAN13Reader
    private var seen = BarcodeScan.Found()
    private var lastLook: MediaTime?

    public init() throws { reader = try EAN13Reader() }

    /// What was found so far.
    public var found: BarcodeScan.Found { lock.withLock { seen } }

    /// Looks at `frame` (unless a book was found already, or the last look was under 0.2 s
    /// before it); what was found so far.
    @discardableResult
    public func look(at frame: VideoFrame) throws -> BarcodeScan.Found {
        try lock.withLock {
            guard seen.isbn == nil else { return seen }
            if let lastLook, (frame.captureTime - lastLook).seconds < 0.2, frame.captureTime >= lastLook { return seen }
            lastLook = frame.captureTime
            seen.take(try BarcodeScan.codes(in: frame, reader: reader))
            return seen
        }
    }
}
