import ReelMedia

/// `--verbose` of the commands that read or write media: FFmpeg's own warnings and errors, each
/// shown as `reel CMD: ffmpeg (png): …`. Without it none are: the command says what went wrong
/// in its own words.
enum VerboseOption {
    static let option = Option.flag("verbose", help: "Also show FFmpeg's own warnings and errors (hidden otherwise: reel says what went wrong).")

    /// Routes FFmpeg's messages as the command line asks; `command` is `reel cinematic`.
    static func apply(_ arguments: ParsedArguments, command: String) {
        guard arguments.flag(option) else {
            FFmpegLog.show(upTo: .quiet, through: nil)
            return
        }
        FFmpegLog.show(upTo: .warning) { line in ErrorPrinter.note(command, line) }
    }
}
