/// The little XML S3 answers and takes, read and written as text: S3's documents are flat and
/// known, so a full parser buys nothing. Reading of single elements and entities is
/// ``S3ErrorBody``'s; this adds the repeated blocks of lists and escaping.
enum S3XML {
    /// The inside of each `<name>…</name>` in order: S3's lists repeat one element per item
    /// (`<Contents>`, `<Upload>`, `<Part>`). `name` is matched exactly, so `<Part>` never
    /// matches `<PartNumber>`.
    static func blocks(_ name: String, in xml: String) -> [String] {
        var found: [String] = []
        var rest = Substring(xml)
        while let open = rest.range(of: "<\(name)>"), let close = rest.range(of: "</\(name)>", range: open.upperBound..<rest.endIndex) {
            found.append(String(rest[open.upperBound..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        return found
    }

    /// The first `<name>` as text, entities decoded and trimmed (``S3ErrorBody``'s reading).
    static func element(_ name: String, in xml: String) -> String? { S3ErrorBody.element(name, in: xml) }

    /// The first `<name>` exactly as written, entities decoded, nothing trimmed: for object
    /// keys, which may begin or end with a space.
    static func exactElement(_ name: String, in xml: String) -> String? {
        guard let open = xml.range(of: "<\(name)>"), let close = xml.range(of: "</\(name)>", range: open.upperBound..<xml.endIndex) else {
            return nil
        }
        return S3ErrorBody.decodeEntities(String(xml[open.upperBound..<close.lowerBound]))
    }

    /// `text` made safe inside an element: `&`, `<` and `>` as entities.
    static func escape(_ text: String) -> String {
        guard text.contains(where: { $0 == "&" || $0 == "<" || $0 == ">" }) else { return text }
        return text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
