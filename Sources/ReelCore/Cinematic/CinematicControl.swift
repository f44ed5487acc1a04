import Foundation

/// One command to the running cinematic camera, as typed on its standard input (or sent by the
/// studio): points are normalized (0…1 across and down, origin top-left).
public enum CinematicControl: Sendable, Equatable {
    /// A tap (the tap rules of docs/behaviour.md §3).
    case tap(x: Double, y: Double)
    /// A long press: fixed focus on the plane at the point.
    case press(x: Double, y: Double)
    /// Focus on subject `id`, strongly or weakly.
    case subject(id: Int, strong: Bool)
    /// A new aperture.
    case aperture(Aperture)
    /// Strong focus on the most prominent face.
    case lock
    /// Back to automatic (weak, the most prominent subject).
    case automatic

    /// Each command's form, in help order.
    public static let forms = ["tap X Y", "press X Y", "subject ID strong|weak", "aperture F", "lock", "auto"]

    /// `forms` (and whatever else a caller takes beside them) for help texts and error messages.
    public static func usage(listing forms: [String]) -> String { forms.joined(separator: " | ") + "  (X, Y from 0 to 1)" }

    /// The commands, for help texts and error messages.
    public static let usage = usage(listing: forms)

    /// Why a line is not a command.
    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public let line: String
        public let reason: String
        public var description: String { "'\(line)': \(reason); commands: \(CinematicControl.usage)" }
    }

    /// The command on `line` (words separated by spaces; case does not matter).
    public init(parsing line: String) throws(ParseError) {
        let words = line.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        func fail(_ reason: String) -> ParseError { ParseError(line: line.trimmingCharacters(in: .whitespaces), reason: reason) }
        func point() throws(ParseError) -> (Double, Double) {
            guard words.count == 3, let x = Double(words[1]), let y = Double(words[2]) else { throw fail("\(words[0]) needs X and Y") }
            guard (0...1).contains(x), (0...1).contains(y) else { throw fail("X and Y are shares of the picture, from 0 to 1") }
            return (x, y)
        }
        guard let verb = words.first else { throw fail("empty") }
        switch verb {
        case "tap":
            let (x, y) = try point()
            self = .tap(x: x, y: y)
        case "press":
            let (x, y) = try point()
            self = .press(x: x, y: y)
        case "subject":
            guard words.count == 3, let id = Int(words[1]), ["strong", "weak"].contains(words[2]) else {
                throw fail("subject needs an id and strong or weak")
            }
            self = .subject(id: id, strong: words[2] == "strong")
        case "aperture":
            guard words.count == 2, let value = Aperture.number(in: words[1]) else {
                throw fail("aperture needs an f-number")
            }
            do {
                self = .aperture(try Aperture(fNumber: value))
            } catch {
                throw fail(error.description)
            }
        case "lock" where words.count == 1: self = .lock
        case "auto" where words.count == 1: self = .automatic
        default: throw fail("unknown command")
        }
    }
}
