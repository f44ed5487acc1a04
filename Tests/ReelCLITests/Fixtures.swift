import ReelCLI
import Testing

/// A choice type, as a command would declare one.
enum Quality: String, CaseIterable, ArgumentValue {
    case low, medium, high
}

/// A command shaped like `reel live`, with one option of every kind.
enum Live {
    static let source = Option.value("source", short: "s", placeholder: "SOURCE", default: "test",
                                     choices: ["test", "file", "v4l2"], help: "Where frames come from.")
    static let origin = Option.value("origin", placeholder: "URL", required: true,
                                     help: "Base URL that init, segments and playlist are PUT to.")
    static let quality = Option.value("quality", short: "q", as: Quality.self, default: "medium",
                                      help: "Stream size and bitrate.")
    static let duration = Option.value("duration", short: "d", as: Duration.self,
                                       help: "Stop after this long; without it, run until interrupted.")
    static let offset = Option.value("offset", as: Double.self, default: "0",
                                     help: "Audio offset in seconds; negative moves audio earlier.")
    static let segments = Option.value("segments", as: Int.self, help: "Stop after this many segments.")
    static let header = Option.value("header", short: "H", placeholder: "NAME:VALUE", repeatable: true,
                                     help: "Extra HTTP header sent with every PUT.")
    static let verbose = Option.flag("verbose", short: "v", repeatable: true,
                                     help: "Print each published segment; twice for every request.")
    static let dryRun = Option.flag("dry-run", help: "Check the arguments and exit.")

    static let spec = CommandSpec(
        name: "live",
        summary: "Record live HLS from a source and publish it to an origin.",
        discussion: "Segments are about 2 s long and start on a key frame. The playlist lists only segments whose upload succeeded.",
        options: [source, origin, quality, duration, offset, segments, header, verbose, dryRun],
        examples: ["reel live --source test --origin http://127.0.0.1:8080/ --duration 30"]
    )
}

/// A command with positionals.
enum Export {
    static let input = Positional("INPUT", help: "The recording to export.")
    static let outputs = Positional("OUTPUT", arity: .zeroOrMore, help: "Where to write; next to INPUT when absent.")
    static let force = Option.flag("force", short: "f", help: "Overwrite existing files.")

    static let spec = CommandSpec(
        name: "export", summary: "Composite a recording into a shareable video.",
        options: [force], positionals: [input, outputs]
    )
}

let tool = ToolSpec(name: "reel", summary: "A camera pipeline for Linux.", commands: [Live.spec, Export.spec])

/// Parses `reel <arguments>` and returns the parsed arguments; a help result fails the test.
func parse(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> ParsedArguments {
    switch try tool.parse(arguments) {
    case .run(let parsed):
        return parsed
    case .help(let text):
        Issue.record("expected arguments, got help:\n\(text)", sourceLocation: sourceLocation)
        throw HelpInstead()
    }
}

/// Parses `reel live --origin http://o/ <arguments>`.
func parseLive(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> ParsedArguments {
    try parse(["live", "--origin", "http://o/"] + arguments, sourceLocation: sourceLocation)
}

/// The error `reel <arguments>` throws, or nil (recorded as a failure) when it parses.
func parseError(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) -> ArgumentParser.Error? {
    do {
        _ = try tool.parse(arguments)
        Issue.record("expected an error for \(arguments)", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// The help text `reel <arguments>` asks for, or nil (recorded as a failure).
func helpText(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String? {
    guard case .help(let text) = try tool.parse(arguments) else {
        Issue.record("expected help for \(arguments)", sourceLocation: sourceLocation)
        return nil
    }
    return text
}

struct HelpInstead: Error {}
