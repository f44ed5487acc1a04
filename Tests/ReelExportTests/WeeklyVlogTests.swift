import Foundation
import ReelExport
import ReelMedia
import Testing

@Suite("Weekly vlog rules")
struct WeeklyVlogTests {
    @Test("music gain: 0 → 1 over the first second, 1 → 0 over the last two, never above 1; a vlog under 3 s never reaches full")
    func musicGain() {
        #expect(WeeklyVlog.musicGain(at: 0, total: 10) == 0)
        #expect(WeeklyVlog.musicGain(at: 0.5, total: 10) == 0.5)
        #expect(WeeklyVlog.musicGain(at: 1, total: 10) == 1)
        #expect(WeeklyVlog.musicGain(at: 5, total: 10) == 1)
        #expect(WeeklyVlog.musicGain(at: 9, total: 10) == 0.5)
        #expect(WeeklyVlog.musicGain(at: 10, total: 10) == 0)
        #expect(WeeklyVlog.musicGain(at: 11, total: 10) == 0, "past the end: silent")
        #expect(WeeklyVlog.musicGain(at: 0.8, total: 2) == 0.6, "short vlog: the fade out wins")
    }

    @Test("fitting keeps the aspect ratio, pads on the short side, centres on even pixels and never crops")
    func fitting() {
        #expect(PictureFitter.fitted(sourceWidth: 320, sourceHeight: 240, width: 1080, height: 1920) == (0, 554, 1080, 810))
        #expect(PictureFitter.fitted(sourceWidth: 1920, sourceHeight: 1080, width: 1920, height: 1080) == (0, 0, 1920, 1080))
        #expect(PictureFitter.fitted(sourceWidth: 1080, sourceHeight: 1920, width: 1920, height: 1080) == (656, 0, 608, 1080), "pillarbox")
        #expect(PictureFitter.fitted(sourceWidth: 640, sourceHeight: 360, width: 1080, height: 1920) == (0, 656, 1080, 608))
        let odd = PictureFitter.fitted(sourceWidth: 333, sourceHeight: 777, width: 1920, height: 1080)
        #expect(odd.x % 2 == 0 && odd.y % 2 == 0 && odd.width % 2 == 0 && odd.height % 2 == 0 && odd.height == 1080 && odd.width <= 1920)
    }
}
