import ReelCLI
import ReelTestSupport
import Testing

/// A command made of actions, shaped like `reel tags`: each action has its own options.
enum Tags {
    static let name = Positional("NAME", help: "The tag.")
    static let force = Option.flag("force", help: "Remove it even when in use.")
    static let json = Option.flag("json", help: "JSON output.")
    static let library = Option.value("library", placeholder: "PATH", help: "The library.")
    static let spec = CommandSpec(
        name: "tags", summary: "Manage tags.", discussion: "Tags name sessions.",
        subcommands: [
            CommandSpec(name: "add", summary: "Add a tag.", options: [library], positionals: [name]),
            CommandSpec(name: "rm", summary: "Remove a tag.", options: [force, library], positionals: [name]),
            CommandSpec(name: "ls", summary: "List the tags.", options: [json, library]),
        ],
        defaultSubcommand: "ls", examples: ["reel tags add exam"])
    static let strict = CommandSpec(name: "goal", summary: "Goals.", subcommands: [
        CommandSpec(name: "set", summary: "Set it.", positionals: [Positional("MINUTES", help: "Minutes.")]),
        CommandSpec(name: "ls", summary: "List them.", options: [json]),
    ])
    static let tool = ToolSpec(name: "reel", summary: "A camera pipeline for Linux.", commands: [spec, strict])
}

@Suite struct SubcommandTests {
    func run(_ arguments: [String]) throws -> ParsedArguments? {
        guard case .run(let parsed) = try Tags.tool.parse(arguments) else { return nil }
        return parsed
    }

    func error(_ arguments: [String]) -> ArgumentParser.Error? {
        do { _ = try Tags.tool.parse(arguments) } catch { return error }
        return nil
    }

    @Test("the action selects its own spec; options may come before it; paths name both levels")
    func actions() throws {
        let rm = try #require(try run(["tags", "--force", "rm", "exam"]))
        #expect(rm.command.name == "rm" && rm.group?.name == "tags")
        #expect(rm.path == "reel tags rm" && rm.commandPath == "reel tags")
        #expect(rm.flag(Tags.force) && rm.positional(Tags.name) == "exam")
        let value = try #require(try run(["tags", "--library", "ls", "add", "x"]))
        #expect(value.command.name == "add" && value.string(Tags.library) == "ls", "a detached value is not the action")
        let defaulted = try #require(try run(["tags", "--json"]))
        #expect(defaulted.command.name == "ls" && defaulted.flag(Tags.json) && defaulted.path == "reel tags ls")
    }

    @Test("an option of another action is refused naming the action it belongs to")
    func otherActionsOptions() {
        let error = error(["tags", "add", "x", "--force"])
        #expect(error?.description == "reel tags add: unknown option '--force'; it belongs to 'reel tags rm'.")
        #expect(error?.usageHint == "Run 'reel tags add --help' for usage.")
        #expect(self.error(["tags", "--force"])?.description == "reel tags ls: unknown option '--force'; it belongs to 'reel tags rm'.")
        #expect(self.error(["tags", "ls", "--librari", "p"])?.description == "reel tags ls: unknown option '--librari'. Did you mean '--library'?")
        #expect(self.error(["tags", "rm", "--json"])?.description == "reel tags rm: unknown option '--json'; it belongs to 'reel tags ls'.")
        #expect(self.error(["tags", "rm", "--jsno"])?.description == "reel tags rm: unknown option '--jsno'.")
    }

    @Test("missing and unknown actions are usage errors listing the actions, with a suggestion")
    func missingAndUnknown() {
        #expect(error(["goal"])?.description == "reel goal: missing ACTION; one of: set, ls.")
        #expect(error(["goal"])?.usageHint == "Run 'reel goal --help' for usage.")
        #expect(error(["goal", "st", "5"])?.description == "reel goal: invalid value 'st' for 'ACTION': expected one of: set, ls. Did you mean 'set'?")
        #expect(error(["goal", "set"])?.description == "reel goal set: missing argument MINUTES.")
        #expect(error(["tags", "ls", "extra"])?.description == "reel tags ls: unexpected argument 'extra'; this command takes none.")
    }

    @Test("help: the command lists its actions; each action shows only its own options")
    func help() throws {
        guard case .help(let group) = try Tags.tool.parse(["tags", "--help"]) else { Issue.record("no help"); return }
        #expect(group == """
            Usage: reel tags [ACTION] [options]

            Manage tags.

            Tags name sessions.

            Actions:
              add   Add a tag.
              rm    Remove a tag.
              ls    List the tags. (the default)

            Options (every action):
                  --library PATH   The library.
              -h, --help           Show this help.

            Examples:
              reel tags add exam

            Run 'reel tags ACTION --help' for an action's options.

            """)
        guard case .help(let add) = try Tags.tool.parse(["tags", "add", "--help"]),
              case .help(let viaHelp) = try Tags.tool.parse(["help", "tags", "add"]) else { Issue.record("no help"); return }
        #expect(add == viaHelp)
        #expect(add.hasPrefix("Usage: reel tags add [options] NAME\n") && !add.contains("--force") && add.contains("--library PATH"))
        guard case .help(let strict) = try Tags.tool.parse(["help", "goal"]) else { Issue.record("no help"); return }
        #expect(strict.hasPrefix("Usage: reel goal ACTION [options]\n"))
    }
}

/// The real binary's actions, as a new user meets them.
@Suite struct BinarySubcommandTests {
    @Test("reel tags, reel tags add, reel tags nope, reel pomodoro start --json: exit 64, a sentence naming the action, a hint")
    func newUserMistakes() throws {
        let cases: [([String], String)] = [
            (["tags"], "reel tags: missing ACTION; one of: add, rm, ls, rename.\nRun 'reel tags --help' for usage.\n"),
            (["tags", "add"], "reel tags add: missing argument NAME.\nRun 'reel tags add --help' for usage.\n"),
            (["tags", "nope"], "reel tags: invalid value 'nope' for 'ACTION': expected one of: add, rm, ls, rename.\nRun 'reel tags --help' for usage.\n"),
            (["pomodoro", "start", "--json"],
             "reel pomodoro start: unknown option '--json'; it belongs to 'reel pomodoro status'.\nRun 'reel pomodoro start --help' for usage.\n"),
            (["sessions", "--title", "X"],
             "reel sessions ls: unknown option '--title'; it belongs to 'reel sessions edit'.\nRun 'reel sessions ls --help' for usage.\n"),
            (["materials", "rm", "X", "--title", "Y"],
             "reel materials rm: unknown option '--title'; it belongs to 'reel materials add'.\nRun 'reel materials rm --help' for usage.\n"),
        ]
        for (arguments, expected) in cases {
            let result = try ReelBinary.run(arguments)
            #expect(result.status == 64 && result.stdout.isEmpty, "\(arguments): \(result.status) \(result.stderr)")
            #expect(result.stderr == expected, "\(arguments)")
        }
    }

    @Test("every command's actions have help that lists only their options")
    func actionHelp() throws {
        let group = try ReelBinary.run(["pomodoro", "--help"])
        #expect(group.status == 0 && group.stdout.contains("Actions:\n  start "))
        #expect(group.stdout.contains("\nOptions:\n  -h, --help   Show this help.\n\n"), "the command itself takes no option but --help")
        let start = try ReelBinary.run(["pomodoro", "start", "--help"])
        #expect(start.status == 0 && start.stdout.contains("--minutes NUMBER") && !start.stdout.contains("--json"), "\(start.stdout)")
        let status = try ReelBinary.run(["help", "pomodoro", "status"])
        #expect(status.status == 0 && status.stdout.contains("--waybar") && !status.stdout.contains("--minutes"))
    }
}
