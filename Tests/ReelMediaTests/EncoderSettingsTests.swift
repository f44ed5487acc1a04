import Testing
@testable import ReelMedia

@Suite("Encoder settings")
struct EncoderSettingsTests {
    @Test("codecs name FFmpeg's encoders; presets parse by name, fastest first, and an unknown one is an error listing them")
    func names() throws {
        #expect(VideoCodec.h264.encoderName == "libx264" && VideoCodec.hevc.encoderName == "libx265")
        #expect(EncoderPreset.allCases.first == .ultrafast && EncoderPreset.allCases.last == .veryslow)
        #expect(try EncoderPreset(parsing: "superfast") == .superfast)
        #expect(throws: VideoEncoderSettings.Error.self) { try EncoderPreset(parsing: "turbo") }
        do {
            _ = try EncoderPreset(parsing: "Ultrafast")
            Issue.record("presets are case-sensitive, as x264's are")
        } catch {
            #expect(error.description.contains("'Ultrafast'") && error.description.contains("ultrafast, superfast, veryfast"))
        }
    }

    @Test("every codec opens with every preset's name as x264/x265 know it")
    func encodersOpen() throws {
        for codec in VideoCodec.allCases {
            for preset in [EncoderPreset.ultrafast, .medium] {
                let settings = VideoEncoderSettings(codec: codec, width: 64, height: 64, framesPerSecond: 30, bitRate: 200_000, preset: preset)
                _ = try VideoEncoder(settings, globalHeader: true)
            }
        }
    }
}
