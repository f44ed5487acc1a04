import ReelRuntime
import Foundation
import ReelRecord
import Synchronization

/// The recorder's controls from standard input: single keys on a terminal (space pauses and
/// resumes, q finishes), lines otherwise (`pause`, `resume`, `toggle`, `stop`). The end of
/// the input changes nothing (a recorder started with `< /dev/null` keeps recording).
///
/// `@unchecked Sendable`: the reading threads touch only the recorder and the reporter (both
/// thread-safe); the saved terminal settings are behind a lock.
final class RecordControls: @unchecked Sendable {
    private let recorder: StudyRecorder
    private let reporter: RecordTerminalReporter
    private let isTerminal = isatty(STDIN_FILENO) == 1
    private let saved = Locked<termios?>(nil)

    init(recorder: StudyRecorder, reporter: RecordTerminalReporter) {
        self.recorder = recorder
        self.reporter = reporter
    }

    /// Starts reading standard input on its own thread (never joined: it may block in a read
    /// until the process exits).
    func start() {
        if isTerminal {
            var settings = termios()
            if tcgetattr(STDIN_FILENO, &settings) == 0 {
                saved.withLock { $0 = settings }
                settings.c_lflag &= ~tcflag_t(ICANON | ECHO)
                withUnsafeMutableBytes(of: &settings.c_cc) { cc in
                    cc[Int(VMIN)] = 1
                    cc[Int(VTIME)] = 0
                }
                tcsetattr(STDIN_FILENO, TCSANOW, &settings)
            }
            reporter.info("keys: space pauses and resumes, q finishes")
            let thread = Thread { [recorder] in
                var byte: UInt8 = 0
                while read(STDIN_FILENO, &byte, 1) == 1 {
                    switch byte {
                    case UInt8(ascii: " "): recorder.control(.toggle)
                    case UInt8(ascii: "p"): recorder.control(.pause)
                    case UInt8(ascii: "r"): recorder.control(.resume)
                    case UInt8(ascii: "q"), UInt8(ascii: "Q"): recorder.control(.stop)
                    default: break
                    }
                }
            }
            thread.name = "reel.keys"
            thread.start()
        } else {
            let thread = Thread { [recorder, reporter] in
                while let line = readLine() {
                    let word = line.trimmingCharacters(in: .whitespaces).lowercased()
                    switch word {
                    case "": continue
                    case "pause": recorder.control(.pause)
                    case "resume": recorder.control(.resume)
                    case "toggle": recorder.control(.toggle)
                    case "stop", "finish", "quit", "q": recorder.control(.stop)
                    default: reporter.warning("unknown command '\(word)' on standard input: use pause, resume, toggle or stop")
                    }
                }
            }
            thread.name = "reel.stdin"
            thread.start()
        }
    }

    /// Puts the terminal back as it was (echo, line editing).
    func restoreTerminal() {
        guard var settings = saved.withLock({ value in defer { value = nil }; return value }) else { return }
        tcsetattr(STDIN_FILENO, TCSANOW, &settings)
    }
}
