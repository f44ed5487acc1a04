import CMicroHTTPD
import Foundation
import ReelCore

extension HTTPServer {
    public static func socketAddress(host: String, port: Int) throws(Error) -> [UInt8] {
        guard (0...65535).contains(port) else { throw .invalidPort(port) }
        let literal = host == "localhost" ? "127.0.0.1" : host
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, literal, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(UInt16(port).bigEndian)
            return withUnsafeBytes(of: v4) { Array($0) }
        }
        var v6 = sockaddr_in6()
        let unbracketed = literal.hasPrefix("[") && literal.hasSuffix("]") ? String(literal.dropFirst().dropLast()) : literal
        if inet_pton(AF_INET6, unbracketed, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(UInt16(port).bigEndian)
            return withUnsafeBytes(of: v6) { Array($0) }
        }
        throw .invalidHost(host)
    }

    /// `text` as an IPv4 or IPv6 address written the way request addresses are (`::1`,
    /// `10.0.0.1`), or nil when it is not one.
    public static func canonicalAddress(_ text: String) -> String? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET_ADDRSTRLEN) + 1) { buffer in
                inet_ntop(AF_INET, &v4, buffer.baseAddress, socklen_t(buffer.count)).map { String(cString: $0) }
            }
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN) + 1) { buffer in
            inet_ntop(AF_INET6, &v6, buffer.baseAddress, socklen_t(buffer.count)).map { String(cString: $0) }
        }
    }

    /// The request header `name` (case-insensitive; the first of several), or nil.
    static func header(_ name: String, of connection: OpaquePointer) -> String? {
        MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
    }

    /// Every request header in the order received, duplicates included. A name or value
    /// with a NUL inside (its recorded length longer than the C string) keeps the NUL, which
    /// ``ReelCore/RequestFraming`` refuses.
    static func headers(of connection: OpaquePointer) -> [(name: String, value: String)] {
        final class Collected { var headers: [(name: String, value: String)] = [] }
        let collected = Collected()
        withExtendedLifetime(collected) {
            reel_mhd_visit_headers(connection, Unmanaged.passUnretained(collected).toOpaque()) { context, name, nameLength, value, valueLength in
                guard let context, let name, let value else { return }
                let box = Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue()
                let nameText = String(decoding: UnsafeRawBufferPointer(start: name, count: nameLength), as: UTF8.self)
                let valueText = String(decoding: UnsafeRawBufferPointer(start: value, count: valueLength), as: UTF8.self)
                box.headers.append((nameText, valueText))
            }
        }
        return collected.headers
    }

    static func clientAddress(_ connection: OpaquePointer) -> String {
        guard let address = reel_mhd_client_address(connection) else { return "-" }
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            // Dotted quad by hand: this runs for every request.
            let value = UInt32(bigEndian: UnsafeRawPointer(address).load(as: sockaddr_in.self).sin_addr.s_addr)
            var text: [UInt8] = []
            text.reserveCapacity(15)
            for shift in stride(from: 24, through: 0, by: -8) {
                if shift != 24 { text.append(UInt8(ascii: ".")) }
                TimestampFormat.appendDecimal(UInt64(value >> UInt32(shift) & 0xFF), to: &text)
            }
            return String(decoding: text, as: UTF8.self)
        case AF_INET6:
            var value = UnsafeRawPointer(address).load(as: sockaddr_in6.self).sin6_addr
            return withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN) + 1) { text in
                guard inet_ntop(AF_INET6, &value, text.baseAddress, socklen_t(text.count)) != nil else { return "-" }
                return String(cString: text.baseAddress!)
            }
        default:
            return "-"
        }
    }

    /// Why the server could not start.
    public enum Error: Swift.Error, Sendable, CustomStringConvertible {
        /// The host is not an IP address (or `localhost`).
        case invalidHost(String)
        /// The port is not from 0 to 65535.
        case invalidPort(Int)
        /// Binding or starting the daemon failed: `code` is the errno (the port is taken, the
        /// address is not this machine's, no permission, …), `detail` libmicrohttpd's last word.
        case cannotListen(host: String, port: Int, code: Int32, detail: String?)
        /// The access log file cannot be opened.
        case accessLog(String, String)

        /// A message for the user: what happened and what to do.
        public var description: String {
            switch self {
            case .invalidHost(let host):
                "cannot listen on '\(host)': --host must be an IP address of this machine (127.0.0.1 or ::1 for this machine "
                    + "only, 0.0.0.0 or :: for every interface) or localhost; host names are not looked up"
            case .invalidPort(let port):
                "cannot listen on port \(port): give --port from 0 to 65535 (0 picks a free one)"
            case .cannotListen(let host, let port, let code, let detail):
                Self.listenFailure(host: host, port: port, code: code, detail: detail)
            case .accessLog(let path, let reason):
                "cannot open the access log \(path): \(reason); give --access-log a file in a folder you can write, '-' or 'none'"
            }
        }

        static func listenFailure(host: String, port: Int, code: Int32, detail: String?) -> String {
            let address = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
            switch code {
            case EADDRINUSE:
                return "cannot listen on \(address): port \(port) is already in use by another program; stop it, "
                    + "or pick another port with --port (0 picks a free one)"
            case EADDRNOTAVAIL:
                return "cannot listen on \(address): \(host) is not an address of this machine; give --host as one of its "
                    + "addresses ('ip -brief address' lists them), 127.0.0.1 for this machine only, or 0.0.0.0 for every interface"
            case EACCES where port < 1024, EPERM where port < 1024:
                return "cannot listen on \(address): ports below 1024 need root or CAP_NET_BIND_SERVICE; "
                    + "pick a port from 1024 with --port"
            case EAFNOSUPPORT:
                return "cannot listen on \(address): this machine has no IPv6; give an IPv4 --host such as 127.0.0.1 or 0.0.0.0"
            default:
                let reason = code != 0 ? ErrorSentence.posix(code) : (detail ?? "libmicrohttpd could not start")
                return "cannot listen on \(address): \(reason); check --host and --port"
            }
        }
    }
}
