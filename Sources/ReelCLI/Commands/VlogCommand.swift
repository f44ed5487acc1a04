import Foundation
import ReelCore
import ReelExport
import ReelMedia
import ReelStore

/// `reel vlog --week this|last --layout vertical|horizontal [--bgm AUDIO] -o OUT.mp4`: a week
/// of study sessions as one shareable video, faces hidden.
enum VlogCommand {
    static let week = Option.value("week", placeholder: "WEEK", default: "last", choices: VlogWeek.Choice.allCases.map(\.rawValue),
                                   help: "this (the week containing today) or last (the week before; the default). Weeks start on Monday.")
    static let layout = Option.value("layout", placeholder: "LAYOUT", default: "vertical", choices: WeeklyVlog.Layout.allCases.map(\.rawValue),
                                     help: "vertical (1080x1920, the default) or horizontal (1920x1080); videos are fitted and padded, never cropped.")
    static let bgm = Option.value("bgm", placeholder: "AUDIO", help: "Background music (any audio file), looped or trimmed to the vlog, faded in over 1 s and out over 2 s.")
    static let output = Option.value("output", short: "o", placeholder: "OUT.mp4", required: true, help: "The MP4 to write (never replaced unless --overwrite).")
    static let date = Option.value("date", placeholder: "YYYY-MM-DD", help: "The day 'this' and 'last' count from (default: today).")
    static let overwrite = Option.flag("overwrite", help: "Replace OUT.mp4 when it exists.")
    static let json = Option.flag("json", help: "Progress and the result as JSON lines on standard output, for scripts.")

    static let spec = CommandSpec(
        name: "vlog",
        summary: "Join a week's study sessions into one video: a title card per day, faces hidden, music.",
        discussion: """
            Days run in local time (the TZ variable sets the zone); a session belongs to the day \
            it started. Each day with sessions gets a 2 s title card (the date, the day's study \
            time, the session titles), then its session videos with their faces hidden as \
            'reel export' hides them (the recorded face positions and your review edits). A \
            session whose video is missing or a still image, or that has no face positions, is \
            left out with a warning ('reel export SESSION --all-faces' exports it on its own). \
            Without --bgm the vlog has no sound. The output appears only when it is complete, and is never \
            one of the session videos or the music (also not through a link). Ctrl-C or SIGTERM \
            stops it and removes the partial output.

            Exit status: 0 made; 3 made, but a session's video could not be read to its end \
            (damaged or cut short; the warning says how much is in); 1 failed, nothing written; \
            64 a command line that cannot be run; 130 stopped by Ctrl-C and 143 by SIGTERM, \
            nothing written.
            """,
        options: [week, layout, bgm, output, date, overwrite, json, LibraryOption.option, VerboseOption.option],
        examples: ["reel vlog --week last -o week.mp4", "reel vlog --week this --layout horizontal --bgm music.mp3 -o week.mp4"])

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let choice = VlogWeek.Choice(rawValue: arguments.string(week) ?? "last") ?? .last
        let shape = WeeklyVlog.Layout(rawValue: arguments.string(layout) ?? "vertical") ?? .vertical
        let outputPath = ExportCommand.absolute(try arguments.require(output))
        let day = try GoalCommand.day(arguments, date)
        let musicPath = arguments.string(bgm).map(ExportCommand.absolute)
        let reporter = ExportTerminalReporter(json: arguments.flag(json), command: "vlog")
        if let musicPath, !FileManager.default.fileExists(atPath: musicPath) {
            reporter.fail("the background music \(musicPath) does not exist")
            return 1
        }
        VerboseOption.apply(arguments, command: "reel vlog")
        do {
            let zone = TimeZone.current
            let sessions = try LibraryOption.openExisting(arguments).sessions()
            let chosen = VlogWeek(choice, now: day.start(in: zone).addingTimeInterval(12 * 3600), timeZone: zone, sessions: sessions)
            var settings = WeeklyVlog.Settings(week: chosen, layout: shape, musicPath: musicPath, outputPath: outputPath)
            settings.overwrite = arguments.flag(overwrite)
            let stop = ExportStopRequest()
            let signals = ExportCommand.trapStops(stop)
            defer { signals.cancel() }
            let report = try WeeklyVlog(settings: settings, reporter: reporter, stop: stop).run()
            reporter.done(report)
            return report.partial ? ExportCommand.partialExitCode : 0
        } catch let stopped as ExportStopRequest.Stopped {
            return reporter.stopped(stopped)
        } catch {
            reporter.fail("\(error)")
            return 1
        }
    }
}

extension ExportTerminalReporter {
    func done(_ r: WeeklyVlog.Report) {
        if json {
            emitJSON(["event": "done", "output": r.outputPath, "frames": r.frames, "width": r.width, "height": r.height,
                      "videoSeconds": r.videoSeconds, "wallSeconds": r.wallSeconds, "cards": r.cards, "sessions": r.sessions,
                      "music": r.music, "warnings": r.warnings, "partial": r.partial])
            return
        }
        endStatus()
        var lines = ["vlog: \(r.outputPath)",
                     "  \(r.width)x\(r.height), \(Counted.noun(r.cards, "day")), \(Counted.noun(r.sessions, "session")), "
                        + "\(String(format: "%.1f", r.videoSeconds)) s of video in \(String(format: "%.1f", r.wallSeconds)) s" + (r.music ? ", with music" : "")]
        for warning in r.warnings { lines.append("  warning: \(warning)") }
        info(lines.joined(separator: "\n"))
    }
}
