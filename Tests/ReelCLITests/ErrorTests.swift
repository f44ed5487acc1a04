import ReelCLI
import Testing

@Suite struct ErrorTests {
    @Test func unknownOptionSuggestsNearest() {
        let error = parseError(["live", "--origin", "u", "--qualty", "high"])
        #expect(error == .unknownOption(command: "reel live", option: "--qualty", suggestion: "--quality"))
        #expect(error?.description == "reel live: unknown option '--qualty'. Did you mean '--quality'?")
        #expect(error?.usageHint == "Run 'reel live --help' for usage.")
    }

    @Test func suggestionsForCommonSlips() {
        let cases: [(typed: String, suggestion: String?)] = [
            ("--qualty=high", "--quality"),   // `=value` is not part of the name
            ("--qaulity", "--quality"),       // swapped letters
            ("--durration", "--duration"),
            ("--dryrun", "--dry-run"),
            ("--verb", "--verbose"),          // unique prefix
            ("--Quality", "--quality"),       // case
            ("-quality", "--quality"),        // single dash before a long name
            ("--hlep", "--help"),
            ("--zzz", nil),
            ("-x", nil),
            ("-qhigh", "-q high"),            // value glued to a short option
            ("-q=high", "-q high"),
            ("-vH", nil),                     // -H takes a value: no bundle to split
            ("-vv", "-v -v"),                 // flags are not bundled
        ]
        for (typed, suggestion) in cases {
            let error = parseError(["live", "--origin", "u", typed, "1"])
            let spelled = typed.hasPrefix("--") ? String(typed.prefix { $0 != "=" }) : typed
            #expect(error == .unknownOption(command: "reel live", option: spelled, suggestion: suggestion), "\(typed)")
        }
    }

    @Test func unknownOptionWithoutSuggestion() {
        #expect(parseError(["live", "--origin", "u", "--bitrate", "5"])?.description
                == "reel live: unknown option '--bitrate'.")
    }

    @Test func missingValueAtEnd() {
        let error = parseError(["live", "--origin"])
        #expect(error == .missingValue(command: "reel live", option: "--origin", placeholder: "URL"))
        #expect(error?.description == "reel live: option '--origin' needs a value: --origin URL.")
    }

    @Test func missingValueBeforeAnotherOption() {
        #expect(parseError(["live", "--origin", "--verbose"])
                == .missingValue(command: "reel live", option: "--origin", placeholder: "URL"))
        #expect(parseError(["live", "--origin", "u", "--header", "-v"])
                == .missingValue(command: "reel live", option: "--header", placeholder: "NAME:VALUE"))
        #expect(parseError(["live", "--origin", "u", "-H", "--"])
                == .missingValue(command: "reel live", option: "--header", placeholder: "NAME:VALUE"))
    }

    @Test func missingRequired() {
        let error = parseError(["live", "--quality", "low"])
        #expect(error == .missingRequired(command: "reel live", option: "--origin URL"))
        #expect(error?.description == "reel live: missing required option '--origin URL'.")
    }

    @Test func invalidChoiceListsChoicesAndSuggests() {
        let error = parseError(["live", "--origin", "u", "--quality", "hgh"])
        #expect(error?.description
                == "reel live: invalid value 'hgh' for '--quality': expected one of low, medium, high. Did you mean 'high'?")
        #expect(parseError(["live", "--origin", "u", "-s", "camera"])?.description
                == "reel live: invalid value 'camera' for '--source': expected one of test, file, v4l2.")
    }

    @Test func invalidTypedValues() {
        #expect(parseError(["live", "--origin", "u", "--segments", "2.5"])?.description
                == "reel live: invalid value '2.5' for '--segments': expected an integer.")
        #expect(parseError(["live", "--origin", "u", "--offset", "abc"])?.description
                == "reel live: invalid value 'abc' for '--offset': expected a number.")
        #expect(parseError(["live", "--origin", "u", "--duration", "soon"])?.description
                == "reel live: invalid value 'soon' for '--duration': expected a duration such as 30, 1.5s, 500ms, 2m or 1h30m.")
        #expect(parseError(["live", "--origin", "u", "--duration=-5"])?.description
                == "reel live: invalid value '-5' for '--duration': expected a duration such as 30, 1.5s, 500ms, 2m or 1h30m.")
    }

    @Test func flagWithValue() {
        let error = parseError(["live", "--origin", "u", "--verbose=yes"])
        #expect(error == .flagTakesNoValue(command: "reel live", option: "--verbose", value: "yes"))
        #expect(error?.description == "reel live: option '--verbose' is a flag and takes no value; remove '=yes'.")
        #expect(parseError(["live", "--help=1"]) == .flagTakesNoValue(command: "reel live", option: "--help", value: "1"))
    }

    @Test func repeatedOption() {
        let error = parseError(["live", "--origin", "u", "-q", "low", "--quality", "high"])
        #expect(error == .repeatedOption(command: "reel live", option: "--quality"))
        #expect(error?.description == "reel live: option '--quality' can be given only once.")
        #expect(parseError(["live", "--origin", "u", "--dry-run", "--dry-run"])
                == .repeatedOption(command: "reel live", option: "--dry-run"))
    }

    @Test func unexpectedArguments() {
        #expect(parseError(["live", "--origin", "u", "extra"])?.description
                == "reel live: unexpected argument 'extra'; this command takes none.")
        let probe = CommandSpec(name: "probe", summary: "Show a file's streams.",
                                positionals: [Positional("FILE", help: "The file.")])
        #expect(throws: ArgumentParser.Error.unexpectedArgument(command: "reel probe", argument: "b.mp4",
                                                                takesArguments: true)) {
            try probe.parse(["a.mp4", "b.mp4"], path: "reel probe")
        }
        #expect(ArgumentParser.Error.unexpectedArgument(command: "reel probe", argument: "b.mp4", takesArguments: true)
                .description == "reel probe: unexpected extra argument 'b.mp4'.")
    }

    @Test func missingPositional() {
        let error = parseError(["export", "-f"])
        #expect(error == .missingArgument(command: "reel export", name: "INPUT"))
        #expect(error?.description == "reel export: missing argument INPUT.")
    }

    @Test func unknownCommand() {
        let error = parseError(["lvie"])
        #expect(error == .unknownCommand(tool: "reel", name: "lvie", suggestion: "live"))
        #expect(error?.description == "reel: unknown command 'lvie'. Did you mean 'live'?")
        #expect(error?.usageHint == "Run 'reel --help' for the list of commands.")
        #expect(parseError(["help", "exprot"])?.description == "reel: unknown command 'exprot'. Did you mean 'export'?")
        #expect(parseError(["record"])?.description == "reel: unknown command 'record'.")
    }

    @Test func missingCommand() {
        #expect(parseError([])?.description == "reel: missing command; one of: live, export.")
    }

    @Test func optionBeforeCommand() {
        #expect(parseError(["--verbose", "live"])?.description == "reel: unknown option '--verbose'.")
    }

    @Test func accessorWithAnotherTypeReportsLikeTheParser() throws {
        let parsed = try parseLive(["--offset", "1.5"])
        #expect(throws: ArgumentParser.Error.invalidValue(command: "reel live", option: "--offset", value: "1.5",
                                                          expected: "an integer", suggestion: nil)) {
            try parsed.int(Live.offset)
        }
    }

    @Test func requireWithoutValue() throws {
        let parsed = try parseLive([])
        #expect(throws: ArgumentParser.Error.missingRequired(command: "reel live", option: "--segments N")) {
            try parsed.require(Live.segments, as: Int.self)
        }
    }
}
