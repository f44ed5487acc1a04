import Foundation

/// GStreamer-tee-like fan-out: one producer feeds several consumers, each through its own
/// bounded ``ConsumerQueue`` (with its own policy) and its own thread.
///
/// ```swift
/// enum Branch { case hls, archive }
/// let fanOut = FanOut<Sample, Branch>(branches: [
///     .init(id: .hls, queue: ConsumerQueue(name: "hls", capacity: 8, policy: .dropOldest)) { try hls.write($0) },
///     .init(id: .archive, queue: ConsumerQueue(name: "archive", capacity: 32, policy: .neverDrop)) { try archive.write($0) },
/// ])
/// fanOut.start()
/// for sample in capture { fanOut.push(sample) }   // one producer thread
/// let reports = fanOut.finish()                     // close, drain, join
/// reports[.archive]?.stats.producerWaitTime
/// ```
///
/// Branches are told apart by a typed id (`BranchID`, usually a small enum), never by their
/// queue's name or their position.
///
/// A slow consumer never stalls another: `.dropOldest` and `.dropNewest` queues never block
/// the producer, and ``push(_:)`` feeds them before any `.neverDrop` queue, so they receive
/// each item even while a full `.neverDrop` queue holds the producer back. The one
/// documented exception is that trade-off itself: while a `.neverDrop` queue is full, the
/// producer (and so every branch's *next* item) waits for it.
///
/// A handler that throws ends its branch: the branch's queue is cancelled (so it can never
/// block the producer again), the error is kept for ``reports``, and the other branches go
/// on.
///
/// Thread safety: the branch list is immutable; the mutable bookkeeping (started flag,
/// failures, finished branches) is guarded by one `NSCondition`, which is why the class can
/// be `@unchecked Sendable`.
public final class FanOut<Element: Sendable, BranchID: Hashable & Sendable>: @unchecked Sendable {
    /// One consumer: its id, its queue and the handler its thread calls for each item, in order.
    public struct Branch: Sendable {
        /// Which branch this is.
        public let id: BranchID
        /// The branch's queue.
        public let queue: ConsumerQueue<Element>
        /// Called on the branch's thread for every popped item; throwing ends the branch.
        public let handler: @Sendable (Element) throws -> Void

        /// Branch `id`, consuming `queue` with `handler`.
        public init(id: BranchID, queue: ConsumerQueue<Element>, handler: @escaping @Sendable (Element) throws -> Void) {
            self.id = id
            self.queue = queue
            self.handler = handler
        }
    }

    /// A branch's state for reporting.
    public struct BranchReport: Sendable {
        /// Which branch.
        public var id: BranchID
        /// The queue's name.
        public var name: String
        /// The queue's policy.
        public var policy: ConsumerQueue<Element>.Policy
        /// The queue's counters.
        public var stats: ConsumerQueue<Element>.Stats
        /// The error that ended the branch, if its handler threw.
        public var failure: (any Error)?
        /// Whether the branch's thread has ended.
        public var isFinished: Bool
    }

    /// The branches, in the order given.
    public let branches: [Branch]
    private let condition = NSCondition()
    // Guarded by `condition`:
    private var started = false
    private var failures: [Int: any Error] = [:]
    private var finished: Set<Int> = []
    /// Indices in push order: non-blocking policies first, `.neverDrop` last.
    private let pushOrder: [Int]

    /// A fan-out over `branches`; nothing runs until ``start()``.
    ///
    /// - Precondition: the branches' ids are distinct.
    public init(branches: [Branch]) {
        precondition(Set(branches.map(\.id)).count == branches.count, "FanOut branch ids must be distinct")
        self.branches = branches
        let indices = Array(branches.indices)
        pushOrder = indices.filter { branches[$0].queue.policy != .neverDrop }
            + indices.filter { branches[$0].queue.policy == .neverDrop }
    }

    /// Starts one thread per branch (named `reel.<queue name>`); idempotent.
    public func start() {
        condition.lock()
        let alreadyStarted = started
        started = true
        condition.unlock()
        guard !alreadyStarted else { return }
        for index in branches.indices {
            let thread = Thread { [self] in run(index) }
            thread.name = "reel.\(branches[index].queue.name)"
            thread.start()
        }
    }

    /// Offers `element` to every branch; returns each branch's outcome, in branch order.
    ///
    /// Call from one producer thread. Waits only while a `.neverDrop` queue is full.
    @discardableResult
    public func push(_ element: Element) -> [ConsumerQueue<Element>.PushOutcome] {
        var outcomes = [ConsumerQueue<Element>.PushOutcome](repeating: .rejected, count: branches.count)
        for index in pushOrder {
            outcomes[index] = branches[index].queue.push(element)
        }
        return outcomes
    }

    /// Ends the input of every branch; each drains its queue and then its thread ends.
    public func close() {
        for branch in branches { branch.queue.close() }
    }

    /// Each branch's current state, by branch id.
    public var reports: [BranchID: BranchReport] {
        condition.lock()
        let (failures, finished) = (self.failures, self.finished)
        condition.unlock()
        var reports: [BranchID: BranchReport] = [:]
        for index in branches.indices {
            let queue = branches[index].queue
            reports[branches[index].id] = BranchReport(
                id: branches[index].id, name: queue.name, policy: queue.policy, stats: queue.stats,
                failure: failures[index], isFinished: finished.contains(index)
            )
        }
        return reports
    }

    /// Waits until every branch thread has ended (starting them first if needed, so queued
    /// items are not stranded), then returns the reports. Call after ``close()``, or it waits
    /// for the branches to fail.
    public func waitUntilFinished() -> [BranchID: BranchReport] {
        start()
        condition.lock()
        while finished.count < branches.count {
            condition.wait()
        }
        condition.unlock()
        return reports
    }

    /// ``close()`` then ``waitUntilFinished()``.
    @discardableResult
    public func finish() -> [BranchID: BranchReport] {
        close()
        return waitUntilFinished()
    }

    private func run(_ index: Int) {
        let branch = branches[index]
        while let element = branch.queue.pop() {
            do {
                try branch.handler(element)
            } catch {
                condition.lock()
                failures[index] = error
                condition.unlock()
                branch.queue.cancel()
                break
            }
        }
        condition.lock()
        finished.insert(index)
        condition.broadcast()
        condition.unlock()
    }
}
