import ReelCLI
import Testing

@Suite struct ParsingTests {
    @Test func valueForms() throws {
        for form in [["--quality", "high"], ["--quality=high"], ["-q", "high"]] {
            let parsed = try parseLive(form)
            #expect(try parsed.value(Live.quality, as: Quality.self) == .high, "\(form)")
        }
    }

    @Test func requiredOptionAndDefaults() throws {
        let parsed = try parse(["live", "--origin", "http://127.0.0.1:8080/"])
        #expect(parsed.command.name == "live")
        #expect(parsed.path == "reel live")
        #expect(try parsed.require(Live.origin) == "http://127.0.0.1:8080/")
        #expect(parsed.string(Live.source) == "test")
        #expect(try parsed.value(Live.quality, as: Quality.self) == .medium)
        #expect(try parsed.double(Live.offset) == 0)
        #expect(try parsed.seconds(Live.duration) == nil)
        #expect(try parsed.int(Live.segments) == nil)
        #expect(parsed.strings(Live.header) == [])
        #expect(!parsed.flag(Live.verbose))
        #expect(!parsed.flag(Live.dryRun))
    }

    @Test func typedValues() throws {
        let parsed = try parseLive(["--duration", "1m30s", "--offset", "0.25", "--segments", "12", "-s", "v4l2"])
        #expect(try parsed.seconds(Live.duration) == 90)
        #expect(try parsed.value(Live.duration, as: Duration.self) == .seconds(90))
        #expect(try parsed.double(Live.offset) == 0.25)
        #expect(try parsed.int(Live.segments) == 12)
        #expect(try parsed.require(Live.segments, as: Int.self) == 12)
        #expect(parsed.string(Live.source) == "v4l2")
    }

    @Test func flags() throws {
        let parsed = try parseLive(["--dry-run", "-v", "--verbose", "-v"])
        #expect(parsed.flag(Live.dryRun))
        #expect(parsed.flag(Live.verbose))
        #expect(parsed.count(Live.verbose) == 3)
        #expect(parsed.count(Live.dryRun) == 1)
    }

    @Test func repeatableOptionCollectsInOrder() throws {
        let parsed = try parseLive(["-H", "A: 1", "--header", "B: 2", "--header=C: 3"])
        #expect(parsed.strings(Live.header) == ["A: 1", "B: 2", "C: 3"])
        #expect(parsed.string(Live.header) == "C: 3")
        #expect(parsed.count(Live.header) == 3)
    }

    @Test func negativeNumbersAreValues() throws {
        let parsed = try parseLive(["--offset", "-0.5", "--segments", "-3"])
        #expect(try parsed.double(Live.offset) == -0.5)
        #expect(try parsed.int(Live.segments) == -3)
        #expect(try parseLive(["--offset=-2"]).double(Live.offset) == -2)
    }

    @Test func valuesMayStartWithADash() throws {
        // A lone dash, a dash word that is not one of the command's short options, and
        // anything after '=' are values.
        #expect(try parseLive(["-H", "-"]).string(Live.header) == "-")
        #expect(try parseLive(["-H", "-x"]).string(Live.header) == "-x")
        #expect(try parseLive(["--header=--verbose"]).string(Live.header) == "--verbose")
        #expect(try parseLive(["--header="]).string(Live.header) == "")
    }

    @Test func positionals() throws {
        let one = try parse(["export", "study.mp4"])
        #expect(one.positional(Export.input) == "study.mp4")
        #expect(one.positionals(Export.outputs) == [])
        #expect(one.positional(Export.outputs) == nil)

        let many = try parse(["export", "-f", "in.mp4", "a.mp4", "b.mp4"])
        #expect(many.flag(Export.force))
        #expect(many.positional(Export.input) == "in.mp4")
        #expect(many.positionals(Export.outputs) == ["a.mp4", "b.mp4"])
    }

    @Test func optionsAndPositionalsMix() throws {
        let parsed = try parse(["export", "in.mp4", "-f", "out.mp4"])
        #expect(parsed.flag(Export.force))
        #expect(parsed.positionals(Export.outputs) == ["out.mp4"])
    }

    @Test func terminatorMakesEverythingPositional() throws {
        let parsed = try parse(["export", "--", "-f", "--help", "--"])
        #expect(!parsed.flag(Export.force))
        #expect(parsed.positional(Export.input) == "-f")
        #expect(parsed.positionals(Export.outputs) == ["--help", "--"])
    }

    @Test func negativeNumberAndLoneDashArePositional() throws {
        let parsed = try parse(["export", "-", "-5"])
        #expect(parsed.positional(Export.input) == "-")
        #expect(parsed.positionals(Export.outputs) == ["-5"])
    }

    @Test func helpWins() throws {
        for arguments in [["live", "--help"], ["live", "-h"], ["live", "--qualty", "x", "-h"], ["help", "live"]] {
            let text = try helpText(arguments)
            #expect(text?.hasPrefix("Usage: reel live --origin URL [options]\n") == true, "\(arguments)")
        }
        for arguments in [["--help"], ["-h"], ["help"]] {
            #expect(try helpText(arguments)?.hasPrefix("Usage: reel <command> [options]\n") == true, "\(arguments)")
        }
    }

    @Test func helpAfterTerminatorIsPositional() throws {
        #expect(try parse(["export", "--", "-h"]).positional(Export.input) == "-h")
    }

    @Test func commandSpecParsesOnItsOwn() throws {
        guard case .run(let parsed) = try Live.spec.parse(["--origin", "u"]) else {
            Issue.record("expected arguments")
            return
        }
        #expect(parsed.path == "live")
        #expect(parsed.string(Live.origin) == "u")
    }

    @Test func commandDeclaresCheckedRules() throws {
        let parsed = try parseLive(["--segments", "0"])
        let error = parsed.invalid(Live.segments, expected: "a count of at least 1")
        #expect(error.description == "reel live: invalid value '0' for '--segments': expected a count of at least 1.")
    }
}
