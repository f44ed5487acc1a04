import ReelCore
import Testing

@Suite("The overlay camera's frame shape in its state")
struct OverlayCameraFrameTests {
    @Test("the source's own shape by default; a change sets the frame; the unfiltered crop follows the picture's shape")
    func frame() throws {
        let start = OverlayCameraState()
        #expect(start.frame == .auto)
        #expect(start.crop(for: VideoDimensions(width: 1280, height: 720)) == PhotoCropSpec(aspectWidth: 4, aspectHeight: 3))
        #expect(start.crop(for: VideoDimensions(width: 720, height: 1280)) == PhotoCropSpec(aspectWidth: 3, aspectHeight: 4))
        let portrait = try start.applying(.init(frame: .portrait))
        #expect(portrait.frame == .portrait && portrait.format == start.format)
        #expect(try portrait.applying(.init(format: .jpeg)).frame == .portrait, "a change without a frame keeps it")
        let tall = try start.applying(.init(filter: .tall, preview: .filtered))
        #expect(tall.crop(for: VideoDimensions(width: 1280, height: 720)) == PhotoCropSpec(aspectWidth: 9, aspectHeight: 16), "a preset's crop is its own")
    }
}
