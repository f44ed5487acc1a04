import Foundation
import ReelCore

/// The `reel` command line: declares the subcommands, parses, dispatches, reports.
///
/// Exit codes: 0 success (and help), 64 a command line that cannot be run as typed (the
/// error and a hint go to standard error), 1 a command that failed.
public enum ReelCommandLine {
    /// A subcommand: its declaration, and what runs it with the parsed arguments.
    public struct Subcommand: Sendable {
        /// Options, positionals and help text of the command.
        public let spec: CommandSpec
        /// Runs the command; returns its exit code, or throws an error to report.
        public let run: @Sendable (ParsedArguments) async throws -> Int32

        /// A subcommand declared by `spec` and carried out by `run`.
        public init(spec: CommandSpec, run: @escaping @Sendable (ParsedArguments) async throws -> Int32) {
            self.spec = spec
            self.run = run
        }
    }

    /// Every subcommand, in help order. Add a command here with its spec and its run function.
    public static let subcommands: [Subcommand] = [
        Subcommand(spec: LiveCommand.spec, run: LiveCommand.run),
        Subcommand(spec: PublishCommand.spec, run: PublishCommand.run),
        Subcommand(spec: RecordCommand.spec, run: RecordCommand.run),
        Subcommand(spec: SessionsCommand.spec, run: SessionsCommand.run),
        Subcommand(spec: TagsCommand.spec, run: TagsCommand.run),
        Subcommand(spec: TagCommand.spec, run: TagCommand.run),
        Subcommand(spec: GoalCommand.spec, run: GoalCommand.run),
        Subcommand(spec: StatsCommand.spec, run: StatsCommand.run),
        Subcommand(spec: MaterialsCommand.spec, run: MaterialsCommand.run),
        Subcommand(spec: OverlayCommand.spec, run: OverlayCommand.run),
        Subcommand(spec: CinematicCommand.spec, run: CinematicCommand.run),
        Subcommand(spec: RefocusCommand.spec, run: RefocusCommand.run),
        Subcommand(spec: PomodoroCommand.spec, run: PomodoroCommand.run),
        Subcommand(spec: BackupCommand.spec, run: BackupCommand.run),
        Subcommand(spec: RestoreCommand.spec, run: RestoreCommand.run),
        Subcommand(spec: RecoverCommand.spec, run: RecoverCommand.run),
        Subcommand(spec: ExportCommand.spec, run: ExportCommand.run),
        Subcommand(spec: ReviewCommand.spec, run: ReviewCommand.run),
        Subcommand(spec: VlogCommand.spec, run: VlogCommand.run),
        Subcommand(spec: ServeCommand.spec, run: ServeCommand.run),
        Subcommand(spec: StudioCommand.spec, run: StudioCommand.run),
        Subcommand(spec: SourcesCommand.spec, run: SourcesCommand.run),
        Subcommand(spec: CompletionCommand.spec, run: CompletionCommand.run),
    ]

    /// The tool's declaration, built from ``subcommands``.
    public static let tool = ToolSpec(
        name: "reel",
        summary: "A camera pipeline for Linux: a study recorder (active-time timelapses, privacy export), live HLS without a media server, an overlay camera (colour-managed photos with artwork) and a cinematic focus camera.",
        commands: subcommands.map(\.spec),
        version: { ReelVersion.text }
    )

    /// Usage errors: `EX_USAGE` from sysexits.h.
    public static let usageExitCode: Int32 = 64

    /// Parses `arguments` (without the program name), runs the command and returns the exit code.
    public static func run(_ arguments: [String]) async -> Int32 {
        let invocation: Invocation
        do {
            invocation = try tool.parse(arguments)
        } catch {
            return ErrorPrinter.usage(error)
        }
        switch invocation {
        case .help(let text):
            print(text, terminator: "")
            return 0
        case .run(let parsed):
            let name = (parsed.group ?? parsed.command).name
            guard let subcommand = subcommands.first(where: { $0.spec.name == name }) else {
                preconditionFailure("\(parsed.path) is declared but has no run function")
            }
            do {
                return try await subcommand.run(parsed)
            } catch let error as ArgumentParser.Error {
                return ErrorPrinter.usage(error)
            } catch {
                ErrorPrinter.failure(parsed.commandPath, error)
                return 1
            }
        }
    }

    /// Runs the process's command line and exits with the command's code.
    public static func main() async -> Never {
        exit(await run(Array(CommandLine.arguments.dropFirst())))
    }
}
