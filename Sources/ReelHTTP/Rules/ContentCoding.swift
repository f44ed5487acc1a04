import ReelCore

/// Content negotiation for the one coding the origin offers: gzip (for playlists).
public enum ContentCoding {
    /// Whether an `Accept-Encoding` value allows gzip: `gzip`, `x-gzip` or `*` with a
    /// non-zero quality; an explicit `gzip;q=0` refuses it even when `*` is accepted.
    public static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        var star: Bool?
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";")
            guard let first = parts.first else { continue }
            let coding = first.trimmingASCIISpaces().lowercased()
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.trimmingASCIISpaces()
                if pair.lowercased().hasPrefix("q=") { quality = Double(pair.dropFirst(2)) ?? 0 }
            }
            if coding == "gzip" || coding == "x-gzip" { return quality > 0 }
            if coding == "*" { star = quality > 0 }
        }
        return star ?? false
    }
}
