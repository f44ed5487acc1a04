import Foundation
import Testing
@testable import ReelRuntime

@Suite("ConsumerQueue")
struct ConsumerQueueTests {
    typealias Queue = ConsumerQueue<TestSample>

    private func drain(_ queue: Queue) -> [TestSample] {
        var items: [TestSample] = []
        while case .element(let item) = queue.tryPop() { items.append(item) }
        return items
    }

    // MARK: Basics

    @Test func itIsFirstInFirstOut() {
        let queue = Queue(name: "q", capacity: 10, policy: .neverDrop)
        for id in 0..<5 { #expect(queue.push(.video(id)) == .enqueued) }
        #expect(queue.stats.depth == 5)
        #expect(drain(queue).map(\.id) == [0, 1, 2, 3, 4])
        #expect(queue.tryPop() == .empty)
        let stats = queue.stats
        #expect(stats.pushed == 5 && stats.popped == 5 && stats.depth == 0 && stats.maxDepth == 5)
        #expect(stats.dropped == 0 && stats.producerWaits == 0 && stats.producerWaitTime == .zero)
    }

    @Test func closeLetsTheConsumerDrainThenEnds() {
        let queue = Queue(name: "q", capacity: 4, policy: .dropOldest)
        for id in 0..<3 { queue.push(.audio(id)) }
        queue.close()
        queue.close()  // idempotent
        #expect(queue.isClosed)
        #expect(queue.push(.audio(99)) == .rejected)
        #expect(queue.pop() == .audio(0))
        #expect(queue.pop() == .audio(1))
        #expect(queue.tryPop() == .element(.audio(2)))
        #expect(queue.pop() == nil)
        #expect(queue.pop() == nil)
        #expect(queue.tryPop() == .endOfStream)
        let stats = queue.stats
        #expect(stats.pushed == 3 && stats.popped == 3 && stats.rejected == 1)
    }

    @Test func popWaitsForAnItemAndThenForEndOfStream() {
        let queue = Queue(name: "q", capacity: 2, policy: .neverDrop)
        let received = LockedList<TestSample?>()
        let consumer = TestThread {
            received.append(queue.pop())
            received.append(queue.pop())
        }
        queue.push(.video(7))
        #expect(eventually { received.count == 1 })
        #expect(!consumer.hasFinished, "the second pop must wait for close")
        queue.close()
        #expect(consumer.join())
        #expect(received.values == [.video(7), nil])
    }

    @Test func popWithADeadlineReturnsEmptyWhenNothingCameThenItemsAndEndOfStream() {
        let queue = Queue(name: "q", capacity: 4, policy: .neverDrop)
        let started = Date()
        #expect(queue.pop(waitingUntil: started.addingTimeInterval(0.05)) == .empty)
        #expect(Date().timeIntervalSince(started) >= 0.05, "it waited for the deadline")
        let producer = Thread {
            // Pushed while the pop below most likely waits (pushed before it, the pop returns it at once all the same).
            Thread.sleep(forTimeInterval: 0.02)
            queue.push(.video(1))
        }
        producer.start()
        #expect(queue.pop(waitingUntil: Date().addingTimeInterval(5)) == .element(.video(1)), "an item ends the wait early")
        queue.push(.video(2))
        queue.close()
        #expect(queue.pop(waitingUntil: Date().addingTimeInterval(5)) == .element(.video(2)))
        #expect(queue.pop(waitingUntil: Date().addingTimeInterval(5)) == .endOfStream)
    }

    @Test func aClosureCanDecideDroppability() {
        // Plain integers: even ones droppable.
        let queue = ConsumerQueue<Int>(name: "ints", capacity: 2, policy: .dropOldest) { $0.isMultiple(of: 2) }
        queue.push(1)
        queue.push(2)
        #expect(queue.push(3) == .enqueuedOverCapacity)    // odd: kept past the bound, 2 stays
        #expect(queue.push(4) == .enqueuedDroppingOldest)  // even: takes 2's place
        #expect(queue.push(5) == .enqueuedOverCapacity)
        var items: [Int] = []
        while case .element(let item) = queue.tryPop() { items.append(item) }
        #expect(items == [1, 3, 4, 5])
    }

    // MARK: dropOldest

    @Test func dropOldestDropsExactlyTheOldestDroppableItems() {
        let queue = Queue(name: "hls", capacity: 3, policy: .dropOldest)
        #expect(queue.push(.video(1)) == .enqueued)
        #expect(queue.push(.audio(2)) == .enqueued)
        #expect(queue.push(.video(3)) == .enqueued)
        #expect(queue.push(.video(4)) == .enqueuedDroppingOldest)    // drops v1, not a2
        #expect(queue.push(.audio(5)) == .enqueuedOverCapacity)      // audio never pushes a frame out
        #expect(queue.push(.audio(6)) == .enqueuedOverCapacity)
        #expect(queue.stats.depth == 5)
        #expect(queue.push(.video(7)) == .enqueuedDroppingOldest)    // over the bound: takes v3's place, no growth
        #expect(queue.stats.depth == 5)
        #expect(drain(queue) == [.audio(2), .video(4), .audio(5), .audio(6), .video(7)])
        let stats = queue.stats
        #expect(stats.pushed == 7)
        #expect(stats.dropped == 2)
        #expect(stats.overCapacity == 2)
        #expect(stats.maxDepth == 5)
        #expect(stats.producerWaits == 0)
        #expect(stats.pushed == stats.popped + stats.dropped + stats.flushed + stats.depth)
    }

    @Test func dropOldestWithOnlyVideoKeepsTheNewest() {
        let queue = Queue(name: "hls", capacity: 3, policy: .dropOldest)
        for id in 0..<10 { queue.push(.video(id)) }
        #expect(drain(queue).map(\.id) == [7, 8, 9])
        #expect(queue.stats.dropped == 7)
        #expect(queue.stats.maxDepth == 3)
    }

    @Test func dropOldestKeepsEveryAudioBlockAndOrderUnderConcurrentConsumption() {
        let queue = Queue(name: "hls", capacity: 4, policy: .dropOldest)
        let received = LockedList<TestSample>()
        let consumer = TestThread {
            while let item = queue.pop() { received.append(item) }
        }
        for id in 0..<10_000 { queue.push(id % 3 == 0 ? .audio(id) : .video(id)) }
        queue.close()
        #expect(consumer.join())
        let ids = received.values.map(\.id)
        #expect(zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 }, "order must be preserved")
        #expect(received.values.filter { !$0.isDroppable }.count == 3_334, "no audio block may be lost")
        let stats = queue.stats
        #expect(stats.pushed == 10_000)
        #expect(stats.popped + stats.dropped == 10_000)
        #expect(stats.popped == received.count)
    }

    // MARK: dropNewest

    @Test func dropNewestDiscardsTheNewItemDroppableOrNot() {
        let queue = Queue(name: "faces", capacity: 2, policy: .dropNewest)
        #expect(queue.push(.video(0)) == .enqueued)
        #expect(queue.push(.video(1)) == .enqueued)
        #expect(queue.push(.video(2)) == .discarded)
        #expect(queue.push(.audio(3)) == .discarded)
        #expect(queue.pop() == .video(0))
        #expect(queue.push(.video(4)) == .enqueued)
        #expect(drain(queue).map(\.id) == [1, 4])
        #expect(queue.stats.dropped == 2)
        #expect(queue.stats.maxDepth == 2)
    }

    // MARK: neverDrop

    @Test func neverDropPreservesOrderUnderConcurrentConsumption() {
        let queue = Queue(name: "archive", capacity: 4, policy: .neverDrop)
        let received = LockedList<Int>()
        let consumer = TestThread {
            while let item = queue.pop() { received.append(item.id) }
        }
        for id in 0..<10_000 { #expect(queue.push(.video(id)).isEnqueued) }
        queue.close()
        #expect(consumer.join())
        #expect(received.values == Array(0..<10_000))
        let stats = queue.stats
        #expect(stats.dropped == 0 && stats.popped == 10_000 && stats.maxDepth <= 4)
    }

    @Test func neverDropNeverLosesUnderASlowConsumerAndRecordsTheWait() {
        let queue = Queue(name: "archive", capacity: 4, policy: .neverDrop)
        let outcomes = LockedList<Queue.PushOutcome>()
        let producer = TestThread {
            for id in 0..<200 { outcomes.append(queue.push(.video(id))) }
            queue.close()
        }
        // The consumer starts only once the producer is known to be blocked on a full queue.
        #expect(eventually { queue.stats.isProducerWaiting })
        #expect(!producer.hasFinished)
        #expect(queue.stats.depth == 4)
        #expect(queue.stats.pushed == 5)
        var received: [Int] = []
        while let item = queue.pop() {
            received.append(item.id)
            usleep(50)  // deliberately slow
        }
        #expect(producer.join())
        #expect(received == Array(0..<200))
        let stats = queue.stats
        #expect(stats.dropped == 0)
        #expect(stats.maxDepth == 4)
        #expect(stats.producerWaits >= 1)
        #expect(stats.producerWaitTime > .zero)
        #expect(!stats.isProducerWaiting)
        #expect(outcomes.values.filter { $0 == .enqueuedAfterWaiting }.count == stats.producerWaits)
        #expect(outcomes.values.allSatisfy { $0.isEnqueued })
    }

    @Test func aNeverDropPushWaitingWhenTheQueueIsClosedIsStillDelivered() {
        let queue = Queue(name: "archive", capacity: 1, policy: .neverDrop)
        queue.push(.video(0))
        let outcome = LockedList<Queue.PushOutcome>()
        let producer = TestThread { outcome.append(queue.push(.video(1))) }
        #expect(eventually { queue.stats.isProducerWaiting })
        queue.close()
        #expect(!producer.hasFinished)
        #expect(queue.pop() == .video(0))
        #expect(producer.join())
        #expect(outcome.values == [.enqueuedAfterWaiting])
        #expect(queue.pop() == .video(1))
        #expect(queue.pop() == nil)
    }

    // MARK: cancel

    @Test func cancelReleasesABlockedProducer() {
        let queue = Queue(name: "archive", capacity: 1, policy: .neverDrop)
        queue.push(.video(0))
        let outcome = LockedList<Queue.PushOutcome>()
        let producer = TestThread { outcome.append(queue.push(.video(1))) }
        #expect(eventually { queue.stats.isProducerWaiting })
        queue.cancel()
        #expect(producer.join())
        #expect(outcome.values == [.rejected])
        #expect(queue.push(.video(2)) == .rejected)
        let stats = queue.stats
        #expect(stats.flushed == 2)   // the queued item and the waiting one
        #expect(stats.rejected == 1)
        #expect(stats.pushed == stats.popped + stats.dropped + stats.flushed + stats.depth)
    }

    @Test func cancelDiscardsWhatIsQueuedAndEndsTheStream() {
        let queue = Queue(name: "q", capacity: 8, policy: .dropOldest)
        for id in 0..<3 { queue.push(.audio(id)) }
        queue.cancel()
        #expect(queue.isCancelled)
        #expect(queue.pop() == nil)
        #expect(queue.tryPop() == .endOfStream)
        #expect(queue.stats.flushed == 3)
        #expect(queue.stats.depth == 0)
    }

    @Test func cancelWakesAWaitingConsumer() {
        let queue = Queue(name: "q", capacity: 8, policy: .dropNewest)
        let consumer = TestThread { _ = queue.pop() }
        #expect(!consumer.hasFinished)
        queue.cancel()
        #expect(consumer.join())
    }

    // MARK: Byte bound

    @Test func aByteBoundFillsBeforeTheItemBoundAndCountsBytes() {
        let queue = Queue(name: "archive", capacity: 100, byteLimit: 1_000, policy: .dropNewest)
        #expect(queue.push(.video(0, bytes: 400)) == .enqueued)
        #expect(queue.push(.audio(1, bytes: 10)) == .enqueued)
        #expect(queue.push(.video(2, bytes: 400)) == .enqueued)
        #expect(queue.push(.video(3, bytes: 400)) == .discarded)      // 810 + 400 > 1000
        #expect(queue.push(.audio(4, bytes: 190)) == .enqueued)       // exactly 1000
        #expect(queue.stats.bytes == 1_000 && queue.stats.depth == 4)
        #expect(queue.pop() == .video(0, bytes: 400))
        #expect(queue.stats.bytes == 600)
        #expect(queue.push(.video(5, bytes: 400)) == .enqueued)
        #expect(drain(queue).map(\.id) == [1, 2, 4, 5])
        let stats = queue.stats
        #expect(stats.bytes == 0 && stats.maxBytes == 1_000 && stats.dropped == 1)
    }

    @Test func aFrameFindingOnlyAudioQueuedIsDiscarded() {
        let queue = Queue(name: "hls", capacity: 2, policy: .dropOldest)
        for id in 0..<3 { queue.push(.audio(id)) }
        #expect(queue.push(.video(3)) == .discarded)
        #expect(drain(queue).map(\.id) == [0, 1, 2])
        #expect(queue.stats.dropped == 1 && queue.stats.overCapacity == 1)
    }

    /// A consumer that stops taking (an encoder starved of CPU) keeps the newest frames its
    /// queue was sized for and every audio block of the stall, so the drain at the end still
    /// has pictures: before, the audio pushed every frame out.
    @Test func aStalledConsumerKeepsTheNewestFramesAndAllTheAudio() {
        let queue = Queue(name: "archive", capacity: 4, policy: .dropOldest)
        for id in 0..<20 {
            queue.push(.video(id))
            queue.push(.audio(id))
        }
        let kept = drain(queue)
        #expect(kept.filter(\.isDroppable).map(\.id) == [18, 19])
        #expect(kept.filter { !$0.isDroppable }.map(\.id) == Array(0..<20))
        #expect(queue.stats.dropped == 18)
    }

    @Test func anItemLargerThanTheByteBoundStillEntersAnEmptyQueue() {
        let queue = Queue(name: "archive", capacity: 4, byteLimit: 100, policy: .neverDrop)
        #expect(queue.push(.video(0, bytes: 5_000)) == .enqueued)
        #expect(queue.stats.bytes == 5_000)
        #expect(queue.pop() == .video(0, bytes: 5_000))
        #expect(queue.push(.video(1, bytes: 5_000)) == .enqueued)
    }

    @Test func dropOldestUnderAByteBoundDropsAsFewOldFramesAsMakeRoom() {
        let queue = Queue(name: "hls", capacity: 100, byteLimit: 1_000, policy: .dropOldest)
        queue.push(.video(0, bytes: 300))
        queue.push(.audio(1, bytes: 50))
        queue.push(.video(2, bytes: 300))
        queue.push(.video(3, bytes: 300))          // 950 queued
        #expect(queue.push(.video(4, bytes: 500)) == .enqueuedDroppingOldest)   // v0 and v2 go
        #expect(queue.stats.bytes == 850)
        #expect(queue.stats.dropped == 2)
        // An audio block never pushes a frame out: it goes past the bound.
        #expect(queue.push(.audio(5, bytes: 2_000)) == .enqueuedOverCapacity)
        // Over the bound now: the new frame replaces the oldest queued frame, the queue does not grow.
        #expect(queue.push(.video(6, bytes: 10)) == .enqueuedDroppingOldest)
        #expect(drain(queue).map(\.id) == [1, 4, 5, 6])
        let stats = queue.stats
        #expect(stats.dropped == 3 && stats.overCapacity == 1 && stats.bytes == 0)
        #expect(stats.pushed == stats.popped + stats.dropped + stats.flushed + stats.depth)
    }

    @Test func neverDropWaitsForBytesNotOnlyItemsAndLosesNothing() {
        let queue = Queue(name: "archive", capacity: 100, byteLimit: 1_000, policy: .neverDrop)
        let producer = TestThread {
            for id in 0..<50 { queue.push(.video(id, bytes: 300)) }
            queue.close()
        }
        // Three 300-byte frames fit in 1000 bytes; the fourth waits although 97 slots are free.
        #expect(eventually { queue.stats.isProducerWaiting })
        #expect(queue.stats.depth == 3 && queue.stats.bytes == 900)
        var received: [Int] = []
        while let item = queue.pop() { received.append(item.id) }
        #expect(producer.join())
        #expect(received == Array(0..<50))
        let stats = queue.stats
        #expect(stats.maxBytes <= 1_000 && stats.maxDepth == 3 && stats.dropped == 0)
        #expect(stats.producerWaits >= 1)
    }

    @Test func cancelZeroesTheQueuedBytes() {
        let queue = Queue(name: "q", capacity: 8, byteLimit: 1_000, policy: .dropOldest)
        queue.push(.video(0, bytes: 600))
        queue.cancel()
        #expect(queue.stats.bytes == 0 && queue.stats.maxBytes == 600)
    }

    @Test func loadIsTheNearerOfTheTwoBoundsInItems() {
        let queue = Queue(name: "archive", capacity: 10, byteLimit: 1_000, policy: .dropOldest)
        queue.push(.audio(0, bytes: 10))
        queue.push(.audio(1, bytes: 10))
        #expect(queue.load == (depth: 2, capacity: 10))          // 2 of 10 items, 20 of 1000 bytes
        queue.push(.video(2, bytes: 880))
        #expect(queue.load == (depth: 9, capacity: 10))          // 900 of 1000 bytes: 9 of 10
        let unbounded = Queue(name: "live", capacity: 10, policy: .dropOldest)
        unbounded.push(.video(0, bytes: 1_000_000))
        #expect(unbounded.load == (depth: 1, capacity: 10))
    }

    @Test func overItsByteBoundANewFrameStillReplacesTheOldestFrame() {
        let queue = Queue(name: "hls", capacity: 100, byteLimit: 1_000, policy: .dropOldest)
        queue.push(.video(0, bytes: 300))
        queue.push(.audio(1, bytes: 650))
        // An audio block is never what pushes a frame out: v0 stays, the block goes over.
        #expect(queue.push(.audio(2, bytes: 600)) == .enqueuedOverCapacity)
        #expect(queue.stats.bytes == 1_550)
        // Over the bound, one old frame out makes room for one new frame: the queue does not
        // grow, and the newest frame is the one kept.
        #expect(queue.push(.video(3, bytes: 300)) == .enqueuedDroppingOldest)
        #expect(queue.stats.bytes == 1_550)
        #expect(drain(queue).map(\.id) == [1, 2, 3])
    }
}
