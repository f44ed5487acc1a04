import Foundation

/// A multivariant playlist (RFC 8216 §4.3.4): one `EXT-X-STREAM-INF` per variant, each followed
/// by the URI of the variant's media playlist. Reel writes one for an ABR ladder:
///
/// ```
/// #EXTM3U
/// #EXT-X-VERSION:7
/// #EXT-X-INDEPENDENT-SEGMENTS
/// #EXT-X-STREAM-INF:BANDWIDTH=2711000,AVERAGE-BANDWIDTH=2592000,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=720x1280,FRAME-RATE=30.000
/// high/playlist.m3u8
/// ```
public struct MultivariantPlaylist: Sendable, Hashable {
    /// `EXT-X-STREAM-INF`'s attributes (those Reel writes and reads).
    public struct StreamInf: Sendable, Hashable {
        /// `BANDWIDTH`: the peak segment bit rate, bits a second.
        public var bandwidth: Int
        /// `AVERAGE-BANDWIDTH`, bits a second.
        public var averageBandwidth: Int?
        /// `CODECS`, e.g. `avc1.64001f,mp4a.40.2`.
        public var codecs: String?
        public var resolution: HLSResolution?
        /// `FRAME-RATE` (written with three decimals).
        public var frameRate: Double?

        public init(bandwidth: Int, averageBandwidth: Int? = nil, codecs: String? = nil, resolution: HLSResolution? = nil,
                    frameRate: Double? = nil) {
            self.bandwidth = bandwidth
            self.averageBandwidth = averageBandwidth
            self.codecs = codecs
            self.resolution = resolution
            self.frameRate = frameRate
        }

        init(_ list: HLSAttributeList) throws(HLSParseError) {
            self.init(bandwidth: try list.required("BANDWIDTH", list.decimalInteger), averageBandwidth: try list.decimalInteger("AVERAGE-BANDWIDTH"),
                      codecs: try list.quotedString("CODECS"), resolution: try list.resolution("RESOLUTION"),
                      frameRate: try list.decimalFloat("FRAME-RATE"))
        }

        /// The attribute list as written.
        var rendered: String {
            var list = ["BANDWIDTH=\(bandwidth)"]
            if let averageBandwidth { list.append("AVERAGE-BANDWIDTH=\(averageBandwidth)") }
            if let codecs { list.append("CODECS=\"\(codecs)\"") }
            if let resolution { list.append("RESOLUTION=\(resolution)") }
            if let frameRate { list.append("FRAME-RATE=\(HLSNumber.threeDecimals(frameRate))") }
            return list.joined(separator: ",")
        }
    }

    /// One variant: its attributes and its media playlist's URI relative to this one.
    public struct Variant: Sendable, Hashable {
        public var uri: String
        public var streamInf: StreamInf

        public init(uri: String, streamInf: StreamInf) {
            self.uri = uri
            self.streamInf = streamInf
        }
    }

    /// `EXT-X-VERSION` (nil: not written).
    public var version: Int?
    /// `EXT-X-INDEPENDENT-SEGMENTS`.
    public var hasIndependentSegments: Bool
    /// The variants, in the order players see them.
    public var variants: [Variant]

    /// A multivariant playlist; by default version 7 with independent segments, as Reel writes it.
    public init(version: Int? = 7, hasIndependentSegments: Bool = true, variants: [Variant]) {
        self.version = version
        self.hasIndependentSegments = hasIndependentSegments
        self.variants = variants
    }

    /// The text: UTF-8, `\n` line endings, ending with a newline.
    public func rendered() -> String {
        var lines = ["#EXTM3U"]
        if let version { lines.append("#EXT-X-VERSION:\(version)") }
        if hasIndependentSegments { lines.append("#EXT-X-INDEPENDENT-SEGMENTS") }
        for variant in variants {
            lines += ["#EXT-X-STREAM-INF:" + variant.streamInf.rendered, variant.uri]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Reads a multivariant playlist: `EXT-X-VERSION`, `EXT-X-INDEPENDENT-SEGMENTS` and each
    /// `EXT-X-STREAM-INF` with its URI; other tags are skipped. Throws an ``HLSParseError``
    /// naming the line for text that is no multivariant playlist: no `#EXTM3U` first, a
    /// malformed tag, a URI without `EXT-X-STREAM-INF` or the reverse, a media playlist's tag.
    public init(parsing text: String) throws(HLSParseError) {
        self.init(version: nil, hasIndependentSegments: false, variants: [])
        var pending: StreamInf?
        for (number, line) in try HLSLine.playlistLines(of: text) {
            do throws(HLSParseError) {
                switch line {
                case .blank, .comment: continue
                case let .uri(uri):
                    guard let streamInf = pending else { throw HLSParseError(.uriWithoutTag(uri)) }
                    variants.append(Variant(uri: uri, streamInf: streamInf))
                    pending = nil
                case let .tag(name, value):
                    switch try HLSTag(name: name, value: value) {
                    case let .version(version): self.version = version
                    case .independentSegments: hasIndependentSegments = true
                    case let .streamInf(streamInf): pending = streamInf
                    case .extM3U, .other: continue
                    default: throw HLSParseError(.wrongKind(tag: name))
                    }
                }
            } catch {
                throw HLSParseError(error.reason, line: number)
            }
        }
        guard pending == nil else { throw HLSParseError(.tagWithoutURI(tag: "EXT-X-STREAM-INF")) }
    }
}
