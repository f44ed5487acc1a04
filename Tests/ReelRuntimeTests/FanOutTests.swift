import Foundation
import Testing
@testable import ReelRuntime

@Suite("FanOut")
struct FanOutTests {
    typealias Queue = ConsumerQueue<TestSample>

    struct HandlerFailure: Error, Equatable { var id: Int }

    private func collecting(_ queue: Queue, into list: LockedList<TestSample>) -> FanOut<TestSample, String>.Branch {
        .init(id: queue.name, queue: queue) { list.append($0) }
    }

    @Test func everyBranchReceivesEveryItemInOrder() {
        let lists = (0..<3).map { _ in LockedList<TestSample>() }
        let fanOut = FanOut(branches: [
            collecting(Queue(name: "archive", capacity: 4, policy: .neverDrop), into: lists[0]),
            collecting(Queue(name: "hls", capacity: 2_000, policy: .dropOldest), into: lists[1]),
            collecting(Queue(name: "faces", capacity: 2_000, policy: .dropNewest), into: lists[2]),
        ])
        fanOut.start()
        fanOut.start()  // idempotent: still one thread per branch
        let items = (0..<1_000).map { $0 % 4 == 0 ? TestSample.audio($0) : .video($0) }
        for item in items { fanOut.push(item) }
        let reports = fanOut.finish()
        for list in lists { #expect(list.values == items) }
        #expect(Set(reports.keys) == ["archive", "hls", "faces"])
        #expect(reports.values.allSatisfy { $0.name == $0.id })
        #expect([reports["archive"]?.policy, reports["hls"]?.policy, reports["faces"]?.policy] == [.neverDrop, .dropOldest, .dropNewest])
        #expect(reports.values.allSatisfy { $0.isFinished && $0.failure == nil })
        #expect(reports.values.allSatisfy { $0.stats.popped == 1_000 && $0.stats.dropped == 0 })
    }

    @Test func aBlockedAnalyserDoesNotSlowTheOtherBranches() {
        let gate = Gate()
        let faces = LockedList<TestSample>()
        let archive = LockedList<TestSample>()
        let hls = LockedList<TestSample>()
        let fanOut = FanOut(branches: [
            .init(id: "faces", queue: Queue(name: "faces", capacity: 2, policy: .dropNewest)) { item in
                gate.wait()  // stuck until the end of the test
                faces.append(item)
            },
            collecting(Queue(name: "archive", capacity: 4, policy: .neverDrop), into: archive),
            collecting(Queue(name: "hls", capacity: 4, policy: .dropOldest), into: hls),
        ])
        fanOut.start()
        let producer = TestThread {
            for id in 0..<1_000 { fanOut.push(.video(id)) }
        }
        // The producer gets through everything while the analyser is stuck.
        #expect(producer.join())
        #expect(eventually { archive.count == 1_000 })
        #expect(archive.values.map(\.id) == Array(0..<1_000))
        #expect(faces.count == 0)
        let stuck = fanOut.reports["faces"]!.stats
        #expect(stuck.dropped >= 997)
        #expect(stuck.depth + stuck.popped + stuck.dropped == 1_000)
        gate.open()
        let reports = fanOut.finish()
        #expect(faces.count == 1_000 - reports["faces"]!.stats.dropped)
        let faceIDs = faces.values.map(\.id)
        #expect(zip(faceIDs, faceIDs.dropFirst()).allSatisfy { $0 < $1 })
        let hlsIDs = hls.values.map(\.id)
        #expect(zip(hlsIDs, hlsIDs.dropFirst()).allSatisfy { $0 < $1 })
        #expect(hlsIDs.last == 999, "the newest frame always reaches a dropOldest branch")
    }

    @Test func droppingBranchesGetEachItemBeforeTheProducerWaitsOnAFullArchive() {
        let gate = Gate()
        let entered = LockedList<Int>()
        let live = LockedList<TestSample>()
        let archive = LockedList<TestSample>()
        let fanOut = FanOut(branches: [
            // Listed first, but fed last.
            .init(id: "archive", queue: Queue(name: "archive", capacity: 1, policy: .neverDrop)) { item in
                entered.append(item.id)
                gate.wait()
                archive.append(item)
            },
            collecting(Queue(name: "hls", capacity: 100, policy: .dropOldest), into: live),
        ])
        fanOut.start()
        let producer = TestThread {
            for id in 0..<10 { fanOut.push(.video(id)) }
        }
        let archiveQueue = fanOut.branches[0].queue
        // Frozen state: the archive handler holds item 0, its queue holds item 1, and the
        // producer waits to queue item 2, which the live branch already has.
        #expect(eventually { entered.count == 1 && archiveQueue.stats.isProducerWaiting && live.count == 3 })
        #expect(live.values.map(\.id) == [0, 1, 2])
        #expect(archiveQueue.stats.pushed == 3)
        #expect(archiveQueue.stats.depth == 1)
        #expect(!producer.hasFinished)
        gate.open()
        #expect(producer.join())
        let reports = fanOut.finish()
        #expect(archive.values.map(\.id) == Array(0..<10))
        #expect(live.values.map(\.id) == Array(0..<10))
        #expect(reports["archive"]!.stats.producerWaits >= 1)
        #expect(reports["archive"]!.stats.producerWaitTime > .zero)
        #expect(!reports["archive"]!.stats.isProducerWaiting)
    }

    @Test func aFailingBranchEndsAloneAndNeverBlocksTheProducer() {
        let live = LockedList<TestSample>()
        let fanOut = FanOut(branches: [
            .init(id: "archive", queue: Queue(name: "archive", capacity: 1, policy: .neverDrop)) { item in
                if item.id == 5 { throw HandlerFailure(id: 5) }
            },
            collecting(Queue(name: "hls", capacity: 1_000, policy: .dropOldest), into: live),
        ])
        fanOut.start()
        let producer = TestThread {
            for id in 0..<500 { fanOut.push(.audio(id)) }
        }
        #expect(producer.join(), "a dead neverDrop branch must not block the producer")
        let reports = fanOut.finish()
        #expect(live.values.map(\.id) == Array(0..<500))
        #expect(reports["archive"]!.failure as? HandlerFailure == HandlerFailure(id: 5))
        #expect(reports["archive"]!.isFinished)
        #expect(reports["hls"]!.failure == nil)
        let failed = reports["archive"]!.stats
        #expect(failed.popped == 6)
        #expect(failed.pushed == failed.popped + failed.flushed + failed.depth)
        #expect(failed.pushed + failed.rejected == 500)
        #expect(fanOut.branches[0].queue.isCancelled)
    }

    @Test func pushReportsEachBranchsOutcomeInBranchOrder() {
        let fanOut = FanOut(branches: [
            .init(id: "archive", queue: Queue(name: "archive", capacity: 10, policy: .neverDrop)) { _ in },
            .init(id: "faces", queue: Queue(name: "faces", capacity: 1, policy: .dropNewest)) { _ in },
            .init(id: "hls", queue: Queue(name: "hls", capacity: 1, policy: .dropOldest)) { _ in },
        ])
        #expect(fanOut.push(.video(0)) == [.enqueued, .enqueued, .enqueued])
        #expect(fanOut.push(.video(1)) == [.enqueued, .discarded, .enqueuedDroppingOldest])
        #expect(fanOut.push(.audio(2)) == [.enqueued, .discarded, .enqueuedOverCapacity])
        #expect(fanOut.push(.audio(3)) == [.enqueued, .discarded, .enqueuedOverCapacity])
        fanOut.close()
        #expect(fanOut.push(.video(4)) == [.rejected, .rejected, .rejected])
    }

    @Test func finishingWithoutStartStillDrainsEveryBranch() {
        let list = LockedList<TestSample>()
        let fanOut = FanOut(branches: [collecting(Queue(name: "archive", capacity: 8, policy: .neverDrop), into: list)])
        for id in 0..<5 { fanOut.push(.audio(id)) }
        #expect(fanOut.reports["archive"]!.isFinished == false)
        let reports = fanOut.finish()
        #expect(list.values.map(\.id) == Array(0..<5))
        #expect(reports["archive"]!.isFinished)
    }

    @Test func aFanOutWithNoBranchesFinishesAtOnce() {
        let fanOut = FanOut<TestSample, String>(branches: [])
        #expect(fanOut.push(.video(0)) == [])
        #expect(fanOut.finish().isEmpty)
    }
}
