extension CommandSpec {
    /// The command's `--help` text: usage line, summary and discussion, the aligned option
    /// list with choices and defaults, positionals and examples. Ends with a newline.
    ///
    /// - Parameter path: how the command is invoked (`reel live`); its name when nil.
    public func help(path: String? = nil) -> String {
        let path = path ?? name
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

    /// `reel live --origin URL [options] [FILE...]`: required options spelled out, the others
    /// summed up as `[options]`, then the positionals.
    public func usage(path: String? = nil) -> String {
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
    private static func optionText(_ option: Option) -> String {
        var notes: [String] = []
        if let choices = option.choices { notes.append(ArgumentValueText.oneOf(choices)) }
        if option.isRequired { notes.append("required") }
        if let defaultValue = option.defaultValue { notes.append("default: \(defaultValue)") }
        if option.isRepeatable { notes.append("repeatable") }
        return notes.isEmpty ? option.help : option.help + " (" + notes.joined(separator: "; ") + ")"
    }
}
