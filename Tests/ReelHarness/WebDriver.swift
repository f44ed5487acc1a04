import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A W3C WebDriver client for tests and benchmarks: Debian's chromedriver (package
/// `chromium-driver`) on a loopback port, driving Debian's headless chromium, spoken to in plain
/// JSON over HTTP.
///
/// One instance is one chromedriver and one browser session with a fresh profile. ``quit()``
/// ends the session and every process started for it (``withWebDriver(windowSize:extraArguments:_:)``
/// calls it however the body ends; `deinit` does it too, as a last resort). chromedriver runs in
/// a process group of its own (Foundation starts children so), which chromium and its helpers
/// inherit; a watchdog in that group kills the group when the test process goes away without
/// quitting (it reads a pipe only this process writes to, and sees end of file).
///
/// Every request has a deadline (`requestTimeout`), so a hung driver fails the test instead of
/// hanging it; failures are ``Failure``s naming the command and WebDriver's `error` and `message`.
public final class WebDriver: @unchecked Sendable {
    /// chromedriver's path (Debian package `chromium-driver`, same version as `chromium`).
    public static let driverExecutable = "/usr/bin/chromedriver"
    /// chromium's path (Debian package `chromium`; a launcher script that execs /usr/lib/chromium/chromium).
    public static let browserExecutable = "/usr/bin/chromium"

    /// The port chromedriver listens on, on 127.0.0.1.
    public let port: Int
    /// The session's id.
    public let sessionID: String
    /// The capabilities chromedriver answered the new session with (`browserVersion`, `goog:processID`, …).
    public let capabilities: JSON
    /// The browser's profile folder (`--user-data-dir`), removed by ``quit()``.
    public var profileDirectory: String { driver.profile }
    /// chromedriver's process id, which is also the id of the process group everything runs in.
    public var driverProcessID: Int32 { driver.pid }

    private let driver: DriverProcess
    private var timeout: TimeInterval
    private let lock = NSLock()
    private var quitting = false

    /// Starts chromedriver on a free loopback port and opens a session with headless chromium
    /// whose window is `windowSize` (the page's viewport is smaller by the browser's emulated
    /// tool bars: 1280×657 for a 1280×800 window with chromium 156). `extraArguments` go to
    /// chromium after the defaults; every request fails after `requestTimeout` seconds
    /// without an answer.
    public init(windowSize: (width: Int, height: Int) = (1280, 800), extraArguments: [String] = [],
                requestTimeout: TimeInterval = 30) async throws {
        for (path, package) in [(Self.driverExecutable, "chromium-driver"), (Self.browserExecutable, "chromium")]
        where !FileManager.default.isExecutableFile(atPath: path) {
            throw Failure(command: "start WebDriver", error: "missing program",
                          message: "\(path) is missing: install Debian's '\(package)' package "
                              + "(apt-get install -y chromium chromium-driver; the two versions must match)")
        }
        timeout = requestTimeout
        let driver = try await DriverProcess.start()
        self.driver = driver
        port = driver.port
        let profile = driver.profile
        do {
            // chromedriver's own defaults are 300 s to load a page and 30 s for a script: keep
            // both under the request deadline, so chromedriver reports which one ran out.
            // chromedriver 156 gives chromium no start page (and turns a URL among the args into
            // a flag), so Debian's chromium opened its New Tab Page, which at times (1 start in 8)
            // went on to https://start.duckduckgo.com/; chromedriver waits for that pending
            // navigation before the first command (5 s without a network). The startup
            // preferences open about:blank instead.
            let limit = Int(requestTimeout * 800)
            let args = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                        "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--mute-audio",
                        "--user-data-dir=\(profile)", "--window-size=\(windowSize.width),\(windowSize.height)"]
                + extraArguments
            let body: JSON = ["capabilities": ["alwaysMatch": [
                "browserName": "chrome",
                "pageLoadStrategy": "normal",
                "timeouts": ["implicit": 0, "pageLoad": .number(Double(limit)), "script": .number(Double(limit))],
                "goog:chromeOptions": [
                    "binary": .string(Self.browserExecutable), "args": .array(args.map(JSON.string)),
                    "prefs": ["session.restore_on_startup": 4, "session.startup_urls": ["about:blank"]],
                ],
            ]]]
            let value = try await Self.send(port: driver.port, "POST", "/session", body, timeout: requestTimeout, what: "new session")
            guard let id = value["sessionId"]?.string else {
                throw Failure(command: "new session", error: "invalid response", message: "no sessionId in \(value)")
            }
            sessionID = id
            capabilities = value["capabilities"] ?? .null
        } catch var failure as Failure {
            failure.message += Self.logTail(driver.log)
            driver.stop()
            throw failure
        } catch {
            driver.stop()
            throw error
        }
    }

    deinit { driver.stop() }

    /// Seconds a command may go without an answer before it fails with "no answer" (set at
    /// start; a test may shorten it).
    public var requestTimeout: TimeInterval {
        get { lock.withLock { timeout } }
        set { lock.withLock { timeout = newValue } }
    }

    /// Ends the session (chromedriver closes chromium), then ends chromedriver and anything
    /// left in its process group, waits (bounded) until none of them runs, and removes the
    /// profile. Safe to call more than once; commands sent afterwards fail.
    public func quit() async {
        let first = lock.withLock { () -> Bool in
            defer { quitting = true }
            return !quitting
        }
        guard first else { return }
        _ = try? await Self.send(port: port, "DELETE", "/session/\(sessionID)", nil, timeout: min(requestTimeout, 10), what: "quit()")
        driver.stop()
    }

    /// Processes started for this driver that still run (zombies aside): chromedriver's process
    /// group, and any process whose command line names the profile folder. Empty after ``quit()``.
    public var leftoverProcesses: [Int32] { Self.leftoverProcesses(group: driver.pid, profile: driver.profile) }

    /// The processes of process group `group`, or whose command line contains `profile`, that
    /// still run (zombies aside), read from /proc.
    public static func leftoverProcesses(group: Int32, profile: String) -> [Int32] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        var found: [Int32] = []
        for name in names {
            guard let pid = Int32(name), pid != getpid(),
                  let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // "pid (comm) state ppid pgrp …"
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, fields[0] != "Z", fields[0] != "X" else { continue }
            let cmdline = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")))
                .map { String(decoding: $0.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self) } ?? ""
            if Int32(fields[2]) == group || cmdline.contains(profile) { found.append(pid) }
        }
        return found.sorted()
    }

    /// The last `count` lines chromedriver printed (for failure messages; empty after ``quit()``).
    public func driverLog(last count: Int = 40) -> String { driver.log(last: count) }

    // MARK: Navigation

    /// Loads `url` and waits until it has loaded (page load strategy "normal").
    public func navigate(to url: URL) async throws { try await navigate(to: url.absoluteString) }

    /// Loads `url` and waits until it has loaded (page load strategy "normal").
    public func navigate(to url: String) async throws {
        try await command("POST", "/url", ["url": .string(url)], what: "navigate(to: \(url))")
    }

    /// The current page's URL.
    public var currentURL: String {
        get async throws { try await command("GET", "/url", what: "currentURL").string ?? "" }
    }

    /// The current page's title.
    public var title: String {
        get async throws { try await command("GET", "/title", what: "title").string ?? "" }
    }

    // MARK: Elements

    /// The first element matching the CSS `selector`; throws "no such element" when none does.
    public func findElement(css selector: String) async throws -> Element {
        let what = "findElement(css: \(String(reflecting: selector)))"
        let value = try await command("POST", "/element", ["using": "css selector", "value": .string(selector)], what: what)
        guard let element = element(value, label: selector) else { throw Self.notAnElement(value, what: what) }
        return element
    }

    /// Every element matching the CSS `selector`, in document order (maybe none).
    public func findElements(css selector: String) async throws -> [Element] {
        let what = "findElements(css: \(String(reflecting: selector)))"
        let value = try await command("POST", "/elements", ["using": "css selector", "value": .string(selector)], what: what)
        return try (value.array ?? []).map {
            guard let element = element($0, label: selector) else { throw Self.notAnElement($0, what: what) }
            return element
        }
    }

    /// The element that has the focus (the body when none has).
    public var activeElement: Element {
        get async throws {
            let value = try await command("GET", "/element/active", what: "activeElement")
            guard let element = element(value, label: "active element") else { throw Self.notAnElement(value, what: "activeElement") }
            return element
        }
    }

    /// The element a script returned (a WebDriver element reference), or `nil` when `value` is none.
    public func element(_ value: JSON, label: String = "element from a script") -> Element? {
        value[Element.referenceKey]?.string.map { Element(id: $0, label: label, driver: self) }
    }

    /// Presses and releases each character of `keys` in turn on whatever has the focus (W3C
    /// key actions), e.g. `pressKeys(WebDriver.Key.tab)`.
    public func pressKeys(_ keys: String) async throws {
        let actions: [JSON] = keys.unicodeScalars.flatMap { key -> [JSON] in
            [["type": "keyDown", "value": .string(String(key))], ["type": "keyUp", "value": .string(String(key))]]
        }
        try await command("POST", "/actions", ["actions": [["type": "key", "id": "keyboard", "actions": .array(actions)]]],
                          what: "pressKeys(\(Key.describe(keys)))")
    }

    /// Drags with the mouse from `start` to `end` (CSS pixels of the viewport) in `steps`
    /// moves (W3C pointer actions): pointerdown, the moves, pointerup, as a hand would.
    public func drag(from start: (x: Double, y: Double), to end: (x: Double, y: Double), steps: Int = 8) async throws {
        func move(_ x: Double, _ y: Double, _ duration: Int) -> JSON {
            ["type": "pointerMove", "x": .number(x.rounded()), "y": .number(y.rounded()), "duration": .number(Double(duration)), "origin": "viewport"]
        }
        var actions: [JSON] = [move(start.x, start.y, 0), ["type": "pointerDown", "button": 0]]
        for step in 1...max(1, steps) {
            let f = Double(step) / Double(max(1, steps))
            actions.append(move(start.x + (end.x - start.x) * f, start.y + (end.y - start.y) * f, 20))
        }
        actions.append(["type": "pointerUp", "button": 0])
        try await command("POST", "/actions", ["actions": [["type": "pointer", "id": "mouse", "parameters": ["pointerType": "mouse"],
                                                            "actions": .array(actions)]]],
                          what: "drag(from: \(start), to: \(end))")
        try await command("DELETE", "/actions", nil, what: "releasing the pointer")
    }

    /// Presses the mouse at `point` (CSS pixels of the viewport) for `hold` milliseconds and
    /// lets go without moving: a click (0) or a long press.
    public func press(at point: (x: Double, y: Double), hold: Int = 0) async throws {
        let actions: [JSON] = [
            ["type": "pointerMove", "x": .number(point.x.rounded()), "y": .number(point.y.rounded()), "duration": 0, "origin": "viewport"],
            ["type": "pointerDown", "button": 0], ["type": "pause", "duration": .number(Double(hold))], ["type": "pointerUp", "button": 0],
        ]
        try await command("POST", "/actions", ["actions": [["type": "pointer", "id": "mouse", "parameters": ["pointerType": "mouse"],
                                                            "actions": .array(actions)]]],
                          what: "press(at: \(point), hold: \(hold))")
        try await command("DELETE", "/actions", nil, what: "releasing the pointer")
    }

    /// Turns the mouse wheel by `deltaY` pixels (positive: down) with the pointer at `point`.
    public func scroll(at point: (x: Double, y: Double), deltaY: Double) async throws {
        let scroll: JSON = ["type": "scroll", "x": .number(point.x.rounded()), "y": .number(point.y.rounded()), "deltaX": 0,
                            "deltaY": .number(deltaY), "duration": 0, "origin": "viewport"]
        try await command("POST", "/actions", ["actions": [["type": "wheel", "id": "wheel", "actions": [scroll]]]],
                          what: "scroll(at: \(point), deltaY: \(deltaY))")
    }

    // MARK: Scripts

    /// Runs `script` as the body of a function (`return` gives its value) with `args` as
    /// `arguments`; returns what it returned, as JSON (elements as references, see ``element(_:label:)``).
    @discardableResult
    public func executeScript(_ script: String, args: [JSON] = []) async throws -> JSON {
        try await command("POST", "/execute/sync", ["script": .string(script), "args": .array(args)],
                          what: "executeScript(\(Self.abbreviated(script)))")
    }

    /// Runs `script` like ``executeScript(_:args:)``, but its value is what it passes to the
    /// callback given as its last argument (`arguments[arguments.length - 1]`).
    @discardableResult
    public func executeAsyncScript(_ script: String, args: [JSON] = []) async throws -> JSON {
        try await command("POST", "/execute/async", ["script": .string(script), "args": .array(args)],
                          what: "executeAsyncScript(\(Self.abbreviated(script)))")
    }

    /// Runs `script` (as ``executeScript(_:args:)``) every `poll` until it returns a truthy
    /// value (JavaScript's sense), and returns that value. A script that throws counts as not
    /// yet; after `timeout` this throws a ``Failure`` with the last value or script error.
    @discardableResult
    public func waitUntil(script: String, args: [JSON] = [], timeout: Duration = .seconds(10),
                          poll: Duration = .milliseconds(20)) async throws -> JSON {
        let deadline = ContinuousClock.now + timeout
        var last = "nothing"
        while true {
            do {
                let value = try await executeScript(script, args: args)
                if value.isTruthy { return value }
                last = "the value \(value)"
            } catch let failure as Failure where failure.error == "javascript error" {
                last = "the error \(failure.message)"
            }
            guard ContinuousClock.now < deadline else {
                throw Failure(command: "waitUntil(script: \(Self.abbreviated(script)))", error: "timeout",
                              message: "not true after \(timeout); last \(last)")
            }
            try await Task.sleep(for: poll)
        }
    }

    /// Evaluates `condition` every `poll` until it is true; after `timeout` throws a
    /// ``Failure`` naming `what`. Errors `condition` throws end the wait at once.
    public func waitUntil(_ what: String, timeout: Duration = .seconds(10), poll: Duration = .milliseconds(20),
                          _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while !(try await condition()) {
            guard ContinuousClock.now < deadline else {
                throw Failure(command: "waitUntil(\(what))", error: "timeout", message: "not true after \(timeout)")
            }
            try await Task.sleep(for: poll)
        }
    }

    // MARK: Cookies, screenshots

    /// One cookie as WebDriver describes it.
    public struct Cookie: Sendable, Equatable {
        public var name: String
        public var value: String
        public var path: String?
        public var domain: String?
        public var secure: Bool
        public var httpOnly: Bool
        /// "Strict", "Lax" or "None".
        public var sameSite: String?
        /// Seconds since 1970; `nil` for a session cookie.
        public var expiry: Double?

        init(_ json: JSON) {
            name = json["name"]?.string ?? ""
            value = json["value"]?.string ?? ""
            path = json["path"]?.string
            domain = json["domain"]?.string
            secure = json["secure"]?.bool ?? false
            httpOnly = json["httpOnly"]?.bool ?? false
            sameSite = json["sameSite"]?.string
            expiry = json["expiry"]?.number
        }
    }

    /// Every cookie visible to the current page, HttpOnly ones included (W3C Get All Cookies).
    public func cookies() async throws -> [Cookie] {
        try await command("GET", "/cookie", what: "cookies()").array?.map(Cookie.init) ?? []
    }

    /// The cookie called `name`, or `nil` when the page has none by that name.
    public func cookie(named name: String) async throws -> Cookie? {
        do {
            return Cookie(try await command("GET", "/cookie/\(Self.pathComponent(name))", what: "cookie(named: \(name))"))
        } catch let failure as Failure where failure.error == "no such cookie" {
            return nil
        }
    }

    /// A PNG of the viewport.
    public func screenshot() async throws -> Data {
        let value = try await command("GET", "/screenshot", what: "screenshot()")
        guard let base64 = value.string, let png = Data(base64Encoded: base64) else {
            throw Failure(command: "screenshot()", error: "invalid response", message: "not base64: \(Self.abbreviated(value.description))")
        }
        return png
    }

    /// Width and height from a PNG's header (`nil` when `png` is not a PNG).
    public static func pngSize(_ png: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](png.prefix(24))
        guard bytes.count == 24, bytes.starts(with: pngSignature), bytes[12..<16].elementsEqual("IHDR".utf8) else { return nil }
        let big = { (at: Int) in bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (big(16), big(20))
    }

    /// The 8 bytes every PNG starts with.
    public static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    // MARK: Commands

    /// Sends a command of this session: `method` to `/session/{id}{path}` with `body`; returns
    /// the answer's `value`. For what the methods above do not cover.
    @discardableResult
    public func command(_ method: String, _ path: String, _ body: JSON? = nil, what: String? = nil) async throws -> JSON {
        let what = what ?? "\(method) \(path)"
        guard !lock.withLock({ quitting }) else {
            throw Failure(command: what, error: "session quit", message: "quit() was called before this command")
        }
        return try await Self.send(port: port, method, "/session/\(sessionID)\(path)", body, timeout: requestTimeout, what: what)
    }

    private static func send(port: Int, _ method: String, _ path: String, _ body: JSON?, timeout: TimeInterval,
                             what: String) async throws -> JSON {
        let request = "\(method) \(path)"
        let payload = try body.map { try JSONEncoder().encode($0) } ?? (method == "POST" ? Data("{}".utf8) : nil)
        let answer: (status: Int, body: Data)
        do {
            answer = try await LoopbackHTTP.send(port: port, method, path, body: payload, timeout: timeout)
        } catch let error as LoopbackHTTP.Failure {
            throw Failure(command: what, request: request, error: "no answer", message: error.description)
        }
        guard let json = try? JSONDecoder().decode(JSON.self, from: answer.body) else {
            throw Failure(command: what, request: request, status: answer.status, error: "invalid response",
                          message: abbreviated(String(decoding: answer.body, as: UTF8.self)))
        }
        let value = json["value"] ?? .null
        guard answer.status == 200 else {
            let error = value["error"]?.string ?? "HTTP \(answer.status)"
            var message = (value["message"]?.string ?? "\(value)").split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            if message.hasPrefix(error + ": ") { message.removeFirst(error.count + 2) }  // chromedriver repeats the code
            throw Failure(command: what, request: request, status: answer.status, error: error, message: message)
        }
        return value
    }

    private static func notAnElement(_ value: JSON, what: String) -> Failure {
        Failure(command: what, error: "invalid response", message: "not an element reference: \(abbreviated(value.description))")
    }

    static func abbreviated(_ text: String, to limit: Int = 80) -> String {
        let line = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        return String(reflecting: line.count > limit ? line.prefix(limit) + "…" : line)
    }

    static func pathComponent(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }

    private static func logTail(_ log: String) -> String {
        log.isEmpty ? "" : "\nchromedriver said:\n" + log
    }

    /// A failed command: which one, and what WebDriver said (its `error` code, e.g. "no such
    /// element", and `message`).
    public struct Failure: Error, CustomStringConvertible {
        /// The command as the caller wrote it, e.g. `findElement(css: "#go")`.
        public var command: String
        /// The HTTP request, e.g. `POST /session/…/element`; empty when none was sent.
        public var request: String
        /// The HTTP status, when an answer came.
        public var status: Int?
        /// WebDriver's error code ("no such element", "javascript error", …) or this client's
        /// ("no answer", "timeout", "missing program", …).
        public var error: String
        /// WebDriver's message.
        public var message: String

        /// A failure of `command`.
        public init(command: String, request: String = "", status: Int? = nil, error: String, message: String) {
            self.command = command
            self.request = request
            self.status = status
            self.error = error
            self.message = message
        }

        /// "WebDriver COMMAND failed: ERROR: MESSAGE [REQUEST, HTTP STATUS]".
        public var description: String {
            let sent = request.isEmpty ? "" : " [\(request)\(status.map { ", HTTP \($0)" } ?? "")]"
            return "WebDriver \(command) failed: \(error): \(message)\(sent)"
        }
    }

    /// WebDriver's codes for keys that type no character, for ``Element/sendKeys(_:)`` and
    /// ``pressKeys(_:)``.
    public enum Key {
        /// Backspace (U+E003).
        public static let backspace = "\u{E003}"
        /// Tab (U+E004): the focus moves to the next control.
        public static let tab = "\u{E004}"
        /// Enter (U+E007).
        public static let enter = "\u{E007}"
        /// Shift (U+E008).
        public static let shift = "\u{E008}"
        /// Escape (U+E00C).
        public static let escape = "\u{E00C}"
        /// Space (U+E00D): presses a focused button.
        public static let space = "\u{E00D}"
        /// Arrow left (U+E012).
        public static let arrowLeft = "\u{E012}"
        /// Arrow up (U+E013).
        public static let arrowUp = "\u{E013}"
        /// Arrow right (U+E014).
        public static let arrowRight = "\u{E014}"
        /// Arrow down (U+E015).
        public static let arrowDown = "\u{E015}"

        /// `keys` with the special keys named, e.g. `"a<Tab>"`.
        static func describe(_ keys: String) -> String {
            let names: [String: String] = [backspace: "Backspace", tab: "Tab", enter: "Enter", shift: "Shift", escape: "Escape",
                                           space: "Space", arrowLeft: "Left", arrowUp: "Up", arrowRight: "Right", arrowDown: "Down"]
            return String(reflecting: keys.unicodeScalars.map { names[String($0)].map { "<\($0)>" } ?? String($0) }.joined())
        }
    }
}

/// Runs `body` with a new ``WebDriver``; the driver always quits afterwards, whether `body`
/// returned or threw.
public func withWebDriver<T>(windowSize: (width: Int, height: Int) = (1280, 800), extraArguments: [String] = [],
                             _ body: (WebDriver) async throws -> T) async throws -> T {
    let driver = try await WebDriver(windowSize: windowSize, extraArguments: extraArguments)
    do {
        let result = try await body(driver)
        await driver.quit()
        return result
    } catch {
        await driver.quit()
        throw error
    }
}
