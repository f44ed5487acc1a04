import Foundation
import ReelCore

/// The one way the command line tells the user what went wrong, on standard error: every
/// failure, usage error and warning is `reel CMD: sentence`, a usage error adds the line that
/// says where its usage is, and every line is made safe for a terminal (an error may quote a
/// title or a path with control characters in it).
public enum ErrorPrinter {
    /// A command line that cannot be run as typed: the error's sentence and its hint.
    /// Returns ``ReelCommandLine/usageExitCode`` (64) for the caller to exit with.
    @discardableResult
    public static func usage(_ error: ArgumentParser.Error) -> Int32 {
        write("\(error)\n\(error.usageHint)")
        return ReelCommandLine.usageExitCode
    }

    /// A failure of `command` (`reel tags`): `reel tags: no tag 'exma'`. Reel's own errors are
    /// their description; Foundation's and the system's become a few words, never a dump.
    public static func failure(_ command: String, _ error: any Error) {
        failure(command, ErrorSentence.describe(error))
    }

    /// A failure of `command` told in a sentence: `reel pomodoro: no pomodoro running`.
    public static func failure(_ command: String, _ sentence: String) {
        write("\(command): \(sentence)")
    }

    /// Something the user should know that did not stop the command:
    /// `reel backup: warning: … is missing; backed up without it`.
    public static func warning(_ command: String, _ sentence: String) {
        write("\(command): warning: \(sentence)")
    }

    /// A note about the command's progress that belongs beside its errors, not in its output
    /// (`reel serve: stopped`).
    public static func note(_ command: String, _ sentence: String) {
        write("\(command): \(sentence)")
    }

    private static func write(_ message: String) {
        let safe = message.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.safe(String($0)) }
        FileHandle.standardError.write(Data((safe.joined(separator: "\n") + "\n").utf8))
    }
}
