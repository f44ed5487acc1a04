import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension WebDriver {
    /// An element of the current page (a WebDriver element reference).
    public struct Element: Sendable, CustomStringConvertible {
        /// The key of a W3C element reference object.
        public static let referenceKey = "element-6066-11e4-a52e-4f735466cecf"
        /// WebDriver's id for the element.
        public let id: String
        /// How it was found (its selector), for failure messages.
        public let label: String
        let driver: WebDriver

        /// The element as a script argument (`arguments[i]` is the DOM element).
        public var json: JSON { [Self.referenceKey: .string(id)] }

        /// "element" and its label.
        public var description: String { "element \(String(reflecting: label))" }

        /// Scrolls it into view and clicks its centre.
        public func click() async throws {
            try await driver.command("POST", "/element/\(id)/click", what: "click() on \(self)")
        }

        /// Focuses it and types `text`; ``WebDriver/Key`` codes press special keys (Tab, Space, …).
        public func sendKeys(_ text: String) async throws {
            try await driver.command("POST", "/element/\(id)/value", ["text": .string(text)],
                                     what: "sendKeys(\(Key.describe(text))) to \(self)")
        }

        /// Empties an input or text area.
        public func clear() async throws {
            try await driver.command("POST", "/element/\(id)/clear", what: "clear() on \(self)")
        }

        /// Its rendered text.
        public var text: String {
            get async throws { try await driver.command("GET", "/element/\(id)/text", what: "text of \(self)").string ?? "" }
        }

        /// Its tag name, lowercased.
        public var tagName: String {
            get async throws { try await driver.command("GET", "/element/\(id)/name", what: "tagName of \(self)").string ?? "" }
        }

        /// The HTML attribute `name`, or `nil` when it has none.
        public func attribute(_ name: String) async throws -> String? {
            let value = try await driver.command("GET", "/element/\(id)/attribute/\(WebDriver.pathComponent(name))",
                                                 what: "attribute(\(String(reflecting: name))) of \(self)")
            return value == .null ? nil : value.string ?? value.description
        }

        /// The DOM property `name` (e.g. `value`, `checked`), as JSON.
        public func property(_ name: String) async throws -> JSON {
            try await driver.command("GET", "/element/\(id)/property/\(WebDriver.pathComponent(name))",
                                     what: "property(\(String(reflecting: name))) of \(self)")
        }
    }
}

extension WebDriver {
    /// A JSON value, as scripts return and take them.
    public enum JSON: Sendable, Equatable, Codable, CustomStringConvertible, ExpressibleByStringLiteral,
        ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral,
        ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral {
        /// `null` (also what `undefined` becomes).
        case null
        /// `true` or `false`.
        case bool(Bool)
        /// A number (JSON has one kind).
        case number(Double)
        /// A string.
        case string(String)
        /// An array.
        case array([JSON])
        /// An object.
        case object([String: JSON])

        public init(stringLiteral value: String) { self = .string(value) }
        public init(integerLiteral value: Int) { self = .number(Double(value)) }
        public init(floatLiteral value: Double) { self = .number(value) }
        public init(booleanLiteral value: Bool) { self = .bool(value) }
        public init(arrayLiteral elements: JSON...) { self = .array(elements) }
        public init(dictionaryLiteral elements: (String, JSON)...) { self = .object(Dictionary(elements) { $1 }) }
        public init(nilLiteral: ()) { self = .null }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() { self = .null }
            else if let value = try? container.decode(Bool.self) { self = .bool(value) }
            else if let value = try? container.decode(Double.self) { self = .number(value) }
            else if let value = try? container.decode(String.self) { self = .string(value) }
            else if let value = try? container.decode([JSON].self) { self = .array(value) }
            else { self = .object(try container.decode([String: JSON].self)) }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .null: try container.encodeNil()
            case .bool(let value): try container.encode(value)
            case .number(let value): try container.encode(value)
            case .string(let value): try container.encode(value)
            case .array(let value): try container.encode(value)
            case .object(let value): try container.encode(value)
            }
        }

        /// The string, if this is one.
        public var string: String? { if case .string(let value) = self { value } else { nil } }
        /// The number, if this is one.
        public var number: Double? { if case .number(let value) = self { value } else { nil } }
        /// The number, if this is a whole one.
        public var int: Int? { number.flatMap { Int(exactly: $0) } }
        /// The Boolean, if this is one.
        public var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
        /// The elements, if this is an array.
        public var array: [JSON]? { if case .array(let value) = self { value } else { nil } }
        /// The members, if this is an object.
        public var object: [String: JSON]? { if case .object(let value) = self { value } else { nil } }
        /// A member of an object (`nil` when absent or not an object).
        public subscript(key: String) -> JSON? { object?[key] }
        /// An element of an array (`nil` when out of range or not an array).
        public subscript(index: Int) -> JSON? { array.flatMap { $0.indices.contains(index) ? $0[index] : nil } }

        /// JavaScript's truthiness: false for null, false, 0, NaN and "".
        public var isTruthy: Bool {
            switch self {
            case .null: false
            case .bool(let value): value
            case .number(let value): value != 0 && !value.isNaN
            case .string(let value): !value.isEmpty
            case .array, .object: true
            }
        }

        /// Compact JSON text, keys sorted.
        public var description: String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "(not encodable as JSON)"
        }
    }
}
