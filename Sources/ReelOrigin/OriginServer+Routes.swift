import Foundation
import ReelCore
import ReelHTTP

/// What each route answers; everything here runs in a request's first handler call, before
/// any body byte is read, except ``finishUpload(_:request:)``.
extension OriginServer {
    static let corsHeaders = [
        ("Access-Control-Allow-Origin", "*"),
        ("Access-Control-Expose-Headers", "Content-Length, Content-Range, ETag, Accept-Ranges, Last-Modified"),
    ]
    static let readMethods = "GET, HEAD, OPTIONS"

    public func begin(_ request: HTTPRequest) -> HTTPStart {
        let method = request.method
        let cors = method == "GET" || method == "HEAD" || method == "OPTIONS" ? Self.corsHeaders : []
        guard let route = OriginRoute(path: request.path) else {
            return .respond(.text(404, "no such path. Reel's origin serves the viewer at / and /watch/{id}, /streams/{id}/init.mp4, "
                + "/streams/{id}/playlist.m3u8, /streams/{id}/seg/NNNNNN.m4s, /streams/{id}/part/NNNNNN.P.m4s, the same files "
                + "of a ladder's rung under /streams/{id}/{rung}/, /api/streams and /health; "
                + "ids are 1 to 128 of A-Z a-z 0-9 _ -; rungs 1 to 32 of a-z 0-9 - (not seg or part).", headers: cors))
        }
        switch route {
        case .index, .watch, .viewerAsset, .health, .streamList:
            guard method == "GET" || method == "HEAD" else { return .respond(otherMethod(method, allowed: Self.readMethods)) }
            return .respond(page(route, request: request))
        case .stream(let layout):
            guard method == "DELETE" else { return .respond(otherMethod(method, allowed: "DELETE")) }
            if let refusal = authorize(request) { return .respond(refusal) }
            // Every rung's held requests too (judged again: the playlists they wait for are gone).
            let held = [layout] + store.rungs(of: layout).compactMap { try? layout.rung($0) }
            defer {
                cache.invalidate(layout, file: nil)
                for folder in held { http.wake(Self.holdKey(folder)) }
            }
            do {
                return .respond(try store.deleteStream(layout)
                    ? HTTPResponse(status: 204) : .text(404, "there is no stream \(layout.streamID)"))
            } catch {
                return .respond(storeFailure(error))
            }
        case .streamFile(let layout, let file):
            switch method {
            case "GET", "HEAD": return serveOrHold(layout, file, request: request)
            case "PUT": return beginUpload(layout, file, request: request)
            case "DELETE": return .respond(deleteFile(layout, file, request: request))
            default: return .respond(otherMethod(method, allowed: "GET, HEAD, PUT, DELETE, OPTIONS"))
            }
        }
    }

    // MARK: Reading

    /// A stream file, or the wait LL-HLS asks for: a playlist requested with `_HLS_msn` (and
    /// `_HLS_part`) is held until the stored playlist holds that segment or part; the part a
    /// playlist hints at (`EXT-X-PRELOAD-HINT`) is held until it is stored. Each stored file of
    /// the folder wakes the requests held on it, which are judged again; a wait ends after three
    /// target durations (503 for a playlist, 404 for a part).
    ///
    /// A ladder's rungs are judged each by its own media playlist, and each rung folder is its
    /// own hold key (``holdKey(_:)``): a file stored in `low/` wakes only the requests waiting
    /// on `low/`.
    func serveOrHold(_ layout: StreamLayout, _ file: OriginFile, request: HTTPRequest) -> HTTPStart {
        let tally = store.playlistTally(layout)
        let maximumWait = BlockingReload.maximumWait(targetDuration: tally?.targetDuration ?? 2)
        if file == .playlist,
           let wanted = BlockingReload.request(msn: request.query("_HLS_msn"), part: request.query("_HLS_part")) {
            switch wanted.map({ BlockingReload.decide($0, playlist: tally ?? PlaylistTally()) }) {
            case .failure(let refusal):
                return .respond(.text(400, "\(refusal)", headers: Self.corsHeaders))
            case .success(.refuse(let reason)):
                return .respond(.text(400, reason, headers: Self.corsHeaders))
            case .success(.wait):
                if request.holdExpired {
                    return .respond(.text(503, "the segment or part asked for did not come within \(Int(maximumWait)) s",
                                          headers: Self.corsHeaders + [("Retry-After", "1")]))
                }
                return .hold(key: Self.holdKey(layout), until: http.now + maximumWait)
            case .success(.answer):
                break
            }
        }
        if case .part = file, !request.holdExpired, let hint = tally?.preloadHintURI,
           hint == (file.location.folders + [file.location.name]).joined(separator: "/"), !store.fileExists(layout, file) {
            return .hold(key: Self.holdKey(layout), until: http.now + maximumWait)
        }
        return .respond(serve(layout, file, request: request))
    }

    /// What requests held for a file of `layout` wait under, and what a stored file of it wakes:
    /// its folder (`streams/{id}`, or `streams/{id}/{rung}` for a rung of a ladder).
    static func holdKey(_ layout: StreamLayout) -> String { layout.directory }

    func serve(_ layout: StreamLayout, _ file: OriginFile, request: HTTPRequest) -> HTTPResponse {
        let generation = cache.generation  // before opening: see AnswerCache
        guard let opened = store.openFile(layout, file) else {
            return .text(404, "\(OriginStore.displayPath(layout, file)) does not exist (yet)",
                         headers: Self.corsHeaders)
        }
        // A Range under an If-Range naming another version is ignored: the whole file goes.
        let rangeHeader = request.header("Range").flatMap { range in
            opened.tag.permitsRange(ifRange: request.header("If-Range"), lastModifiedSeconds: opened.version.modificationSeconds)
                ? range : nil
        }
        if file == .playlist, let skip = request.query("_HLS_skip"), skip == "YES" || skip == "v2", rangeHeader == nil,
           let delta = deltaAnswer(opened, layout: layout, request: request, generation: generation) {
            return delta
        }
        let wantsGzip = file.isCompressible && rangeHeader == nil && opened.size <= Int64(settings.maxCompressedFileBytes)
            && ContentCoding.acceptsGzip(request.header("Accept-Encoding"))
        let gzipKey = ResponseCache.Key(layout: layout, file: file, gzip: true, delta: false)
        // The gzip answer of this very version, made earlier (for any size it was worth keeping).
        if wantsGzip, !Self.notModified(request, tag: opened.tag.gzipVariant, version: opened.version),
           let ready = cache.lookup(gzipKey, version: opened.version) {
            close(opened.fd)
            return HTTPResponse(status: ready.status, body: .prepared(ready))
        }
        // Compressed now only for a GET, and by one request at a time per version: the others
        // get the identity bytes meanwhile (sendfile), so clients cannot pile up compressions.
        let compressing = wantsGzip && request.method == "GET" && cache.beginCompressing(gzipKey, version: opened.version)
        defer { if compressing { cache.endCompressing(gzipKey, version: opened.version) } }
        let tag = compressing ? opened.tag.gzipVariant : opened.tag
        if Self.notModified(request, tag: tag, version: opened.version)
            || (wantsGzip && Self.notModified(request, tag: opened.tag.gzipVariant, version: opened.version)) {
            close(opened.fd)
            let current = wantsGzip && Self.notModified(request, tag: opened.tag.gzipVariant, version: opened.version)
                ? opened.tag.gzipVariant : opened.tag
            return HTTPResponse(status: 304, headers: Self.readHeaders(file, tag: current, version: opened.version))
        }
        var headers = Self.readHeaders(file, tag: tag, version: opened.version)
        headers.append(("Content-Type", file.contentType))
        if compressing {
            return gzipAnswer(opened, key: gzipKey, headers: headers, generation: generation)
        }
        // The whole of a small file: the response made for this very version, or made now and kept.
        if rangeHeader == nil && opened.size <= cache.maxFileBytes {
            if let ready = keptIdentityAnswer(opened, layout: layout, file: file, headers: headers, generation: generation) {
                return HTTPResponse(status: 200, body: .prepared(ready))
            }
            // Otherwise sent from the descriptor, as a large file is.
        }
        return fileAnswer(opened, range: rangeHeader, headers: headers)
    }

    /// The delta update of this playlist version (`_HLS_skip`), made once and kept; nil (the
    /// descriptor still open) when the playlist cannot skip or nothing is old enough.
    private func deltaAnswer(_ opened: OriginStore.OpenFile, layout: StreamLayout, request: HTTPRequest,
                             generation: UInt64) -> HTTPResponse? {
        let key = ResponseCache.Key(layout: layout, file: .playlist, gzip: false, delta: true)
        if let ready = cache.lookup(key, version: opened.version) {
            close(opened.fd)
            return HTTPResponse(status: ready.status, body: .prepared(ready))
        }
        guard opened.size <= Int64(settings.maxCompressedFileBytes) else { return nil }
        let bytes = OriginStore.readAll(opened.fd, limit: Int(opened.size))
        guard bytes.count == Int(opened.size), OriginStore.version(of: opened.fd) == opened.version,
              let delta = DeltaPlaylist.make(from: String(decoding: bytes, as: UTF8.self)) else { return nil }
        close(opened.fd)
        var headers = Self.readHeaders(.playlist, tag: opened.tag.deltaVariant, version: opened.version)
        headers.append(("Content-Type", OriginFile.playlist.contentType))
        let body = Array(delta.utf8)
        if let memory = ResponseBody(count: body.count, memory: cache.memory) {
            body.withUnsafeBytes { memory.bytes.copyMemory(from: $0) }
            if let ready = PreparedResponse(status: 200, headers: headers, body: memory) {
                cache.insert(ready, for: key, version: opened.version, generation: generation)
                return HTTPResponse(status: 200, body: .prepared(ready))
            }
        }
        return HTTPResponse(status: 200, headers: headers, body: .bytes(body))
    }

    /// A playlist compressed now, kept when the compressed bytes fit the cache's file limit
    /// and what was read is the whole of the version opened (not changed in place meanwhile).
    private func gzipAnswer(_ opened: OriginStore.OpenFile, key: ResponseCache.Key, headers: [(String, String)],
                            generation: UInt64) -> HTTPResponse {
        let bytes = OriginStore.readAll(opened.fd, limit: Int(opened.size))
        let whole = bytes.count == Int(opened.size) && OriginStore.version(of: opened.fd) == opened.version
        close(opened.fd)
        guard let compressed = Gzip.compress(bytes) else {
            // zlib failed: the identity bytes, with their own tag (not kept).
            return HTTPResponse(status: 200, headers: headers.map { $0.0 == "ETag" ? ("ETag", opened.tag.headerValue) : $0 },
                                  body: .bytes(bytes))
        }
        let gzipHeaders = headers + [("Content-Encoding", "gzip")]
        if whole && compressed.count <= cache.maxFileBytes, let body = ResponseBody(count: compressed.count, memory: cache.memory) {
            compressed.withUnsafeBytes { body.bytes.copyMemory(from: $0) }
            if let ready = PreparedResponse(status: 200, headers: gzipHeaders, body: body) {
                cache.insert(ready, for: key, version: opened.version, generation: generation)
                return HTTPResponse(status: 200, body: .prepared(ready))
            }
        }
        return HTTPResponse(status: 200, headers: gzipHeaders, body: .bytes(compressed))
    }

    /// The identity answer of a small file from the cache, or read now and kept; closes the
    /// descriptor when it answers. Nil when it cannot be kept (then the caller sends the file).
    private func keptIdentityAnswer(_ opened: OriginStore.OpenFile, layout: StreamLayout, file: OriginFile,
                                    headers: [(String, String)], generation: UInt64) -> PreparedResponse? {
        let key = ResponseCache.Key(layout: layout, file: file, gzip: false, delta: false)
        if let ready = cache.lookup(key, version: opened.version) {
            close(opened.fd)
            return ready
        }
        guard let body = ResponseBody(count: Int(opened.size), memory: cache.memory) else { return nil }
        let count = OriginStore.read(opened.fd, into: body.bytes, count: body.bodyCount)
        // Kept only when what was read is the whole of the version opened (not changed in place meanwhile).
        guard count == body.bodyCount && OriginStore.version(of: opened.fd) == opened.version,
              let ready = PreparedResponse(status: 200, headers: headers, body: body) else { return nil }
        close(opened.fd)
        cache.insert(ready, for: key, version: opened.version, generation: generation)
        return ready
    }

    /// The file (or the asked range of it) sent from its descriptor.
    private func fileAnswer(_ opened: OriginStore.OpenFile, range rangeHeader: String?, headers: [(String, String)]) -> HTTPResponse {
        let range = ByteRange(header: rangeHeader, length: opened.size)
        switch range {
        case .whole:
            if opened.size == 0 {
                close(opened.fd)
                return HTTPResponse(status: 200, headers: headers)
            }
            return HTTPResponse(status: 200, headers: headers, body: .file(fd: opened.fd, offset: 0, count: opened.size))
        case .partial(let offset, let count):
            return HTTPResponse(status: 206, headers: headers + [("Content-Range", range.contentRange(length: opened.size)!)],
                                  body: .file(fd: opened.fd, offset: offset, count: count))
        case .unsatisfiable:
            close(opened.fd)
            return .text(416, "the Range \(rangeHeader ?? "") is outside the \(opened.size) bytes of this file",
                         headers: Self.corsHeaders + [("Content-Range", range.contentRange(length: opened.size)!)])
        }
    }

    /// Whether the client's copy is this version (RFC 9110 §13.2.2): `If-None-Match` decides
    /// when present; otherwise `If-Modified-Since` naming exactly this version's
    /// `Last-Modified` (what a cache echoes back).
    static func notModified(_ request: HTTPRequest, tag: EntityTag, version: FileVersion) -> Bool {
        if let ifNoneMatch = request.header("If-None-Match") { return tag.matches(ifNoneMatch: ifNoneMatch) }
        guard let since = request.header("If-Modified-Since") else { return false }
        return since.trimmingCharacters(in: .whitespaces) == TimestampFormat.httpDate(secondsSince1970: version.modificationSeconds)
    }

    /// The headers of every GET/HEAD answer of a stored file (200, 206, 304).
    static func readHeaders(_ file: OriginFile, tag: EntityTag, version: FileVersion) -> [(String, String)] {
        let seconds = version.modificationSeconds
        var headers = corsHeaders
        headers.reserveCapacity(corsHeaders.count + 7)
        headers.append(("Cache-Control", file.cacheControl))
        headers.append(("ETag", tag.headerValue))
        headers.append(("Last-Modified", TimestampFormat.httpDate(secondsSince1970: seconds)))
        headers.append(("Accept-Ranges", "bytes"))
        if file.isCompressible { headers.append(("Vary", "Accept-Encoding")) }
        return headers
    }

    func page(_ route: OriginRoute, request: HTTPRequest) -> HTTPResponse {
        let noStore = ("Cache-Control", "no-cache, no-store, must-revalidate")
        switch route {
        case .health:
            let body = "{\"status\":\"ok\",\"uptimeSeconds\":\(Int(uptime)),\"requestsInFlight\":\(requestsInFlight)}"
            return HTTPResponse(status: 200, headers: Self.corsHeaders + [("Content-Type", "application/json"), noStore],
                                  body: .bytes(Array(body.utf8)))
        case .streamList:
            return HTTPResponse(status: 200, headers: Self.corsHeaders + [("Content-Type", "application/json"), noStore],
                                  body: .bytes(Array(StreamSummary.listJSON(store.streams(), serverTime: Date()))))
        case .viewerAsset(let asset):
            let (bytes, tag) = ViewerPage.asset(asset)
            let headers = [("Cache-Control", "no-cache"), ("ETag", tag.headerValue), ("X-Content-Type-Options", "nosniff")]
            if tag.matches(ifNoneMatch: request.header("If-None-Match")) {
                return HTTPResponse(status: 304, headers: headers)
            }
            return HTTPResponse(status: 200, headers: headers + [("Content-Type", asset.contentType)], body: .bytes(bytes))
        case .watch(let layout):
            return HTTPResponse(status: 200, headers: ViewerPage.pageHeaders(hlsJS: settings.hlsJS),
                                  body: .bytes(Array(ViewerPage.html(streamID: layout.streamID, hlsJS: settings.hlsJS).utf8)))
        case .index, .stream, .streamFile:
            return HTTPResponse(status: 200, headers: ViewerPage.pageHeaders(hlsJS: settings.hlsJS),
                                  body: .bytes(Array(ViewerPage.html(streamID: nil, hlsJS: settings.hlsJS).utf8)))
        }
    }

    func otherMethod(_ method: String, allowed: String) -> HTTPResponse {
        if method == "OPTIONS" {
            // CORS preflight: browsers may read (GET/HEAD, with Range and conditional headers).
            return HTTPResponse(status: 204, headers: Self.corsHeaders + [
                ("Allow", allowed), ("Access-Control-Allow-Methods", Self.readMethods),
                ("Access-Control-Allow-Headers", "Range, If-Range, If-None-Match, If-Modified-Since"),
                ("Access-Control-Max-Age", "86400"),
            ])
        }
        return .text(405, "\(method) is not allowed here; allowed: \(allowed)", headers: [("Allow", allowed)])
    }

    // MARK: Writing

    /// `nil` when the request carries the token (compared in constant time), whatever the
    /// client's failures: a correct token is never locked out. Otherwise 429 while the client
    /// is over its failed-authentication cap, else 401 without a bearer token and 403 with a
    /// wrong one, each counted against the client (behind a trusted proxy, the address it
    /// forwarded for).
    func authorize(_ request: HTTPRequest) -> HTTPResponse? {
        let presented = OriginToken.bearer(fromAuthorization: request.header("Authorization"))
        if let presented, token.matches(presented) { return nil }
        let now = http.now
        let wait: Double? = limiter.withLock { limiter in
            if let wait = limiter.retryAfter(request.client, now: now) { return wait }
            limiter.recordFailure(request.client, now: now)
            return nil
        }
        if let wait {
            let seconds = max(1, Int(wait.rounded(.up)))
            return .text(429, "too many failed authentications from \(request.client); try again in \(seconds) s",
                         headers: [("Retry-After", String(seconds))])
        }
        guard presented != nil else {
            return .text(401, "\(request.method) needs 'Authorization: Bearer TOKEN'; the token is in the file 'reel serve' printed at start",
                         headers: [("WWW-Authenticate", "Bearer realm=\"reel origin\"")])
        }
        return .text(403, "the token is wrong; use the one in the file 'reel serve' printed at start")
    }

    func beginUpload(_ layout: StreamLayout, _ file: OriginFile, request: HTTPRequest) -> HTTPStart {
        if let refusal = authorize(request) { return .respond(refusal) }
        switch settings.uploads.decide(contentLength: request.header("Content-Length"),
                                       transferEncoding: request.header("Transfer-Encoding")) {
        case .lengthRequired:
            return .respond(.text(411, "PUT needs a Content-Length header (chunked uploads are not accepted)"))
        case .invalidLength:
            return .respond(.text(400, "Content-Length must be a decimal number of bytes"))
        case .tooLarge(let length):
            return .respond(.text(413, "the body (\(length == Int.max ? "huge" : "\(length) bytes")) is over the limit of \(settings.uploads.maxBodyBytes) bytes",
                                  headers: [("Connection", "close")]))
        case .accept:
            do {
                return .receive(try store.beginWrite(layout, file))
            } catch {
                return .respond(storeFailure(error))
            }
        }
    }

    /// DELETE of one stream file (the uplink probe's segment 0, which `reel live` removes
    /// again): the same token, cap and path rules as a PUT; 204, or 404 when it is not there.
    func deleteFile(_ layout: StreamLayout, _ file: OriginFile, request: HTTPRequest) -> HTTPResponse {
        if let refusal = authorize(request) { return refusal }
        defer { cache.invalidate(layout, file: file) }
        do {
            return try store.deleteFile(layout, file)
                ? HTTPResponse(status: 204) : .text(404, "\(OriginStore.displayPath(layout, file)) does not exist")
        } catch {
            return storeFailure(error)
        }
    }

    public func finishUpload(_ upload: any HTTPUpload, request: HTTPRequest) -> HTTPResponse {
        guard let upload = upload as? PendingFile else { return .text(500, "unexpected upload") }
        defer {
            // After the rename: no response of the replaced version is used, or kept, from now
            // on; requests held for this stream (or this rung) are judged again.
            if case .streamFile(let layout, let file) = OriginRoute(path: request.path) {
                cache.invalidate(layout, file: file)
                http.wake(Self.holdKey(layout))
            }
        }
        do {
            let replaced = try upload.commit()
            return HTTPResponse(status: replaced ? 204 : 201, headers: replaced ? [] : [("Location", request.path)])
        } catch {
            return storeFailure(error)
        }
    }

    func storeFailure(_ error: OriginStore.Error) -> HTTPResponse {
        switch error {
        case .notFound: .text(404, "not found")
        case .notAFolder, .streamDeleted: .text(409, "\(error)")
        case .noSpace: .text(507, "\(error)")
        case .dataFolder, .io: .text(500, "\(error)")
        }
    }
}
