import Foundation

/// One HTTP exchange done by the curl tool.
public struct CurlResponse: Sendable {
    public var status: Int
    /// Headers of the final response, names lowercased.
    public var headers: [String: String]
    public var body: Data
    public var stderr: String
}

/// Runs `curl` with `arguments` (after `-s -S`), returning the final response's status,
/// headers and body.
public func curl(_ arguments: [String]) throws -> CurlResponse {
    let folder = try TemporaryDirectory()
    defer { folder.cleanup() }
    let headerFile = folder.path("headers"), bodyFile = folder.path("body")
    let result = try Subprocess.run("curl", ["-s", "-S", "--max-time", "20", "-D", headerFile, "-o", bodyFile, "-w", "%{http_code}"] + arguments)
    let headerText = (try? String(contentsOfFile: headerFile, encoding: .utf8)) ?? ""
    // With 100 Continue there are several header blocks; keep the last one.
    let blocks = headerText.components(separatedBy: "\r\n\r\n").filter { !$0.isEmpty }
    var headers: [String: String] = [:]
    for line in (blocks.last ?? "").components(separatedBy: "\r\n").dropFirst() {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    let body = (try? Data(contentsOf: URL(fileURLWithPath: bodyFile))) ?? Data()
    return CurlResponse(status: Int(result.stdout) ?? 0, headers: headers, body: body, stderr: result.stderr)
}

extension CurlResponse {
    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }
}
