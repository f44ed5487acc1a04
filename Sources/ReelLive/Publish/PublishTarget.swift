import Foundation
import ReelCore

/// Somewhere a live stream's files are published to: an HTTP origin, a local folder, object
/// storage. Paths follow ``ReelCore/StreamLayout`` (`streams/{id}/seg/000001.m4s`).
///
/// A `put` either stores the whole body under the path, replacing what was there, or throws;
/// readers must never see a partial file. Errors that retrying cannot fix conform to
/// ``PublishTargetError`` with ``PublishTargetError/isRetryable`` `false`; any other error is
/// treated as worth retrying.
public protocol PublishTarget: Sendable {
    /// A short name for status lines and reports, e.g. `origin https://live.example/` or
    /// `folder /srv/hls`.
    var name: String { get }

    /// Stores `body` at `path` (relative, `/`-separated) with the given MIME type.
    func put(path: String, body: Data, contentType: String) async throws

    /// Removes the file at `path`; a file that is not there is no error. Used for what Reel
    /// itself put and must not leave behind (the uplink probe's upload).
    func delete(path: String) async throws

    /// Whether a file is stored at `path` now. Asked before a stream starts: a stream id whose
    /// playlist exists must not be reused, since a cache may keep its immutable segments for a year.
    /// Throws when the target cannot tell (unreachable, refused).
    func fileExists(path: String) async throws -> Bool

    /// Removes every file of the stream (`streams/{id}/` and all below it), for `--replace`.
    /// A stream that is not there is no error. Throws, saying so, when the target cannot delete
    /// (then nothing must be published under the id).
    func deleteStream(_ layout: StreamLayout) async throws
}

/// An error from a ``PublishTarget`` that says whether trying again can help.
public protocol PublishTargetError: Error, CustomStringConvertible {
    /// `false` when retrying cannot help (missing or wrong credentials, a read-only folder):
    /// the publisher then stops publishing to that target and reports the error.
    var isRetryable: Bool { get }
}

/// A target on the network that players read from by URL (an HTTP origin, a bucket).
public protocol RemotePublishTarget: PublishTarget {
    /// Where a stream path is read, e.g. `http://127.0.0.1:8080/streams/a/playlist.m3u8`.
    func url(forPath path: String) -> URL
}
