import Foundation
import ReelCinematic
import ReelCore
import ReelMedia

/// `reel refocus`: an editable cinematic recording rendered again with a new focus.
enum RefocusCommand {
    static let file = Positional("FILE", help: "A recording made with reel cinematic --editable (FILE.cinematic beside it).")
    static let at = Option.value("at", placeholder: "SECONDS", default: "0", help: "From when the new focus applies (before it, the recorded focus).")
    static let subject = Option.value("subject", placeholder: "ID", help: "Focus on the subject with this id (the status line and the sidecar name them).")
    static let point = Option.value("point", placeholder: "X,Y", help: "Focus on whatever is at this point (a tap; 0 to 1 across and down).")
    static let fixed = Option.value("fixed", placeholder: "X,Y", help: "Fix the focus on the plane at this point (a long press).")
    static let strong = Option.flag("strong", help: "With --subject: hold it even when a more prominent subject comes.")
    static let aperture = Option.value("aperture", short: "a", placeholder: "F", help: "A new f-number for the whole video, 2 to 16 (default: as recorded).")
    static let output = Option.value("output", short: "o", placeholder: "FILE.mp4", required: true, help: "The MP4 to write (must not exist).")

    static let spec = CommandSpec(
        name: "refocus",
        summary: "Change the focus or the aperture of an editable cinematic recording afterwards.",
        discussion: """
            The recording keeps its pictures unblurred and, beside them, every picture's layers, \
            subjects and focus decision. From --at on, the focus follows the new choice (a subject, \
            whatever is at a point, or the plane at a point) with a rack focus from where it was; \
            before it, the recorded focus. The recorded sound is copied. Without a new focus, only \
            the aperture changes.
            """,
        options: [at, subject, point, fixed, strong, aperture, output, VerboseOption.option],
        positionals: [file],
        examples: ["reel refocus take.mp4 --at 3.5 --subject 2 --strong -o take-2.mp4",
                   "reel refocus take.mp4 --aperture 2 -o softer.mp4"])

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let settings = try settings(arguments)
        VerboseOption.apply(arguments, command: "reel refocus")
        let printer = StatusLinePrinter(period: 5)
        let started = Date()
        let refocus = CinematicRefocus(settings: settings, progress: { done, total in
            printer.status("refocusing: \(done) of \(total) pictures", elapsed: Date().timeIntervalSince(started))
        }, warn: { printer.emit("reel refocus: warning: \($0)", toError: true) })
        do {
            let report = try await Task.detached { try refocus.run() }.value
            printer.endStatus()
            printer.emit("wrote \(settings.output): \(Counted.noun(report.pictures, "picture"))", toError: false)
            return 0
        } catch {
            printer.endStatus()
            printer.emit("reel refocus: \(ErrorSentence.reason(error))", toError: true)
            return 1
        }
    }

    /// The settings the arguments ask for, or the usage error that says what is wrong.
    static func settings(_ arguments: ParsedArguments) throws -> RefocusSettings {
        let input = UserFolders.absolute(try LibraryCommandText.required(arguments, file))
        guard let seconds = Double(try arguments.require(at)), seconds >= 0 else {
            throw arguments.invalid(at, expected: "seconds from the start, 0 or more")
        }
        let chosen = [subject, point, fixed].filter { arguments.string($0) != nil }
        guard chosen.count <= 1 else { throw arguments.refused("choose one of --subject, --point and --fixed") }
        var control: CinematicControl?
        if let text = arguments.string(subject) {
            guard let id = Int(text), id > 0 else { throw arguments.invalid(subject, expected: "a subject's id (a whole number)") }
            control = .subject(id: id, strong: arguments.flag(strong))
        } else if arguments.flag(strong) {
            throw arguments.refused("--strong goes with --subject")
        }
        for (option, press) in [(point, false), (fixed, true)] {
            guard let text = arguments.string(option) else { continue }
            let numbers = text.split(separator: ",").compactMap { Double($0) }
            guard numbers.count == 2, numbers.allSatisfy({ (0...1).contains($0) }) else {
                throw arguments.invalid(option, expected: "X,Y with X and Y from 0 to 1")
            }
            control = press ? .press(x: numbers[0], y: numbers[1]) : .tap(x: numbers[0], y: numbers[1])
        }
        var newAperture: Aperture?
        if let text = arguments.string(aperture) {
            guard let value = Aperture.number(in: text), let valid = try? Aperture(fNumber: value) else {
                throw arguments.invalid(aperture, expected: "an f-number from \(Aperture.minimum) to \(Aperture.maximum)")
            }
            newAperture = valid
        }
        guard control != nil || newAperture != nil else { throw arguments.refused("say what to change: --subject, --point, --fixed or --aperture") }
        let path = UserFolders.absolute(try arguments.require(output))
        if FileManager.default.fileExists(atPath: path) { throw arguments.refused("\(path) already exists; choose another --output") }
        return RefocusSettings(input: input, output: path, at: seconds, control: control, aperture: newAperture)
    }
}
