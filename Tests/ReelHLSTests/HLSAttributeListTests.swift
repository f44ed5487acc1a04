import Foundation
import Testing
@testable import ReelHLS

/// Attribute lists as RFC 8216 §4.2 defines them.
@Suite("HLS attribute lists")
struct HLSAttributeListTests {
    @Test func everyValueTypeIsRead() throws {
        let list = try HLSAttributeList(
            parsing: #"BANDWIDTH=2711000,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=720x1280,FRAME-RATE=29.970,IV=0x1f2E3,TYPE=PART,SHIFT=-1.5,URI="""#,
            tag: "EXT-X-TEST")
        #expect(list.attributes.map(\.name) == ["BANDWIDTH", "CODECS", "RESOLUTION", "FRAME-RATE", "IV", "TYPE", "SHIFT", "URI"])
        #expect(try list.decimalInteger("BANDWIDTH") == 2_711_000)
        #expect(try list.quotedString("CODECS") == "avc1.64001f,mp4a.40.2", "a comma inside quotes belongs to the value")
        #expect(try list.resolution("RESOLUTION") == HLSResolution(width: 720, height: 1280))
        #expect(try list.decimalFloat("FRAME-RATE") == 29.97)
        #expect(try list.hexadecimalSequence("IV") == [0x01, 0xF2, 0xE3])
        #expect(try list.enumeratedString("TYPE") == "PART")
        #expect(try list.decimalFloat("SHIFT") == -1.5)
        #expect(try list.quotedString("URI") == "", "an empty quoted string")
        #expect(try list.decimalInteger("ABSENT") == nil)
    }

    @Test("a malformed list is a typed error, never a crash", arguments: [
        ("", "it is empty"),
        ("A=1,", "it ends with a comma"),
        ("A", "A has no value"),
        ("A=1,B", "B has no value"),
        ("=1", "an empty name is not an attribute name"),
        ("lower=1", "lower is not an attribute name"),
        ("A=1,A=2", "A is given twice"),
        (#"URI="open"#, "the quoted value of URI is not closed"),
        (#"URI="a"b,C=1"#, "text follows the quoted value of URI"),
        ("A=,B=1", "A has an empty value"),
        ("A=x y", "the unquoted value of A holds a quote or a space"),
        (#"A=x"y""#, "the unquoted value of A holds a quote or a space"),
    ])
    func malformedLists(_ text: String, _ problem: String) {
        let error = HLSFixtures.error { () throws(HLSParseError) in _ = try HLSAttributeList(parsing: text[...], tag: "EXT-X-TEST") }
        #expect(error == HLSParseError(.malformedAttributeList(tag: "EXT-X-TEST", problem: problem)))
    }

    @Test("a value of the wrong type is a typed error", arguments: [
        ("N=1.5", "integer"), ("N=-1", "integer"), ("N=0x10", "integer"), ("N=\"1\"", "integer"),
        ("N=1.", "float"), ("N=.5", "float"), ("N=1e3", "float"), ("N=YES", "float"),
        ("N=1280x", "resolution"), ("N=1280X720", "resolution"), ("N=x720", "resolution"),
        ("N=1f", "hex"), ("N=0x", "hex"), ("N=0xZZ", "hex"),
        ("N=\"YES\"", "enumerated"),
    ])
    func wrongTypes(_ text: String, _ type: String) throws {
        let list = try HLSAttributeList(parsing: text[...], tag: "EXT-X-TEST")
        let error = HLSFixtures.error { () throws(HLSParseError) in
            switch type {
            case "integer": _ = try list.decimalInteger("N")
            case "float": _ = try list.decimalFloat("N")
            case "resolution": _ = try list.resolution("N")
            case "hex": _ = try list.hexadecimalSequence("N")
            default: _ = try list.enumeratedString("N")
            }
        }
        guard case let .invalidValue(tag, attribute, _)? = error?.reason else {
            Issue.record("\(text) as \(type): \(String(describing: error))")
            return
        }
        #expect(tag == "EXT-X-TEST" && attribute == "N")
    }
}
