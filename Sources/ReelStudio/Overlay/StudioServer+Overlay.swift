import Foundation
import ReelCore
import ReelHTTP
import ReelOverlay

/// The overlay camera's routes (`/api/overlay…`, docs/studio.md).
extension StudioServer {
    func answerOverlay(_ route: OverlayRoute, request: HTTPRequest, body: [UInt8]?) throws(StudioRefusal) -> HTTPResponse {
        switch route {
        case .change:
            return json(StudioJSON.line(try overlay.change(try decode(body))))
        case .state:
            return json(StudioJSON.line(overlay.snapshot()))
        case .preview:
            let name = request.query("view") ?? StudioOverlay.View.unfiltered.rawValue
            guard let view = StudioOverlay.View(rawValue: name) else {
                let names = StudioOverlay.View.allCases.map(\.rawValue).joined(separator: ", ")
                throw StudioRefusal(status: 400, message: "view \(name) is not one of \(names)")
            }
            return previewStream(request, feed: overlay.feeds[view]!) { [overlay] in overlay.tick() }
        case .source:
            let choice: SourceChoice = try decode(body)
            return json(StudioJSON.line(try overlay.switchSource(to: choice.source)))
        case .shoot:
            return json(StudioJSON.line(try overlay.shoot()), status: 201)
        case .importAsset:
            let name = request.decodedQuery("name") ?? "artwork"
            return json(StudioJSON.line(try overlay.importAsset(body ?? [], fileName: name)), status: 201)
        case .assets:
            return json(StudioJSON.line(try overlay.assets()))
        case .asset(let id):
            return HTTPResponse(status: 200, headers: [("Content-Type", "image/png")], body: .bytes(Array(try overlay.picture(id))))
        case .removeAsset(let id):
            return json(StudioJSON.line(try overlay.removeAsset(id)))
        case .photos:
            return json(StudioJSON.line(overlay.gallery.entries()))
        case .photo(let name):
            return try photoFile(name)
        case .photoView(let name):
            do {
                return HTTPResponse(status: 200, headers: [("Content-Type", "image/jpeg")], body: .bytes(Array(try overlay.gallery.view(name))))
            } catch let error as OverlayGallery.Error {
                if case .notFound = error { throw StudioRefusal(status: 404, message: error.description) }
                throw StudioRefusal(status: 422, message: error.description)
            } catch {
                throw StudioRefusal(status: 422, message: "the photo \(name) cannot be shown: \(error)")
            }
        case .cutout:
            return json(StudioJSON.line(try overlay.cutout(try decode(body))), status: 201)
        }
    }

    /// A gallery photo's file, to download.
    private func photoFile(_ name: String) throws(StudioRefusal) -> HTTPResponse {
        let path: String
        do { path = try overlay.gallery.existing(name) } catch { throw StudioRefusal(status: 404, message: error.description) }
        guard let data = FileManager.default.contents(atPath: path), let format = OverlayPhotoName.format(of: name) else {
            throw StudioRefusal(status: 404, message: "the photo \(name) cannot be read")
        }
        let type = switch format {
        case .heic: "image/heic"
        case .jpeg: "image/jpeg"
        case .tiff: "image/tiff"
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", type), ("Content-Disposition", "attachment; filename=\"\(name)\"")],
                            body: .bytes(Array(data)))
    }
}
