import Foundation
import Testing
@testable import ReelCore

@Suite("Cinematic sidecar: layers run-length encoded, records framed, a torn tail tolerated, damage refused")
struct CinematicSidecarTests {
    static func map(seed: UInt64) -> LayerMap {
        var map = LayerMap.empty(width: 40, height: 24)
        var state = seed
        for row in 6..<20 {
            for column in 10..<30 {
                state = state &* 6_364_136_223_846_793_005 &+ 1
                map.matte[row * 40 + column] = column == 10 || column == 29 ? UInt8(truncatingIfNeeded: state >> 56) : 255
                map.depth[row * 40 + column] = 48
            }
        }
        return map
    }

    static let record = CinematicSidecar.Record(
        ticks: 9000, subjects: [CinematicSidecar.Subject(CinematicSubject(id: 2, kind: .face, bounds: NormalizedRect(x: 0.4, y: 0.2, width: 0.1, height: 0.18), prominence: 0.018))],
        mode: .strong, target: CinematicSidecar.text(of: .subject(2)), wanted: 1.2, focal: 1.1, fNumber: 2.8, lowLight: false)

    @Test("a layer map survives run-length encoding, and a long run of one value costs a few bytes")
    func runLength() {
        let map = Self.map(seed: 3)
        let bytes = map.runLengthEncoded()
        #expect(LayerMap(runLengthEncoded: bytes[...], width: 40, height: 24) == map)
        #expect(bytes.count < 40 * 24 / 4)
        #expect(LayerMap(runLengthEncoded: bytes[...], width: 40, height: 23) == nil)
        #expect(LayerMap(runLengthEncoded: bytes.dropLast(2)[...], width: 40, height: 24) == nil)
        let empty = LayerMap.empty(width: 600, height: 2)
        #expect(LayerMap(runLengthEncoded: empty.runLengthEncoded()[...], width: 600, height: 2) == empty)
    }

    @Test("a file: header and records read back; a record cut short by a crash ends the list")
    func file() throws {
        let header = CinematicSidecar.Header(width: 160, height: 96, cellsWidth: 40, cellsHeight: 24)
        var bytes = CinematicSidecar.encode(header)
        var second = Self.record
        second.ticks = 18000
        second.target = CinematicSidecar.text(of: .fixed(x: 0.5, y: 0.25, dioptres: 0.75))
        bytes += CinematicSidecar.encode(Self.record, layers: Self.map(seed: 1)) + CinematicSidecar.encode(second, layers: Self.map(seed: 2))
        let decoded = try CinematicSidecar.decode(bytes)
        #expect(decoded.header == header)
        #expect(decoded.records.map(\.0) == [Self.record, second])
        #expect(decoded.records.map(\.1) == [Self.map(seed: 1), Self.map(seed: 2)])
        #expect(decoded.records[1].0.target.flatMap(FocusController.Target.init(recorded:)) == .fixed(x: 0.5, y: 0.25, dioptres: 0.75))
        #expect(decoded.records[0].0.time == MediaTime(value: 1, timescale: 10))
        let torn = try CinematicSidecar.decode(Array(bytes.dropLast(7)))
        #expect(torn.records.count == 1)
    }

    @Test("refused: another file, a header that is not JSON, a damaged record")
    func refused() {
        #expect(throws: CinematicSidecar.FormatError.self) { try CinematicSidecar.decode(Array("ftypisom and more".utf8)) }
        #expect(throws: CinematicSidecar.FormatError.self) { try CinematicSidecar.decode(Array((CinematicSidecar.magic + "{width\n").utf8)) }
        var bytes = CinematicSidecar.encode(CinematicSidecar.Header(width: 160, height: 96, cellsWidth: 40, cellsHeight: 24))
        let record = CinematicSidecar.encode(Self.record, layers: Self.map(seed: 1))
        bytes += record
        bytes[bytes.count - record.count + 6] = UInt8(ascii: "#")  // inside the JSON
        #expect(throws: CinematicSidecar.FormatError(reason: "record 1 is damaged")) { try CinematicSidecar.decode(bytes) }
    }
}
