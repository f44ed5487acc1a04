import ReelRuntime
import CZlib
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ReelOrigin
import ReelTestSupport
import Synchronization
import Testing

/// Readers never see a partial or mixed file while a writer replaces it over and over.
@Suite("Origin atomicity", .serialized)
struct OriginAtomicityTests {
    static let versions = 200

    /// Version `n`: one random base (5 MB, or 512 KiB: a size the origin keeps ready
    /// responses of) with `n` stamped into the first 8 bytes of every 64 KiB block, so a mix
    /// of two versions has a checksum that belongs to neither.
    static func version(_ n: Int, base: Data) -> Data {
        var data = base
        data.withUnsafeMutableBytes { raw in
            for offset in stride(from: 0, to: raw.count, by: 65536) {
                raw.storeBytes(of: UInt64(n).littleEndian, toByteOffset: offset, as: UInt64.self)
            }
        }
        return data
    }

    static func randomBase(size: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        var base = Data(count: size)
        base.withUnsafeMutableBytes { raw in
            for index in stride(from: 0, to: size, by: 8) { raw.storeBytes(of: generator.next(), toByteOffset: index, as: UInt64.self) }
        }
        return base
    }

    final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .relaxed) }
        func set() { value.store(true, ordering: .relaxed) }
    }

    final class Observations: Sendable {
        private let state = Locked<(reads: Int, versions: Set<Int>, bad: [String])>((0, [], []))
        func withLock<T>(_ body: (inout (reads: Int, versions: Set<Int>, bad: [String])) -> T) -> T { state.withLock { body(&$0) } }
    }

    static func crc(_ data: Data) -> UInt {
        data.withUnsafeBytes { crc32(0, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), uInt($0.count)) }
    }

    @Test(arguments: [5 * 1024 * 1024, 512 * 1024])
    func everyReadIsOneCompleteVersion(size: Int) async throws {
        try await withOrigin { origin in
            let base = Self.randomBase(size: size)
            let checksums = Dictionary(uniqueKeysWithValues: (0..<Self.versions).map { (Self.crc(Self.version($0, base: base)), $0) })
            #expect(checksums.count == Self.versions)

            let url = URL(string: origin.base + "/streams/desk/seg/000001.m4s")!
            let configuration = URLSessionConfiguration.ephemeral
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            configuration.urlCache = nil
            let session = URLSession(configuration: configuration)
            defer { session.invalidateAndCancel() }

            let token = origin.token
            @Sendable func put(_ n: Int) async throws -> (status: Int, text: String) {
                var request = URLRequest(url: url)
                request.httpMethod = "PUT"
                request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
                request.setValue(String(size), forHTTPHeaderField: "Content-Length")
                let (data, response) = try await session.upload(for: request, from: Self.version(n, base: base))
                return ((response as! HTTPURLResponse).statusCode, String(decoding: data.prefix(300), as: UTF8.self))
            }
            #expect(try await put(0).status == 201)

            let done = Flag()
            let seen = Observations()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<2 {
                    group.addTask {
                        while !done.isSet {
                            let (data, response) = try await session.data(from: url)
                            let status = (response as! HTTPURLResponse).statusCode
                            let version = checksums[Self.crc(data)]
                            seen.withLock { state in
                                state.reads += 1
                                if status != 200 || version == nil {
                                    state.bad.append("status \(status), \(data.count) bytes, no known checksum")
                                } else {
                                    state.versions.insert(version!)
                                }
                            }
                        }
                    }
                }
                group.addTask {
                    defer { done.set() }
                    for n in 1..<Self.versions {
                        let answer = try await put(n)
                        if answer.status != 204 { seen.withLock { $0.bad.append("PUT \(n) answered \(answer.status): \(answer.text)") } }
                    }
                }
                try await group.waitForAll()
            }
            let result = seen.withLock { $0 }
            #expect(result.bad.isEmpty, "\(result.bad.prefix(5))")
            #expect(result.reads >= 20, "readers overlapped the writer (\(result.reads) reads)")
            #expect(result.versions.count >= 5, "reads saw many versions (\(result.versions.count))")
            let final = try Data(contentsOf: origin.data.appendingPathComponent("streams/desk/seg/000001.m4s"))
            #expect(checksums[Self.crc(final)] == Self.versions - 1)
            let (served, _) = try await session.data(from: url)
            #expect(checksums[Self.crc(served)] == Self.versions - 1, "the last version is what is served now")
            #expect(origin.temporaryFiles().isEmpty)
        }
    }

    @Test func concurrentWritersLeaveOneCompleteVersion() async throws {
        try await withOrigin { origin in
            let size = 1 << 20
            let bodies = (0..<8).map { n in Data(repeating: UInt8(n + 1), count: size) }
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for body in bodies {
                    group.addTask {
                        let folder = try TemporaryDirectory()
                        defer { folder.cleanup() }
                        try body.write(to: URL(fileURLWithPath: folder.path("b")))
                        return try curl(["-X", "PUT", "--data-binary", "@\(folder.path("b"))", "-H", "Authorization: Bearer \(origin.token)",
                                         origin.base + "/streams/desk/init.mp4"]).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == 201 || $0 == 204 })
            #expect(statuses.contains(201))
            let stored = try Data(contentsOf: origin.data.appendingPathComponent("streams/desk/init.mp4"))
            #expect(stored.count == size && bodies.contains(stored), "one writer's complete body, not a mix")
            #expect(origin.temporaryFiles().isEmpty)
        }
    }
}
