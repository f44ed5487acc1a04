import Foundation
import ReelTestSupport
import Testing
@testable import ReelHTTP

@Suite struct OriginTokenTests {
    @Test func generatedTokensAre256BitHex() {
        var generator = SystemRandomNumberGenerator()
        let a = OriginToken.generate(using: &generator), b = OriginToken.generate(using: &generator)
        #expect(a.text.count == 64 && a.text.allSatisfy(\.isHexDigit))
        #expect(a.text != b.text)
        var seeded = SplitMix64(seed: 7)
        var again = SplitMix64(seed: 7)
        #expect(OriginToken.generate(using: &seeded).text == OriginToken.generate(using: &again).text)
    }

    @Test func comparison() throws {
        let token = try OriginToken("0123456789abcdef0123456789abcdef\n")
        #expect(token.text == "0123456789abcdef0123456789abcdef")
        #expect(token.matches("0123456789abcdef0123456789abcdef"))
        #expect(!token.matches("0123456789abcdef0123456789abcdeF"))
        #expect(!token.matches("0123456789abcdef0123456789abcde"))
        #expect(!token.matches("0123456789abcdef0123456789abcdef0"))
        #expect(!token.matches(""))
        // Lengths that wrap around a byte must not compare equal.
        let long = try OriginToken(String(repeating: "a", count: 272))
        #expect(!long.matches(String(repeating: "a", count: 16)))
    }

    @Test func badTokensAreRefused() {
        #expect(throws: OriginToken.Error.badLength(5)) { try OriginToken("short") }
        #expect(throws: OriginToken.Error.badCharacters) { try OriginToken("0123456789abcdef 0123456789abcdef") }
        #expect(throws: OriginToken.Error.badCharacters) { try OriginToken("0123456789abcdef\u{e9}0123456789abcdef") }
        #expect(throws: OriginToken.Error.badLength(513)) { try OriginToken(String(repeating: "a", count: 513)) }
    }

    @Test func bearerHeader() {
        #expect(OriginToken.bearer(fromAuthorization: "Bearer abc") == "abc")
        #expect(OriginToken.bearer(fromAuthorization: "bearer   abc  ") == "abc")
        #expect(OriginToken.bearer(fromAuthorization: "Basic YWJj") == nil)
        #expect(OriginToken.bearer(fromAuthorization: "Bearer ") == nil)
        #expect(OriginToken.bearer(fromAuthorization: "Bearer") == nil)
        #expect(OriginToken.bearer(fromAuthorization: nil) == nil)
    }
}
