import Foundation
import ReelCore
import ReelStudio

/// `reel studio`: Reel Studio, the local web app, served by this process.
enum StudioCommand {
    static let host = Option.value("host", placeholder: "ADDR", default: "127.0.0.1",
                                   help: "Address to listen on: 127.0.0.1 or ::1 (this machine only). Any other address needs --remote.")
    static let port = Option.value("port", short: "p", as: Int.self, default: "8090", help: "Port to listen on (0 picks a free one).")
    static let remote = Option.flag("remote", help: "Allow --host to be an address other machines reach (0.0.0.0, ::, a LAN address); the token is needed from every address.")
    static let source = Option.value("source", short: "s", placeholder: "SRC",
                                     help: "The source the record page starts with: test[:WxH[@FPS]], file:PATH or v4l2:/dev/videoN.")
    static let open = Option.flag("open", help: "Open the address in the desktop's browser (xdg-open).")
    static let openBD = Option.value("openbd", placeholder: "URL",
                                     help: "OpenBD's base address for the materials page's lookups (default $REEL_OPENBD_URL or https://api.openbd.jp/v1).")
    static let ndl = Option.value("ndl", placeholder: "URL",
                                  help: "The National Diet Library search's base for the materials page (default $REEL_NDL_URL or https://ndlsearch.ndl.go.jp).")
    static let accessLog = Option.value("access-log", placeholder: "FILE",
                                        help: "Append the access log (one line per request) to FILE; '-' for standard output, 'none' for no log. Default: reel/studio-access.log in the XDG state folder.")

    static let spec = CommandSpec(
        name: "studio",
        summary: "Run Reel Studio, the local web app: live state in the browser.",
        discussion: """
            Serves the studio's page, its JSON API (/api/status) and its event stream (/api/events) \
            on this machine, and prints the address to open: it carries a token made at each start, \
            which the browser exchanges for a session cookie (HttpOnly, SameSite=Strict). Requests \
            that name another host, come from another site's page, or change something without the \
            studio's own Origin are refused; scripts may send 'Authorization: Bearer TOKEN'. \
            docs/studio.md describes the API. Ctrl-C (SIGINT) or SIGTERM stops it.
            """,
        options: [host, port, remote, LibraryOption.option, source, open, accessLog, openBD, ndl],
        examples: [
            "reel studio --open",
            "reel studio --port 0 --source test",
            "reel studio --host 0.0.0.0 --remote --port 8090",
        ])

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let settings = try settings(arguments)
        let studio: StudioServer
        do {
            studio = try StudioServer(settings: settings)
            try studio.start()
        } catch let error as StudioServer.StartError {
            throw arguments.refused(error.description)
        }
        let address = studio.signInURL.absoluteString
        print("""
            reel studio: serving \(settings.libraryPath)
              open:     \(address)
              api:      \(studio.baseURL.absoluteString)api/status   (Authorization: Bearer \(studio.token.text))
            """)
        fflush(nil)
        if arguments.flag(open) { openInBrowser(address) }

        await SignalTrap.serveUntilStopped { received in
            let finishing = studio.isRecording ? " (finishing the recording first, as stop would)" : ""
            ErrorPrinter.note("reel studio", "\(received == SIGINT ? "interrupted" : "terminated"), stopping\(finishing)")
            await studio.stop()
            ErrorPrinter.note("reel studio", "stopped")
        }
        return 0
    }

    static func settings(_ arguments: ParsedArguments) throws -> StudioSettings {
        let portNumber = try arguments.require(port, as: Int.self)
        guard (0...65535).contains(portNumber) else { throw arguments.invalid(port, expected: "a port from 0 to 65535") }
        if let text = arguments.string(source) {
            do { _ = try SourceSpec(parsing: text) } catch let error as SourceSpec.Error {
                throw arguments.invalid(source, expected: error.expected)
            }
        }
        var settings = StudioSettings(host: try arguments.require(host), port: portNumber, remote: arguments.flag(remote),
                                      libraryPath: LibraryOption.path(arguments), source: arguments.string(source))
        settings.version = ReelVersion.number
        settings.bookLookup = try MaterialsCommand.lookupSettings(arguments, openBD: openBD, ndl: ndl)
        switch arguments.string(accessLog) {
        case "-": settings.accessLog = .standardOutput
        case "none": settings.accessLog = .none
        case let file?: settings.accessLog = .file(URL(fileURLWithPath: file))
        case nil:
            let file = StudioSettings.defaultAccessLog()
            try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            settings.accessLog = .file(file)
        }
        return settings
    }

    /// `xdg-open ADDRESS`, not waited for; a machine without it gets a note, not a failure.
    static func openInBrowser(_ address: String) {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        guard let opener = path.split(separator: ":").map({ "\($0)/xdg-open" }).first(where: FileManager.default.isExecutableFile) else {
            ErrorPrinter.note("reel studio", "--open needs xdg-open (Debian package xdg-utils), which is not installed; open the address above in a browser")
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: opener)
        process.arguments = [address]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            ErrorPrinter.note("reel studio", "could not run \(opener) (\(error)); open the address above in a browser")
        }
    }
}
