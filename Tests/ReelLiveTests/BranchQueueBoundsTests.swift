import Testing
@testable import ReelLive

@Suite("BranchQueueBounds")
struct BranchQueueBoundsTests {
    @Test func realTimeHoldsItsSecondsOfCaptureInItemsAndBytes() {
        let archive = BranchQueueBounds.holding(seconds: 2, fast: false, framesPerSecond: 30, width: 1920, height: 1080)
        #expect(archive.capacity == 120)                        // as before the byte bound: 2 per frame
        #expect(archive.byteLimit == 60 * 1920 * 1080 * 2)      // 60 pictures at 2 bytes a pixel
        let live = BranchQueueBounds.holding(seconds: 1, fast: false, framesPerSecond: 30, width: 1280, height: 720)
        #expect(live.capacity == 60 && live.byteLimit == 30 * 1280 * 720 * 2)
    }

    @Test func fastHoldsAFewPicturesWhateverTheRate() {
        let bounds = BranchQueueBounds.holding(seconds: 2, fast: true, framesPerSecond: 60, width: 1920, height: 1080)
        #expect(bounds.byteLimit == BranchQueueBounds.fastPictures * 1920 * 1080 * 2)
        #expect(bounds.capacity == 8 * BranchQueueBounds.fastPictures)
        // A decoded 1080p 4:2:0 picture (about 3.1 MB with padding) fits at least fastPictures times.
        #expect(bounds.byteLimit / 3_200_000 >= BranchQueueBounds.fastPictures)
    }

    @Test func aTinyOrOddSourceStillGetsRoomForOnePicture() {
        let bounds = BranchQueueBounds.holding(seconds: 1, fast: false, framesPerSecond: 0.2, width: 0, height: 0)
        #expect(bounds.capacity >= 1 && bounds.byteLimit >= 1)
    }
}
