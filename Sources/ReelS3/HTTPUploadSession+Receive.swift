import Foundation
import ReelCore
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPUploadSession {
    /// Where ``receive(_:url:into:)`` puts a 2xx answer's body.
    public enum Sink: Sendable {
        /// Into memory, at most `maxBytes`: a longer body (or a longer Content-Length) stops the
        /// transfer, so an answer larger than the caller can hold never fills memory.
        case memory(maxBytes: Int)
        /// Appended to an open file piece by piece as it arrives, never whole in memory.
        case file(FileHandle)
    }

    /// What came back from ``receive(_:url:into:)``.
    public struct Received: Sendable {
        /// The answer's head.
        public var response: HTTPURLResponse
        /// For a 2xx answer into memory, its body; for any other answer, its first 64 KiB (the
        /// error's text), whatever the sink.
        public var body: Data
        /// The bytes of a 2xx body the sink took.
        public var count: Int64
        /// The 2xx body was longer than the memory sink's bound: the transfer was stopped and
        /// `body` is only its start.
        public var exceeded: Bool
    }

    /// The file sink could not take the body (a full disk, a closed file).
    public struct WriteFailure: Error, Hashable, CustomStringConvertible {
        /// Why, in a few words (``ReelCore/ErrorSentence``).
        public var reason: String
        /// The reason.
        public var description: String { reason }
    }

    /// Sends `request` (without a body) and hands the answer's body to `sink` as it arrives
    /// instead of collecting it whole (on this session's second URLSession, whose delegate takes
    /// the pieces; same timeouts). Fails with a ``Failure`` when no answer came, with a
    /// ``WriteFailure`` when the file refused a piece, or with `CancellationError`.
    public func receive(_ request: URLRequest, url: URL, into sink: Sink) async throws -> Received {
        let receiver = AnswerReceiver(sink: sink)
        let task = box.receiving.dataTask(with: request)
        box.router.route(task, to: receiver)
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    receiver.wait(continuation)
                    task.resume()
                }
            } onCancel: {
                task.cancel()
            }
        } catch is CancellationError {
            throw CancellationError()
        } catch let failure as WriteFailure {
            throw failure
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Self.map(error, url: url, timeout: requestTimeout)
        }
    }
}

/// The delegate of the receiving URLSession: hands each task's pieces and end to the
/// ``AnswerReceiver`` its caller registered. URLSession calls it on one serial queue.
final class ReceiveRouter: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let receivers = Mutex<[Int: AnswerReceiver]>([:])

    /// Sends `task`'s answer to `receiver`; before the task is resumed.
    func route(_ task: URLSessionTask, to receiver: AnswerReceiver) {
        receivers.withLock { $0[task.taskIdentifier] = receiver }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let receiver = receivers.withLock({ $0[dataTask.taskIdentifier] }) else { return }
        if receiver.take(data, response: dataTask.response as? HTTPURLResponse) == .stop { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let receiver = receivers.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        receiver?.finish(response: task.response as? HTTPURLResponse, error: error, url: task.originalRequest?.url)
    }
}

/// One ``HTTPUploadSession/receive(_:url:into:)``: takes the body piece by piece into its sink
/// (a 2xx answer) or keeps its start (any other), says stop when the memory bound is passed or
/// the file refuses a piece, and resumes the waiting caller once. The lock guards against the
/// caller's thread.
final class AnswerReceiver: Sendable {
    /// Whether the transfer goes on.
    enum Verdict { case more, stop }

    private struct State {
        var body = Data()
        var count: Int64 = 0
        var exceeded = false
        var writeFailure: String?
        var outcome: Result<HTTPUploadSession.Received, any Error>?
        var continuation: CheckedContinuation<HTTPUploadSession.Received, any Error>?
    }

    /// The most of a non-2xx answer kept for its error text.
    static let errorBodyLimit = 65_536
    private let sink: HTTPUploadSession.Sink
    private let state = Mutex(State())

    init(sink: HTTPUploadSession.Sink) { self.sink = sink }

    /// Resumes `continuation` when the transfer ends (at once if it already has: a cancelled
    /// task can end before it started).
    func wait(_ continuation: CheckedContinuation<HTTPUploadSession.Received, any Error>) {
        let done = state.withLock { state -> Result<HTTPUploadSession.Received, any Error>? in
            if state.outcome == nil { state.continuation = continuation }
            return state.outcome
        }
        if let done { continuation.resume(with: done) }
    }

    /// One piece of the answer's body.
    func take(_ data: Data, response: HTTPURLResponse?) -> Verdict {
        state.withLock { state -> Verdict in
            guard !state.exceeded, state.writeFailure == nil else { return .more }
            guard let response, (200..<300).contains(response.statusCode) else {
                state.body.append(data.prefix(max(0, Self.errorBodyLimit - state.body.count)))
                return .more
            }
            switch sink {
            case .memory(let maxBytes):
                if state.count + Int64(data.count) > Int64(maxBytes) || response.expectedContentLength > Int64(maxBytes) {
                    state.exceeded = true
                    return .stop
                }
                state.body.append(data)
            case .file(let handle):
                do {
                    try handle.write(contentsOf: data)
                } catch {
                    state.writeFailure = ErrorSentence.reason(error)
                    return .stop
                }
            }
            state.count += Int64(data.count)
            return .more
        }
    }

    /// The transfer's end: the answer (possibly stopped on purpose), or why there is none.
    func finish(response: HTTPURLResponse?, error: (any Error)?, url: URL?) {
        let (continuation, outcome) = state.withLock { state in
            let outcome: Result<HTTPUploadSession.Received, any Error>
            if let reason = state.writeFailure {
                outcome = .failure(HTTPUploadSession.WriteFailure(reason: reason))
            } else if let response, state.exceeded || error == nil {
                outcome = .success(HTTPUploadSession.Received(response: response, body: state.body, count: state.count, exceeded: state.exceeded))
            } else if let error {
                outcome = .failure(error)
            } else {
                outcome = .failure(HTTPUploadSession.Failure.invalidResponse(url: url ?? URL(fileURLWithPath: "/")))
            }
            state.outcome = outcome
            defer { state.continuation = nil }
            return (state.continuation, outcome)
        }
        continuation?.resume(with: outcome)
    }
}
