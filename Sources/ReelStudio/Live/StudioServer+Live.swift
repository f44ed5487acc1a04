import Foundation
import ReelCore
import ReelHTTP

/// The live page's routes: the stream's state, starting it, stopping it.
extension StudioServer {
    func answerLive(_ route: StudioRoute, request: HTTPRequest, body: [UInt8]?) -> HTTPResponse {
        do throws(StudioRefusal) {
            switch route {
            case .live where request.method == "POST":
                return json(try Self.encoded(try live.start(try decode(body))), status: 202)
            case .live:
                return json(try Self.encoded(live.current))
            case .stopLive:
                return json(try Self.encoded(live.stop()))
            default:
                return .text(404, "no such API")
            }
        } catch {
            return .text(error.status, error.message)
        }
    }
}
