import Foundation
import ReelCore
import ReelMedia
import ReelRuntime

/// A still of the cinematic camera: the picture with the blur, whole size, as a JPEG
/// (`cinematic-YYYYMMDD-HHMMSS.jpg`, numbered when taken) in a folder, written whole or not at
/// all. What `reel cinematic`'s `still` command and the studio's Take still save.
public enum CinematicStill {
    /// Where stills go unless told: `reel/cinematic` in the XDG pictures folder.
    public static func defaultFolder(_ folders: XDGDirectories) -> String { folders.pictures + "/reel/cinematic" }

    /// Saves `frame` into `folder` (made if needed); the file's name and its size in bytes.
    public static func save(_ frame: VideoFrame, in folder: String, at date: Date = Date()) throws -> (name: String, bytes: Int) {
        let jpeg = try JPEGEncoder(width: frame.width, height: frame.height, quality: 2).encode(frame)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let name = CinematicFileName.free(CinematicFileName.stem(at: date), kind: .still) { FileManager.default.fileExists(atPath: folder + "/" + $0) }
        try DurableFile.write(Data(jpeg), to: folder + "/" + name)
        return (name, jpeg.count)
    }
}
