import Foundation
import ReelCore

extension HLSPublisher {
    /// One target's live counters.
    public struct TargetStatus: Sendable, Hashable, CustomStringConvertible {
        /// The target's name (``PublishTarget/name``).
        public var name: String
        /// Published, pending, in flight, failed attempts, committed.
        public var stats: PublishQueue.Stats
        /// Running, finishing, finished or failed.
        public var state: PublishQueue.State

        /// A status line, e.g. `origin http://…/: 12 published, backlog 3, 4 failed attempts, backing off`.
        public var description: String {
            var parts = ["\(stats.published) published", "backlog \(stats.backlog)"]
            if stats.failedAttempts > 0 { parts.append("\(stats.failedAttempts) failed attempts") }
            switch state {
            case .failed: parts.append("FAILED")
            case .finished: parts.append("done")
            case .running, .finishing: if stats.isBackingOff { parts.append("backing off") }
            }
            return "\(name): \(parts.joined(separator: ", "))"
        }
    }

    /// How publishing to one target ended.
    public enum Outcome: Sendable, Hashable {
        /// Every segment and the ENDLIST playlist are on the target.
        case published
        /// The drain timed out (or was cancelled) before the target had everything.
        case incomplete(Unpublished)
        /// A failure that retrying cannot fix stopped publishing (e.g. HTTP 401); the message
        /// says what to do.
        case failed(message: String, unpublished: Unpublished)
    }

    /// What a target is missing.
    public struct Unpublished: Sendable, Hashable {
        /// Whether `init.mp4` was uploaded.
        public var initPublished: Bool
        /// Segments not uploaded at all.
        public var notUploaded: [Int]
        /// Segments not listed in the target's playlist (uploaded or not).
        public var notListed: [Int]
        /// Whether the target's playlist carries ENDLIST.
        public var endlistPublished: Bool
        /// The last upload failure, if any.
        public var lastFailure: String?
    }

    /// The result of publishing to one target.
    public struct TargetReport: Sendable, Hashable, CustomStringConvertible {
        /// The target's name.
        public var name: String
        /// How it ended.
        public var outcome: Outcome
        /// The final counters.
        public var stats: PublishQueue.Stats

        /// Whether the target got everything.
        public var isComplete: Bool { outcome == .published }

        /// One or two sentences for the user.
        public var description: String {
            switch outcome {
            case .published:
                let failures = stats.failedAttempts > 0 ? " (\(stats.failedAttempts) failed attempts were retried)" : ""
                return "\(name): published all \(stats.received) segments and the final playlist\(failures).\(partsSentence)"
            case .incomplete(let missing):
                return "\(name): NOT complete: \(missing.summary(received: stats.received))"
            case .failed(let message, let missing):
                return "\(name): FAILED: \(message) \(missing.summary(received: stats.received))"
            }
        }

        /// LL-HLS: how many parts went out, and how many were skipped (their segments carry
        /// the same bytes, so nothing is lost); empty without parts.
        private var partsSentence: String {
            let total = stats.partsPublished + stats.partsSkipped
            guard total > 0 else { return "" }
            let skipped = stats.partsSkipped > 0
                ? ", \(stats.partsSkipped) skipped while it was not answering (their segments carry the same bytes)" : ""
            return " LL-HLS parts: \(stats.partsPublished) of \(total) published\(skipped)."
        }
    }

    /// The result of a whole publishing run.
    public struct Report: Sendable, Hashable, CustomStringConvertible {
        /// One report per target, in the order the targets were given.
        public var targets: [TargetReport]
        /// Segments handed over by the writer.
        public var segmentsReceived: Int
        /// Whether the drain stopped at its timeout.
        public var drainTimedOut: Bool
        /// The spool folder.
        public var spoolDirectory: URL
        /// Whether the spool was left on disk (always, unless every target is complete).
        public var spoolKept: Bool
        /// Other things that went wrong: spool writes, misuse by the writer.
        public var problems: [String]

        /// Whether every target got everything.
        public var isComplete: Bool { targets.allSatisfy(\.isComplete) }

        /// A multi-line summary for the user.
        public var description: String {
            var lines = targets.map(\.description)
            if drainTimedOut { lines.append("Stopped waiting for uploads after the drain timeout.") }
            if spoolKept && !isComplete {
                lines.append("Every segment is kept in the spool at \(spoolDirectory.path) (a playable HLS folder) and can be uploaded later.")
            }
            lines += problems
            return lines.joined(separator: "\n")
        }
    }
}

extension HLSPublisher.Unpublished {
    func summary(received: Int) -> String {
        var parts: [String] = []
        if !initPublished { parts.append("init.mp4 was not uploaded") }
        if !notListed.isEmpty {
            parts.append("segments not in its playlist: \(Self.ranges(notListed)) (\(notListed.count) of \(received))")
        }
        if !notUploaded.isEmpty { parts.append("not uploaded at all: \(Self.ranges(notUploaded))") }
        if !endlistPublished && parts.isEmpty { parts.append("the final playlist (ENDLIST) was not published") }
        var text = parts.isEmpty ? "nothing is missing." : parts.joined(separator: "; ") + "."
        if let lastFailure { text += " Last error: \(lastFailure)" }
        return text
    }

    /// `[1, 2, 3, 5, 7, 8]` → `1–3, 5, 7–8`.
    static func ranges(_ numbers: [Int]) -> String {
        var parts: [String] = []
        var index = 0
        while index < numbers.count {
            var end = index
            while end + 1 < numbers.count && numbers[end + 1] == numbers[end] + 1 { end += 1 }
            parts.append(end == index ? "\(numbers[index])" : "\(numbers[index])–\(numbers[end])")
            index = end + 1
        }
        return parts.joined(separator: ", ")
    }
}
