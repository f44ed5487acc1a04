import Foundation
import ReelCore
import ReelImage
import ReelMedia
import ReelRuntime

/// A still of the cinematic camera: the picture with the blur, whole size, as a JPEG
/// (`cinematic-YYYYMMDD-HHMMSS.jpg`, numbered when taken) in a folder, written whole or not at
/// all. What `reel cinematic`'s `still` command and the studio's Take still save. It is written
/// as the overlay camera's photos are (``ReelImage/StillEncoder``): 8-bit sRGB from the
/// picture's own matrix and range, with the sRGB ICC profile and EXIF (time, camera, software).
public enum CinematicStill {
    /// Where stills go unless told: `reel/cinematic` in the XDG pictures folder.
    public static func defaultFolder(_ folders: XDGDirectories) -> String { folders.pictures + "/reel/cinematic" }

    /// Saves `frame` from `camera` into `folder` (made if needed); the file's name and its size
    /// in bytes. `software` is the EXIF Software tag ("reel 0.13.0").
    public static func save(_ frame: VideoFrame, in folder: String, camera: String, software: String,
                            at date: Date = Date()) throws -> (name: String, bytes: Int) {
        let picture = RGBPicture(width: frame.width, height: frame.height, samples: try frame.rgb48(), space: .sRGB)
        let jpeg = try StillEncoder.encode(picture, as: .jpeg, metadata: StillMetadata(date: date, camera: camera, software: software))
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let name = CinematicFileName.free(CinematicFileName.stem(at: date), kind: .still) { FileManager.default.fileExists(atPath: folder + "/" + $0) }
        try DurableFile.write(jpeg, to: folder + "/" + name)
        return (name, jpeg.count)
    }
}
