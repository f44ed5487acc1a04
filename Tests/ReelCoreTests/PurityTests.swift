import Foundation
import Testing

/// The pure modules hold rules and values only: no threads, locks, clocks or sleeps, and they
/// import nothing but Foundation and each other. The machinery that runs pipelines lives in
/// ReelRuntime; a rule that needs the time takes it as an argument. This test reads each pure
/// module's sources and fails on any of them coming back.
@Suite("Pure modules stay pure")
struct PurityTests {
    /// The pure modules (folders under Sources/), and how many source files each has at least
    /// (so a moved folder fails the test instead of passing it empty).
    static let pureModules: [(name: String, minimumFiles: Int)] = [("ReelCore", 50), ("ReelHLS", 5)]

    /// What a pure module may import besides the other pure modules.
    static let allowedImports: Set<String> = ["Foundation"]

    /// What a pure module must not use, and why each is listed.
    static let forbidden: [(token: String, what: String)] = [
        ("Thread", "threads"), ("NSCondition", "locks"), ("NSLock", "locks"), ("NSRecursiveLock", "locks"), ("Mutex", "locks"),
        ("pthread_", "threads and locks"), ("DispatchQueue", "threads"), ("DispatchSemaphore", "threads"), ("os_unfair_lock", "locks"),
        ("Task.sleep", "sleeps"), ("usleep(", "sleeps"), ("nanosleep(", "sleeps"), ("Date()", "clocks"), ("Date.now", "clocks"),
        ("clock_gettime", "clocks"), ("ContinuousClock", "clocks"), ("SuspendingClock", "clocks"), ("DispatchTime", "clocks"),
        ("ProcessInfo.processInfo.systemUptime", "clocks"),
    ]

    static let sourcesFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources").path

    /// The Swift files of module `name`, relative to its folder.
    static func files(of name: String) -> [String] {
        FileManager.default.enumerator(atPath: sourcesFolder + "/" + name)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
    }

    @Test("no thread, lock, clock or sleep in a pure module's sources (comments aside)", arguments: pureModules.map(\.name))
    func noRuntime(in module: String) throws {
        let files = Self.files(of: module)
        let minimum = Self.pureModules.first { $0.name == module }!.minimumFiles
        #expect(files.count >= minimum, "found \(module)'s sources at \(Self.sourcesFolder)/\(module)")
        var found: [String] = []
        for file in files {
            let text = try String(contentsOfFile: Self.sourcesFolder + "/" + module + "/" + file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.components(separatedBy: "//").first ?? ""
                for (token, what) in Self.forbidden where Self.contains(code, token) {
                    found.append("\(module)/\(file):\(number + 1): \(token) (\(what)) — move it to ReelRuntime or pass the value in")
                }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test("a pure module imports only Foundation and other pure modules", arguments: pureModules.map(\.name))
    func importsArePure(in module: String) throws {
        let allowed = Self.allowedImports.union(Self.pureModules.map(\.name))
        var found: [String] = []
        for file in Self.files(of: module) {
            let text = try String(contentsOfFile: Self.sourcesFolder + "/" + module + "/" + file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if let imported = Self.importedModule(String(line)), !allowed.contains(imported) {
                    found.append("\(module)/\(file):\(number + 1): imports \(imported)")
                }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test("the checks find what they look for (a word, not part of a longer name; any form of import)")
    func checkWorks() {
        #expect(Self.contains("let t = Thread { }", "Thread"))
        #expect(Self.contains("try await Task.sleep(for: .seconds(1))", "Task.sleep"))
        #expect(Self.contains("let now = Date()", "Date()"))
        #expect(!Self.contains("let threadCount = 2", "Thread"))
        #expect(!Self.contains("struct WorkerThreadSettings", "Thread"))
        #expect(Self.importedModule("import Glibc") == "Glibc")
        #expect(Self.importedModule("@preconcurrency import Dispatch") == "Dispatch")
        #expect(Self.importedModule("internal import struct ReelRuntime.StopSignal") == "ReelRuntime")
        #expect(Self.importedModule("import Foundation") == "Foundation")
        #expect(Self.importedModule("// import Glibc") == nil)
        #expect(Self.importedModule("let important = 1") == nil)
    }

    /// The module a line imports (`import X`, `@attr import X`, `internal import struct X.Y`), nil for any other line.
    static func importedModule(_ line: String) -> String? {
        let pattern = #/^\s*(?:@\w+\s+)*(?:(?:public|internal|private|fileprivate|package)\s+)?import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?(\w+)/#
        return line.firstMatch(of: pattern).map { String($0.output.1) }
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
