import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// chromedriver, started through a watchdog: `sh` forks a subshell that reads a pipe only
/// this process writes to and kills the process group at end of file (this process quit or
/// died), then execs chromedriver, so the process is chromedriver and leads the group.
final class DriverProcess: @unchecked Sendable {
    let pid: Int32
    let port: Int
    let profile: String
    private let process: Process
    private let folder: TemporaryDirectory
    private let lifeline: Pipe
    private let logPath: String
    private let lock = NSLock()
    private var stopped = false

    private static let watchdog = #"exec 3<&0; (cat <&3 >/dev/null; kill -KILL -$$) & exec "$0" "$@" </dev/null 3<&-"#

    private init(process: Process, port: Int, folder: TemporaryDirectory, lifeline: Pipe, logPath: String) {
        self.process = process
        pid = process.processIdentifier
        self.port = port
        self.folder = folder
        profile = folder.path("profile")
        self.lifeline = lifeline
        self.logPath = logPath
    }

    /// Starts chromedriver on a free port and waits (at most 15 s) until `/status` says ready;
    /// tries another port when the chosen one was taken meanwhile.
    static func start() async throws -> DriverProcess {
        var attempt = 0
        while true {
            attempt += 1
            let started = try launch()
            switch try await started.waitUntilReady() {
            case .ready: return started
            case .exited where attempt < 3 && started.log.contains("port not available"):  // "IPv4 port not available. Exiting..."
                started.stop()
            case .exited, .timedOut:
                let failure = WebDriver.Failure(command: "start chromedriver", error: "not ready",
                                                message: "\(WebDriver.driverExecutable) --port=\(started.port) "
                                                    + "\(started.process.isRunning ? "did not say ready in 15 s" : "exited")"
                                                    + "\nchromedriver said:\n" + started.log)
                started.stop()
                throw failure
            }
        }
    }

    private static func launch() throws -> DriverProcess {
        let folder = try TemporaryDirectory()
        let logPath = folder.path("chromedriver.log")
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        guard let log = FileHandle(forWritingAtPath: logPath) else {
            folder.cleanup()
            throw WebDriver.Failure(command: "start chromedriver", error: "no log file", message: "cannot write \(logPath)")
        }
        defer { try? log.close() }
        let port = try Loopback.freePort()
        let lifeline = Pipe()
        _ = fcntl(lifeline.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", watchdog, WebDriver.driverExecutable, "--port=\(port)"]
        process.standardInput = lifeline
        process.standardOutput = log
        process.standardError = log
        do {
            try process.run()
        } catch {
            folder.cleanup()
            throw error
        }
        return DriverProcess(process: process, port: port, folder: folder, lifeline: lifeline, logPath: logPath)
    }

    private enum Readiness { case ready, exited, timedOut }

    private func waitUntilReady() async throws -> Readiness {
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline {
            guard process.isRunning else { return .exited }
            if let answer = try? await LoopbackHTTP.send(port: port, "GET", "/status", body: nil, timeout: 2),
               let json = try? JSONDecoder().decode(WebDriver.JSON.self, from: answer.body),
               json["value"]?["ready"]?.bool == true {
                return .ready
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return .timedOut
    }

    /// What chromedriver printed: the last `count` lines.
    func log(last count: Int) -> String {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n", omittingEmptySubsequences: false).suffix(count).joined(separator: "\n")
    }

    var log: String { log(last: 40) }

    /// Kills the process group, waits (at most 5 s) until nothing started for it runs, and
    /// removes the folder. Idempotent.
    func stop() {
        let first = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        try? lifeline.fileHandleForWriting.close()
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
        process.waitUntilExit()
        let deadline = Date().addingTimeInterval(5)
        while !WebDriver.leftoverProcesses(group: pid, profile: profile).isEmpty && Date() < deadline {
            usleep(10_000)
        }
        folder.cleanup()
    }

    deinit { stop() }
}

/// HTTP/1.1 to a server on 127.0.0.1, one connection per request, with a deadline.
/// chromedriver's answers have headers without a space after the colon (`Content-Length:251`),
/// which Foundation's URLSession on Linux rejects ("Failed writing header"), hence this.
enum LoopbackHTTP {
    /// Why no answer came.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Sends `method path` with `body` (JSON) to 127.0.0.1:`port`; returns the status and the
    /// body. Runs on a thread of its own (the socket calls block); throws after `timeout` seconds.
    static func send(port: Int, _ method: String, _ path: String, body: Data?, timeout: TimeInterval) async throws
        -> (status: Int, body: Data) {
        try await onItsOwnThread {
            try exchange(port: port, method, path, body: body, deadline: Date().addingTimeInterval(timeout), timeout: timeout)
        }
    }

    private static func exchange(port: Int, _ method: String, _ path: String, body: Data?, deadline: Date,
                                 timeout: TimeInterval) throws -> (status: Int, body: Data) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        defer { close(fd) }
        guard Loopback.connect(fd, port: port) == 0 else {
            throw Failure(description: "cannot connect to 127.0.0.1:\(port): \(String(cString: strerror(errno)))")
        }
        var request = Data("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n".utf8)
        if let body {
            request.append(Data("Content-Type: application/json; charset=utf-8\r\nContent-Length: \(body.count)\r\n\r\n".utf8))
            request.append(body)
        } else {
            request.append(Data("\r\n".utf8))
        }
        let expired = Failure(description: "no answer from 127.0.0.1:\(port) within \(timeout.formatted()) s")
        var sent = 0
        while sent < request.count {
            guard wait(fd, for: Int16(POLLOUT), until: deadline) else { throw expired }
            let count = request.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw Failure(description: "sending to 127.0.0.1:\(port) failed: \(String(cString: strerror(errno)))") }
            sent += count
        }
        // Read until the headers are complete and then Content-Length bytes, or the end.
        var answer = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        var head: (status: Int, length: Int?, bodyStart: Int)?
        while true {
            if head == nil, let end = answer.firstRange(of: Data("\r\n\r\n".utf8)) {
                head = try parseHead(answer[answer.startIndex..<end.lowerBound])
                head!.bodyStart = end.upperBound
            }
            if let head, let length = head.length, answer.count - head.bodyStart >= length {
                return (head.status, answer.subdata(in: head.bodyStart..<(head.bodyStart + length)))
            }
            guard wait(fd, for: Int16(POLLIN), until: deadline) else { throw expired }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count < 0 { throw Failure(description: "reading from 127.0.0.1:\(port) failed: \(String(cString: strerror(errno)))") }
            if count == 0 {
                guard let head else { throw Failure(description: "127.0.0.1:\(port) closed the connection without an answer") }
                guard head.length == nil else { throw Failure(description: "127.0.0.1:\(port) closed the connection mid-answer") }
                return (head.status, answer.subdata(in: head.bodyStart..<answer.count))
            }
            answer.append(contentsOf: buffer[0..<count])
        }
    }

    /// The status and Content-Length of a response head (tolerant of missing spaces).
    private static func parseHead(_ head: Data) throws -> (status: Int, length: Int?, bodyStart: Int) {
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]) else {
            throw Failure(description: "not an HTTP answer: \(lines[0])")
        }
        var length: Int?
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name == "content-length" { length = Int(value) }
            if name == "transfer-encoding", value.lowercased() != "identity" {
                throw Failure(description: "unsupported Transfer-Encoding: \(value)")
            }
        }
        return (status, length, 0)
    }

    /// Waits until `fd` is ready for `events` or `deadline` passes (false).
    private static func wait(_ fd: Int32, for events: Int16, until deadline: Date) -> Bool {
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return false }
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&entry, 1, Int32(min(left * 1000, 60_000).rounded(.up)))
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { return true }  // the next call reports the error
        }
    }
}
