import ReelCLI
import Testing

@Suite struct ValueTests {
    @Test(arguments: [
        ("30", 30.0), ("0", 0), ("1.5", 1.5), (".5", 0.5), ("1.5s", 1.5), ("500ms", 0.5), ("2m", 120),
        ("1h", 3600), ("1h30m", 5400), ("1m30s", 90), ("1h0m5s250ms", 3605.25), ("2M", 120),
    ])
    func durations(text: String, seconds: Double) throws {
        let duration = try #require(Duration(argument: text))
        let (whole, atto) = duration.components
        #expect(abs(Double(whole) + Double(atto) / 1e18 - seconds) < 1e-9, "\(text)")
    }

    @Test(arguments: ["", "s", "-5", "+5", "1.2.3", "5x", "1h30", "30s1m", "1s1s", "1e3", "inf", "1 h", "m5"])
    func invalidDurations(text: String) {
        #expect(Duration(argument: text) == nil, "\(text)")
    }

    @Test func integers() {
        #expect(Int(argument: "42") == 42)
        #expect(Int(argument: "-7") == -7)
        #expect(Int(argument: "4.0") == nil)
        #expect(Int(argument: "0x10") == nil)
        #expect(Int(argument: "") == nil)
    }

    @Test func numbers() {
        #expect(Double(argument: "2.5") == 2.5)
        #expect(Double(argument: "-0.5") == -0.5)
        #expect(Double(argument: "1e3") == 1000)
        #expect(Double(argument: "nan") == nil)
        #expect(Double(argument: "inf") == nil)
        #expect(Double(argument: "two") == nil)
    }

    @Test func choiceEnums() {
        #expect(Quality(argument: "low") == .low)
        #expect(Quality(argument: "Low") == nil)
        #expect(Quality.allowedValues == ["low", "medium", "high"])
        #expect(Quality.expectation == "one of low, medium, high")
        #expect(Quality.placeholder == "QUALITY")
    }

    @Test func typedDeclarationsUseTheirPlaceholder() {
        #expect(Live.quality.synopsis == "--quality QUALITY")
        #expect(Live.quality.choices == ["low", "medium", "high"])
        #expect(Live.segments.synopsis == "--segments N")
        #expect(Live.duration.synopsis == "--duration DURATION")
        #expect(Live.verbose.synopsis == "--verbose")
    }
}
