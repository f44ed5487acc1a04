/// The declaration of a tool with subcommands (`reel live`, `reel study`, …): its name, a
/// one-line description and each command's ``CommandSpec``.
///
/// ```swift
/// let tool = ToolSpec(name: "reel", summary: "A camera pipeline for Linux.",
///                     commands: [LiveCommand.spec])
/// switch try tool.parse(Array(CommandLine.arguments.dropFirst())) {
/// case .help(let text): print(text, terminator: "")
/// case .run(let arguments): ... // arguments.command.name says which command
/// }
/// ```
public struct ToolSpec: Sendable {
    /// The program's name, the first word of every usage line: `reel`.
    public let name: String
    /// One line that says what the tool is, shown in its help.
    public let summary: String
    /// The subcommands, in help order.
    public let commands: [CommandSpec]
    /// The text `--version` and `version` print, made when asked; nil when the tool has none.
    public let version: (@Sendable () -> String)?

    /// A tool; traps when two commands share a name or a command is called `help` (or
    /// `version`, when the tool has a version).
    public init(name: String, summary: String, commands: [CommandSpec], version: (@Sendable () -> String)? = nil) {
        var seen: Set<String> = []
        for command in commands {
            precondition(command.name != "help", "'\(name) help' is built in")
            precondition(version == nil || command.name != "version", "'\(name) version' is built in")
            precondition(seen.insert(command.name).inserted, "\(name): command '\(command.name)' declared twice")
        }
        self.name = name
        self.summary = summary
        self.commands = commands
        self.version = version
    }

    /// The command called `name`, if any.
    public func command(named name: String) -> CommandSpec? {
        commands.first { $0.name == name }
    }

    /// Parses a whole command line without the program name: `["live", "--origin", "…"]`.
    ///
    /// `--help`, `-h` and `help` show the tool's help; `help COMMAND` and `COMMAND --help` show
    /// the command's; `help --man` prints the man page; `--version` and `version` show the
    /// version, when the tool has one.
    public func parse(_ arguments: [String]) throws(ArgumentParser.Error) -> Invocation {
        guard let first = arguments.first else {
            throw .missingCommand(tool: name, commands: commands.map(\.name))
        }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "--help", "-h":
            return .help(help())
        case "help":
            guard let topic = rest.first else { return .help(help()) }
            if topic == "--man" && rest.count == 1 { return .help(ManPage(tool: self).text) }
            let command = try resolve(topic)
            guard rest.count > 1 else { return .help(command.help(path: "\(name) \(topic)")) }
            // `help tags add`: the action's help, as `tags add --help` shows it.
            return try command.parse(Array(rest.dropFirst()) + ["--help"], path: "\(name) \(topic)")
        case "--version" where version != nil, "version" where version != nil:
            if let extra = rest.first, extra == "--help" || extra == "-h" { return .help(help()) }
            if let extra = rest.first {
                throw .unexpectedArgument(command: "\(name) \(first)", argument: extra, takesArguments: false)
            }
            return .help(version!())
        default:
            if first.hasPrefix("-") {
                let name = first.drop { $0 == "-" }.prefix { $0 != "=" }
                let suggestion = SpellingSuggestion.nearest(to: String(name), in: toolOptions.map { String($0.dropFirst(2)) })
                throw .unknownOption(command: self.name, option: first, suggestion: suggestion.map { "--" + $0 })
            }
            return try resolve(first).parse(rest, path: "\(name) \(first)")
        }
    }

    /// The tool's help: usage, summary, the commands with their summaries, and where to look next.
    public func help() -> String {
        var lines = ["Usage: \(name) <command> [options]", ""]
        lines += HelpLayout.wrap(summary)
        lines += ["", "Commands:"]
        var builtIn = [("help", "Show help for a command.")]
        if version != nil { builtIn.append(("version", "Show the version, the build's commit and the libraries' versions.")) }
        lines += HelpLayout.columns(commands.map { ($0.name, $0.summary) } + builtIn)
        lines += ["", "Run '\(name) <command> --help' for a command's options."]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The options the tool itself takes (before any command).
    private var toolOptions: [String] {
        version == nil ? ["--help"] : ["--help", "--version"]
    }

    /// The commands every tool has besides its declared ones.
    private var builtInCommands: [String] {
        version == nil ? ["help"] : ["help", "version"]
    }

    private func resolve(_ commandName: String) throws(ArgumentParser.Error) -> CommandSpec {
        guard let command = command(named: commandName) else {
            throw .unknownCommand(tool: name, name: commandName,
                                  suggestion: SpellingSuggestion.nearest(to: commandName, in: commands.map(\.name) + builtInCommands))
        }
        return command
    }
}
