import Foundation
import ReelStudio
import ReelTestSupport
import Testing

/// The studio's one-time sign-in links in process: what waits on a link hears when it is
/// spent, when it expires unused, and when the studio stops.
@Suite("Studio sign-in links", .serialized)
struct StudioSignInCodeTests {
    /// How many times a link's end was heard.
    final class Ended: @unchecked Sendable {
        // Read and written under `lock` only.
        private let lock = NSLock()
        private var heard = 0
        var count: Int { lock.withLock { heard } }
        func hear() { lock.withLock { heard += 1 } }
    }

    @Test("a link unused past its lifetime is gone (what waits on it hears so, and it signs nobody in); a spent one at once; the rest at stop")
    func linksEnd() async throws {
        try await withStudio(configure: { $0.signInLifetime = 1; $0.statusInterval = 0.2 }) { (studio: TestStudio) async throws in
            let expired = Ended(), spent = Ended(), left = Ended()
            let unused = studio.server.signInURL(whenDone: { expired.hear() })
            let used = studio.server.signInURL(whenDone: { spent.hear() })
            #expect(try curl([used.absoluteString]).status == 303)
            _ = try await eventually("spent: heard at once", within: 5) { spent.count > 0 ? true : nil }
            _ = try await eventually("expired: heard within the lifetime and a tick", within: 10) { expired.count > 0 ? true : nil }
            #expect(try curl([unused.absoluteString]).status == 401, "an expired link signs nobody in")
            _ = studio.server.signInURL(whenDone: { left.hear() })
            await studio.server.stop()
            #expect(left.count == 1, "heard when the studio stops")
        }
    }
}
