extension CommandSpec {
    /// The command's `--help` text: usage line, summary and discussion, the aligned option
    /// list with choices and defaults, positionals and examples. Ends with a newline.
    ///
    /// - Parameter path: how the command is invoked (`reel live`); its name when nil.
    public func help(path: String? = nil) -> String {
        let path = path ?? name
        if !subcommands.isEmpty { return groupHelp(path: path) }
        var lines = ["Usage: " + usage(path: path), ""]
        lines += HelpLayout.wrap(summary)
        if !discussion.isEmpty {
            lines += [""] + HelpLayout.wrap(discussion)
        }
        if !positionals.isEmpty {
            lines += ["", "Arguments:"] + HelpLayout.columns(positionals.map { ($0.name, $0.help) })
        }
        let all = options + [CommandSpec.helpOption]
        lines += ["", "Options:"] + HelpLayout.columns(all.map { (Self.optionColumn($0), Self.optionText($0)) })
        if !examples.isEmpty {
            lines += ["", "Examples:"] + examples.map { "  " + $0 }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The help of a command made of actions: usage, summary and discussion, each action with
    /// its summary (the default one marked), examples, and where each action's options are.
    private func groupHelp(path: String) -> String {
        var lines = ["Usage: " + usage(path: path), ""]
        lines += HelpLayout.wrap(summary)
        if !discussion.isEmpty {
            lines += [""] + HelpLayout.wrap(discussion)
        }
        lines += ["", "Actions:"] + HelpLayout.columns(subcommands.map {
            ($0.name, $0.name == defaultSubcommand ? $0.summary + " (the default)" : $0.summary)
        })
        let shared = sharedOptions + [CommandSpec.helpOption]
        lines += ["", shared.count > 1 ? "Options (every action):" : "Options:"]
            + HelpLayout.columns(shared.map { (Self.optionColumn($0), Self.optionText($0)) })
        if !examples.isEmpty {
            lines += ["", "Examples:"] + examples.map { "  " + $0 }
        }
        lines += ["", "Run '\(path) ACTION --help' for an action's options."]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The options every action declares (`--library` of `reel tags`), in the first action's order.
    var sharedOptions: [Option] {
        guard let first = subcommands.first else { return [] }
        return first.options.filter { option in subcommands.allSatisfy { $0.option(named: option.name) != nil } }
    }

    /// `reel live --origin URL [options] [FILE...]`: required options spelled out, the others
    /// summed up as `[options]`, then the positionals. `reel tags ACTION [options]` for a
    /// command made of actions (`[ACTION]` when one is the default).
    public func usage(path: String? = nil) -> String {
        if !subcommands.isEmpty {
            return (path ?? name) + (defaultSubcommand == nil ? " ACTION [options]" : " [ACTION] [options]")
        }
        var parts = [path ?? name]
        parts += options.filter(\.isRequired).map(\.synopsis)
        parts.append("[options]")
        parts += positionals.map(\.usage)
        return parts.joined(separator: " ")
    }

    /// `-q, --quality QUALITY` or `    --origin URL`: long names line up whether or not there
    /// is a short one.
    private static func optionColumn(_ option: Option) -> String {
        let short = option.shortName.map { "-\($0), " } ?? "    "
        return short + option.synopsis
    }

    /// The help sentence followed by what the user needs to know to type it:
    /// `(one of low, medium, high; default: medium)`.
    static func optionText(_ option: Option) -> String {
        var notes: [String] = []
        if let choices = option.choices { notes.append(ArgumentValueText.oneOf(choices)) }
        if option.isRequired { notes.append("required") }
        if let defaultValue = option.defaultValue { notes.append("default: \(defaultValue)") }
        if option.isRepeatable { notes.append("repeatable") }
        return notes.isEmpty ? option.help : option.help + " (" + notes.joined(separator: "; ") + ")"
    }
}
