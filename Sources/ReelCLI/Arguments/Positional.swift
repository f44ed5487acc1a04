/// A positional argument of a command: `FILE` in `reel export FILE`.
///
/// Positionals are matched in declaration order; optional ones follow the required ones and
/// only the last may take several values.
public struct Positional: Sendable {
    /// How many values the positional takes.
    public enum Arity: Sendable, Equatable {
        /// Exactly one: `FILE`.
        case required
        /// Zero or one: `[FILE]`.
        case optional
        /// Any number, including none: `[FILE...]`.
        case zeroOrMore
        /// At least one: `FILE...`.
        case oneOrMore
    }

    /// The word shown in usage and errors: `FILE`.
    public let name: String
    /// How many values it takes.
    public let arity: Arity
    /// One or two sentences for `--help`.
    public let help: String

    /// A positional named `name` (conventionally in capitals).
    public init(_ name: String, arity: Arity = .required, help: String) {
        precondition(!name.isEmpty, "A positional needs a name")
        self.name = name
        self.arity = arity
        self.help = help
    }

    /// Whether it needs at least one value.
    var isRequired: Bool { arity == .required || arity == .oneOrMore }
    /// Whether it takes more than one value.
    var isVariadic: Bool { arity == .zeroOrMore || arity == .oneOrMore }

    /// How it appears in the usage line: `FILE`, `[FILE]`, `[FILE...]`, `FILE...`.
    var usage: String {
        switch arity {
        case .required: name
        case .optional: "[\(name)]"
        case .zeroOrMore: "[\(name)...]"
        case .oneOrMore: "\(name)..."
        }
    }
}
