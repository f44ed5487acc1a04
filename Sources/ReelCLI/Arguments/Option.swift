/// One named option of a command: a flag (`--verbose`) or an option with a value
/// (`--quality high`, `--quality=high`, `-q high`).
///
/// Declare each option once, as a constant beside its command, and list it in the
/// command's ``CommandSpec``: the same value drives parsing, validation, typed access
/// through ``ParsedArguments`` and the `--help` text.
///
/// ```swift
/// static let quality = Option.value("quality", short: "q", as: Quality.self, default: "medium",
///                                   help: "Stream quality.")
/// static let verbose = Option.flag("verbose", short: "v", help: "Print each published segment.")
/// ```
public struct Option: Sendable {
    /// Whether the option stands alone or takes a value.
    public enum Kind: Sendable, Equatable {
        /// Present or absent: `--verbose`. Giving it a value (`--verbose=yes`) is an error.
        case flag
        /// Takes one value: `--name VALUE`, `--name=VALUE`, `-n VALUE`.
        case value
    }

    /// The long name without dashes: `quality` for `--quality`.
    public let name: String
    /// The one-letter name without its dash, if any: `q` for `-q`.
    public let shortName: Character?
    /// Flag or value.
    public let kind: Kind
    /// The word that stands for the value in help and errors: `URL` in `--origin URL`.
    /// Empty for flags.
    public let placeholder: String
    /// One or two sentences for `--help`.
    public let help: String
    /// The value used when the option is not given, exactly as a user would type it.
    public let defaultValue: String?
    /// Whether parsing fails when the option is not given.
    public let isRequired: Bool
    /// Whether the option may be given more than once (values collect in order).
    public let isRepeatable: Bool
    /// The only values accepted, when the list is fixed.
    public let choices: [String]?
    /// What a valid value looks like, completing "expected …".
    public let expectation: String
    /// Whether `text` is a valid value; true for any text when the type is `String`.
    let accepts: @Sendable (String) -> Bool

    private init(
        name: String, shortName: Character?, kind: Kind, placeholder: String, help: String,
        defaultValue: String?, isRequired: Bool, isRepeatable: Bool, choices: [String]?,
        expectation: String, accepts: @escaping @Sendable (String) -> Bool
    ) {
        precondition(Option.isValidName(name), "Option name '\(name)' must be lowercase letters, digits and '-'")
        if let shortName {
            precondition(shortName.isASCII && shortName.isLetter, "Short name of --\(name) must be an ASCII letter")
        }
        precondition(!(isRequired && defaultValue != nil), "--\(name) cannot be both required and defaulted")
        if let defaultValue {
            precondition(accepts(defaultValue), "Default '\(defaultValue)' of --\(name) is not \(expectation)")
        }
        self.name = name
        self.shortName = shortName
        self.kind = kind
        self.placeholder = placeholder
        self.help = help
        self.defaultValue = defaultValue
        self.isRequired = isRequired
        self.isRepeatable = isRepeatable
        self.choices = choices
        self.expectation = expectation
        self.accepts = accepts
    }

    /// A flag: `--name` or `-s`, present or absent.
    ///
    /// - Parameters:
    ///   - repeatable: whether it may be given more than once (count it with
    ///     ``ParsedArguments/count(_:)``, as in `-v -v`).
    public static func flag(_ name: String, short: Character? = nil, repeatable: Bool = false, help: String) -> Option {
        Option(name: name, shortName: short, kind: .flag, placeholder: "", help: help, defaultValue: nil,
               isRequired: false, isRepeatable: repeatable, choices: nil, expectation: "no value",
               accepts: { _ in false })
    }

    /// An option whose value is text, optionally restricted to a fixed list of `choices`.
    ///
    /// - Parameters:
    ///   - placeholder: the word for the value in help (`URL`, `PATH`).
    ///   - default: the value when the option is not given, as a user would type it.
    ///   - required: parsing fails when the option is not given.
    ///   - repeatable: the option may be given more than once; values collect in order.
    ///   - choices: the only accepted values; listed in help and in errors.
    public static func value(
        _ name: String, short: Character? = nil, placeholder: String = "VALUE", default: String? = nil,
        required: Bool = false, repeatable: Bool = false, choices: [String]? = nil, help: String
    ) -> Option {
        if let choices {
            precondition(!choices.isEmpty, "--\(name) declares an empty list of choices")
            return Option(name: name, shortName: short, kind: .value, placeholder: placeholder, help: help,
                          defaultValue: `default`, isRequired: required, isRepeatable: repeatable,
                          choices: choices, expectation: ArgumentValueText.oneOf(choices),
                          accepts: { choices.contains($0) })
        }
        return Option(name: name, shortName: short, kind: .value, placeholder: placeholder, help: help,
                      defaultValue: `default`, isRequired: required, isRepeatable: repeatable, choices: nil,
                      expectation: String.expectation, accepts: { _ in true })
    }

    /// An option whose value converts to `type` (`Int.self`, `Double.self`, `Duration.self`, a
    /// choice enum); values that do not convert are refused while parsing.
    ///
    /// - Parameters:
    ///   - placeholder: the word for the value in help; `type`'s own placeholder when nil.
    ///   - default: the value when the option is not given, as a user would type it (`"30s"`).
    ///   - required: parsing fails when the option is not given.
    ///   - repeatable: the option may be given more than once; values collect in order.
    public static func value<T: ArgumentValue>(
        _ name: String, short: Character? = nil, as type: T.Type, placeholder: String? = nil,
        default: String? = nil, required: Bool = false, repeatable: Bool = false, help: String
    ) -> Option {
        Option(name: name, shortName: short, kind: .value, placeholder: placeholder ?? T.placeholder, help: help,
               defaultValue: `default`, isRequired: required, isRepeatable: repeatable,
               choices: T.allowedValues, expectation: T.expectation,
               accepts: { T(argument: $0) != nil })
    }

    /// `--name`.
    public var longForm: String { "--" + name }

    /// `--name VALUE` for options with a value, `--name` for flags.
    public var synopsis: String { kind == .flag ? longForm : longForm + " " + placeholder }

    /// Lowercase ASCII letters and digits, words joined by single dashes, starting with a letter.
    private static func isValidName(_ name: String) -> Bool {
        guard let first = name.first, first.isASCII, first.isLowercase, !name.hasSuffix("-"),
              !name.contains("--") else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }
    }
}
