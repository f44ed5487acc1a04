import ReelCLI
import Testing

@Suite struct HelpTests {
    @Test func commandHelp() throws {
        let expected = """
            Usage: reel live --origin URL [options]

            Record live HLS from a source and publish it to an origin.

            Segments are about 2 s long and start on a key frame. The playlist lists only
            segments whose upload succeeded.

            Options:
              -s, --source SOURCE       Where frames come from. (one of test, file, v4l2;
                                        default: test)
                  --origin URL          Base URL that init, segments and playlist are PUT
                                        to. (required)
              -q, --quality QUALITY     Stream size and bitrate. (one of low, medium, high;
                                        default: medium)
              -d, --duration DURATION   Stop after this long; without it, run until
                                        interrupted.
                  --offset NUMBER       Audio offset in seconds; negative moves audio
                                        earlier. (default: 0)
                  --segments N          Stop after this many segments.
              -H, --header NAME:VALUE   Extra HTTP header sent with every PUT. (repeatable)
              -v, --verbose             Print each published segment; twice for every
                                        request. (repeatable)
                  --dry-run             Check the arguments and exit.
              -h, --help                Show this help.

            Examples:
              reel live --source test --origin http://127.0.0.1:8080/ --duration 30

            """
        #expect(try helpText(["live", "--help"]) == expected)
        #expect(try helpText(["help", "live"]) == expected)
        #expect(Live.spec.help(path: "reel live") == expected)
    }

    @Test func commandHelpWithPositionals() throws {
        let expected = """
            Usage: reel export [options] INPUT [OUTPUT...]

            Composite a recording into a shareable video.

            Arguments:
              INPUT    The recording to export.
              OUTPUT   Where to write; next to INPUT when absent.

            Options:
              -f, --force   Overwrite existing files.
              -h, --help    Show this help.

            """
        #expect(try helpText(["export", "-h"]) == expected)
    }

    @Test func toolHelp() throws {
        let expected = """
            Usage: reel <command> [options]

            A camera pipeline for Linux.

            Commands:
              live     Record live HLS from a source and publish it to an origin.
              export   Composite a recording into a shareable video.
              help     Show help for a command.

            Run 'reel <command> --help' for a command's options.

            """
        #expect(try helpText(["--help"]) == expected)
        #expect(tool.help() == expected)
    }

    @Test func usageLines() {
        let spec = CommandSpec(
            name: "cut", summary: "Cut.",
            options: [.value("from", placeholder: "TIME", required: true, help: "Start."),
                      .value("to", placeholder: "TIME", required: true, help: "End.")],
            positionals: [Positional("FILE", arity: .oneOrMore, help: "Files.")]
        )
        #expect(spec.usage(path: "reel cut") == "reel cut --from TIME --to TIME [options] FILE...")
        #expect(CommandSpec(name: "x", summary: "", positionals: [Positional("A", arity: .optional, help: "")])
            .usage() == "x [options] [A]")
    }

    @Test func longNamesMoveTheirTextToTheNextLine() {
        let spec = CommandSpec(
            name: "tune", summary: "Tune.",
            options: [.value("maximum-keyframe-interval", placeholder: "SECONDS", help: "Longest gap between key frames."),
                      .flag("fast", help: "Trade quality for speed.")]
        )
        let expected = """
            Usage: tune [options]

            Tune.

            Options:
                  --maximum-keyframe-interval SECONDS
                           Longest gap between key frames.
                  --fast   Trade quality for speed.
              -h, --help   Show this help.

            """
        #expect(spec.help() == expected)
    }
}
