/// The declaration of one command: its name, what it does, its options and positionals.
///
/// A command declares its spec once; parsing (``parse(_:path:)``), typed access
/// (``ParsedArguments``) and help (``help(path:)``) all come from it. `-h` and `--help` are
/// added to every command and may not be declared.
///
/// ```swift
/// enum LiveCommand {
///     static let origin = Option.value("origin", placeholder: "URL", required: true,
///                                      help: "Base URL the stream is PUT to.")
///     static let duration = Option.value("duration", as: Duration.self,
///                                        help: "Stop after this long; runs until Ctrl-C when absent.")
///     static let spec = CommandSpec(name: "live", summary: "Record live HLS and publish it.",
///                                   options: [origin, duration])
/// }
/// ```
public struct CommandSpec: Sendable {
    /// The word that selects the command: `live` in `reel live`.
    public let name: String
    /// One line for the list of commands in the tool's help.
    public let summary: String
    /// Longer text shown under the usage line in the command's help; paragraphs are
    /// separated by blank lines.
    public let discussion: String
    /// The named options, in help order.
    public let options: [Option]
    /// The positional arguments, in order.
    public let positionals: [Positional]
    /// Complete example command lines shown at the end of help.
    public let examples: [String]
    /// The actions of a command that has them (`add`, `rm`, … of `reel tags`), in help order;
    /// empty for a command that is run itself. Each has its own options and positionals.
    public private(set) var subcommands: [CommandSpec]
    /// The action run when none is named (`ls` for `reel sessions`); nil when one must be named.
    public private(set) var defaultSubcommand: String?

    private let optionIndexByName: [String: Int]
    private let optionIndexByShortName: [Character: Int]

    /// The option every command has: `-h`, `--help`.
    public static let helpOption = Option.flag("help", short: "h", help: "Show this help.")

    /// A command; traps on declaration mistakes (duplicate names, a declared `--help`, an
    /// optional positional before a required one, a variadic positional that is not last).
    public init(
        name: String, summary: String, discussion: String = "", options: [Option] = [],
        positionals: [Positional] = [], examples: [String] = []
    ) {
        precondition(!name.isEmpty && !name.hasPrefix("-"), "Command name '\(name)' is not a word")
        var byName: [String: Int] = [:]
        var byShort: [Character: Int] = [:]
        for (index, option) in options.enumerated() {
            precondition(option.name != "help" && option.shortName != "h",
                         "\(name): --help and -h are added to every command")
            precondition(byName.updateValue(index, forKey: option.name) == nil, "\(name): --\(option.name) declared twice")
            if let short = option.shortName {
                precondition(byShort.updateValue(index, forKey: short) == nil, "\(name): -\(short) declared twice")
            }
        }
        for (index, positional) in positionals.enumerated() {
            precondition(!positional.isVariadic || index == positionals.count - 1,
                         "\(name): only the last positional may take several values")
            if index > 0 {
                precondition(!positional.isRequired || positionals[index - 1].isRequired,
                             "\(name): required positional \(positional.name) follows an optional one")
            }
        }
        self.name = name
        self.summary = summary
        self.discussion = discussion
        self.options = options
        self.positionals = positionals
        self.examples = examples
        self.subcommands = []
        self.defaultSubcommand = nil
        self.optionIndexByName = byName
        self.optionIndexByShortName = byShort
    }

    /// A command made of actions (`reel tags add|rm|ls|rename`): the word after the command
    /// names the action, and each action parses the rest with its own options, so an option
    /// is accepted only by the actions that declare it. Traps on declaration mistakes (no
    /// actions, duplicate names, an action called `help`, a default that is not an action, one
    /// option name declared as a flag by one action and with a value by another).
    ///
    /// - Parameter defaultSubcommand: the action run when none is named; nil when one must be.
    public init(
        name: String, summary: String, discussion: String = "", subcommands: [CommandSpec],
        defaultSubcommand: String? = nil, examples: [String] = []
    ) {
        precondition(!subcommands.isEmpty, "\(name): a command with actions needs at least one")
        var kinds: [String: Option.Kind] = [:]
        var names: Set<String> = []
        for child in subcommands {
            precondition(child.name != "help" && names.insert(child.name).inserted, "\(name): action '\(child.name)' declared twice or called help")
            precondition(child.subcommands.isEmpty, "\(name) \(child.name): actions do not nest further")
            for option in child.options {
                precondition(kinds.updateValue(option.kind, forKey: option.name) ?? option.kind == option.kind,
                             "\(name): --\(option.name) is a flag in one action and takes a value in another")
            }
        }
        precondition(defaultSubcommand.map(names.contains) ?? true, "\(name): the default action is not declared")
        self.init(name: name, summary: summary, discussion: discussion, examples: examples)
        self.subcommands = subcommands
        self.defaultSubcommand = defaultSubcommand
    }

    /// The action called `name`, if any.
    public func subcommand(named name: String) -> CommandSpec? {
        subcommands.first { $0.name == name }
    }

    /// The declared option with long name `name` (without dashes), if any.
    public func option(named name: String) -> Option? {
        optionIndexByName[name].map { options[$0] }
    }

    /// The declared option with one-letter name `short`, if any.
    public func option(short: Character) -> Option? {
        optionIndexByShortName[short].map { options[$0] }
    }

    /// Parses the arguments that follow the command's name.
    ///
    /// - Parameter path: how the command is invoked, used in errors and help (`reel live`);
    ///   the command's name when nil.
    /// - Returns: ``Invocation/help(_:)`` when `-h` or `--help` appears before `--`, else the
    ///   parsed arguments. For a command with actions, the action's arguments (see
    ///   ``SubcommandParser``).
    public func parse(_ arguments: [String], path: String? = nil) throws(ArgumentParser.Error) -> Invocation {
        if !subcommands.isEmpty {
            return try SubcommandParser(group: self, path: path ?? name).parse(arguments)
        }
        return try ArgumentParser(command: self, path: path ?? name).parse(arguments)
    }
}
