/// How long a picture waits for the vision in real time, and which look it is rendered with.
///
/// In real time the vision looks at a picture about every 1/15 s on a thread of its own and
/// takes 60–100 ms (more on a slower machine). Rendered at once, a picture had only looks 1–6
/// pictures older to go by, carried forward by each subject's velocity (``SubjectMotion``); where
/// a swaying person changed speed, the carried matte missed, and the edge beside them came and
/// went from picture to picture. Held until a look of a picture at or after its own exists, a
/// picture is rendered with the nearer of the looks on either side of it, carried forward or
/// back: seldom more than a picture or two away.
public enum LookHold {
    /// The longest a picture is held (capture time from it to the newest picture): longer only
    /// when the vision has fallen far behind or failed, and then the picture goes on with the
    /// looks there are. At 1080p, 12 held pictures are about 37 MB.
    public static let maximum = MediaTime(value: 2, timescale: 5)

    /// Whether the held picture of `picture`'s time goes on now: a look of a picture at or after
    /// it exists (`newestLook`), it has waited ``maximum`` (the newest picture taken is
    /// `newestPicture`), or no more pictures come (`ended`).
    public static func isDue(picture: MediaTime, newestLook: MediaTime?, newestPicture: MediaTime, ended: Bool) -> Bool {
        if ended { return true }
        if let newestLook, newestLook >= picture { return true }
        return newestPicture - picture >= maximum
    }

    /// The index in `looks` (times) of the one nearest `time`; the later of two as near (its
    /// velocity is the newer measure). Nil without looks.
    public static func nearest(_ looks: [MediaTime], to time: MediaTime) -> Int? {
        var best: (index: Int, distance: MediaTime)?
        for (index, look) in looks.enumerated() {
            let distance = look >= time ? look - time : time - look
            if best == nil || distance <= best!.distance { best = (index, distance) }
        }
        return best?.index
    }
}
