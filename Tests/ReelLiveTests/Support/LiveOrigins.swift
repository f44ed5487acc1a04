import Foundation
import ReelTestSupport

/// Runs `body` with a fresh origin of `kind` (nginx or `reel serve`), always stopped and
/// removed afterwards. `token`, when given, is the one PUTs must carry (16 characters at least:
/// `reel serve` refuses shorter tokens); without one nginx takes any PUT and `reel serve`
/// makes its own, which ``HTTPTestOrigin/uploadToken`` then holds.
func withOrigin<T>(_ kind: OriginKind, token: String? = nil, _ body: (any HTTPTestOrigin) async throws -> T) async throws -> T {
    switch kind {
    case .nginx: try await withNginxOrigin(token: token) { try await body($0) }
    case .reelServe: try await withReelServeOrigin(token: token) { try await body($0) }
    }
}
