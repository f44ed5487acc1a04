import Foundation
import ReelCore
import ReelTestSupport
import ReelVision
import Testing

/// Missing and damaged model and cascade files give the documented errors, and the factory
/// falls back to the Haar cascade only when the model is missing.
@Suite struct ModelErrorTests {
    @Test func aMissingModelSaysHowToFetchIt() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanup() }
        let path = temporary.path("centerface.onnx")
        #expect {
            _ = try CenterFaceDetector(modelPath: path)
        } throws: { error in
            guard let error = error as? CenterFaceDetector.Error, case let .modelMissing(missing, _) = error else { return false }
            return missing == path && error.description.contains("make setup") && error.description.contains(path)
        }
    }

    @Test func aCorruptModelIsUnusableNotMissing() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanup() }
        var generator = SplitMix64(seed: 7)
        let garbage = temporary.path("garbage.onnx")
        try Data((0..<50_000).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: URL(fileURLWithPath: garbage))
        let empty = temporary.path("empty.onnx")
        try Data().write(to: URL(fileURLWithPath: empty))
        for path in [garbage, empty] {
            #expect {
                _ = try CenterFaceDetector(modelPath: path)
            } throws: { error in
                guard let error = error as? CenterFaceDetector.Error, case .modelUnusable(path, _) = error else { return false }
                return error.description.contains("fetch-model.sh")
            }
        }
    }

    @Test func aTruncatedRealModelIsUnusable() throws {
        let models = VisionModels.current()
        #expect(models.hasCenterFaceModel, "the CenterFace model is not installed: run `make setup`")
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanup() }
        let whole = try Data(contentsOf: URL(fileURLWithPath: models.centerFaceModel))
        let truncated = temporary.path("centerface.onnx")
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: truncated))
        #expect {
            _ = try CenterFaceDetector(modelPath: truncated)
        } throws: { error in
            guard case .modelUnusable = error as? CenterFaceDetector.Error else { return false }
            return true
        }
    }

    @Test func aMissingCascadeNamesTheDebianPackage() throws {
        #expect {
            _ = try HaarFaceDetector(cascadePath: "/nonexistent/haarcascade_frontalface_default.xml")
        } throws: { error in
            guard let error = error as? HaarFaceDetector.Error, case .cascadeMissing = error else { return false }
            return error.description.contains("opencv-data")
        }
        #expect {
            _ = try UpperBodyDetector(cascadePath: "/nonexistent/haarcascade_upperbody.xml")
        } throws: { error in
            guard let error = error as? UpperBodyDetector.Error, case .cascadeMissing = error else { return false }
            return error.description.contains("opencv-data")
        }
    }

    @Test func aCorruptCascadeIsUnusable() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanup() }
        let path = temporary.path("cascade.xml")
        try Data("<?xml version=\"1.0\"?><opencv_storage><cascade>broken".utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try HaarFaceDetector(cascadePath: path)
        } throws: { error in
            guard case .cascadeUnusable(path, _) = error as? HaarFaceDetector.Error else { return false }
            return true
        }
    }

    @Test func theFactoryFallsBackToHaarWithAWarningWhenTheModelIsMissing() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanup() }
        let choice = try FaceDetectorChoice.make(models: VisionModels(modelFolder: temporary.path("models")))
        #expect(choice.detector is HaarFaceDetector)
        let warning = try #require(choice.warning)
        #expect(warning.contains("Haar") && warning.contains("make setup") && warning.contains(temporary.path("models/centerface.onnx")))
    }

    @Test func theFactoryRefusesACorruptModel() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanup() }
        let models = VisionModels(modelFolder: temporary.url.path)
        try Data("not a network".utf8).write(to: URL(fileURLWithPath: models.centerFaceModel))
        #expect {
            _ = try FaceDetectorChoice.make(models: models)
        } throws: { error in
            guard case .modelUnusable = error as? CenterFaceDetector.Error else { return false }
            return true
        }
    }

    @Test func theFactoryPicksCenterFaceWhenInstalled() throws {
        let models = VisionModels.current()
        #expect(models.hasCenterFaceModel, "the CenterFace model is not installed at \(models.centerFaceModel): run `make setup`")
        let choice = try FaceDetectorChoice.make(models: models)
        #expect(choice.detector is CenterFaceDetector)
        #expect(choice.warning == nil)
    }

    @Test func modelsLiveInTheXDGDataFolderUnlessOverridden() {
        #expect(VisionModels(environment: [:], home: "/home/ana").centerFaceModel == "/home/ana/.local/share/reel/models/centerface.onnx")
        #expect(VisionModels(environment: ["XDG_DATA_HOME": "/data"], home: "/home/ana").centerFaceModel == "/data/reel/models/centerface.onnx")
        #expect(VisionModels(environment: ["XDG_DATA_HOME": "relative"], home: "/root").modelFolder == "/root/.local/share/reel/models")
        #expect(VisionModels(environment: ["REEL_MODELS_DIR": "/opt/models", "XDG_DATA_HOME": "/data"], home: "/h").centerFaceModel == "/opt/models/centerface.onnx")
        #expect(VisionModels(environment: [:], home: "/h").frontalFaceCascade == "/usr/share/opencv4/haarcascades/haarcascade_frontalface_alt2.xml")
    }
}
