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

    /// A tool; traps when two commands share a name or a command is called `help`.
    public init(name: String, summary: String, commands: [CommandSpec]) {
        var seen: Set<String> = []
        for command in commands {
            precondition(command.name != "help", "'\(name) help' is built in")
            precondition(seen.insert(command.name).inserted, "\(name): command '\(command.name)' declared twice")
        }
        self.name = name
        self.summary = summary
        self.commands = commands
    }

    /// The command called `name`, if any.
    public func command(named name: String) -> CommandSpec? {
        commands.first { $0.name == name }
    }

    /// Parses a whole command line without the program name: `["live", "--origin", "…"]`.
    ///
    /// `--help`, `-h` and `help` show the tool's help; `help COMMAND` and `COMMAND --help` show
    /// the command's.
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
            return .help(try resolve(topic).help(path: "\(name) \(topic)"))
        default:
            if first.hasPrefix("-") {
                throw .unknownOption(command: name, option: first, suggestion: nil)
            }
            return try resolve(first).parse(rest, path: "\(name) \(first)")
        }
    }

    /// The tool's help: usage, summary, the commands with their summaries, and where to look next.
    public func help() -> String {
        var lines = ["Usage: \(name) <command> [options]", ""]
        lines += HelpLayout.wrap(summary)
        lines += ["", "Commands:"]
        lines += HelpLayout.columns(commands.map { ($0.name, $0.summary) } + [("help", "Show help for a command.")])
        lines += ["", "Run '\(name) <command> --help' for a command's options."]
        return lines.joined(separator: "\n") + "\n"
    }

    private func resolve(_ commandName: String) throws(ArgumentParser.Error) -> CommandSpec {
        guard let command = command(named: commandName) else {
            throw .unknownCommand(tool: name, name: commandName,
                                  suggestion: SpellingSuggestion.nearest(to: commandName, in: commands.map(\.name)))
        }
        return command
    }
}
