import Foundation
import ReelCore
import ReelRuntime
import ReelStudio

/// `reel studio`: Reel Studio, the local web app, served by this process.
enum StudioCommand {
    static let host = Option.value("host", placeholder: "ADDR", default: "127.0.0.1",
                                   help: "Address to listen on: 127.0.0.1 or ::1 (this machine only). Any other address needs --remote.")
    static let port = Option.value("port", short: "p", as: Int.self, default: "8090", help: "Port to listen on (0 picks a free one).")
    static let remote = Option.flag("remote", help: "Allow --host to be an address other machines reach (0.0.0.0, ::, a LAN address); the token is needed from every address.")
    static let source = Option.value("source", short: "s", placeholder: "SRC",
                                     help: "The source the record page starts with: test[:WxH[@FPS]], file:PATH or v4l2:/dev/videoN.")
    static let open = Option.flag("open", help: "Open a sign-in link in the desktop's browser (xdg-open is given a private page, mode 0600, that leads to it; removed once used or after 2 minutes).")
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
            on this machine. It prints a sign-in link for the browser: it carries a one-time code, \
            good once within 2 minutes, which the browser exchanges for a session cookie (HttpOnly, \
            SameSite=Strict); 'kill -USR1 PID' makes the running studio print a new one (and open \
            it, with --open). It also prints a token made at each start, for scripts: \
            'Authorization: Bearer TOKEN' (such a request needs no Origin). Only the studio's own \
            page is answered: requests that name another host, come from another page (another \
            site, or another port of this machine: Sec-Fetch-Site other than same-origin or none, \
            or another Origin), or change something without the studio's own Origin or the token \
            are refused. Wrong tokens and codes from one address are limited (429 after 10 a \
            minute); requests without any credential are never counted. docs/studio.md \
            describes the API. Ctrl-C (SIGINT) or SIGTERM stops it.
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
        let files = arguments.flag(open) ? try? StudioSignInFiles(environment: ProcessInfo.processInfo.environment) : nil
        // SIGUSR1: a new sign-in link (each works once, for 2 minutes), opened again with --open.
        let newLink = SignalTrap(signals: [SIGUSR1], escalates: false) { _ in
            print("  open:     \(studio.signInURL.absoluteString)")
            fflush(nil)
            if arguments.flag(open) { openInBrowser(studio, files: files) }
        }
        defer { newLink.cancel() }
        print("""
            reel studio: serving \(settings.libraryPath)
              open:     \(studio.signInURL.absoluteString)
              api:      \(studio.baseURL.absoluteString)api/status   (Authorization: Bearer \(studio.token.text))
              The open link signs in one browser, once, within 2 minutes; kill -USR1 \(getpid()) prints a new one.
            """)
        fflush(nil)
        if arguments.flag(open) { openInBrowser(studio, files: files) }

        await SignalTrap.serveUntilStopped { received in
            let finishing = studio.isRecording ? " (finishing the recording first, as stop would)" : ""
            ErrorPrinter.note("reel studio", "\(received == SIGINT ? "interrupted" : "terminated"), stopping\(finishing)")
            await studio.stop()
            files?.close()
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

    /// Opens a new sign-in link in the desktop's browser: `xdg-open` is given a private page
    /// (``StudioSignInFiles``) that leads to the link, never the link itself, and the page is
    /// removed once its code is spent or gone. Not waited for; a machine without xdg-open gets
    /// a note, not a failure.
    static func openInBrowser(_ studio: StudioServer, files: StudioSignInFiles?) {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        guard let opener = path.split(separator: ":").map({ "\($0)/xdg-open" }).first(where: FileManager.default.isExecutableFile) else {
            ErrorPrinter.note("reel studio", "--open needs xdg-open (Debian package xdg-utils), which is not installed; open the address above in a browser")
            return
        }
        guard let files else {
            ErrorPrinter.note("reel studio", "--open found no private folder for the sign-in page; open the address above in a browser")
            return
        }
        let page: String
        do {
            let written = Locked<String?>(nil)
            let address = studio.signInURL(whenDone: { if let page = written.withLock({ $0 }) { files.remove(page) } })
            page = try files.write(opening: address)
            written.withLock { $0 = page }
        } catch {
            ErrorPrinter.note("reel studio", "\(error); open the address above in a browser")
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: opener)
        process.arguments = [page]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            files.remove(page)
            ErrorPrinter.note("reel studio", "could not run \(opener) (\(error)); open the address above in a browser")
        }
    }
}
