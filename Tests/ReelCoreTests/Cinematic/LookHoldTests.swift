import ReelCore
import Testing

@Suite("Look hold: a real-time picture waits for a look at or after it, and takes the nearest")
struct LookHoldTests {
    static func at(_ seconds: Double) -> MediaTime { MediaTime(seconds: seconds) }

    @Test("due once a look at or after the picture exists, after the longest hold, or at the end; not before")
    func due() {
        let picture = Self.at(1.0)
        #expect(!LookHold.isDue(picture: picture, newestLook: nil, newestPicture: picture, ended: false))
        #expect(!LookHold.isDue(picture: picture, newestLook: Self.at(0.9), newestPicture: Self.at(1.2), ended: false))
        #expect(LookHold.isDue(picture: picture, newestLook: picture, newestPicture: picture, ended: false))
        #expect(LookHold.isDue(picture: picture, newestLook: Self.at(1.1), newestPicture: Self.at(1.1), ended: false))
        // The longest hold, to the tick: the vision behind or failed.
        #expect(!LookHold.isDue(picture: picture, newestLook: Self.at(0.5), newestPicture: picture + LookHold.maximum - Self.at(0.001), ended: false))
        #expect(LookHold.isDue(picture: picture, newestLook: nil, newestPicture: picture + LookHold.maximum, ended: false))
        #expect(LookHold.isDue(picture: picture, newestLook: nil, newestPicture: picture, ended: true))
    }

    @Test("the nearest look by time, the later of two as near; none without looks")
    func nearest() {
        let looks = [Self.at(0.9), Self.at(1.0), Self.at(1.2)]
        #expect(LookHold.nearest(looks, to: Self.at(1.0)) == 1)
        #expect(LookHold.nearest(looks, to: Self.at(1.04)) == 1)
        #expect(LookHold.nearest(looks, to: Self.at(1.15)) == 2)
        #expect(LookHold.nearest(looks, to: Self.at(1.1)) == 2, "as near: the later")
        #expect(LookHold.nearest(looks, to: Self.at(0.1)) == 0)
        #expect(LookHold.nearest(looks, to: Self.at(5)) == 2)
        #expect(LookHold.nearest([], to: Self.at(1)) == nil)
    }
}
