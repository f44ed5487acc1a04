import Testing
@testable import ReelCore

@Suite("QualityPreset")
struct QualityPresetTests {
    @Test func presetsAreExactlyTheSpecs() {
        #expect(QualityPreset.allCases == [.low, .medium, .high])
        #expect(QualityPreset.low.dimensions() == VideoDimensions(width: 480, height: 854))
        #expect(QualityPreset.medium.dimensions() == VideoDimensions(width: 720, height: 1280))
        #expect(QualityPreset.high.dimensions() == VideoDimensions(width: 720, height: 1280))
        #expect(QualityPreset.allCases.map(\.videoBitsPerSecond) == [900_000, 1_500_000, 2_500_000])
        #expect(QualityPreset.allCases.map(\.audioBitsPerSecond) == [48_000, 64_000, 96_000])
        #expect(QualityPreset.allCases.map(\.totalBitsPerSecond) == [948_000, 1_564_000, 2_596_000])
    }

    @Test func landscapeSwapsTheSize() {
        #expect(QualityPreset.low.dimensions(.landscape) == VideoDimensions(width: 854, height: 480))
        #expect(QualityPreset.high.dimensions(.landscape) == VideoDimensions(width: 1280, height: 720))
        #expect(QualityPreset.medium.dimensions(.portrait) == QualityPreset.medium.portraitDimensions)
    }

    @Test func dimensionsOrientWhicheverWayTheyStart() {
        let wide = VideoDimensions(width: 1920, height: 1080)
        #expect(wide.oriented(.landscape) == wide)
        #expect(wide.oriented(.portrait) == VideoDimensions(width: 1080, height: 1920))
        #expect(wide.swapped.swapped == wide)
        let square = VideoDimensions(width: 500, height: 500)
        #expect(square.oriented(.portrait) == square && square.oriented(.landscape) == square)
        #expect(wide.description == "1920x1080")
    }

    @Test func presetsAreOrderedByQuality() {
        #expect(QualityPreset.low < .medium && QualityPreset.medium < .high)
        #expect(!(QualityPreset.high < .low))
        #expect(QualityPreset.allCases.max() == .high)
    }

    // MARK: Auto pick

    @Test(arguments: [
        // uplink bits/s → preset, fits
        (10_000_000.0, QualityPreset.high, true),
        (3_708_572.0, .high, true),       // 2 596 000 / 0.7 = 3 708 571.43
        (3_708_571.0, .medium, true),
        (2_234_286.0, .medium, true),     // 1 564 000 / 0.7 = 2 234 285.71
        (2_234_285.0, .low, true),
        (1_354_286.0, .low, true),        // 948 000 / 0.7 = 1 354 285.71
        (1_354_285.0, .low, false),
        (0.0, .low, false),
        (-5.0, .low, false),
        (.nan, .low, false),
        (.infinity, .high, true),
    ])
    func pickIsTheHighestPresetFittingSeventyPercent(uplink: Double, preset: QualityPreset, fits: Bool) {
        let pick = QualityPreset.pick(uplinkBitsPerSecond: uplink)
        #expect(pick.preset == preset)
        #expect(pick.fitsUplink == fits)
        #expect(pick.uplinkBitsPerSecond.isNaN ? uplink.isNaN : pick.uplinkBitsPerSecond == uplink)
    }

    @Test func theSeventyPercentBoundaryIsExact() {
        // 0.7 × 2 234 285.75 = 1 564 000.025 ≥ 1 564 000; 0.7 × 2 234 285.7 < 1 564 000.
        #expect(QualityPreset.medium.fits(uplinkBitsPerSecond: 2_234_285.75))
        #expect(!QualityPreset.medium.fits(uplinkBitsPerSecond: 2_234_285.7))
        #expect(QualityPreset.uplinkShare == 0.7)
        // 0.7 × 1 354 285.75 = 948 000.025; 0.7 × 1 354 285.7 = 947 999.99.
        #expect(QualityPreset.low.fits(uplinkBitsPerSecond: 1_354_285.75))
        #expect(!QualityPreset.low.fits(uplinkBitsPerSecond: 1_354_285.7))
    }

    @Test func pickReportsItsBudgetAndExplainsItself() {
        let pick = QualityPreset.pick(uplinkBitsPerSecond: 2_500_000)
        #expect(pick.budgetBitsPerSecond == 1_750_000)
        #expect(pick.description == "medium (1.564 Mbps) fits 70 % of the 2.500 Mbps uplink")
        let starved = QualityPreset.pick(uplinkBitsPerSecond: 500_000)
        #expect(starved.description == "low (0.948 Mbps) does not fit 70 % of the 0.500 Mbps uplink")
    }

    // MARK: Uplink measurement

    @Test func uplinkIsBitsOverSeconds() throws {
        #expect(try QualityPreset.uplinkBitsPerSecond(bytesSent: 1_000_000, secondsElapsed: 2) == 4_000_000)
        #expect(try QualityPreset.uplinkBitsPerSecond(bytesSent: 0, secondsElapsed: 1) == 0)
        #expect(try QualityPreset.uplinkBitsPerSecond(bytesSent: 3, secondsElapsed: 0.5) == 48)
    }

    @Test(arguments: [0.0, -1.0, .nan, .infinity, -.infinity])
    func uplinkRejectsAnElapsedTimeThatIsNotPositiveAndFinite(seconds: Double) {
        let error = #expect(throws: QualityPreset.Error.self) {
            _ = try QualityPreset.uplinkBitsPerSecond(bytesSent: 1_000, secondsElapsed: seconds)
        }
        guard case .invalidElapsedTime(let got) = error else {
            Issue.record("expected invalidElapsedTime, got \(String(describing: error))")
            return
        }
        #expect(got.isNaN ? seconds.isNaN : got == seconds)
    }

    @Test func uplinkRejectsNegativeBytes() {
        #expect(throws: QualityPreset.Error.negativeByteCount(-1)) {
            try QualityPreset.uplinkBitsPerSecond(bytesSent: -1, secondsElapsed: 1)
        }
        #expect(QualityPreset.Error.negativeByteCount(-1).description == "uplink test byte count must not be negative, got -1")
        #expect(QualityPreset.Error.invalidElapsedTime(seconds: 0).description == "uplink test elapsed time must be positive, got 0.0 s")
    }

    // MARK: Parsing

    @Test(arguments: [
        ("low", QualityPreset.Selection.preset(.low)),
        ("medium", .preset(.medium)),
        ("high", .preset(.high)),
        ("auto", .auto),
        ("HIGH", .preset(.high)),
        ("  Auto\n", .auto),
    ])
    func parsesTheFourChoices(text: String, selection: QualityPreset.Selection) throws {
        #expect(try QualityPreset.Selection(parsing: text) == selection)
    }

    @Test(arguments: ["", "ultra", "hi", "low medium", "1080p"])
    func rejectsAnythingElseListingTheChoices(text: String) {
        #expect(throws: QualityPreset.Error.unknownQuality(text)) {
            try QualityPreset.Selection(parsing: text)
        }
        #expect(QualityPreset.Error.unknownQuality(text).description
            == "unknown quality '\(text)'; choose one of: low, medium, high, auto")
    }

    @Test func selectionsPrintAsTheyParse() throws {
        for choice in QualityPreset.Selection.choices {
            #expect(try QualityPreset.Selection(parsing: choice).description == choice)
        }
    }
}

@Suite("ArchiveSettings")
struct ArchiveSettingsTests {
    @Test func defaultsAreTheSpecs() {
        let settings = ArchiveSettings.default
        #expect(settings.videoCodec == .hevc)
        #expect(settings.audioCodec == .aac)
        #expect(settings.dimensions() == VideoDimensions(width: 1080, height: 1920))
        #expect(settings.dimensions(.landscape) == VideoDimensions(width: 1920, height: 1080))
        #expect(settings.videoBitsPerSecond == 5_000_000)
        #expect(settings.audioBitsPerSecond == 128_000)
        #expect(settings == ArchiveSettings())
    }

    @Test func landscapeSizesGivenInEitherOrientationComeOutRight() {
        let settings = ArchiveSettings(portraitDimensions: VideoDimensions(width: 1280, height: 720))
        #expect(settings.dimensions(.portrait) == VideoDimensions(width: 720, height: 1280))
        #expect(settings.dimensions(.landscape) == VideoDimensions(width: 1280, height: 720))
    }
}
