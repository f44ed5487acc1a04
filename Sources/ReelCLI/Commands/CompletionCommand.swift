import ReelCore

/// `reel completion bash|zsh|fish`: prints the shell's completion script, generated from the
/// same specs the parser uses (``CompletionScript``).
enum CompletionCommand {
    static let shell = Positional("SHELL", help: "bash, zsh or fish.")

    static let spec = CommandSpec(
        name: "completion",
        summary: "Print the shell completion script for bash, zsh or fish.",
        discussion: """
            'make install' puts the scripts where Debian's shells look (share/bash-completion/completions/reel, \
            share/zsh/vendor-completions/_reel, share/fish/vendor_completions.d/reel.fish). To try one \
            without installing: source <(reel completion bash).
            """,
        positionals: [shell],
        examples: ["source <(reel completion bash)", "reel completion fish > ~/.config/fish/completions/reel.fish"])

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let text = try LibraryCommandText.required(arguments, shell)
        guard let chosen = CompletionScript.Shell(argument: text) else {
            throw ArgumentParser.Error.invalidValue(command: arguments.path, option: shell.name, value: text,
                                                    expected: CompletionScript.Shell.expectation,
                                                    suggestion: SpellingSuggestion.nearest(to: text, in: CompletionScript.Shell.allCases.map(\.rawValue)))
        }
        print(CompletionScript(tool: ReelCommandLine.tool).script(for: chosen), terminator: "")
        return 0
    }
}
