/// Parses the arguments of a command made of actions (`reel tags add exam`): finds the action
/// word, then hands the rest to an ``ArgumentParser`` for that action.
///
/// The action is the first word that is not an option nor an option's detached value, so
/// options may come before it as they may anywhere else (`reel sessions --json show last`);
/// whether an option takes a value is read from the actions that declare it. `-h`/`--help`
/// before the action shows the command's help (its actions); after it, the action's.
struct SubcommandParser {
    /// The command whose ``CommandSpec/subcommands`` are the actions.
    let group: CommandSpec
    /// How the command is invoked (`reel tags`); actions are invoked as `path ACTION`.
    let path: String

    /// Parses the words after the command's name.
    func parse(_ arguments: [String]) throws(ArgumentParser.Error) -> Invocation {
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let word = arguments[index]
            if word == "--" { break }
            if word == "--help" || word == "-h" { return .help(group.help(path: path)) }
            if ArgumentParser.looksLikeOption(word) {
                index += takesDetachedValue(word) ? 2 : 1
                continue
            }
            guard let action = group.subcommand(named: word) else {
                throw .unknownSubcommand(command: path, name: word, choices: group.subcommands.map(\.name),
                                         suggestion: SpellingSuggestion.nearest(to: word, in: group.subcommands.map(\.name)))
            }
            var rest = arguments
            rest.remove(at: index)
            return try parser(for: action).parse(rest)
        }
        guard let fallback = group.defaultSubcommand.flatMap(group.subcommand(named:)) else {
            throw .missingSubcommand(command: path, choices: group.subcommands.map(\.name))
        }
        return try parser(for: fallback).parse(arguments)
    }

    private func parser(for action: CommandSpec) -> ArgumentParser {
        ArgumentParser(command: action, path: "\(path) \(action.name)", group: (group, path))
    }

    /// Whether `word` is an option of some action that takes a value given apart (`--tag exam`,
    /// not `--tag=exam`), so the next word is that value and not the action.
    private func takesDetachedValue(_ word: String) -> Bool {
        let options = group.subcommands.flatMap(\.options)
        if word.hasPrefix("--") {
            guard !word.contains("=") else { return false }
            return options.first { $0.longForm == word }?.kind == .value
        }
        return word.count == 2 && options.first { $0.shortName == word.last }?.kind == .value
    }
}
