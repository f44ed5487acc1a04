/// Shell completion scripts for a tool, generated from its ``ToolSpec`` so they list exactly
/// the commands, actions and options the parser accepts (`reel completion bash|zsh|fish`).
///
/// Every script finds where the cursor is the same way: the first word that is not an option
/// (nor an option's value) is the command, the next one the action of a command that has
/// actions. It then offers that level's words (commands or actions) or, after a dash, its
/// options; after an option that takes a value, the option's choices, else file names.
public struct CompletionScript: Sendable {
    /// A shell the scripts are written for.
    public enum Shell: String, CaseIterable, Sendable, ArgumentValue {
        case bash, zsh, fish
    }

    /// The tool whose commands are completed.
    public let tool: ToolSpec

    /// A script generator for `tool`.
    public init(tool: ToolSpec) {
        self.tool = tool
    }

    /// The script for `shell`, to be sourced (bash), put on `$fpath` (zsh) or in
    /// `vendor_completions.d` (fish).
    public func script(for shell: Shell) -> String {
        switch shell {
        case .bash: bash()
        case .zsh: zsh()
        case .fish: fish()
        }
    }

    // MARK: What every shell needs

    /// One place the cursor can be: `""` (the tool), `"tags"`, `"tags/add"`.
    struct Level {
        let key: String
        let words: [String]
        let options: [Option]
    }

    /// Every level: the tool's commands, each command's actions or options, each action's options.
    var levels: [Level] {
        var levels = [Level(key: "/", words: tool.commands.map(\.name) + builtIns, options: toolOptions)]
        for command in tool.commands {
            if command.subcommands.isEmpty {
                levels.append(Level(key: command.name + "/", words: [], options: command.options + [CommandSpec.helpOption]))
                continue
            }
            let fallback = command.defaultSubcommand.flatMap(command.subcommand(named:))?.options ?? []
            levels.append(Level(key: command.name + "/", words: command.subcommands.map(\.name),
                                options: fallback + [CommandSpec.helpOption]))
            for action in command.subcommands {
                levels.append(Level(key: "\(command.name)/\(action.name)", words: [], options: action.options + [CommandSpec.helpOption]))
            }
        }
        return levels
    }

    private var builtIns: [String] { tool.version == nil ? ["help"] : ["help", "version"] }

    private var toolOptions: [Option] {
        var options = [CommandSpec.helpOption]
        if tool.version != nil { options.append(.flag("version", help: "Show the version.")) }
        return options
    }

    /// The option spellings that take a value given apart, per command (over all its actions):
    /// `("tags", ["--library"])`.
    var valueOptions: [(command: String, spellings: [String])] {
        tool.commands.map { command in
            let options = command.subcommands.isEmpty ? command.options : command.subcommands.flatMap(\.options)
            var spellings: [String] = []
            for option in options where option.kind == .value {
                spellings.append(option.longForm)
                if let short = option.shortName { spellings.append("-\(short)") }
            }
            return (command.name, Array(Set(spellings)).sorted())
        }.filter { !$0.spellings.isEmpty }
    }

    /// The commands that have actions.
    var groups: [String] { tool.commands.filter { !$0.subcommands.isEmpty }.map(\.name) }

    /// Options with a fixed list of values, per level: `("live/", "--quality", ["low", …])`.
    var choiceOptions: [(key: String, spellings: [String], choices: [String])] {
        levels.flatMap { level in
            level.options.compactMap { option in
                option.choices.map { (level.key, [option.longForm] + (option.shortName.map { ["-\($0)"] } ?? []), $0) }
            }
        }
    }

    static func spellings(_ options: [Option]) -> [String] {
        options.flatMap { [$0.longForm] + ($0.shortName.map { ["-\($0)"] } ?? []) }
    }
}
