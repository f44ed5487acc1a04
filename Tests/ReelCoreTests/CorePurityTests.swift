import Foundation
import Testing

/// ReelCore holds rules and values only: no threads, locks, clocks or sleeps. The
/// machinery that runs pipelines lives in ReelRuntime; a rule that needs the time takes it as
/// an argument. This test reads ReelCore's sources and fails on any of them coming back.
@Suite("ReelCore purity")
struct CorePurityTests {
    /// What ReelCore must not use, and why each is listed.
    static let forbidden: [(token: String, what: String)] = [
        ("Thread", "threads"), ("NSCondition", "locks"), ("NSLock", "locks"), ("NSRecursiveLock", "locks"), ("Mutex", "locks"),
        ("pthread_", "threads and locks"), ("DispatchQueue", "threads"), ("DispatchSemaphore", "threads"), ("os_unfair_lock", "locks"),
        ("Task.sleep", "sleeps"), ("usleep(", "sleeps"), ("nanosleep(", "sleeps"), ("Date()", "clocks"), ("Date.now", "clocks"),
        ("clock_gettime", "clocks"), ("ContinuousClock", "clocks"), ("SuspendingClock", "clocks"), ("DispatchTime", "clocks"),
        ("ProcessInfo.processInfo.systemUptime", "clocks"),
    ]

    static var coreSources: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/ReelCore").path
    }

    @Test("no thread, lock, clock or sleep in ReelCore's sources (comments aside)")
    func noRuntimeInCore() throws {
        let files = try #require(FileManager.default.enumerator(atPath: Self.coreSources)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") })
        #expect(files.count > 50, "found ReelCore's sources at \(Self.coreSources)")
        var found: [String] = []
        for file in files {
            let text = try String(contentsOfFile: Self.coreSources + "/" + file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.components(separatedBy: "//").first ?? ""
                for (token, what) in Self.forbidden where Self.contains(code, token) {
                    found.append("\(file):\(number + 1): \(token) (\(what)) — move it to ReelRuntime or pass the value in")
                }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test("the check finds what it looks for (a word, not part of a longer name)")
    func checkWorks() {
        #expect(Self.contains("let t = Thread { }", "Thread"))
        #expect(Self.contains("try await Task.sleep(for: .seconds(1))", "Task.sleep"))
        #expect(Self.contains("let now = Date()", "Date()"))
        #expect(!Self.contains("let threadCount = 2", "Thread"))
        #expect(!Self.contains("struct WorkerThreadSettings", "Thread"))
    }

    /// Whether `token` occurs in `code` on its own: not preceded or followed by a letter or digit
    /// when it starts or ends with one.
    static func contains(_ code: String, _ token: String) -> Bool {
        var search = code.startIndex..<code.endIndex
        while let range = code.range(of: token, range: search) {
            let before = range.lowerBound > code.startIndex ? code[code.index(before: range.lowerBound)] : " "
            let after = range.upperBound < code.endIndex ? code[range.upperBound] : " "
            let startsWord = token.first!.isLetter, endsWord = token.last!.isLetter || token.last!.isNumber
            if !(startsWord && (before.isLetter || before.isNumber)) && !(endsWord && (after.isLetter || after.isNumber)) { return true }
            search = range.upperBound..<code.endIndex
        }
        return false
    }
}
