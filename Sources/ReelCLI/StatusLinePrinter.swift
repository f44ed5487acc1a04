import Foundation
import ReelCore
import ReelRuntime

/// How a long-running command talks to a person: lines on stdout or stderr, and one status
/// line that a terminal rewrites in place (`\r` + erase) while a file or pipe gets a plain
/// line every `period` seconds instead. Shared by `reel live` and `reel record`.
final class StatusLinePrinter: Sendable {
    /// Whether standard error is a terminal that can rewrite a line (the status line is
    /// rewritten in place); a file, a pipe or `TERM=dumb` gets plain lines.
    let isTerminal = isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    private let period: Double
    /// When a plain status line was last printed, and whether a terminal shows one now.
    private let state = Locked<(lastPrinted: Double?, statusShown: Bool)>((nil, false))

    /// A printer writing a plain status line every `period` seconds when not on a terminal.
    init(period: Double) { self.period = period }

    /// Shows `line` as the status at `elapsed` seconds (on a terminal always, else every period).
    func status(_ line: String, elapsed: Double) {
        state.withLock { state in
            if isTerminal {
                FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
                state.statusShown = true
            } else if elapsed - (state.lastPrinted ?? -1) >= period {
                state.lastPrinted = elapsed
                FileHandle.standardError.write(Data((line + "\n").utf8))
            }
        }
    }

    /// Prints a line (clearing the status line first on a terminal).
    func emit(_ line: String, toError: Bool, newline: Bool = true) {
        state.withLock { state in
            if state.statusShown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            let data = Data((line + (newline ? "\n" : "")).utf8)
            (toError ? FileHandle.standardError : FileHandle.standardOutput).write(data)
        }
    }

    /// Ends the status line (a newline on a terminal), before a summary.
    func endStatus() {
        state.withLock { state in
            if state.statusShown { FileHandle.standardError.write(Data("\n".utf8)); state.statusShown = false }
        }
    }

    /// "HH:MM:SS".
    static func clock(_ seconds: Double) -> String {
        let s = Int(max(0, seconds))
        return String(format: "%02d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
    }
}

/// Prints `text` to standard output with every line made safe for a terminal: for messages
/// that quote library data (titles, tags, paths), whose control characters must be shown,
/// never obeyed.
func printSafe(_ text: String, terminator: String = "\n") {
    print(text.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.safe(String($0)) }.joined(separator: "\n"),
          terminator: terminator)
}
