import Foundation
import ReelBackup
import ReelCore
import ReelS3
import ReelStore
import ReelTestSupport
import Testing

/// `reel backup --to s3://…` and `reel restore --from s3://…` through the real binary, against a
/// real S3 server on loopback (moto, signatures checked): the round trip with a file in parts,
/// nothing sent when nothing changed, a changed file beside its listed version, the mistakes
/// (a wrong secret, a missing bucket, a foreign prefix, an endpoint that does not answer), a
/// damaged object on restore, and a backup killed mid-upload run again.
@Suite("reel backup/restore with a bucket", .serialized)
struct BucketBackupCommandTests {
    typealias Home = BackupCommandTests.Home

    /// The bucket's objects under `prefix` (key → size), read with Reel's own client.
    static func objects(_ server: MotoS3Server, prefix: String) async throws -> [String: Int64] {
        var result: [String: Int64] = [:]
        for object in try await client(server).list(prefix: prefix + "/") { result[object.key] = object.size }
        return result
    }

    static func client(_ server: MotoS3Server, prefix: String? = nil) throws -> S3Client {
        let location = try S3Location(parsing: "s3://\(server.bucket)/\(prefix ?? server.prefix)")
        let credentials = AWSCredentials(accessKeyID: server.accessKeyID, secretAccessKey: server.secretAccessKey, sessionToken: nil,
                                         source: "the test")
        return S3Client(configuration: .init(location: location, endpoint: S3Location.Endpoint(parsing: server.endpoint), addressing: .path,
                                             region: "us-east-1", credentials: credentials, usage: BucketBackup.usage(option: "--to")))
    }

    static func reel(_ home: Home, _ server: MotoS3Server, _ arguments: [String], library: String? = nil,
                     secret: String? = nil) throws -> Subprocess {
        try ReelBinary.run(arguments + ["--s3-endpoint", server.endpoint, "--library", library ?? home.library],
                           environment: home.environment.merging(server.environment(secret: secret)) { $1 })
    }

    /// The `--json` summary of a backup.
    static func summary(_ run: Subprocess) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout) \(run.stderr)")
    }

    @Test("backup (a video in three parts) → nothing sent the second time → restore elsewhere, every checksum checked")
    func roundTrip() async throws {
        try await withMotoS3(prefix: "home/reel") { server in
            let home = try Home()
            defer { home.dir.cleanup() }
            try home.sessions(2, videoBytes: 100_000)
            try home.largeVideoSession(bytes: 17 << 20)   // 8 + 8 + 1 MiB
            let first = try Self.reel(home, server, ["backup", "--to", server.location, "--json"])
            #expect(first.status == 0, "\(first.stderr)")
            let one = try Self.summary(first)
            #expect(one["files"] as? Int == 5 && one["bytesCopied"] as? Int == 200_003 + 4000 + 17 << 20 && one["destination"] as? String == "s3://reel-test/home/reel/", "\(one)")
            let objects = try await Self.objects(server, prefix: "home/reel")
            #expect(objects.keys.contains("home/reel/backup.json") && objects.count == 6, "\(objects.keys.sorted())")
            let document = try BackupDocument.decode(try #require(try await Self.client(server).get(key: "home/reel/backup.json", maxBytes: 1 << 20)))
            let large = try #require(document.media.first { $0.size == 17 << 20 })
            #expect(objects["home/reel/" + large.path] == 17 << 20)
            #expect(try ChecksummedFile.checksum(of: large.sourcePath) == large.checksum)

            let head = try await Self.client(server).head(key: "home/reel/backup.json")
            let second = try Self.reel(home, server, ["backup", "--to", server.location, "--json"])
            let two = try Self.summary(second)
            #expect(two["files"] as? Int == 0 && two["bytesCopied"] as? Int == 0 && two["unchangedFiles"] as? Int == 5, "\(two)")
            #expect(try await Self.client(server).head(key: "home/reel/backup.json")?.etag == head?.etag, "backup.json not sent again")

            // REEL_BACKUP_DIR may name the bucket, and AWS_ENDPOINT_URL_S3 its server (as for a timer).
            var environment = home.environment.merging(server.environment()) { $1 }
            environment["REEL_BACKUP_DIR"] = server.location
            environment["AWS_ENDPOINT_URL_S3"] = server.endpoint
            let auto = try ReelBinary.run(["backup", "--auto", "--library", home.library], environment: environment)
            #expect(auto.status == 0 && auto.stdout.hasPrefix("backup skipped: the last one in s3://reel-test/home/reel/ is under an hour old"),
                    "\(auto.stdout) \(auto.stderr)")

            let sums = try document.media.map { try ChecksummedFile.checksum(of: $0.sourcePath) }
            try FileManager.default.removeItem(atPath: home.dir.path("media"))
            let other = home.dir.path("other/library.sqlite")
            let dry = try Self.reel(home, server, ["restore", "--from", server.location, "--dry-run"], library: other)
            #expect(dry.status == 0 && dry.stdout.hasSuffix("dry run: 3 sessions, 1 tag, 1 goal, 1 material, 5 media files\n"), "\(dry.stdout) \(dry.stderr)")
            let restored = try Self.reel(home, server, ["restore", "--from", server.location], library: other)
            #expect(restored.status == 0 && restored.stdout.hasSuffix("3 sessions, 1 tag, 1 goal, 1 material, 5 media files\n"), "\(restored.stderr)")
            #expect(try document.media.map { try ChecksummedFile.checksum(of: $0.sourcePath) } == sums)
            #expect(try StudyLibrary(path: other).sessions() == StudyLibrary(path: home.library).sessions())
        }
    }

    @Test("a touched file is not sent again; a changed one goes beside its listed version, which goes once the new backup.json is up")
    func changes() async throws {
        try await withMotoS3(prefix: "reel") { server in
            let home = try Home()
            defer { home.dir.cleanup() }
            try home.sessions(2, videoBytes: 50_000)
            #expect(try Self.reel(home, server, ["backup", "--to", server.location]).status == 0)
            let video = home.dir.path("media/1.mp4")
            let later = Date(timeIntervalSince1970: 1_800_000_000)
            try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: video)
            let touched = try Self.summary(try Self.reel(home, server, ["backup", "--to", server.location, "--json"]))
            #expect(touched["files"] as? Int == 0 && touched["bytesCopied"] as? Int == 0, "same content: \(touched)")

            try home.noise(video, bytes: 50_001, seed: 99)
            let before = try await Self.objects(server, prefix: "reel")
            let changed = try Self.summary(try Self.reel(home, server, ["backup", "--to", server.location, "--json"]))
            #expect(changed["files"] as? Int == 1 && changed["bytesCopied"] as? Int == 50_001 && changed["removedFiles"] as? Int == 1, "\(changed)")
            let after = try await Self.objects(server, prefix: "reel")
            let added = Set(after.keys).subtracting(before.keys), removed = Set(before.keys).subtracting(after.keys)
            #expect(added.count == 1 && removed == ["reel/Media/0b8e2a1c-5a49-4a53-9d1c-000000000001/1.mp4"], "\(added) \(removed)")
            #expect(added.first.map { ($0 as NSString).lastPathComponent.hasSuffix("-1.mp4") } == true, "<hex12>-1.mp4: \(added)")
        }
    }

    @Test("a wrong secret, a missing bucket, a prefix that is not a backup, an endpoint that does not answer: a sentence, and the bucket unchanged")
    func mistakes() async throws {
        try await withMotoS3(prefix: "reel") { server in
            let home = try Home()
            defer { home.dir.cleanup() }
            try home.sessions(1, videoBytes: 1000)
            let secret = "wrong-secret-\(UUID().uuidString)"
            let refused = try Self.reel(home, server, ["backup", "--to", server.location], secret: secret)
            #expect(refused.status == 1 && refused.stderr.contains("403") && refused.stderr.contains(server.accessKeyID)
                    && !refused.stderr.contains(secret) && !refused.stdout.contains(secret), "\(refused.stderr)")
            #expect(try await Self.objects(server, prefix: "reel").isEmpty)

            let noBucket = try Self.reel(home, server, ["backup", "--to", "s3://no-such-bucket/reel"])
            #expect(noBucket.status == 1 && noBucket.stderr.contains("no-such-bucket") && noBucket.stderr.contains("does not exist"), "\(noBucket.stderr)")

            _ = try await Self.client(server, prefix: "photos").put(key: "photos/cat.jpg", body: Data("meow".utf8))
            let foreign = try Self.reel(home, server, ["backup", "--to", "s3://\(server.bucket)/photos"])
            #expect(foreign.status == 1 && foreign.stderr.contains("cat.jpg") && foreign.stderr.contains("not a Reel backup"), "\(foreign.stderr)")
            #expect(try await Self.objects(server, prefix: "photos") == ["photos/cat.jpg": 4])

            let closed = try Loopback.freePort()
            let unreachable = try ReelBinary.run(["backup", "--to", server.location, "--s3-endpoint", "http://127.0.0.1:\(closed)", "--library", home.library],
                                                 environment: home.environment.merging(server.environment()) { $1 })
            #expect(unreachable.status == 1 && unreachable.stderr.contains("127.0.0.1:\(closed)"), "\(unreachable.stderr)")

            let restore = try Self.reel(home, server, ["restore", "--from", "s3://\(server.bucket)/empty"], library: home.dir.path("x/library.sqlite"))
            #expect(restore.status == 1 && restore.stderr.contains("holds no backup.json"), "\(restore.stderr)")
        }
    }

    @Test("a damaged object is named on restore and nothing changes; --skip-missing restores the rest")
    func damagedObject() async throws {
        try await withMotoS3(prefix: "reel") { server in
            let home = try Home()
            defer { home.dir.cleanup() }
            try home.sessions(2, videoBytes: 20_000)
            #expect(try Self.reel(home, server, ["backup", "--to", server.location]).status == 0)
            let client = try Self.client(server)
            let document = try BackupDocument.decode(try #require(try await client.get(key: "reel/backup.json", maxBytes: 1 << 20)))
            let video = try #require(document.media.first { $0.sourcePath.hasSuffix("/2.mp4") })
            var bytes = try Data(contentsOf: URL(fileURLWithPath: video.sourcePath))
            bytes[100] ^= 0xFF   // same size: only the checksum finds it
            _ = try await client.put(key: "reel/" + video.path, body: bytes)
            try FileManager.default.removeItem(atPath: home.dir.path("media"))

            let other = home.dir.path("other/library.sqlite")
            let refused = try Self.reel(home, server, ["restore", "--from", server.location], library: other)
            #expect(refused.status == 1 && refused.stderr.contains(video.path) && refused.stderr.contains("damaged")
                    && refused.stderr.contains("nothing was changed"), "\(refused.stderr)")
            #expect(try StudyLibrary(path: other).sessions().isEmpty && !FileManager.default.fileExists(atPath: home.dir.path("media/1.mp4")))
            #expect(try FileManager.default.contentsOfDirectory(atPath: home.dir.path("media")).isEmpty, "no temporary file left")

            let rest = try Self.reel(home, server, ["restore", "--from", server.location, "--skip-missing"], library: other)
            #expect(rest.status == 0 && rest.stderr.contains("left out") && rest.stderr.contains(video.path), "\(rest.stderr)")
            #expect(FileManager.default.fileExists(atPath: home.dir.path("media/1.mp4")) && !FileManager.default.fileExists(atPath: video.sourcePath))
            #expect(try StudyLibrary(path: other).sessions().count == 2)
        }
    }

    @Test("a restore into a disk that fills up (a 4 MiB tmpfs in a private mount namespace; root): a sentence, nothing placed, no record added")
    func restoreOntoAFullDisk() async throws {
        try await withMotoS3(prefix: "reel") { server in
            let home = try Home()
            defer { home.dir.cleanup() }
            try home.sessions(2, videoBytes: 3 << 20)
            #expect(try Self.reel(home, server, ["backup", "--to", server.location]).status == 0)
            let target = home.dir.path("small")
            try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
            let other = home.dir.path("other/library.sqlite")
            let script = #"mount -t tmpfs -o size=4m reel-test-restore "$1" || exit 97; "$2" restore --from "$3" --s3-endpoint "$4" --media-dir "$1" --library "$5"; status=$?; echo "files: $(find "$1" -type f | wc -l)"; exit $status"#
            let result = try Subprocess.run("/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/sh", "-c", script, "sh", target,
                                                                 try ReelBinary.path(), server.location, server.endpoint, other],
                                            environment: home.environment.merging(server.environment()) { $1 })
            #expect(result.status != 97, "could not mount a tmpfs (root and util-linux's unshare needed): \(result.stderr)")
            #expect(result.status == 1 && result.stderr.contains("no space left on the device") && result.stderr.contains("nothing was changed"),
                    "\(result.stderr)")
            #expect(result.stdout.hasSuffix("files: 0\n"), "no file placed, no temporary file left: \(result.stdout)")
            #expect(try StudyLibrary(path: other).sessions().isEmpty, "no record added")
        }
    }

    @Test("a backup killed while a file goes up in parts, run again: the finished files are not sent again, no upload is left, the backup is whole")
    func killedAndRunAgain() async throws {
        try await withMotoS3(prefix: "reel") { server in
            let home = try Home()
            defer { home.dir.cleanup() }
            try home.sessions(2, videoBytes: 30_000)
            try home.largeVideoSession(bytes: 49 << 20)   // 7 parts, started once a small file is done
            let client = try Self.client(server)
            let process = try BackgroundProcess(try ReelBinary.path(), ["backup", "--to", server.location, "--s3-endpoint", server.endpoint,
                                                                        "--library", home.library],
                                                environment: home.environment.merging(server.environment()) { $1 })
            // Once the 4 small files are up and the large file's multipart upload exists, the
            // server is stopped (SIGSTOP: the backup waits in the middle of a part) and the
            // backup killed.
            var uploads: [S3Multipart.Upload] = []
            var small = 0
            while (uploads.isEmpty || small < 4) && process.isRunning {
                uploads = try await client.listMultipartUploads(prefix: "reel/")
                small = try await Self.objects(server, prefix: "reel").count
            }
            server.pause()
            process.send(SIGKILL)
            _ = await process.wait(timeout: .seconds(30))
            server.resume()
            #expect(uploads.count == 1, "the backup was killed during its multipart upload")
            let left = try await Self.objects(server, prefix: "reel")
            #expect(left["reel/backup.json"] == nil && left.count == 4, "the 4 small files were up, no backup.json: \(left.keys.sorted())")

            let again = try Self.reel(home, server, ["backup", "--to", server.location, "--json"])
            let summary = try Self.summary(again)
            #expect(summary["files"] as? Int == 1 && summary["bytesCopied"] as? Int == 49 << 20 && summary["unchangedFiles"] as? Int == 4,
                    "only the large file is sent again: \(summary) \(again.stderr)")
            #expect(try await client.listMultipartUploads(prefix: "reel/").isEmpty, "the killed upload was aborted")
            let document = try BackupDocument.decode(try #require(try await client.get(key: "reel/backup.json", maxBytes: 1 << 20)))
            let objects = try await Self.objects(server, prefix: "reel")
            #expect(document.media.count == 5 && objects.count == 6)
            for entry in document.media { #expect(objects["reel/" + entry.path] == entry.size, "\(entry.path)") }
        }
    }
}

extension BackupCommandTests.Home {
    /// Adds a session whose video is `bytes` of noise (no thumbnail).
    func largeVideoSession(bytes: Int) throws {
        let library = try StudyLibrary(path: library)
        let video = dir.path("media/large.mp4")
        try noise(video, bytes: bytes, seed: 777)
        let start = Date(timeIntervalSince1970: 1_793_600_000)
        try library.add(StudySession(id: UUID(uuidString: "0b8e2a1c-5a49-4a53-9d1c-000000000777")!, startedAt: start, endedAt: start + 1800,
                                     activeSeconds: 1700, videoSeconds: 60, mode: .timelapse, intervalSeconds: 5, filePath: video,
                                     thumbnailPath: nil, faceTrackPath: nil, title: "Large", tags: []))
    }
}
