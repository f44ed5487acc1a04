import Foundation
import ReelCore
import ReelMedia
import ReelVision
import Synchronization

/// Where the focus starts (`reel cinematic --focus`).
public enum FocusStart: Sendable, Equatable {
    /// Weak on the most prominent subject.
    case automatic
    /// Weak tracking at a point (normalized): whatever is salient there.
    case point(x: Double, y: Double)
    /// Fixed on the plane at a point (normalized).
    case fixed(x: Double, y: Double)
}

/// What one picture became: its subjects, the focus decision, the focal depth the rack had
/// reached, the aperture, the light warning, and the layers it was rendered with (what a
/// sidecar keeps so the focus can be changed afterwards).
public struct CinematicFrame: Sendable, Equatable {
    /// The picture's capture time.
    public var time: MediaTime
    /// The subjects, most prominent first.
    public var subjects: [CinematicSubject]
    /// The focus controller's decision.
    public var decision: FocusController.Decision
    /// How each subject is drawn in a preview (solid when strong, dashed when weak).
    public var styles: [Int: FocusController.Mode]
    /// The focal depth rendered (dioptres); nil when nothing is focused yet (the picture was left as it is).
    public var focalDioptres: Double?
    /// The aperture rendered.
    public var aperture: Aperture
    /// "Not enough light".
    public var lowLight: Bool
    /// The layers rendered.
    public var layers: LayerMap
    /// Looks a second the vision takes on its own thread (nil: it looks at every picture).
    public var visionRate: Double? = nil
    /// The picture's time less that of the picture the look it was rendered with was made from:
    /// positive for an older look carried forward, negative for a later one carried back, 0 for
    /// its own (nil before any look).
    public var lookLead: MediaTime? = nil
}

/// The cinematic camera's work on each picture, in order: look (subjects every
/// ``detectionInterval``, the people's matte every picture — or, at ``VisionPace/ownThread``,
/// the newest look of the vision's own thread, its subjects and their part of the matte carried
/// forward to this picture by their motion: ``SubjectMotion``), build the layers, let the focus controller
/// decide, move the rack focus, read the light, render the blur in place.
///
/// Pictures come from one thread (``process(_:)``); the controls (``tap(x:y:)``, …) may be
/// called from any other and apply from the next picture on.
public final class CinematicCamera: @unchecked Sendable {
    /// How often the detectors run (between runs the subjects keep their last boxes).
    public static let detectionInterval = MediaTime(value: 1, timescale: 5)
    /// The upper-body and cat-face cascades look at every third detection (0.6 s): they cost
    /// about 30 ms each at 320 wide on a detailed picture (bench/cinematic.sh), as much as the
    /// face detector, and the subjects they find follow the optical flow between looks like
    /// any other.
    public static let cascadeEvery = 3

    struct Controls {
        var focus: FocusController
        var aperture: Aperture
    }

    private let renderer: BokehRenderer
    private let controls: Mutex<Controls>
    // Used by the picture thread only.
    private let looking: Looking
    private var rack = RackFocus()
    private var light = LightMonitor()
    /// `--focus fixed:X,Y`: the plane is known once the subjects have been looked for.
    private var pendingPress: (x: Double, y: Double)?

    /// A camera seeing through `vision`, starting at `aperture` and `focus`; `pace` says
    /// whether the vision runs on every picture (files as fast as they go, tests) or on a
    /// thread of its own (real time).
    public init(vision: CinematicVision, aperture: Aperture = .standard, focus start: FocusStart = .automatic,
                pace: VisionPace = .everyPicture) throws {
        switch pace {
        case .everyPicture: looking = .inline(try Looker(vision: vision), smallFaces: vision.looksForSmallFaces)
        case .ownThread: looking = .worker(try VisionWorker(vision: vision))
        }
        renderer = try BokehRenderer()
        var focus = FocusController()
        if case let .point(x, y) = start { focus.tap(x: x, y: y) }
        if case let .fixed(x, y) = start { pendingPress = (x, y) }
        controls = Mutex(Controls(focus: focus, aperture: aperture))
    }

    /// A camera with the installed models (``CinematicVision``): what `reel cinematic` and the
    /// studio make. `onInfo` hears the vision's warning (a model missing, its stand-in used).
    public static func make(models: VisionModels, aperture: Aperture, focus: FocusStart, pace: VisionPace,
                            onInfo: (String) -> Void) throws -> CinematicCamera {
        let vision = try CinematicVision(models: models)
        if let warning = vision.warning { onInfo(warning) }
        return try CinematicCamera(vision: vision, aperture: aperture, focus: focus, pace: pace)
    }

    // MARK: Controls (any thread)

    /// A tap at the normalized point (the tap rules of docs/behaviour.md §3).
    public func tap(x: Double, y: Double) { controls.withLock { $0.focus.tap(x: x, y: y) } }
    /// A long press: fixed focus on the plane at the point.
    public func press(x: Double, y: Double) { controls.withLock { $0.focus.press(x: x, y: y) } }
    /// Strong focus on the most prominent face; false when there is no subject.
    public func lockMainSubject() -> Bool { controls.withLock { $0.focus.lockMainSubject() } }
    /// Focus on subject `id`, strongly or weakly; false when no such subject is tracked.
    public func focus(on id: Int, strong: Bool) -> Bool { controls.withLock { $0.focus.focus(on: id, strong: strong) } }
    /// A new aperture.
    public func setAperture(_ aperture: Aperture) { controls.withLock { $0.aperture = aperture } }
    /// Back to automatic focus (weak, the most prominent subject).
    public func automatic() { controls.withLock { $0.focus.reset(to: .weak) } }

    /// Applies `control`; a sentence saying why when it cannot be done (no such subject,
    /// nothing to lock), else nil.
    public func apply(_ control: CinematicControl) -> String? {
        switch control {
        case let .tap(x, y): tap(x: x, y: y)
        case let .press(x, y): press(x: x, y: y)
        case let .aperture(aperture): setAperture(aperture)
        case .automatic: automatic()
        case .lock:
            if !lockMainSubject() { return "nothing to lock: no subject is in the picture" }
        case let .subject(id, strong):
            if !focus(on: id, strong: strong) {
                let known = controls.withLock { $0.focus.knownSubjects }
                return "no subject \(id) in the picture" + (known.isEmpty ? " (none is)" : " (subjects now: \(known.map(String.init).joined(separator: ", ")))")
            }
        }
        return nil
    }

    // MARK: Pictures (one thread)

    /// Looks a second the vision's own thread may take (``VisionRate``); ignored in line.
    public func setVisionRate(_ looksPerSecond: Double) {
        if case let .worker(worker) = looking { worker.minimumInterval = MediaTime(seconds: 1 / looksPerSecond) }
    }

    private var visionRate: Double? {
        if case let .worker(worker) = looking { return 1 / worker.minimumInterval.seconds }
        return nil
    }

    /// Stops the vision's own thread (``VisionPace/ownThread``); the camera takes no more
    /// pictures. Done again when the camera goes away (stopping twice is harmless).
    public func stop() {
        if case let .worker(worker) = looking { worker.stop() }
    }

    deinit { stop() }

    /// Hands `frame` to the vision now, before it is held for a later look (``LookHold``);
    /// ``process(_:render:)`` does it for a picture not offered. In line: nothing.
    public func offer(_ frame: VideoFrame) throws {
        try looking.offer(frame, cells: LayerMap.size(forWidth: frame.width, height: frame.height))
    }

    /// Whether the vision runs on a thread of its own (``VisionPace/ownThread``): then a
    /// real-time source holds each picture for a look after it.
    public var looksOnItsOwnThread: Bool {
        if case .worker = looking { return true }
        return false
    }

    /// Whether the vision has looked at a picture at or after `time` (in line: always): a held
    /// picture of that time is ready to be rendered with the looks on either side.
    public func hasLook(atOrAfter time: MediaTime) -> Bool { looking.hasLook(atOrAfter: time) }

    /// Waits until the vision has looked at a picture at or after `time` (offered before), at
    /// most `timeout` seconds; false when it did not (or stopped). In line: true at once.
    public func waitForLook(atOrAfter time: MediaTime, timeout: TimeInterval) -> Bool {
        guard case let .worker(worker) = looking else { return true }
        return worker.waitForLook(atOrAfter: time, timeout: timeout)
    }

    /// Looks at `frame`, decides the focus and renders the blur into it (with `render` false,
    /// leaves it as it is: an editable recording keeps the picture and the decisions apart).
    /// The frame must be a yuv420p picture only the caller holds (``PictureConverter`` makes one).
    public func process(_ frame: VideoFrame, render: Bool = true) throws -> CinematicFrame {
        try frame.withWritablePlanes { planes in
            let width = frame.width, height = frame.height, time = frame.captureTime
            let picture = DetectorPicture(planes, width: width, height: height)
            let cells = LayerMap.size(forWidth: width, height: height)
            let look = try looking.look(at: picture, frame: frame, cells: cells)
            let (subjects, shifts) = look.carried(to: time)
            if let press = pendingPress {
                controls.withLock { _ = $0.focus.update(subjects, at: time); $0.focus.press(x: press.x, y: press.y) }
                pendingPress = nil
            }
            let layers = LayerZones.map(subjects: subjects, personMatte: look.matte, matteShifts: shifts, width: cells.width, height: cells.height)
            let reading = LightReading.measure(luma: planes[0].base, width: width, height: height, stride: planes[0].stride)
            let lowLight = light.update(reading, at: time)
            let (decision, styles, aperture) = controls.withLock { controls in
                let decision = controls.focus.update(subjects, at: time)
                let styles = Dictionary(uniqueKeysWithValues: subjects.map { ($0.id, controls.focus.style(of: $0.id)) })
                return (decision, styles, controls.aperture)
            }
            let focal = rack.rendered(to: decision.dioptres, following: decision.followed, at: time)
            if let focal, render {
                try renderer.render(picture, layers: layers, focus: focal, aperture: aperture,
                                    into: planes.map { BokehRenderer.OutputPlane(base: UnsafeMutableRawPointer($0.base), stride: $0.stride) })
            }
            return CinematicFrame(time: time, subjects: subjects, decision: decision, styles: styles, focalDioptres: focal,
                                  aperture: aperture, lowLight: lowLight, layers: layers, visionRate: visionRate,
                                  lookLead: look.time.map { time - $0 })
        }
    }

    /// Renders the blur `result` decided (``process(_:render:)`` with `render` false) into
    /// `frame`, another picture of the same size (a copy for a preview while the original is
    /// recorded unblurred). On the picture thread.
    public func render(_ frame: VideoFrame, as result: CinematicFrame) throws {
        guard let focal = result.focalDioptres else { return }
        try frame.withWritablePlanes { planes in
            try renderer.render(DetectorPicture(planes, width: frame.width, height: frame.height), layers: result.layers,
                                focus: focal, aperture: result.aperture,
                                into: planes.map { BokehRenderer.OutputPlane(base: UnsafeMutableRawPointer($0.base), stride: $0.stride) })
        }
    }
}

extension FocusStart {
    /// What `--focus` takes.
    public static let forms = "auto, point:X,Y or fixed:X,Y (X, Y from 0 to 1)"

    /// `auto`, `point:X,Y` or `fixed:X,Y`; nil for anything else (or a point off the picture).
    public init?(parsing text: String) {
        let lowered = text.lowercased()
        if lowered == "auto" {
            self = .automatic
            return
        }
        let parts = lowered.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        let numbers = parts[1].split(separator: ",").compactMap { Double($0) }
        guard numbers.count == 2, numbers.allSatisfy({ (0...1).contains($0) }) else { return nil }
        switch parts[0] {
        case "point": self = .point(x: numbers[0], y: numbers[1])
        case "fixed": self = .fixed(x: numbers[0], y: numbers[1])
        default: return nil
        }
    }
}
