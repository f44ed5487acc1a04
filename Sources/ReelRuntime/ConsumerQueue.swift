import Foundation

/// One consumer's bounded FIFO in a ``FanOut``: one producer pushes, one consumer pops, and
/// a stated ``Policy`` says what happens when the queue is full.
///
/// | policy        | when full                                                   | loses items |
/// |---------------|-------------------------------------------------------------|-------------|
/// | `.neverDrop`  | the producer waits for room (backpressure, counted and timed) | never       |
/// | `.dropOldest` | the oldest *droppable* queued item is discarded; if none is queued, a droppable new item is discarded and a non-droppable one is queued past the bound | droppable ones |
/// | `.dropNewest` | the new item is discarded, droppable or not                   | yes         |
///
/// Order is preserved in every policy. ``close()`` ends the input: the consumer drains what
/// is queued, then ``pop()`` returns `nil`. ``cancel()`` is the consumer's way out (it failed
/// or stopped): queued items are discarded, a waiting producer is released, and later
/// pushes are rejected, so a dead consumer can never stall the producer.
///
/// Trade-off: a full `.neverDrop` queue blocks the producer, and with it every other
/// consumer fed by that producer; that is the price of never losing an item. The other
/// policies never block the producer.
///
/// Thread safety: all mutable state is guarded by one `NSCondition`; every access below
/// happens with it locked, which is why the class can be `@unchecked Sendable`.
public final class ConsumerQueue<Element: Sendable>: @unchecked Sendable {
    /// What a full queue does with a new item.
    public enum Policy: String, Hashable, Sendable {
        /// The producer waits until there is room; nothing is ever lost (an archive).
        case neverDrop
        /// The oldest droppable item makes room; non-droppable items are kept even past the
        /// bound (a live stream: drop video frames, keep audio).
        case dropOldest
        /// The new item is discarded, droppable or not (an analyser that samples what it can).
        case dropNewest
    }

    /// What happened to a pushed item.
    public enum PushOutcome: Hashable, Sendable {
        /// Queued; there was room.
        case enqueued
        /// Queued after the producer waited for room (`.neverDrop` backpressure).
        case enqueuedAfterWaiting
        /// Queued; the oldest droppable item was discarded to make room.
        case enqueuedDroppingOldest
        /// Queued past the bound: it is not droppable and nothing droppable was queued.
        case enqueuedOverCapacity
        /// Discarded: the queue was full (`.dropNewest`, or `.dropOldest` with nothing
        /// droppable queued).
        case discarded
        /// Not queued: the queue was closed or cancelled.
        case rejected

        /// Whether the item was queued.
        public var isEnqueued: Bool {
            switch self {
            case .enqueued, .enqueuedAfterWaiting, .enqueuedDroppingOldest, .enqueuedOverCapacity: return true
            case .discarded, .rejected: return false
            }
        }
    }

    /// A non-blocking pop's answer.
    public enum PopResult {
        /// The next item.
        case element(Element)
        /// Nothing queued now; more may come.
        case empty
        /// Nothing queued and nothing more will come (closed or cancelled).
        case endOfStream
    }

    /// Counters, as a consistent snapshot.
    ///
    /// `pushed == popped + dropped + flushed + depth` always holds; rejected pushes are not
    /// counted in `pushed`.
    public struct Stats: Hashable, Sendable {
        /// Items offered while the queue was open.
        public var pushed = 0
        /// Items handed to the consumer.
        public var popped = 0
        /// Items discarded by the policy (oldest evicted or new discarded).
        public var dropped = 0
        /// Items discarded by ``ConsumerQueue/cancel()`` (queued, or pushed while waiting).
        public var flushed = 0
        /// Pushes refused because the queue was closed or cancelled.
        public var rejected = 0
        /// Pushes queued past the bound (non-droppable items in a `.dropOldest` queue).
        public var overCapacity = 0
        /// Items queued now.
        public var depth = 0
        /// The most items ever queued at once.
        public var maxDepth = 0
        /// Pushes that had to wait for room (`.neverDrop` backpressure events).
        public var producerWaits = 0
        /// Total time the producer spent waiting for room.
        public var producerWaitTime: Duration = .zero
        /// Whether the producer is waiting for room right now.
        public var isProducerWaiting = false

        /// Zeroed counters.
        public init() {}
    }

    /// A name for reports and thread names.
    public let name: String
    /// How many items the queue holds before its policy applies (at least 1).
    public let capacity: Int
    /// What a full queue does.
    public let policy: Policy

    private let isDroppable: @Sendable (Element) -> Bool
    private let condition = NSCondition()
    // Guarded by `condition`:
    private var slots: [Element?] = []
    private var head = 0
    private var isClosedLocked = false
    private var isCancelledLocked = false
    private var counters = Stats()

    /// A queue of `capacity` items with `policy`; `isDroppable` tells `.dropOldest` which
    /// items it may discard (the other policies ignore it). It is called with the queue's
    /// lock held, so it must be cheap and must not touch the queue.
    ///
    /// - Precondition: `capacity >= 1`.
    public init(name: String, capacity: Int, policy: Policy, isDroppable: @escaping @Sendable (Element) -> Bool) {
        precondition(capacity >= 1, "ConsumerQueue '\(name)' capacity must be at least 1, got \(capacity)")
        self.name = name
        self.capacity = capacity
        self.policy = policy
        self.isDroppable = isDroppable
    }

    /// A snapshot of the counters.
    public var stats: Stats {
        condition.lock()
        defer { condition.unlock() }
        return counters
    }

    /// Whether ``close()`` was called.
    public var isClosed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return isClosedLocked
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return isCancelledLocked
    }

    /// Offers `element` to the consumer, applying the policy when the queue is full.
    ///
    /// Returns immediately except for a full `.neverDrop` queue, where it waits until the
    /// consumer makes room or cancels. A `.neverDrop` push that started before ``close()``
    /// still waits for room and is delivered.
    @discardableResult
    public func push(_ element: Element) -> PushOutcome {
        condition.lock()
        defer { condition.unlock() }
        guard !isClosedLocked, !isCancelledLocked else {
            counters.rejected += 1
            return .rejected
        }
        counters.pushed += 1
        guard depth >= capacity else {
            append(element)
            return .enqueued
        }
        switch policy {
        case .neverDrop:
            counters.producerWaits += 1
            let clock = ContinuousClock()
            let started = clock.now
            counters.isProducerWaiting = true
            while depth >= capacity, !isCancelledLocked {
                condition.wait()
            }
            counters.isProducerWaiting = false
            counters.producerWaitTime += clock.now - started
            guard !isCancelledLocked else {
                counters.flushed += 1
                return .rejected
            }
            append(element)
            return .enqueuedAfterWaiting
        case .dropOldest:
            if let index = slots[head...].firstIndex(where: { isDroppable($0!) }) {
                slots.remove(at: index)
                counters.dropped += 1
                append(element)
                return .enqueuedDroppingOldest
            }
            if isDroppable(element) {
                counters.dropped += 1
                return .discarded
            }
            counters.overCapacity += 1
            append(element)
            return .enqueuedOverCapacity
        case .dropNewest:
            counters.dropped += 1
            return .discarded
        }
    }

    /// The next item, waiting while the queue is empty and open; `nil` at end of stream
    /// (closed and drained, or cancelled).
    public func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while depth == 0, !isClosedLocked, !isCancelledLocked {
            condition.wait()
        }
        return takeFirst()
    }

    /// The next item, waiting while the queue is empty and open, but not past `deadline`:
    /// `.empty` when the deadline came first (a consumer that also has periodic work).
    public func pop(waitingUntil deadline: Date) -> PopResult {
        condition.lock()
        defer { condition.unlock() }
        while depth == 0, !isClosedLocked, !isCancelledLocked {
            if !condition.wait(until: deadline) { break }
        }
        if let element = takeFirst() { return .element(element) }
        return isClosedLocked || isCancelledLocked ? .endOfStream : .empty
    }

    /// The next item without waiting.
    public func tryPop() -> PopResult {
        condition.lock()
        defer { condition.unlock() }
        if let element = takeFirst() { return .element(element) }
        return isClosedLocked || isCancelledLocked ? .endOfStream : .empty
    }

    /// Ends the input: later pushes are rejected; the consumer drains what is queued, then
    /// ``pop()`` returns `nil`. Idempotent.
    public func close() {
        condition.lock()
        defer { condition.unlock() }
        isClosedLocked = true
        condition.broadcast()
    }

    /// The consumer gives up: queued items are discarded (counted as `flushed`), a waiting
    /// producer is released, later pushes are rejected and ``pop()`` returns `nil`.
    /// Idempotent.
    public func cancel() {
        condition.lock()
        defer { condition.unlock() }
        isCancelledLocked = true
        counters.flushed += depth
        slots.removeAll()
        head = 0
        counters.depth = 0
        condition.broadcast()
    }

    // MARK: - Storage (call with `condition` locked)

    private var depth: Int { slots.count - head }

    private func append(_ element: Element) {
        slots.append(element)
        counters.depth = depth
        counters.maxDepth = max(counters.maxDepth, counters.depth)
        condition.broadcast()
    }

    private func takeFirst() -> Element? {
        guard !isCancelledLocked, depth > 0 else { return nil }
        let element = slots[head].take()
        head += 1
        if head == slots.count {
            slots.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32, head * 2 >= slots.count {
            slots.removeFirst(head)
            head = 0
        }
        counters.popped += 1
        counters.depth = depth
        condition.broadcast()
        return element
    }
}

extension ConsumerQueue where Element: DroppableElement {
    /// A queue whose `.dropOldest` policy asks each item's ``DroppableElement/isDroppable``.
    ///
    /// - Precondition: `capacity >= 1`.
    public convenience init(name: String, capacity: Int, policy: Policy) {
        self.init(name: name, capacity: capacity, policy: policy, isDroppable: { $0.isDroppable })
    }
}

extension ConsumerQueue.PopResult: Equatable where Element: Equatable {}
extension ConsumerQueue.PopResult: Sendable {}
