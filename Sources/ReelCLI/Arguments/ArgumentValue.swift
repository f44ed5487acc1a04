/// A type that a command-line value converts to, for ``Option/value(_:short:as:placeholder:default:required:repeatable:help:)``
/// and the typed accessors of ``ParsedArguments``.
///
/// `String`, `Int`, `Double` and `Duration` conform. A `String`-backed `CaseIterable` enum
/// conforms with an empty extension and becomes a choice: its raw values are the allowed
/// values, listed in help and in errors.
///
/// ```swift
/// enum Quality: String, CaseIterable, ArgumentValue { case low, medium, high }
/// ```
public protocol ArgumentValue: Sendable {
    /// The value as typed on the command line, or nil when the text is not a valid value.
    init?(argument: String)
    /// What a valid value looks like, completing "expected …": `"an integer"`.
    static var expectation: String { get }
    /// The placeholder shown in help when the option names none: `"N"`, `"DURATION"`.
    static var placeholder: String { get }
    /// Every valid value, when there is a fixed list (a choice); nil otherwise.
    static var allowedValues: [String]? { get }
}

extension ArgumentValue {
    /// `"VALUE"`.
    public static var placeholder: String { "VALUE" }
    /// No fixed list.
    public static var allowedValues: [String]? { nil }
}

extension ArgumentValue where Self: CaseIterable & RawRepresentable, RawValue == String {
    /// The case whose raw value is `argument`, exactly.
    public init?(argument: String) { self.init(rawValue: argument) }
    /// `"one of low, medium, high"`.
    public static var expectation: String { ArgumentValueText.oneOf(allowedValues ?? []) }
    /// The raw values of all cases, in declaration order.
    public static var allowedValues: [String]? { allCases.map(\.rawValue) }
    /// The type's name in capitals: `QUALITY` for `Quality`.
    public static var placeholder: String { String(describing: Self.self).uppercased() }
}

extension String: ArgumentValue {
    /// Any text is a valid string.
    public init?(argument: String) { self = argument }
    /// `"a value"`.
    public static var expectation: String { "a value" }
}

extension Int: ArgumentValue {
    /// A decimal integer, optionally signed: `42`, `-3`.
    public init?(argument: String) { self.init(argument, radix: 10) }
    /// `"an integer"`.
    public static var expectation: String { "an integer" }
    /// `"N"`.
    public static var placeholder: String { "N" }
}

extension Double: ArgumentValue {
    /// A finite decimal number: `2.5`, `-0.5`, `1e3`; `nan` and `inf` are refused.
    public init?(argument: String) {
        guard let value = Double(argument), value.isFinite else { return nil }
        self = value
    }
    /// `"a number"`.
    public static var expectation: String { "a number" }
    /// `"NUMBER"`.
    public static var placeholder: String { "NUMBER" }
}

/// Shared wording for value descriptions.
enum ArgumentValueText {
    /// `"one of low, medium, high"`.
    static func oneOf(_ values: [String]) -> String {
        "one of " + values.joined(separator: ", ")
    }
}
