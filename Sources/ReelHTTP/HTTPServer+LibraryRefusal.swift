import CMicroHTTPD
import Foundation

/// libmicrohttpd answers some malformed requests itself, without calling the service: a
/// `Content-Length` that is not a number (`-1`), a request head too large for the connection's
/// memory, a broken chunked body. Its answer is its own HTML page, without the headers every
/// answer must carry (``HTTPServerSettings/responseHeaders``), and libmicrohttpd 0.9.75 sends
/// the status line and headers of that page twice. On a server with a thread per connection
/// the server answers these instead: libmicrohttpd logs the refusal (on the connection's own
/// thread) before it queues its page; the server then writes its own plain-text answer, with
/// those headers, to the socket itself and ends the sending side, so libmicrohttpd's page
/// never reaches the client.
///
/// The connection is known by the thread: the request line is reported on the thread that
/// reads it (``requestLineRead(_:)``), and on a server with a thread per connection that
/// thread serves that connection alone until it closes.
extension HTTPServer {
    /// A request line was read on this thread: remember whose connection this thread serves.
    func requestLineRead(_ connection: OpaquePointer) {
        guard settings.threading == .perConnection else { return }
        let key = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
        let thread = UInt(pthread_self())
        connectionThreads.withLock { $0[thread] = (key, answered: false) }
    }

    /// A connection closed: its thread serves it no more.
    func forgetThread(of connection: UInt) {
        connectionThreads.withLock { threads in
            for (thread, served) in threads where served.connection == connection { threads.removeValue(forKey: thread) }
        }
    }

    /// libmicrohttpd's message as it refuses a request by itself (`Error processing request
    /// (HTTP response code is 400 (`<html>…`)). Closing connection.`): answers the connection
    /// of this thread with the server's own refusal. True when it did.
    func answerLibraryRefusal(_ message: String) -> Bool {
        guard settings.threading == .perConnection, let (status, reason) = Self.libraryRefusal(message) else { return false }
        let thread = UInt(pthread_self())
        guard let connection = connectionThreads.withLock({ $0[thread]?.connection }) else { return false }
        var headers = [("Date", HTTPResponse.httpDate(Date())), ("Connection", "close")]
        let response = HTTPResponse.text(status, reason)
        headers += response.headers
        let own = Set(headers.map { $0.0.lowercased() })
        headers += settings.responseHeaders.filter { !own.contains($0.0.lowercased()) }
        guard case .bytes(let body) = response.body else { return false }
        var head = "HTTP/1.1 \(status) \(HTTPResponse.reasonPhrase(status))\r\n"
        for (name, value) in headers + [("Content-Length", "\(body.count)")] { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        guard watchdog.answerDirectly(connection, Array(head.utf8) + body) else { return false }
        connectionThreads.withLock { $0[thread]?.answered = true }
        return true
    }

    /// Whether `message` is libmicrohttpd failing to send its own page on a connection the
    /// server has answered itself (which is why it failed): not worth a line.
    func isAfterDirectAnswer(_ message: String) -> Bool {
        guard settings.threading == .perConnection, message.hasPrefix("Failed to send the response") else { return false }
        let thread = UInt(pthread_self())
        return connectionThreads.withLock { $0[thread]?.answered ?? false }
    }

    /// The status and the page's words in libmicrohttpd's refusal message, or nil for any
    /// other message.
    static func libraryRefusal(_ message: String) -> (Int, String)? {
        let prefix = "Error processing request (HTTP response code is "
        guard message.hasPrefix(prefix) else { return nil }
        let rest = message.dropFirst(prefix.count)
        guard let status = Int(rest.prefix { $0.isNumber }), (400...599).contains(status) else { return nil }
        // The page's words: its body without the tags (the message may be cut short).
        var words = ""
        if let body = rest.range(of: "<body>") {
            var inTag = false
            for character in rest[body.upperBound...].prefix(while: { $0 != "'" && $0 != "`" }) {
                if character == "<" { inTag = true } else if character == ">" { inTag = false } else if !inTag { words.append(character) }
            }
        }
        let sentence = words.trimmingCharacters(in: .whitespacesAndNewlines)
        return (status, sentence.isEmpty ? "the request is refused" : sentence)
    }
}
