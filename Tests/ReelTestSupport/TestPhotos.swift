import Foundation

/// Photos kept in `Tests/Fixtures` for the face tests.
public enum TestPhotos {
    /// The fixtures folder of this checkout.
    public static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures").path

    /// The 512 × 512 astronaut portrait (public domain): `REEL_TEST_PHOTO` when set, else the fixture.
    public static var astronautPath: String {
        ProcessInfo.processInfo.environment["REEL_TEST_PHOTO"] ?? fixtures + "/astronaut.png"
    }

    /// Where the face is in the astronaut photo, in pixels (by eye: cheek to cheek, hairline to chin).
    public static let astronautFace = (x: 178.0, y: 78.0, width: 94.0, height: 100.0)
}

/// The face-detection models of the user running the tests (`make setup` puts CenterFace
/// there), for tests that give `reel` a temporary XDG data folder: pass
/// `REEL_MODELS_DIR` so it still finds them.
public enum TestModels {
    /// `REEL_MODELS_DIR`, else `$XDG_DATA_HOME/reel/models`, else `~/.local/share/reel/models`.
    public static var folder: String {
        let environment = ProcessInfo.processInfo.environment
        if let explicit = environment["REEL_MODELS_DIR"], !explicit.isEmpty { return explicit }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/reel/models" }
        return FileManager.default.homeDirectoryForCurrentUser.path + "/.local/share/reel/models"
    }
}
