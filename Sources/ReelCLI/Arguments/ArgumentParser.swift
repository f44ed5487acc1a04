/// Parses the arguments of one command against its ``CommandSpec``.
///
/// Forms accepted:
/// - `--name VALUE`, `--name=VALUE`, `-n VALUE` for options with a value; `--name`, `-n` for flags.
/// - A detached value may start with a single dash (`--offset -5`, `--input -`), but a word that
///   starts with `--` or is one of the command's short options is taken as an option, and the
///   option before it reports a missing value; write `--name=--value` to pass such a value.
/// - `--` ends the options: every later word is positional.
/// - A word that starts with a dash but is a number (`-5`) or a lone `-` is positional.
/// - `-h` or `--help` anywhere before `--` asks for help, whatever else is on the line.
///
/// Every mistake is an ``Error`` whose description names the command and says what to change.
public struct ArgumentParser: Sendable {
    /// The command whose arguments are parsed.
    public let command: CommandSpec
    /// How the command is invoked (`reel live`), the prefix of every error.
    public let path: String
    /// The command whose action `command` is, and how it is invoked (`reel tags`); nil for a
    /// command that is not an action. An option of a sibling action is refused naming it.
    let group: (spec: CommandSpec, path: String)?

    /// A parser for `command`, invoked as `path`.
    public init(command: CommandSpec, path: String) {
        self.init(command: command, path: path, group: nil)
    }

    init(command: CommandSpec, path: String, group: (spec: CommandSpec, path: String)?) {
        self.command = command
        self.path = path
        self.group = group
    }

    /// Parses the words after the command's name.
    public func parse(_ arguments: [String]) throws(Error) -> Invocation {
        let beforeTerminator = arguments.prefix { $0 != "--" }
        if beforeTerminator.contains(where: { $0 == "--help" || $0 == "-h" }) {
            return .help(command.help(path: path))
        }

        var values: [String: [String]] = [:]
        var words: [String] = []
        var index = arguments.startIndex
        var optionsEnded = false

        func record(_ option: Option, value: String?) throws(Error) {
            if values[option.name] != nil && !option.isRepeatable {
                throw .repeatedOption(command: path, option: option.longForm)
            }
            switch option.kind {
            case .flag:
                if let value {
                    throw .flagTakesNoValue(command: path, option: option.longForm, value: value)
                }
                values[option.name, default: []].append("")
            case .value:
                let text: String
                if let value {
                    text = value
                } else if index < arguments.endIndex, !isOptionWord(arguments[index]) {
                    text = arguments[index]
                    index += 1
                } else {
                    throw .missingValue(command: path, option: option.longForm, placeholder: option.placeholder)
                }
                guard option.accepts(text) else {
                    throw .invalidValue(command: path, option: option.longForm, value: text,
                                        expected: option.expectation,
                                        suggestion: option.choices.flatMap { SpellingSuggestion.nearest(to: text, in: $0) })
                }
                values[option.name, default: []].append(text)
            }
        }

        while index < arguments.endIndex {
            let word = arguments[index]
            index += 1
            if optionsEnded || !Self.looksLikeOption(word) {
                words.append(word)
            } else if word == "--" {
                optionsEnded = true
            } else if word.hasPrefix("--") {
                let body = word.dropFirst(2)
                let name = body.prefix { $0 != "=" }
                let inline = name.endIndex < body.endIndex ? String(body[body.index(after: name.endIndex)...]) : nil
                if name == "help", let inline {
                    throw .flagTakesNoValue(command: path, option: "--help", value: inline)
                }
                guard let option = command.option(named: String(name)) else {
                    throw unknownOption("--" + name, near: String(name))
                }
                try record(option, value: inline)
            } else if word.count == 2, let option = command.option(short: word.last!) {
                try record(option, value: nil)
            } else {
                throw unknownShortOption(word)
            }
        }

        for option in command.options where option.isRequired && values[option.name] == nil {
            throw .missingRequired(command: path, option: option.synopsis)
        }
        let positionals = try assign(words)
        return .run(ParsedArguments(command: command, path: path, group: group?.spec, commandPath: group?.path ?? path,
                                    values: values, positionals: positionals))
    }

    /// Matches positional words to the declared positionals, in order.
    private func assign(_ words: [String]) throws(Error) -> [String: [String]] {
        var assigned: [String: [String]] = [:]
        var rest = words[...]
        for positional in command.positionals {
            switch positional.arity {
            case .required, .optional:
                if let word = rest.popFirst() { assigned[positional.name] = [word] }
            case .zeroOrMore, .oneOrMore:
                assigned[positional.name] = Array(rest)
                rest = []
            }
            if positional.isRequired && assigned[positional.name, default: []].isEmpty {
                throw .missingArgument(command: path, name: positional.name)
            }
        }
        if let extra = rest.first {
            throw .unexpectedArgument(command: path, argument: extra, takesArguments: !command.positionals.isEmpty)
        }
        return assigned
    }

    /// Whether `word` is an option rather than a positional: it starts with a dash and is
    /// neither a lone `-` nor a number such as `-5` or `-0.5`.
    static func looksLikeOption(_ word: String) -> Bool {
        word.hasPrefix("-") && word != "-" && Double(word) == nil
    }

    /// Whether `word` cannot be a detached value: `--`, any `--word`, or a declared short option.
    private func isOptionWord(_ word: String) -> Bool {
        if word.hasPrefix("--") { return true }
        return word.count == 2 && word.hasPrefix("-") && (word.last == "h" || command.option(short: word.last!) != nil)
    }

    /// A single-dash word that is not a declared short option. Suggests, in order: a long
    /// name close to what follows the dash (`-quality` → `--quality`), the short option with
    /// its value apart (`-qhigh` → `-q high`), or flags apart (`-vf` → `-v -f`); values and
    /// flags are never glued to a short option.
    private func unknownShortOption(_ word: String) -> Error {
        let letters = Array(word.dropFirst())
        let error = unknownOption(word, near: String(letters))
        guard case .unknownOption(_, _, nil) = error, letters.count > 1,
              let first = command.option(short: letters[0]) else { return error }
        let suggestion: String?
        if first.kind == .value {
            suggestion = "-\(letters[0]) " + String(letters.dropFirst().drop { $0 == "=" })
        } else if letters.allSatisfy({ command.option(short: $0)?.kind == .flag }) {
            suggestion = letters.map { "-\($0)" }.joined(separator: " ")
        } else {
            suggestion = nil
        }
        return .unknownOption(command: path, option: word, suggestion: suggestion)
    }

    /// An option this command does not declare: when sibling actions declare it, an error
    /// naming them; else unknown, with the nearest of this command's own options.
    private func unknownOption(_ spelled: String, near name: String) -> Error {
        if let group, spelled.hasPrefix("--") {
            let owners = group.spec.subcommands.filter { $0.option(named: name) != nil }.map { "\(group.path) \($0.name)" }
            if !owners.isEmpty { return .optionOfOtherSubcommand(command: path, option: spelled, owners: owners) }
        }
        let names = command.options.map(\.name) + ["help"]
        let suggestion = SpellingSuggestion.nearest(to: name, in: names).map { "--" + $0 }
        return .unknownOption(command: path, option: spelled, suggestion: suggestion)
    }
}
