import Foundation
import Testing
@testable import ReelCore

@Suite("Cinematic sidecar: the video's identity after the last record, unseen by a reader that does not know it")
struct CinematicSidecarIdentityTests {
    static let header = CinematicSidecar.Header(width: 160, height: 96, cellsWidth: 40, cellsHeight: 24)
    static let identity = CinematicSidecar.VideoIdentity(pictures: 2, ticks: 9000, bytes: 123_456,
                                                         sample: CinematicSidecar.sample(head: [1, 2, 3], tail: [4, 5]))

    static func twoRecords() -> [UInt8] {
        var later = CinematicSidecarTests.record
        later.ticks = 18_000
        return CinematicSidecar.encode(header) + CinematicSidecar.encode(CinematicSidecarTests.record, layers: CinematicSidecarTests.map(seed: 1))
            + CinematicSidecar.encode(later, layers: CinematicSidecarTests.map(seed: 2))
    }

    @Test("read back with the records; the records alone without it; a torn identity is none")
    func roundTrip() throws {
        let bytes = Self.twoRecords() + CinematicSidecar.encode(Self.identity)
        let read = try CinematicSidecar.decodeKeepingCells(bytes)
        #expect(read.records.count == 2 && read.identity == Self.identity)
        #expect(try CinematicSidecar.decode(bytes).records.count == 2)
        #expect(try CinematicSidecar.decodeKeepingCells(Self.twoRecords()).identity == nil)
        #expect(try CinematicSidecar.decodeKeepingCells(Array(bytes.dropLast(3))).identity == nil)
        #expect(try CinematicSidecar.decodeKeepingCells(Array(bytes.dropLast(3))).records.count == 2)
    }

    @Test("the sample hash: FNV-1a (64 bits) over both ends; one byte changed changes it")
    func sample() {
        #expect(CinematicSidecar.sample(head: [], tail: []) == "cbf29ce484222325")
        #expect(CinematicSidecar.sample(head: Array("a".utf8), tail: []) == "af63dc4c8601ec8c")
        #expect(CinematicSidecar.sample(head: [1, 2, 3], tail: [4, 5]) != CinematicSidecar.sample(head: [1, 2, 3], tail: [4, 6]))
    }
}
