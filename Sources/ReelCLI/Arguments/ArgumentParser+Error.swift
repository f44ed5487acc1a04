import ReelCore

extension ArgumentParser {
    /// A command line that cannot be run as typed. The ``description`` names the command and
    /// says what to change; ``usageHint`` says where to read more.
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        /// The first word is not a command of the tool.
        case unknownCommand(tool: String, name: String, suggestion: String?)
        /// No command was given.
        case missingCommand(tool: String, commands: [String])
        /// An option the command does not declare (`option` as typed, without any `=value`).
        case unknownOption(command: String, option: String, suggestion: String?)
        /// An option that takes a value came last, or was followed by another option.
        case missingValue(command: String, option: String, placeholder: String)
        /// A flag was given a value with `--flag=value`.
        case flagTakesNoValue(command: String, option: String, value: String)
        /// A required option was not given (`option` is its synopsis, `--origin URL`).
        case missingRequired(command: String, option: String)
        /// A value that does not convert, or is not one of the choices.
        case invalidValue(command: String, option: String, value: String, expected: String, suggestion: String?)
        /// An option that is not repeatable was given twice.
        case repeatedOption(command: String, option: String)
        /// A positional word that no declared positional takes.
        case unexpectedArgument(command: String, argument: String, takesArguments: Bool)
        /// A required positional is missing.
        case missingArgument(command: String, name: String)
        /// Two options that exclude each other were both given.
        case conflictingOptions(command: String, first: String, second: String)
        /// A command's own check refused the command line (`--interval applies to --mode
        /// timelapse only`): `reason` is the sentence after the command's name.
        case refused(command: String, reason: String)
        /// A command made of actions was given none (and has no default).
        case missingSubcommand(command: String, choices: [String])
        /// The word after a command made of actions is not one of them.
        case unknownSubcommand(command: String, name: String, choices: [String], suggestion: String?)
        /// An option that other actions of the same command take (`reel tags add --force`:
        /// `owners` is `["reel tags rm"]`).
        case optionOfOtherSubcommand(command: String, option: String, owners: [String])

        /// One line that says what is wrong and, where possible, what to type instead.
        public var description: String {
            switch self {
            case let .unknownCommand(tool, name, suggestion):
                return "\(tool): unknown command '\(name)'." + didYouMean(suggestion)
            case let .missingCommand(tool, commands):
                return commands.isEmpty
                    ? "\(tool): missing command."
                    : "\(tool): missing command; one of: \(commands.joined(separator: ", "))."
            case let .unknownOption(command, option, suggestion):
                return "\(command): unknown option '\(option)'." + didYouMean(suggestion)
            case let .missingValue(command, option, placeholder):
                return "\(command): option '\(option)' needs a value: \(option) \(placeholder)."
            case let .flagTakesNoValue(command, option, value):
                return "\(command): option '\(option)' is a flag and takes no value; remove '=\(value)'."
            case let .missingRequired(command, option):
                return "\(command): missing required option '\(option)'."
            case let .invalidValue(command, option, value, expected, suggestion):
                let shown = TerminalText.truncated(TerminalText.safe(value), toWidth: 60)
                return "\(command): invalid value '\(shown)' for '\(option)': expected \(expected)."
                    + didYouMean(suggestion)
            case let .repeatedOption(command, option):
                return "\(command): option '\(option)' can be given only once."
            case let .unexpectedArgument(command, argument, takesArguments):
                return takesArguments
                    ? "\(command): unexpected extra argument '\(argument)'."
                    : "\(command): unexpected argument '\(argument)'; this command takes none."
            case let .missingArgument(command, name):
                return "\(command): missing argument \(name)."
            case let .conflictingOptions(command, first, second):
                return "\(command): '\(first)' and '\(second)' cannot be used together; keep one."
            case let .refused(command, reason):
                return "\(command): \(reason)"
            case let .missingSubcommand(command, choices):
                return "\(command): missing ACTION; one of: \(choices.joined(separator: ", "))."
            case let .unknownSubcommand(command, name, choices, suggestion):
                let shown = TerminalText.truncated(TerminalText.safe(name), toWidth: 60)
                return "\(command): invalid value '\(shown)' for 'ACTION': expected one of: \(choices.joined(separator: ", "))."
                    + didYouMean(suggestion)
            case let .optionOfOtherSubcommand(command, option, owners):
                let list = owners.map { "'\($0)'" }
                let named = list.count == 1 ? list[0] : list.dropLast().joined(separator: ", ") + " and " + list.last!
                return "\(command): unknown option '\(option)'; it belongs to \(named)."
            }
        }

        /// Where to read the usage: `Run 'reel live --help' for usage.`
        public var usageHint: String {
            switch self {
            case let .unknownCommand(tool, _, _), let .missingCommand(tool, _):
                return "Run '\(tool) --help' for the list of commands."
            case let .unknownOption(command, _, _), let .missingValue(command, _, _),
                 let .flagTakesNoValue(command, _, _), let .missingRequired(command, _),
                 let .invalidValue(command, _, _, _, _), let .repeatedOption(command, _),
                 let .unexpectedArgument(command, _, _), let .missingArgument(command, _),
                 let .conflictingOptions(command, _, _), let .missingSubcommand(command, _), let .refused(command, _),
                 let .unknownSubcommand(command, _, _, _), let .optionOfOtherSubcommand(command, _, _):
                return "Run '\(command) --help' for usage."
            }
        }

        private func didYouMean(_ suggestion: String?) -> String {
            suggestion.map { " Did you mean '\($0)'?" } ?? ""
        }
    }
}
