import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Stand-ins for openBD and the National Diet Library search on loopback, answering as the
/// public APIs do (their documented formats), from answers the test gives: Debian's python3
/// `http.server` running a small script, one server for both services.
///
/// - `GET /openbd/get?isbn=X`: the test's openBD JSON for X, else `[null]` (openBD's "unknown").
/// - `GET /ndl/api/opensearch?isbn=X`: the test's RSS for X, else an RSS channel with
///   `openSearch:totalResults` 0 and no item.
/// - `GET /covers/X.jpg`: the test's cover bytes.
/// Every request's path is logged, so a test can tell which services were asked.
public final class BookAPIFixtureServer: @unchecked Sendable {
    /// The port on 127.0.0.1.
    public let port: Int
    private let folder: String
    private let process: BackgroundProcess

    /// openBD's base address on this server (`{base}/get?isbn=`).
    public var openBDBase: String { "http://127.0.0.1:\(port)/openbd" }
    /// The NDL search's base address on this server (`{base}/api/opensearch?isbn=`).
    public var ndlBase: String { "http://127.0.0.1:\(port)/ndl" }

    /// The server did not come up.
    public struct Failed: Error, CustomStringConvertible {
        public var description: String
    }

    /// Starts a server whose answers live in `folder` (made if missing).
    public init(folder: String) async throws {
        self.folder = folder
        try FileManager.default.createDirectory(atPath: folder + "/openbd", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/ndl", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/covers", withIntermediateDirectories: true)
        try Self.script.write(toFile: folder + "/server.py", atomically: true, encoding: .utf8)
        port = try Loopback.freePort()
        process = try BackgroundProcess("/usr/bin/python3", [folder + "/server.py", String(port), folder])
        let deadline = ContinuousClock.now + .seconds(10)
        while !Self.accepts(port) {
            guard ContinuousClock.now < deadline, process.isRunning else {
                throw Failed(description: "the fixture book server on port \(port) did not start")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// openBD will answer `json` (its documented array) for `isbn`.
    public func setOpenBD(_ isbn: String, json: String) throws {
        try json.write(toFile: "\(folder)/openbd/\(isbn).json", atomically: true, encoding: .utf8)
    }

    /// The NDL search will answer `rss` for `isbn`.
    public func setNDL(_ isbn: String, rss: String) throws {
        try rss.write(toFile: "\(folder)/ndl/\(isbn).xml", atomically: true, encoding: .utf8)
    }

    /// `/covers/NAME` will answer `bytes`.
    public func setCover(_ name: String, bytes: Data) throws {
        try bytes.write(to: URL(fileURLWithPath: "\(folder)/covers/\(name)"))
    }

    /// The request paths (with queries) answered so far, in order.
    public var requests: [String] {
        ((try? String(contentsOfFile: folder + "/requests.log", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Stops the server and waits for it to go (SIGKILL: the fixture keeps no state worth a
    /// clean exit, and a child of the test runner may have SIGTERM ignored).
    public func stop() async {
        process.send(SIGKILL)
        _ = await process.wait(timeout: .seconds(5))
    }

    private static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    /// An RSS 2.0 OpenSearch answer as the NDL search writes it, with one item per book given.
    public static func ndlRSS(items: [(title: String, creators: [String], publisher: String, isbn: String)]) -> String {
        func esc(_ s: String) -> String {
            s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        }
        let body = items.map { item in
            """
              <item>
                <title>\(esc(item.title))</title>
                <link>https://ndlsearch.ndl.go.jp/books/R100000002-I000000000-00</link>
                <description><![CDATA[<p>\(esc(item.publisher)),\(item.isbn)</p><ul><li>タイトル: \(esc(item.title))</li></ul>]]></description>
                <author>\(esc(item.creators.joined(separator: ",")))</author>
                <category>本</category>
                <guid isPermaLink="true">https://ndlsearch.ndl.go.jp/books/R100000002-I000000000-00</guid>
                <pubDate>Tue, 03 Sep 2013 09:00:00 +0900</pubDate>
                <dc:title>\(esc(item.title))</dc:title>
                <dcndl:titleTranscription>ダミー</dcndl:titleTranscription>
            \(item.creators.map { "    <dc:creator>\(esc($0))</dc:creator>" }.joined(separator: "\n"))
                <dc:publisher>\(esc(item.publisher))</dc:publisher>
                <dc:identifier xsi:type="dcndl:ISBN">\(item.isbn)</dc:identifier>
              </item>
            """
        }.joined(separator: "\n")
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss xmlns:dcterms="http://purl.org/dc/terms/" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:dcndl="http://ndl.go.jp/dcndl/terms/" version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:openSearch="http://a9.com/-/spec/opensearchrss/1.0/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#" xmlns:dcmitype="http://purl.org/dc/dcmitype/">
            <channel>
              <title>国立国会図書館サーチ OpenSearch</title>
              <link>https://ndlsearch.ndl.go.jp/api/opensearch</link>
              <description>Search results</description>
              <language>ja</language>
              <openSearch:totalResults>\(items.count)</openSearch:totalResults>
              <openSearch:startIndex>1</openSearch:startIndex>
              <openSearch:itemsPerPage>\(items.count)</openSearch:itemsPerPage>
            \(body)
            </channel>
            </rss>
            """
    }

    /// An openBD answer for one known book (the `onix`, `hanmoto` and `summary` objects; only
    /// the summary's fields are filled as openBD fills them).
    public static func openBDJSON(isbn: String, title: String, author: String, publisher: String, cover: String, volume: String = "") -> String {
        let summary: [String: Any] = ["isbn": isbn, "title": title, "volume": volume, "series": "", "publisher": publisher,
                                      "pubdate": "2013-04", "cover": cover, "author": author]
        let entry: [String: Any] = ["onix": ["RecordReference": isbn, "NotificationType": "03",
                                             "ProductIdentifier": ["ProductIDType": "15", "IDValue": isbn]],
                                    "hanmoto": ["datecreated": "2013-03-01 00:00:00"], "summary": summary]
        return String(decoding: try! JSONSerialization.data(withJSONObject: [entry], options: [.sortedKeys]), as: UTF8.self)
    }

    private static let script = #"""
import http.server, os, sys, urllib.parse

port, root = int(sys.argv[1]), sys.argv[2]
EMPTY_RSS = ('<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" '
    'xmlns:openSearch="http://a9.com/-/spec/opensearchrss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">'
    '<channel><title>国立国会図書館サーチ OpenSearch</title><link>https://ndlsearch.ndl.go.jp/api/opensearch</link>'
    '<description>Search results</description><language>ja</language>'
    '<openSearch:totalResults>0</openSearch:totalResults><openSearch:startIndex>1</openSearch:startIndex>'
    '<openSearch:itemsPerPage>0</openSearch:itemsPerPage></channel></rss>')

class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, body, kind):
        data = body if isinstance(body, bytes) else body.encode('utf-8')
        self.send_response(status)
        self.send_header('Content-Type', kind)
        self.send_header('Content-Length', str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def file(self, *parts):
        path = os.path.join(root, *parts)
        if os.path.isfile(path):
            with open(path, 'rb') as f:
                return f.read()
        return None

    def do_GET(self):
        with open(os.path.join(root, 'requests.log'), 'a') as log:
            log.write(self.path + '\n')
        url = urllib.parse.urlsplit(self.path)
        isbn = urllib.parse.parse_qs(url.query).get('isbn', [''])[0]
        if not isbn.isdigit() and url.path != '' and not url.path.startswith('/covers/'):
            isbn = ''
        if url.path == '/openbd/get':
            self.answer(200, self.file('openbd', isbn + '.json') or b'[null]', 'application/json; charset=utf-8')
        elif url.path == '/ndl/api/opensearch':
            self.answer(200, self.file('ndl', isbn + '.xml') or EMPTY_RSS, 'application/xml; charset=utf-8')
        elif url.path.startswith('/covers/'):
            body = self.file('covers', os.path.basename(url.path))
            if body is None:
                self.answer(404, 'not found', 'text/plain')
            else:
                self.answer(200, body, 'image/jpeg')
        else:
            self.answer(404, 'not found', 'text/plain')

http.server.ThreadingHTTPServer(('127.0.0.1', port), Handler).serve_forever()
"""#
}
