import Foundation
import ReelCore
import ReelImage
import ReelMedia
import ReelOverlay
import ReelRuntime
import ReelStore

/// The overlay camera in the studio (docs/behaviour.md §4): the chosen source in the state's
/// frame shape, portrait, landscape or its own (``ReelMedia/PortraitSource``), fanned out to
/// an unfiltered preview and one preview per filter preset, all branches of one capture (a
/// branch with no watcher encodes nothing); the shutter takes the capture's next picture and
/// makes the photo with the same code as
/// `reel overlay snap` (``ReelOverlay/OverlaySnap/photo(of:camera:art:recipe:date:)``) into the
/// gallery (``ReelOverlay/OverlayGallery``); the artwork library and cut-outs are
/// ``ReelOverlay/OverlayAssetShelf`` and ``ReelOverlay/OverlayCutout``.
///
/// The source is borrowed from the record page's camera (``StudioCamera/lend(_:to:)``) while
/// a preview is watched or a shot waits, and given back when neither is the case, so a camera
/// is never opened twice. The previews are sized for the pictures' shape; when it changes (the
/// frame chosen, or another source's own shape) the capture is built anew. The business state
/// is one ``ReelCore/OverlayCameraState``; the page's gestures are the page's.
final class StudioOverlay: CaptureBorrower {
    /// A preview the page can watch: the unfiltered one, or the one of a filter preset.
    enum View: String, Sendable, CaseIterable {
        case unfiltered, square, circle, tall

        var filter: OverlayFilter? { OverlayFilter(rawValue: rawValue) }

        /// The region of the picture it shows (the unfiltered one is 4:3 of a `landscape` picture).
        func crop(landscape: Bool) -> PhotoCropSpec {
            filter.map { OverlayCameraState.crop(of: .filtered, filter: $0) }
                ?? OverlayCameraState.crop(of: .unfiltered, filter: .square, landscape: landscape)
        }

        /// Its JPEGs' size: 640 on the long side, in the crop's shape.
        func size(landscape: Bool) -> (width: Int, height: Int) {
            let crop = crop(landscape: landscape)
            return PreviewBranch.size(for: VideoDimensions(width: crop.aspectWidth ?? 3, height: crop.aspectHeight ?? 4))
        }
    }

    private struct State {
        var camera = OverlayCameraState()
        /// Whether the capture runs (on the borrowed source).
        var running = false
        /// The running capture's source, which can be switched while it runs (once opened).
        var switcher: SourceSwitcher?
        /// The source the capture has (lent by the record page's camera).
        var source: String?
        /// Why there is no picture (no source, the source is busy, it failed).
        var problem: String?
        /// The picture's size (in the frame's shape), once a frame came.
        var pictureSize: VideoDimensions?
        /// Whether the pictures are landscape: the shape the previews are (or will be) built for.
        var landscape = false
        /// The capture must be built anew (the pictures' shape changed).
        var rebuild = false
        /// Pictures the capture gave since it started (a figure for the page and the benchmark).
        var frames = 0
        /// Shots waiting for a picture.
        var shutters = 0
        var closed = false
    }

    let feeds: [View: PreviewFeed]
    let gallery: OverlayGallery
    private let state = Locked(State())
    private let borrowed: BorrowedCapture
    private let shutter = HandOff<VideoFrame>()
    private let camera: StudioCamera
    private let library: StudioLibrary
    private let settings: StudioSettings
    private let events: StudioEvents
    /// Artwork decoded for the shutter, and its page picture, by asset id (a few kept).
    private let artworks = Locked<[(id: UUID, art: Artwork)]>([])
    private let pictures = Locked<[(id: UUID, png: Data)]>([])

    init(camera: StudioCamera, library: StudioLibrary, settings: StudioSettings, events: StudioEvents) {
        self.camera = camera
        borrowed = BorrowedCapture(.overlay, from: camera)
        self.library = library
        self.settings = settings
        self.events = events
        gallery = OverlayGallery(folder: settings.photosFolder)
        feeds = Dictionary(uniqueKeysWithValues: View.allCases.map { ($0, PreviewFeed()) })
    }

    // MARK: Capture

    /// Starts the capture when a preview is watched or a shot waits, stops it (and gives the
    /// source back) when neither (``BorrowedCapture``); a source that failed is tried again
    /// after 2 s. Called every status tick, when a preview opens and when a shot starts.
    /// A capture whose pictures' shape changed is stopped and opened anew.
    func tick() {
        let (state, feeds) = (self.state, self.feeds)
        let wanted = { state.withLock { !$0.closed && ($0.shutters > 0 || feeds.values.contains { $0.watcherCount > 0 }) } }
        let rebuild = state.withLock { state -> Bool in
            defer { state.rebuild = false }
            return state.rebuild && state.running
        }
        if rebuild {
            borrowed.restart(wanted: wanted, for: self)
        } else {
            borrowed.step(wanted: wanted, for: self)
        }
    }

    /// Opens the borrowed source, in the frame's shape, for every preview and the shutter. The
    /// source is opened here, so the previews are sized for its pictures' shape from the start;
    /// one that cannot be opened fails the capture as a source that fails on its thread.
    func capture(_ source: SourceSpec) -> any BorrowedRun {
        let shape = state.withLock { $0.camera.frame }
        // Every source in a PortraitSource of the shape, inside a switcher, so a lens switch is
        // turned before its first picture reaches a preview or the shutter.
        let opened = Result { try SourceSwitcher(initial: source, shape: shape, open: settings.openSource) }
        let format = try? opened.get().format
        let landscape = state.withLock { state -> Bool in
            if let format { state.landscape = format.width > format.height }
            state.rebuild = false
            state.switcher = try? opened.get()
            return state.landscape
        }
        let branches = View.allCases.map { view in
            let size = view.size(landscape: landscape)
            return PreviewBranch(feed: feeds[view]!, width: size.width, height: size.height)
        }
        return IdlePreview(source: source, branches: branches, open: { _ in try opened.get() }, tap: { [weak self] frame in self?.seen(frame) })
    }

    func captureStarted(source: String) {
        state.withLock { state in
            state.running = true
            state.source = source
            state.problem = nil
            state.frames = 0
        }
        publish()
    }

    func captureStopped(problem: String?) {
        state.withLock { state in
            state.running = false
            state.switcher = nil
            if let problem { state.problem = problem }
        }
        if problem != nil { publish() }
    }

    func borrowRefused(_ problem: String) {
        state.withLock { $0.problem = problem }
        publish()
    }

    /// A picture of the capture: its size noted, and handed to a waiting shot. A picture of
    /// another shape than the previews were built for (the source's own shape, first seen) has
    /// the capture built anew, off the capture's thread.
    private func seen(_ frame: VideoFrame) {
        let size = VideoDimensions(width: frame.width, height: frame.height)
        let (changed, rebuild) = state.withLock { state -> (Bool, Bool) in
            state.frames += 1
            defer { state.pictureSize = size }
            let landscape = size.width > size.height
            guard landscape != state.landscape, !state.rebuild else { return (state.pictureSize != size, false) }
            state.landscape = landscape
            state.rebuild = true
            return (state.pictureSize != size, true)
        }
        if changed { publish() }
        if rebuild { DispatchQueue.global().async { [weak self] in self?.tick() } }
        shutter.offer { frame }
    }

    /// Stops the capture and gives the source back.
    func shutdown() {
        state.withLock { $0.closed = true }
        tick()
        for feed in feeds.values { feed.close() }
    }

    /// Switches to the source `text` (a camera, `test…` or `file:/…`): while the capture runs,
    /// inside it (the lens switch: the new source is opened first, in the frame's shape before its
    /// first picture, and a source that cannot be opened leaves the current one running);
    /// otherwise it becomes the chosen source, as on the record page.
    func switchSource(to text: String) throws(StudioRefusal) -> OverlaySnapshot {
        let spec = try StudioCamera.parse(text)
        let switcher = state.withLock { $0.running ? $0.switcher : nil }
        guard let switcher else {
            try camera.choose(text)
            return publish()
        }
        do { try switcher.switchTo(spec) } catch {
            throw StudioRefusal(status: 409, message: "\(text) could not be opened (\(error)); still showing \(state.withLock { $0.source } ?? "the current source")")
        }
        try camera.switched(to: text, spec: spec, by: .overlay)
        state.withLock { state in
            state.source = text
            state.pictureSize = nil
        }
        return publish()
    }

    // MARK: State

    /// The state, the transforms the page draws the artwork with, and the source's condition.
    func snapshot() -> OverlaySnapshot {
        let (current, source, problem, size, running, frames, built) = state.withLock {
            ($0.camera, $0.source, $0.problem, $0.pictureSize, $0.running, $0.frames, $0.landscape)
        }
        let landscape = size.map { $0.width > $0.height } ?? built
        var asset: OverlayAsset?
        if let id = current.assetID { asset = try? self.asset(id).asset }
        var transforms: [String: [Double]] = [:]
        if let asset {
            let art = VideoDimensions(width: asset.width, height: asset.height)
            for preview in OverlayCameraState.Preview.allCases {
                let crop = OverlayCameraState.crop(of: preview, filter: current.filter, landscape: landscape)
                let shown = size.map { crop.pixels(of: $0) }.map { VideoDimensions(width: $0.width, height: $0.height) }
                    ?? VideoDimensions(width: crop.aspectWidth ?? 3, height: crop.aspectHeight ?? 4)
                let t = current.placement.transform(art: art, preview: shown)
                transforms[preview.rawValue] = [t.a, t.b, t.c, t.d, t.tx, t.ty]
            }
        }
        return OverlaySnapshot(state: current, asset: asset.map(AssetAnswer.init), transforms: transforms,
                               source: running ? source : nil, problem: problem, pictureSize: size.map { [$0.width, $0.height] },
                               frames: running ? frames : nil, unfilteredAspect: landscape ? [4, 3] : [3, 4])
    }

    /// Makes `change` (all of it or nothing); an asset id must name an asset in the library.
    /// Another frame shape builds the running capture anew before the answer.
    func change(_ change: OverlayCameraState.Change) throws(StudioRefusal) -> OverlaySnapshot {
        let next: OverlayCameraState
        do { next = try state.withLock { $0.camera }.applying(change) } catch { throw StudioRefusal(status: 400, message: error.description) }
        if let id = next.assetID, change.asset != nil {
            _ = try asset(id)
        }
        let reshaped = state.withLock { state -> Bool in
            defer { state.camera = next }
            guard state.camera.frame != next.frame else { return false }
            state.rebuild = true
            state.pictureSize = nil
            if next.frame != .auto { state.landscape = next.frame == .landscape }
            return true
        }
        if reshaped { tick() }
        return publish()
    }

    /// Tells the pages the state, and returns it.
    @discardableResult
    func publish() -> OverlaySnapshot {
        let now = snapshot()
        events.publish(.overlay, data: StudioJSON.line(now))
        return now
    }

    // MARK: Shutter

    /// Takes a photo of the next picture by the state now, into the gallery. With no capture
    /// running, one is started for it. Nothing is saved when the source gives no picture within
    /// ``StudioSettings/shutterTimeout`` seconds (a camera that went away) or the disk is full.
    func shoot() throws(StudioRefusal) -> ShotAnswer {
        let current = state.withLock { $0.camera }
        let art = try current.assetID.map { id throws(StudioRefusal) in try artwork(id) }
        state.withLock { $0.shutters += 1 }
        defer { state.withLock { $0.shutters -= 1 } }
        let pressed = DispatchTime.now()
        tick()
        guard let frame = shutter.next(timeout: settings.shutterTimeout) else {
            let why = state.withLock { $0.problem } ?? "is the camera still connected?"
            throw StudioRefusal(status: 503, message: "the source gave no picture within \(Int(settings.shutterTimeout)) s (\(why)); no photo was taken")
        }
        let lag = Double(DispatchTime.now().uptimeNanoseconds - pressed.uptimeNanoseconds) / 1e9
        let date = Date()
        let recipe = OverlayPhotoRecipe(placement: current.placement, crop: current.crop(for: VideoDimensions(width: frame.width, height: frame.height)),
                                        mask: current.mask, orientation: current.orientation,
                                        format: current.format, software: "reel \(settings.version)")
        let camera = state.withLock { $0.source } ?? "camera"
        let photo: OverlaySnap.Photo
        do { photo = try OverlaySnap.photo(of: frame, camera: camera, art: art, recipe: recipe, date: date) } catch {
            throw StudioRefusal(status: 500, message: "\(error)")
        }
        let entry: OverlayGallery.Entry
        do { entry = try gallery.save(photo.data, format: current.format, date: date) } catch {
                throw Self.refusal(error)
        }
        events.publish(.overlayPhoto, data: StudioJSON.line(entry))
        return ShotAnswer(photo: entry, width: photo.size.width, height: photo.size.height, shutterLagSeconds: lag,
                          compositeSeconds: photo.compositeSeconds, encodeSeconds: photo.encodeSeconds)
    }

    // MARK: Assets

    /// The artwork library.
    func assets() throws(StudioRefusal) -> [AssetAnswer] {
        (try library.withOpen { try $0.overlayAssets() } ?? []).map(AssetAnswer.init)
    }

    /// The asset `id` and its file.
    func asset(_ id: UUID) throws(StudioRefusal) -> (asset: OverlayAsset, path: String) {
        let found = try library.withOpen { library -> (OverlayAsset, String)? in
            guard let asset = try library.overlayAssets().first(where: { $0.id == id }) else { return nil }
            return (asset, OverlayAssetShelf(library: library).path(of: asset))
        }
        guard let found = found ?? nil else { throw StudioRefusal(status: 404, message: "no asset \(id.uuidString.lowercased())") }
        return found
    }

    /// Imports an uploaded image (the body) as a new asset named after `fileName`.
    func importAsset(_ body: [UInt8], fileName: String) throws(StudioRefusal) -> AssetAnswer {
        guard !body.isEmpty else { throw StudioRefusal(status: 400, message: "the body is empty: send the image file as the body") }
        let name = OverlayAsset.name(fromFile: fileName)
        let ext = (fileName as NSString).pathExtension
        let asset = try library.withOpen(create: true) { library in
            do {
                return try OverlayAssetShelf(library: library).add(Data(body), extension: ext, name: name, source: fileName, origin: .imported)
            } catch {
                throw Self.refusal(error)
            }
        }
        guard let asset = asset ?? nil else { throw StudioRefusal(status: 500, message: "the library could not be opened") }
        events.publish(.overlayAssets, data: StudioJSON.line(try assets()))
        return AssetAnswer(asset)
    }

    /// Removes the asset `id` and its file; the state forgets it if it was chosen.
    func removeAsset(_ id: UUID) throws(StudioRefusal) -> AssetAnswer {
        _ = try asset(id)
        let removed = try library.withOpen { try OverlayAssetShelf(library: $0).remove(id.uuidString.lowercased()) }
        guard let removed = removed ?? nil else { throw StudioRefusal(status: 404, message: "no asset \(id.uuidString.lowercased())") }
        artworks.withLock { $0.removeAll { $0.id == id } }
        pictures.withLock { $0.removeAll { $0.id == id } }
        state.withLock { $0.camera = $0.camera.forgetting(asset: id) }
        publish()
        events.publish(.overlayAssets, data: StudioJSON.line(try assets()))
        return AssetAnswer(removed)
    }

    /// The asset's picture for the page (an sRGB PNG, ``ReelImage/Artwork/displayPNG(maxSide:)``).
    func picture(_ id: UUID) throws(StudioRefusal) -> Data {
        if let png = pictures.withLock({ $0.first { $0.id == id }?.png }) { return png }
        let art = try artwork(id)
        let png: Data
        do { png = try art.displayPNG() } catch { throw StudioRefusal(status: 500, message: "\(error)") }
        pictures.withLock { $0 = Array(($0 + [(id, png)]).suffix(8)) }
        return png
    }

    /// The asset's artwork, decoded (kept for the next shot).
    private func artwork(_ id: UUID) throws(StudioRefusal) -> Artwork {
        if let art = artworks.withLock({ $0.first { $0.id == id }?.art }) { return art }
        let path = try asset(id).path
        let art: Artwork
        do { art = try Artwork(imageAt: path) } catch { throw StudioRefusal(status: 409, message: "the asset's file cannot be used: \(error)") }
        artworks.withLock { $0 = Array(($0 + [(id, art)]).suffix(3)) }
        return art
    }

    // MARK: Cut-out

    /// Cuts the subject at (`x`, `y`) (fractions of the upright photo) out of the gallery photo
    /// `name` into a new asset.
    func cutout(_ request: CutoutRequest) throws(StudioRefusal) -> AssetAnswer {
        let path: String
        do { path = try gallery.existing(request.photo) } catch { throw StudioRefusal(status: 404, message: error.description) }
        let result: OverlayCutout.Result
        do {
            result = try OverlayCutout.run(OverlayCutoutSettings(photoPath: path, x: request.x, y: request.y, models: settings.visionModels))
        } catch {
            throw StudioRefusal(status: 422, message: "\(error)")
        }
        let stem = (request.photo as NSString).deletingPathExtension
        let asset = try library.withOpen(create: true) { library in
            do {
                return try OverlayAssetShelf(library: library).add(result.png, extension: "png", name: "cut-out of \(stem)", source: path, origin: .cutout)
            } catch {
                throw Self.refusal(error)
            }
        }
        guard let asset = asset ?? nil else { throw StudioRefusal(status: 500, message: "the library could not be opened") }
        events.publish(.overlayAssets, data: StudioJSON.line(try assets()))
        return AssetAnswer(asset)
    }
}

extension StudioOverlay {
    /// A failure to keep a file as a refusal: 507 for a full disk (nothing kept; free space and
    /// try again), 500 for another write failure, 422 for an image that cannot be artwork.
    static func refusal(_ error: any Error) -> StudioRefusal {
        let text = "\(error)"
        var noSpace = (error as? DurableFile.Error)?.isNoSpace == true
        if case .noSpace = error as? OverlayGallery.Error { noSpace = true }
        if noSpace { return StudioRefusal(status: 507, message: text + " (nothing was kept)") }
        if error is DurableFile.Error || error is OverlayGallery.Error || error is CocoaError { return StudioRefusal(status: 500, message: text) }
        return StudioRefusal(status: 422, message: text)
    }
}

/// `GET /api/overlay`, and the `overlay` event.
struct OverlaySnapshot: Encodable {
    var state: OverlayCameraState
    /// The chosen asset.
    var asset: AssetAnswer?
    /// For each preview (`unfiltered`, `filtered`): the artwork's transform from artwork 0…1 to
    /// preview 0…1, as CSS `matrix()` takes it (a, b, c, d, e, f). Empty without an asset.
    var transforms: [String: [Double]]
    /// The source being shown, while the capture runs.
    var source: String?
    /// Why there is no picture.
    var problem: String?
    /// The picture's size (in the frame's shape), once known.
    var pictureSize: [Int]?
    /// Pictures the running capture has given since it started.
    var frames: Int?
    /// The unfiltered preview's aspect, width and height: 3:4 for a portrait picture, 4:3 for a landscape one.
    var unfilteredAspect: [Int]
    var filters = OverlayFilter.allCases.map { FilterAnswer(id: $0.rawValue, title: $0.title, aspect: [$0.crop.aspectWidth ?? 1, $0.crop.aspectHeight ?? 1], mask: $0.mask.rawValue) }
    var scaleRange = [OverlayPlacement.scaleRange.lowerBound, OverlayPlacement.scaleRange.upperBound]

    struct FilterAnswer: Encodable {
        var id: String
        var title: String
        var aspect: [Int]
        var mask: String
    }
}

/// An asset as the page sees it (the id in lowercase, as the routes take it).
struct AssetAnswer: Encodable {
    var id: String
    var name: String
    var width: Int
    var height: Int
    var hasAlpha: Bool
    var format: String
    var profile: String
    var origin: String
    var bytes: Int

    init(_ asset: OverlayAsset) {
        id = asset.id.uuidString.lowercased()
        name = asset.name
        width = asset.width
        height = asset.height
        hasAlpha = asset.hasAlpha
        format = asset.format
        profile = asset.profile
        origin = asset.origin.rawValue
        bytes = asset.bytes
    }
}

/// `POST /api/overlay/shoot`'s answer.
struct ShotAnswer: Encodable {
    var photo: OverlayGallery.Entry
    var width: Int
    var height: Int
    /// Seconds from the press to holding the picture.
    var shutterLagSeconds: Double
    var compositeSeconds: Double
    var encodeSeconds: Double
}

/// The body of `POST /api/overlay/cutout`.
struct CutoutRequest: Decodable {
    /// A gallery photo's name.
    var photo: String
    /// The subject's point, fractions of the upright photo's width and height.
    var x: Double
    var y: Double
}
