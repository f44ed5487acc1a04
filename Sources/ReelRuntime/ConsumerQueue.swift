import Foundation

/// One consumer's bounded FIFO in a ``FanOut``: one producer pushes, one consumer pops, and
/// a stated ``Policy`` says what happens when the queue is full.
///
/// The queue is full when it holds ``capacity`` items or, with a ``byteLimit``, when the new
/// item's ``DroppableElement/byteCost`` would take the queued bytes past it (a queue of
/// decoded 1080p frames is bounded by what it holds, not only by how many). One item is
/// always accepted into an empty queue, however large, so a byte bound can never deadlock.
///
/// | policy        | when full                                                   | loses items |
/// |---------------|-------------------------------------------------------------|-------------|
/// | `.neverDrop`  | the producer waits for room (backpressure, counted and timed) | never       |
/// | `.dropOldest` | a droppable new item takes the place of the oldest droppable queued items, as few as make room (if discarding every droppable one would not, none is, and the new item is discarded); a non-droppable new item is queued past the bound and never pushes a droppable one out | droppable ones |
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
        /// A new droppable item takes the place of the oldest droppable one; non-droppable
        /// items are kept past the bound and take no one's place (a live stream: drop video
        /// frames, keep audio, and let a stall keep the newest frames the queue was sized for,
        /// not only the audio that came during it).
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
        /// Queued; the oldest droppable item (or items, under a byte bound) was discarded to
        /// make room.
        case enqueuedDroppingOldest
        /// Queued past the bound: it is not droppable (`.dropOldest`).
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
        /// Bytes queued now (the sum of the queued items' costs).
        public var bytes = 0
        /// The most bytes ever queued at once.
        public var maxBytes = 0
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
    /// How many bytes (by each item's cost) the queue holds before its policy applies; nil:
    /// only ``capacity`` bounds it.
    public let byteLimit: Int?
    /// What a full queue does.
    public let policy: Policy

    private let isDroppable: @Sendable (Element) -> Bool
    private let byteCost: @Sendable (Element) -> Int
    private let condition = NSCondition()
    /// A queued item and its cost, taken once at push so the byte count stays consistent.
    private struct Slot {
        var element: Element
        var cost: Int
    }
    // Guarded by `condition`:
    private var slots: [Slot?] = []
    private var head = 0
    private var isClosedLocked = false
    private var isCancelledLocked = false
    private var counters = Stats()

    /// A queue of `capacity` items with `policy`; `isDroppable` tells `.dropOldest` which
    /// items it may discard (the other policies ignore it). It is called with the queue's
    /// lock held, so it must be cheap and must not touch the queue.
    ///
    /// - Precondition: `capacity >= 1`.
    public convenience init(name: String, capacity: Int, policy: Policy, isDroppable: @escaping @Sendable (Element) -> Bool) {
        self.init(name: name, capacity: capacity, byteLimit: nil, policy: policy, isDroppable: isDroppable, byteCost: { _ in 0 })
    }

    /// A queue bounded by `capacity` items and, unless `byteLimit` is nil, by `byteLimit` bytes
    /// as `byteCost` counts each item (called once per push, with the queue's lock held: it
    /// must be cheap and must not touch the queue). `isDroppable` as above.
    ///
    /// - Precondition: `capacity >= 1`, `byteLimit >= 1` when given.
    public init(name: String, capacity: Int, byteLimit: Int?, policy: Policy,
                isDroppable: @escaping @Sendable (Element) -> Bool, byteCost: @escaping @Sendable (Element) -> Int) {
        precondition(capacity >= 1, "ConsumerQueue '\(name)' capacity must be at least 1, got \(capacity)")
        precondition(byteLimit.map { $0 >= 1 } ?? true, "ConsumerQueue '\(name)' byte limit must be at least 1, got \(byteLimit ?? 0)")
        self.name = name
        self.capacity = capacity
        self.byteLimit = byteLimit
        self.policy = policy
        self.isDroppable = isDroppable
        self.byteCost = byteCost
    }

    /// A snapshot of the counters.
    public var stats: Stats {
        condition.lock()
        defer { condition.unlock() }
        return counters
    }

    /// How full the queue is, in items out of ``capacity``: the queued items, or the queued
    /// bytes scaled to items when the byte bound is the nearer one (for a rule that reads a
    /// depth against a capacity, such as a rate policy).
    public var load: (depth: Int, capacity: Int) {
        condition.lock()
        defer { condition.unlock() }
        guard let byteLimit else { return (depth, capacity) }
        let byteDepth = Int((Double(counters.bytes) / Double(byteLimit) * Double(capacity)).rounded(.up))
        return (max(depth, byteDepth), capacity)
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
        let slot = Slot(element: element, cost: max(byteCost(element), 0))
        guard isFull(adding: slot.cost) else {
            append(slot)
            return .enqueued
        }
        switch policy {
        case .neverDrop:
            return waitForRoom(then: slot)
        case .dropOldest:
            // Audio during an encoder's stall must not push out the pictures queued for it:
            // when it did, two seconds of frames were gone in one and a half, and a stall of a
            // few seconds left nothing but audio to drain at the end.
            guard isDroppable(element) else {
                counters.overCapacity += 1
                append(slot)
                return .enqueuedOverCapacity
            }
            if let victims = oldestDroppableMakingRoom(for: slot.cost) {
                for index in victims.reversed() { counters.bytes -= slots.remove(at: index)!.cost }
                counters.dropped += victims.count
                append(slot)
                return .enqueuedDroppingOldest
            }
            counters.dropped += 1
            return .discarded
        case .dropNewest:
            counters.dropped += 1
            return .discarded
        }
    }

    /// `.neverDrop` backpressure: waits (counted and timed) until `slot` fits or the consumer
    /// cancels.
    private func waitForRoom(then slot: Slot) -> PushOutcome {
        counters.producerWaits += 1
        let clock = ContinuousClock()
        let started = clock.now
        counters.isProducerWaiting = true
        while isFull(adding: slot.cost), !isCancelledLocked {
            condition.wait()
        }
        counters.isProducerWaiting = false
        counters.producerWaitTime += clock.now - started
        guard !isCancelledLocked else {
            counters.flushed += 1
            return .rejected
        }
        append(slot)
        return .enqueuedAfterWaiting
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
        counters.bytes = 0
        condition.broadcast()
    }

    // MARK: - Storage (call with `condition` locked)

    private var depth: Int { slots.count - head }

    /// Whether an item of `cost` bytes finds no room: the item bound is reached, or the byte
    /// bound would be passed (an empty queue always has room).
    private func isFull(adding cost: Int) -> Bool {
        if depth >= capacity { return true }
        guard let byteLimit, depth > 0 else { return false }
        return counters.bytes + cost > byteLimit
    }

    /// The indices of the fewest oldest droppable items whose removal makes room for an item of
    /// `cost`, or nil if removing every droppable one would not. Room means within the bounds,
    /// or no further past them than the queue already is (non-droppable items queued over
    /// capacity): then one evicted frame makes room for one new frame, as in a plain item bound.
    private func oldestDroppableMakingRoom(for cost: Int) -> [Int]? {
        var victims: [Int] = []
        var (depthLeft, bytesLeft) = (depth, counters.bytes)
        let (itemRoom, byteRoom) = (max(capacity, depth), byteLimit.map { max($0, counters.bytes) })
        for index in head..<slots.count where isDroppable(slots[index]!.element) {
            victims.append(index)
            depthLeft -= 1
            bytesLeft -= slots[index]!.cost
            let fitsItems = depthLeft < itemRoom
            let fitsBytes = byteRoom.map { depthLeft == 0 || bytesLeft + cost <= $0 } ?? true
            if fitsItems && fitsBytes { return victims }
        }
        return nil
    }

    private func append(_ slot: Slot) {
        slots.append(slot)
        counters.depth = depth
        counters.maxDepth = max(counters.maxDepth, counters.depth)
        counters.bytes += slot.cost
        counters.maxBytes = max(counters.maxBytes, counters.bytes)
        condition.broadcast()
    }

    private func takeFirst() -> Element? {
        guard !isCancelledLocked, depth > 0 else { return nil }
        let slot = slots[head].take()!
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
        counters.bytes -= slot.cost
        condition.broadcast()
        return slot.element
    }
}

extension ConsumerQueue where Element: DroppableElement {
    /// A queue whose `.dropOldest` policy asks each item's ``DroppableElement/isDroppable``,
    /// bounded by `capacity` items and, unless `byteLimit` is nil, by the items'
    /// ``DroppableElement/byteCost``.
    ///
    /// - Precondition: `capacity >= 1`, `byteLimit >= 1` when given.
    public convenience init(name: String, capacity: Int, byteLimit: Int? = nil, policy: Policy) {
        self.init(name: name, capacity: capacity, byteLimit: byteLimit, policy: policy,
                  isDroppable: { $0.isDroppable }, byteCost: { $0.byteCost })
    }
}

extension ConsumerQueue.PopResult: Equatable where Element: Equatable {}
extension ConsumerQueue.PopResult: Sendable {}
