import Foundation

/// An attribute list (RFC 8216 §4.2): `NAME=VALUE` pairs separated by commas, read strictly.
///
/// A name is upper-case letters, digits and `-`. A value is either a quoted string (`"…"`,
/// no double quote inside; commas allowed) or unquoted: a decimal integer, a hexadecimal
/// sequence (`0x…`), a decimal floating-point number, an enumerated string (`YES`, `PART`) or a
/// resolution (`1280x720`). Which of these an attribute holds depends on its name, so the list
/// keeps quoted and unquoted text apart and the typed accessors read it as what the tag needs;
/// each throws an ``HLSParseError`` naming the tag when the text is not of that type.
public struct HLSAttributeList: Sendable, Hashable {
    /// One attribute's value as written.
    public enum Value: Sendable, Hashable {
        /// A quoted string, without its quotes.
        case quoted(String)
        /// Anything unquoted: number, hexadecimal sequence, enumerated string, resolution.
        case unquoted(String)
    }

    /// One attribute.
    public struct Attribute: Sendable, Hashable {
        public var name: String
        public var value: Value

        public init(_ name: String, _ value: Value) {
            self.name = name
            self.value = value
        }
    }

    /// The tag the list belongs to (without `#`), for error messages.
    public var tag: String
    /// The attributes in order.
    public var attributes: [Attribute]

    /// A list of `attributes` for `tag`.
    public init(tag: String, _ attributes: [Attribute]) {
        self.tag = tag
        self.attributes = attributes
    }

    /// Reads `text`, the part of a tag line after its `:`.
    public init(parsing text: Substring, tag: String) throws(HLSParseError) {
        self.tag = tag
        attributes = []
        var rest = text
        func malformed(_ problem: String) -> HLSParseError { HLSParseError(.malformedAttributeList(tag: tag, problem: problem)) }
        guard !rest.isEmpty else { throw malformed("it is empty") }
        while true {
            guard let equals = rest.firstIndex(of: "=") else { throw malformed("\(rest.prefix { $0 != "," }) has no value") }
            let name = String(rest[..<equals])
            guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "-") }) else {
                throw malformed("\(name.isEmpty ? "an empty name" : name) is not an attribute name")
            }
            guard !attributes.contains(where: { $0.name == name }) else { throw malformed("\(name) is given twice") }
            rest = rest[rest.index(after: equals)...]
            let value: Value
            if rest.first == "\"" {
                let inside = rest.dropFirst()
                guard let close = inside.firstIndex(of: "\"") else { throw malformed("the quoted value of \(name) is not closed") }
                value = .quoted(String(inside[..<close]))
                rest = inside[inside.index(after: close)...]
                guard rest.isEmpty || rest.first == "," else { throw malformed("text follows the quoted value of \(name)") }
            } else {
                let text = rest.prefix { $0 != "," }
                guard !text.isEmpty else { throw malformed("\(name) has an empty value") }
                guard !text.contains(where: { $0 == "\"" || $0.isWhitespace }) else {
                    throw malformed("the unquoted value of \(name) holds a quote or a space")
                }
                value = .unquoted(String(text))
                rest = rest[text.endIndex...]
            }
            attributes.append(Attribute(name, value))
            if rest.isEmpty { return }
            rest = rest.dropFirst()
            guard !rest.isEmpty else { throw malformed("it ends with a comma") }
        }
    }

    /// The value of `name`, as written; nil when absent.
    public subscript(name: String) -> Value? {
        attributes.first { $0.name == name }?.value
    }

    /// A quoted-string attribute.
    public func quotedString(_ name: String) throws(HLSParseError) -> String? {
        switch self[name] {
        case nil: return nil
        case let .quoted(text)?: return text
        case let .unquoted(text)?: throw invalid(name, text)
        }
    }

    /// An enumerated-string attribute (unquoted, e.g. `YES`, `PART`).
    public func enumeratedString(_ name: String) throws(HLSParseError) -> String? {
        try unquoted(name)
    }

    /// A `YES`/`NO` attribute; nil when absent.
    public func boolean(_ name: String) throws(HLSParseError) -> Bool? {
        switch try unquoted(name) {
        case nil: return nil
        case "YES": return true
        case "NO": return false
        case let text?: throw invalid(name, text)
        }
    }

    /// A decimal-integer attribute (digits only).
    public func decimalInteger(_ name: String) throws(HLSParseError) -> Int? {
        guard let text = try unquoted(name) else { return nil }
        guard let number = HLSNumber.integer(text) else { throw invalid(name, text) }
        return number
    }

    /// A decimal-floating-point attribute (`12`, `0.333`; a leading `-` is allowed, as for the
    /// signed form).
    public func decimalFloat(_ name: String) throws(HLSParseError) -> Double? {
        guard let text = try unquoted(name) else { return nil }
        guard let number = HLSNumber.decimal(text, signed: true) else { throw invalid(name, text) }
        return number
    }

    /// A hexadecimal-sequence attribute (`0x1F2E…`) as bytes (an odd count of digits gets a leading 0).
    public func hexadecimalSequence(_ name: String) throws(HLSParseError) -> [UInt8]? {
        guard let text = try unquoted(name) else { return nil }
        guard text.hasPrefix("0x") || text.hasPrefix("0X") else { throw invalid(name, text) }
        var digits = Array(text.dropFirst(2))
        guard !digits.isEmpty, digits.allSatisfy(\.isHexDigit) else { throw invalid(name, text) }
        if digits.count % 2 == 1 { digits.insert("0", at: 0) }
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
    }

    /// A decimal-resolution attribute (`1280x720`).
    public func resolution(_ name: String) throws(HLSParseError) -> HLSResolution? {
        guard let text = try unquoted(name) else { return nil }
        let sides = text.split(separator: "x", omittingEmptySubsequences: false)
        guard sides.count == 2, let width = HLSNumber.integer(sides[0]), let height = HLSNumber.integer(sides[1]) else {
            throw invalid(name, text)
        }
        return HLSResolution(width: width, height: height)
    }

    /// `value` of `name`, or the error that says the tag lacks it.
    public func required<Value>(_ name: String, _ read: (String) throws(HLSParseError) -> Value?) throws(HLSParseError) -> Value {
        guard let value = try read(name) else { throw HLSParseError(.missingAttribute(tag: tag, attribute: name)) }
        return value
    }

    private func unquoted(_ name: String) throws(HLSParseError) -> String? {
        switch self[name] {
        case nil: return nil
        case let .unquoted(text)?: return text
        case let .quoted(text)?: throw invalid(name, "\"\(text)\"")
        }
    }

    private func invalid(_ name: String, _ text: String) -> HLSParseError {
        HLSParseError(.invalidValue(tag: tag, attribute: name, value: text))
    }
}

/// A decimal-resolution: width by height in pixels.
public struct HLSResolution: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `1280x720`.
    public var description: String { "\(width)x\(height)" }
}

/// The numbers of RFC 8216 §4.2, read strictly and written as Reel writes them.
enum HLSNumber {
    /// A decimal-integer: digits only, no sign, no spaces.
    static func integer<Text: StringProtocol>(_ text: Text) -> Int? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    /// A decimal-floating-point: digits with at most one `.`, a `-` first when `signed`.
    static func decimal<Text: StringProtocol>(_ text: Text, signed: Bool = false) -> Double? {
        let unsigned = signed && text.first == "-" ? text.dropFirst() : text[...]
        let parts = unsigned.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }), parts.count == 1 || !parts[1].isEmpty else { return nil }
        return Double(text)
    }

    /// `value` with exactly three decimals (rounded to the nearest thousandth), e.g. `2.000`.
    static func threeDecimals(_ value: Double) -> String {
        let thousandths = Int64((value * 1000).rounded())
        let magnitude = thousandths.magnitude
        let fraction = String(magnitude % 1000)
        return (thousandths < 0 ? "-" : "") + "\(magnitude / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
