/// A roff man page (section 1) for a tool, generated from its ``ToolSpec`` (`reel help --man`):
/// the same summaries, options, defaults and examples as `--help`, for `man reel`.
public struct ManPage: Sendable {
    /// The tool the page documents.
    public let tool: ToolSpec

    /// A page for `tool`.
    public init(tool: ToolSpec) {
        self.tool = tool
    }

    /// The page's roff source (the `man` macros), ready for `man -l -` or share/man/man1.
    public var text: String {
        let title = tool.name.uppercased()
        let version = tool.version.map { String($0().prefix { $0 != "\n" }) } ?? tool.name
        var lines = [".TH \(Self.escaped(title)) 1 \"\" \"\(Self.escaped(version))\" \"User Commands\"",
                     ".SH NAME", "\(Self.escaped(tool.name)) \\- \(Self.escaped(tool.summary))",
                     ".SH SYNOPSIS", ".B \(Self.escaped(tool.name))", ".I command", ".RI [ options ]",
                     ".SH DESCRIPTION", Self.escaped(tool.summary),
                     ".PP", "Run \\fB\(Self.escaped(tool.name)) \\fIcommand\\fB \\-\\-help\\fR for a command's options; "
                        + "the sections below say the same.",
                     ".SH COMMANDS"]
        for command in tool.commands {
            lines += section(command, path: "\(tool.name) \(command.name)")
            for action in command.subcommands {
                lines += section(action, path: "\(tool.name) \(command.name) \(action.name)")
            }
        }
        lines += [".SH EXIT STATUS", ".TP", ".B 0", "Success (and help).", ".TP", ".B 1", "The command failed; standard error says why.",
                  ".TP", ".B 64", "The command line cannot be run as typed (a usage error); standard error says what to change."]
        return lines.joined(separator: "\n") + "\n"
    }

    /// One command's or action's subsection: usage, summary, discussion, options, examples.
    private func section(_ command: CommandSpec, path: String) -> [String] {
        var lines = [".SS \"\(Self.escaped(command.usage(path: path)))\"", Self.escaped(command.summary)]
        for paragraph in command.discussion.split(separator: "\n", omittingEmptySubsequences: true) {
            lines += [".PP", Self.escaped(String(paragraph))]
        }
        for positional in command.positionals {
            lines += [".TP", "\\fI\(Self.escaped(positional.name))\\fR", Self.escaped(positional.help)]
        }
        for option in command.options {
            let short = option.shortName.map { "\\fB\\-\($0)\\fR, " } ?? ""
            let value = option.kind == .value ? " \\fI\(Self.escaped(option.placeholder))\\fR" : ""
            lines += [".TP", short + "\\fB\(Self.escaped(option.longForm))\\fR" + value, Self.escaped(CommandSpec.optionText(option))]
        }
        if !command.subcommands.isEmpty {
            lines += [".PP", "Actions: " + command.subcommands.map { "\\fB\(Self.escaped($0.name))\\fR" }.joined(separator: ", ")
                + (command.defaultSubcommand.map { " (default: \(Self.escaped($0)))" } ?? "") + "."]
        }
        if !command.examples.isEmpty {
            lines += [".PP", "Examples:", ".RS", ".nf"] + command.examples.map(Self.escaped) + [".fi", ".RE"]
        }
        return lines
    }

    /// Text made literal for roff: backslashes and dashes escaped, a leading dot or quote
    /// guarded, characters beyond ASCII written as `\[uXXXX]` so the page needs no preprocessor.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case "\"": out += "\\(dq"
            case "\n", "\t": out += " "
            default:
                if scalar.isASCII { out.unicodeScalars.append(scalar) } else {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
                }
            }
        }
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }
}
