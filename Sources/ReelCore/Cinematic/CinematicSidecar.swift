import Foundation

/// What an editable cinematic recording keeps beside its unblurred video (`FILE.mp4.cinematic`)
/// so the focus and the aperture can be changed afterwards (docs/behaviour.md §3, "a movie that
/// keeps the unblurred video with the depth data and the focus decisions").
///
/// The file is a line of text naming the format and a JSON header line, then one record per
/// picture, appended as the picture is written: a 4-byte big-endian length, the record's JSON
/// (time, subjects, the focus decision and the rack's focal depth, aperture, light warning),
/// a 4-byte length, and the picture's ``LayerMap`` run-length encoded. A record cut short by a
/// crash is the end of the file: everything before it reads.
public enum CinematicSidecar {
    /// The first line.
    public static let magic = "REEL-CINEMATIC 1\n"

    /// The file's header.
    public struct Header: Codable, Sendable, Equatable {
        /// The pictures' size.
        public var width: Int, height: Int
        /// The layer maps' size.
        public var cellsWidth: Int, cellsHeight: Int
        /// Dioptres per depth code (``LayerMap/dioptreStep``).
        public var dioptreStep: Double

        /// A header.
        public init(width: Int, height: Int, cellsWidth: Int, cellsHeight: Int, dioptreStep: Double = LayerMap.dioptreStep) {
            self.width = width
            self.height = height
            self.cellsWidth = cellsWidth
            self.cellsHeight = cellsHeight
            self.dioptreStep = dioptreStep
        }
    }

    /// A subject as recorded.
    public struct Subject: Codable, Sendable, Equatable {
        public var id: Int
        public var kind: SubjectKind
        public var x: Double, y: Double, width: Double, height: Double
        public var prominence: Double

        public init(_ subject: CinematicSubject) {
            id = subject.id
            kind = subject.kind
            x = subject.bounds.x
            y = subject.bounds.y
            width = subject.bounds.width
            height = subject.bounds.height
            prominence = subject.prominence
        }

        /// The subject again.
        public var subject: CinematicSubject {
            CinematicSubject(id: id, kind: kind, bounds: NormalizedRect(x: x, y: y, width: width, height: height), prominence: prominence)
        }
    }

    /// The video a sidecar belongs to, written after the last record when the video is
    /// complete: its pictures, the last picture's time, its size and a hash of its first and
    /// last bytes (``sample(head:tail:)``). A sidecar without it (cut short, or written before
    /// it existed) names no video.
    public struct VideoIdentity: Codable, Sendable, Equatable {
        /// Pictures in the video (as many as the sidecar has records).
        public var pictures: Int
        /// The last picture's time, in 1/90 000 s.
        public var ticks: Int64
        /// The video file's size in bytes.
        public var bytes: Int64
        /// ``sample(head:tail:)`` of the video file.
        public var sample: String

        public init(pictures: Int, ticks: Int64, bytes: Int64, sample: String) {
            self.pictures = pictures
            self.ticks = ticks
            self.bytes = bytes
            self.sample = sample
        }

        /// How many bytes of each end of the video the sample hashes.
        public static let sampledBytes = 65_536
    }

    /// The hash of a video's first and last ``VideoIdentity/sampledBytes`` (FNV-1a, 64 bits,
    /// in hex): the first fragment's pictures and the last's differ between recordings even
    /// when their sizes agree.
    public static func sample(head: [UInt8], tail: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in head + tail {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return String(hash, radix: 16)
    }

    /// What comes before the identity's length and JSON: a length no record can have, so a
    /// reader that knows no identity ends the records there.
    static let identityMarker: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF]

    /// The identity's bytes, appended after the last record.
    public static func encode(_ identity: VideoIdentity) -> [UInt8] {
        let json = Array((try? encoder().encode(identity)) ?? Data())
        return identityMarker + bigEndian(UInt32(json.count)) + json
    }

    /// One picture's record.
    public struct Record: Codable, Sendable, Equatable {
        /// The picture's time in the video, in 1/90 000 s.
        public var ticks: Int64
        /// The subjects, most prominent first.
        public var subjects: [Subject]
        /// The focus controller's mode.
        public var mode: FocusController.Mode
        /// Its target: "subject 3", "point 0.5 0.4", "fixed 0.5 0.4 1.25"; nil for none.
        public var target: String?
        /// The depth it asked for (the rack's input), dioptres.
        public var wanted: Double?
        /// The focal depth the rack had reached (rendered), dioptres.
        public var focal: Double?
        /// The f-number.
        public var fNumber: Double
        /// "Not enough light".
        public var lowLight: Bool

        /// A record.
        public init(ticks: Int64, subjects: [Subject], mode: FocusController.Mode, target: String?, wanted: Double?,
                    focal: Double?, fNumber: Double, lowLight: Bool) {
            self.ticks = ticks
            self.subjects = subjects
            self.mode = mode
            self.target = target
            self.wanted = wanted
            self.focal = focal
            self.fNumber = fNumber
            self.lowLight = lowLight
        }

        /// The time as a media time.
        public var time: MediaTime { MediaTime(value: ticks, timescale: 90_000) }
    }

    /// Why a sidecar cannot be read.
    public struct FormatError: Error, CustomStringConvertible, Equatable {
        public var reason: String
        public var description: String { "not a Reel cinematic sidecar: \(reason)" }
        public init(reason: String) { self.reason = reason }
    }

    /// The text of a target, as records keep it.
    public static func text(of target: FocusController.Target?) -> String? {
        switch target {
        case nil: nil
        case let .subject(id)?: "subject \(id)"
        case let .point(x, y)?: "point \(x) \(y)"
        case let .fixed(x, y, d)?: "fixed \(x) \(y) \(d)"
        }
    }

    /// The subject a target's text names (``text(of:)``'s "subject N"), or nil.
    public static func subject(in text: String?) -> Int? {
        guard let text, text.hasPrefix("subject ") else { return nil }
        return Int(text.dropFirst("subject ".count))
    }

    /// The file's first bytes: the magic line and the header's JSON line.
    public static func encode(_ header: Header) -> [UInt8] {
        let json = (try? encoder().encode(header)) ?? Data()
        return Array(magic.utf8) + Array(json) + [0x0A]
    }

    /// One record's bytes.
    public static func encode(_ record: Record, layers: LayerMap) -> [UInt8] {
        let json = Array((try? encoder().encode(record)) ?? Data())
        let cells = layers.runLengthEncoded()
        return bigEndian(UInt32(json.count)) + json + bigEndian(UInt32(cells.count)) + cells
    }

    /// The header and every whole record of `bytes`; a record cut short ends the list.
    public static func decode(_ bytes: [UInt8]) throws(FormatError) -> (header: Header, records: [(Record, LayerMap)]) {
        let read = try decodeKeepingCells(bytes)
        return (read.header, read.records.map { record, cells in
            (record, LayerMap(runLengthEncoded: cells, width: read.header.cellsWidth, height: read.header.cellsHeight)!)
        })
    }

    /// The header and the records, each layer map left run-length encoded (a slice of `bytes`)
    /// but checked: what a long recording's refocus reads, a map decoded per picture as it is
    /// rendered (decoded whole, a minute of 1080p would hold half a gigabyte of maps).
    /// The identity of the video, when the sidecar ends with it (nil when it names none).
    public static func decodeKeepingCells(_ bytes: [UInt8]) throws(FormatError)
        -> (header: Header, records: [(Record, ArraySlice<UInt8>)], identity: VideoIdentity?) {
        let magicBytes = Array(magic.utf8)
        guard bytes.count > magicBytes.count, Array(bytes[0..<magicBytes.count]) == magicBytes else {
            throw FormatError(reason: "it does not start with \(magic.trimmingCharacters(in: .newlines))")
        }
        guard let end = bytes[magicBytes.count...].firstIndex(of: 0x0A),
              let header = try? JSONDecoder().decode(Header.self, from: Data(bytes[magicBytes.count..<end])),
              header.cellsWidth > 0, header.cellsHeight > 0 else {
            throw FormatError(reason: "its header is unreadable")
        }
        var records: [(Record, ArraySlice<UInt8>)] = []
        var at = end + 1
        let decoder = JSONDecoder()
        while let (json, afterJSON) = chunk(bytes, at: at), let (cells, next) = chunk(bytes, at: afterJSON) {
            guard let record = try? decoder.decode(Record.self, from: Data(json)),
                  LayerMap.isRunLengthEncoded(cells, width: header.cellsWidth, height: header.cellsHeight) else {
                throw FormatError(reason: "record \(records.count + 1) is damaged")
            }
            records.append((record, cells))
            at = next
        }
        var identity: VideoIdentity?
        if at + 4 <= bytes.count, Array(bytes[at..<at + 4]) == identityMarker, let (json, _) = chunk(bytes, at: at + 4) {
            identity = try? decoder.decode(VideoIdentity.self, from: Data(json))
        }
        return (header, records, identity)
    }

    private static func chunk(_ bytes: [UInt8], at offset: Int) -> (ArraySlice<UInt8>, Int)? {
        guard offset + 4 <= bytes.count else { return nil }
        let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        guard offset + 4 + length <= bytes.count else { return nil }
        return (bytes[offset + 4..<offset + 4 + length], offset + 4 + length)
    }

    /// An encoder with sorted keys (the same bytes for the same value).
    private static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}

extension FocusController.Target {
    /// The target a record's text names (``CinematicSidecar/text(of:)``); nil for anything else.
    public init?(recorded text: String) {
        let words = text.split(separator: " ").map(String.init)
        let numbers = words.dropFirst().compactMap { Double($0) }
        switch (words.first, numbers.count) {
        case ("subject", 1): self = .subject(Int(numbers[0]))
        case ("point", 2): self = .point(x: numbers[0], y: numbers[1])
        case ("fixed", 3): self = .fixed(x: numbers[0], y: numbers[1], dioptres: numbers[2])
        default: return nil
        }
    }
}

extension LayerMap {
    /// The background's code, then the matte and the depth codes, each as runs (a count 1…255,
    /// then the value): masks and layers are long runs of one value.
    public func runLengthEncoded() -> [UInt8] {
        var out: [UInt8] = [background]
        for values in [matte, depth] {
            var index = 0
            while index < values.count {
                let value = values[index]
                var run = 1
                while run < 255 && index + run < values.count && values[index + run] == value { run += 1 }
                out.append(UInt8(run))
                out.append(value)
                index += run
            }
        }
        return out
    }

    /// Whether `bytes` are a map ``runLengthEncoded()`` wrote for `width` × `height` cells
    /// (counted, not decoded).
    public static func isRunLengthEncoded(_ bytes: ArraySlice<UInt8>, width: Int, height: Int) -> Bool {
        guard width > 0, height > 0, !bytes.isEmpty else { return false }
        let count = width * height
        var filled = 0, plane = 0, at = bytes.startIndex + 1
        while at + 2 <= bytes.endIndex {
            let run = Int(bytes[at])
            guard run > 0, plane < 2 else { return false }
            filled += run
            if filled > count { return false }
            if filled == count { plane += 1; filled = 0 }
            at += 2
        }
        return at == bytes.endIndex && plane == 2
    }

    /// The map ``runLengthEncoded()`` wrote, for `width` × `height` cells; nil when the bytes
    /// do not make exactly that.
    public init?(runLengthEncoded bytes: ArraySlice<UInt8>, width: Int, height: Int) {
        guard width > 0, height > 0, let background = bytes.first else { return nil }
        let count = width * height
        var planes: [[UInt8]] = [[], []]
        var plane = 0, at = bytes.startIndex + 1
        while at + 2 <= bytes.endIndex {
            let run = Int(bytes[at]), value = bytes[at + 1]
            guard run > 0, plane < 2 else { return nil }
            planes[plane].append(contentsOf: repeatElement(value, count: run))
            if planes[plane].count > count { return nil }
            if planes[plane].count == count { plane += 1 }
            at += 2
        }
        guard at == bytes.endIndex, plane == 2 else { return nil }
        self.init(width: width, height: height, matte: planes[0], depth: planes[1], background: background)
    }
}
