import Foundation
import ReelCore
import ReelHTTP

/// The live page's routes: the stream's state, starting it, stopping it.
extension StudioServer {
    func answerLive(_ route: LiveRoute, body: [UInt8]?) throws(StudioRefusal) -> HTTPResponse {
        switch route {
        case .start:
            return json(try Self.encoded(try live.start(try decode(body))), status: 202)
        case .state:
            return json(try Self.encoded(live.current))
        case .stop:
            return json(try Self.encoded(live.stop()))
        }
    }
}
