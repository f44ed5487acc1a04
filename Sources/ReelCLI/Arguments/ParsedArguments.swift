/// The arguments of one command after parsing: every value has been checked against its
/// ``Option`` (type, choices, repetition, required), and positionals are matched to their
/// ``Positional``.
///
/// Read values through the same `Option` constants the ``CommandSpec`` lists. An option that
/// was not given reads as its default, or nil when it has none. Asking for an option the
/// command does not declare is a programming error and traps.
///
/// ```swift
/// let origin = try arguments.require(LiveCommand.origin)               // String
/// let seconds = try arguments.seconds(LiveCommand.duration)            // Double?
/// let quality = try arguments.value(LiveCommand.quality, as: Quality.self) ?? .medium
/// let verbose = arguments.flag(LiveCommand.verbose)                    // Bool
/// ```
public struct ParsedArguments: Sendable {
    /// The command these arguments belong to.
    public let command: CommandSpec
    /// How the command was invoked (`reel live`, `reel tags add`): the prefix of usage errors
    /// about these arguments.
    public let path: String
    /// The command `command` is an action of (`tags` for `reel tags add`); nil when it is not one.
    public let group: CommandSpec?
    /// How the top command was invoked (`reel tags` for `reel tags add`, else ``path``): the
    /// prefix of the command's failures, which belong to the command more than to one action.
    public let commandPath: String
    /// Values given, by option name, in command-line order; flags hold one empty string per use.
    private let values: [String: [String]]
    /// Positional words, by positional name.
    private let positionals: [String: [String]]

    init(command: CommandSpec, path: String, group: CommandSpec?, commandPath: String,
         values: [String: [String]], positionals: [String: [String]]) {
        self.command = command
        self.path = path
        self.group = group
        self.commandPath = commandPath
        self.values = values
        self.positionals = positionals
    }

    // MARK: Flags and counts

    /// Whether the flag (or option) was given.
    public func flag(_ option: Option) -> Bool {
        count(option) > 0
    }

    /// How many times the option was given: `2` for `-v -v`.
    public func count(_ option: Option) -> Int {
        given(option).count
    }

    // MARK: Text

    /// The value given (the last one, for a repeatable option), else the default, else nil.
    public func string(_ option: Option) -> String? {
        strings(option).last
    }

    /// Every value given, in order; `[default]` when none was given and there is a default.
    public func strings(_ option: Option) -> [String] {
        precondition(declared(option).kind == .value, "\(path): --\(option.name) is a flag; read it with flag(_:)")
        let given = given(option)
        if given.isEmpty, let defaultValue = option.defaultValue { return [defaultValue] }
        return given
    }

    /// The value given, else the default; throws ``ArgumentParser/Error/missingRequired(command:option:)``
    /// when there is neither, for options a command needs only in some cases.
    public func require(_ option: Option) throws(ArgumentParser.Error) -> String {
        guard let value = string(option) else {
            throw .missingRequired(command: path, option: option.synopsis)
        }
        return value
    }

    // MARK: Typed values

    /// The value as `type` (the last one given, else the default), or nil when there is none.
    /// Throws ``ArgumentParser/Error/invalidValue(command:option:value:expected:suggestion:)``
    /// when it does not convert (only possible when `type` differs from the declared one).
    public func value<T: ArgumentValue>(_ option: Option, as type: T.Type) throws(ArgumentParser.Error) -> T? {
        guard let text = string(option) else { return nil }
        return try convert(text, of: option, to: type)
    }

    /// Every value as `type`, in order; `[default]` when none was given and there is a default.
    public func values<T: ArgumentValue>(_ option: Option, as type: T.Type) throws(ArgumentParser.Error) -> [T] {
        var result: [T] = []
        for text in strings(option) {
            result.append(try convert(text, of: option, to: type))
        }
        return result
    }

    /// The value as `type`, else the default; throws
    /// ``ArgumentParser/Error/missingRequired(command:option:)`` when there is neither.
    public func require<T: ArgumentValue>(_ option: Option, as type: T.Type) throws(ArgumentParser.Error) -> T {
        try convert(require(option), of: option, to: type)
    }

    /// The value as an integer, or nil when there is none.
    public func int(_ option: Option) throws(ArgumentParser.Error) -> Int? {
        try value(option, as: Int.self)
    }

    /// The value as a number, or nil when there is none.
    public func double(_ option: Option) throws(ArgumentParser.Error) -> Double? {
        try value(option, as: Double.self)
    }

    /// The value as a duration in seconds (`30`, `1.5s`, `500ms`, `2m`, `1h30m`), or nil when
    /// there is none.
    public func seconds(_ option: Option) throws(ArgumentParser.Error) -> Double? {
        try value(option, as: Duration.self)?.secondsValue
    }

    /// An error about this option's value, worded like the parser's own, for checks that only
    /// the command can make: `throw arguments.invalid(port, expected: "a port from 1 to 65535")`.
    public func invalid(_ option: Option, expected: String) -> ArgumentParser.Error {
        .invalidValue(command: path, option: option.longForm, value: string(option) ?? "", expected: expected,
                      suggestion: nil)
    }

    /// A usage error in the command's own words, for a check no option can state alone:
    /// `throw arguments.refused("--interval applies to --mode timelapse only")`.
    public func refused(_ reason: String) -> ArgumentParser.Error {
        .refused(command: path, reason: reason)
    }

    /// An error for two options that exclude each other, when both were given (nil otherwise):
    /// `if let error = arguments.conflict(archive, noArchive) { throw error }`.
    public func conflict(_ first: Option, _ second: Option) -> ArgumentParser.Error? {
        guard !given(first).isEmpty, !given(second).isEmpty else { return nil }
        return .conflictingOptions(command: path, first: first.longForm, second: second.longForm)
    }

    // MARK: Positionals

    /// The positional's word, or nil when an optional one was not given (the first word for a
    /// variadic one).
    public func positional(_ positional: Positional) -> String? {
        positionals(positional).first
    }

    /// Every word the positional took, in order.
    public func positionals(_ positional: Positional) -> [String] {
        precondition(command.positionals.contains { $0.name == positional.name },
                     "\(path) declares no positional \(positional.name)")
        return positionals[positional.name] ?? []
    }

    // MARK: Private

    private func declared(_ option: Option) -> Option {
        guard let declared = command.option(named: option.name) else {
            preconditionFailure("\(path) declares no option --\(option.name)")
        }
        return declared
    }

    private func given(_ option: Option) -> [String] {
        values[declared(option).name] ?? []
    }

    private func convert<T: ArgumentValue>(_ text: String, of option: Option, to type: T.Type) throws(ArgumentParser.Error) -> T {
        guard let value = T(argument: text) else {
            throw .invalidValue(command: path, option: option.longForm, value: text, expected: T.expectation,
                                suggestion: T.allowedValues.flatMap { SpellingSuggestion.nearest(to: text, in: $0) })
        }
        return value
    }
}
