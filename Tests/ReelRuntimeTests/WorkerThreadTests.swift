import Foundation
import ReelRuntime
import Testing

@Suite("Worker threads")
struct WorkerThreadTests {
    /// The calling thread's nice value, from /proc/thread-self/stat (field 19).
    static func niceOfThisThread() throws -> Int {
        let stat = try String(contentsOfFile: "/proc/thread-self/stat", encoding: .utf8)
        // The command name (field 2) is in parentheses and may hold spaces: count after it.
        let fields = stat[stat.index(after: try #require(stat.lastIndex(of: ")")))...].split(separator: " ")
        return try #require(Int(fields[16]))
    }

    @Test("a lowered priority is the calling thread's alone, and the threads it starts inherit it")
    func lowerPriority() async throws {
        let before = try Self.niceOfThisThread()
        let seen = Locked<[Int]>([])
        let worker = WorkerThread.run(name: "nice-test") {
            #expect(WorkerThread.lowerCurrentPriority(nice: 10))
            seen.withLock { $0.append((try? Self.niceOfThisThread()) ?? -100) }
            let child = WorkerThread.run(name: "nice-test-child") { seen.withLock { $0.append((try? Self.niceOfThisThread()) ?? -100) } }
            child.join()
        }
        await worker.wait()
        #expect(seen.withLock { $0 } == [10, 10])
        #expect(try Self.niceOfThisThread() == before, "the caller's thread is untouched")
    }
}
